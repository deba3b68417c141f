"""tf.lookup tables against TensorFlow 2.21's results (fixtures/tf_lookup.json, from generate_tf_fixtures.py),
plus TF's errors for tables used before initialization or with the wrong key dtype."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.framework import errors

from . import lookup_cases

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "tf_lookup.json").read_text())


def _decode(value: np.ndarray) -> list:
    arr = np.asarray(value)
    if arr.dtype == object:
        return np.vectorize(lambda b: b.decode("latin-1"), otypes=[object])(arr).tolist() if arr.size else []
    return arr.tolist()


@pytest.mark.parametrize("name", sorted(lookup_cases.CASES))
def test_matches_tensorflow(name: str, tmp_path: Path) -> None:
    with tf.Graph().as_default():
        fetches = lookup_cases.CASES[name](tf, str(tmp_path / "vocab.txt"))
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            got = sess.run(fetches)
    want = FIXTURES[name]
    assert sorted(got) == sorted(want)
    for key, value in got.items():
        arr = np.asarray(value)
        assert ("string" if arr.dtype == object else arr.dtype.name) == want[key]["dtype"], key
        if key in ("line_keys", "lines"):
            continue
        assert _decode(arr) == want[key]["value"], key
    if "lines" in got:
        # export's order is the table's own; compare the pairs.
        pairs = sorted(zip(_decode(got["line_keys"]), _decode(got["lines"])))
        assert pairs == sorted(zip(want["line_keys"]["value"], want["lines"]["value"]))


def _table() -> tf.lookup.StaticHashTable:
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)


@pytest.mark.parametrize("name", sorted(lookup_cases.ERROR_CASES))
def test_errors_match_tensorflow(name: str, tmp_path: Path) -> None:
    want = FIXTURES[name]["error"]
    path = str(tmp_path / "vocab.txt")
    with tf.Graph().as_default():
        with pytest.raises(Exception) as info:
            first, then = lookup_cases.ERROR_CASES[name](tf, path)
            with tf.Session() as sess:
                for target in (first, then):
                    if target is not None:
                        sess.run(target)
    error = info.value
    assert type(error).__name__ == want["type"]
    message = error.message if isinstance(error, errors.OpError) else str(error)
    assert message.split("\n")[0] == want["message"].replace("{path}", path)


def test_initializer_registered_and_rerun_is_harmless() -> None:
    with tf.Graph().as_default():
        table = _table()
        assert tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS) == [table.initializer]
        with tf.Session() as sess:
            sess.run(table.initializer)
            sess.run(tf.tables_initializer())
            assert sess.run(table.lookup(tf.constant(["b", "c"]))).tolist() == [2, -1]


def test_vocab_size_reads_only_the_first_lines(tmp_path: Path) -> None:
    path = tmp_path / "v.txt"
    path.write_text("apple\t3\nbanana\t5\n\ncherry\t7\n")
    with tf.Graph().as_default():
        short = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(str(path), tf.string, 0, tf.int64, 1,
                                                                        vocab_size=2), -1)
        with tf.Session() as sess:
            sess.run(short.initializer)
            assert sess.run(short.lookup(tf.constant(["banana", "cherry"]))).tolist() == [5, -1]


def test_sparse_keys_keep_their_indices() -> None:
    with tf.Graph().as_default():
        table = _table()
        sp = tf.SparseTensor([[0, 1], [2, 0]], tf.constant(["b", "x"]), [3, 2])
        out = table.lookup(sp)
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            value = sess.run(out)
    assert value.values.tolist() == [2, -1] and value.indices.tolist() == [[0, 1], [2, 0]]
