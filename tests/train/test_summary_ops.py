"""Summary graph ops produce TensorFlow's serialized Summary bytes and feed FileWriter."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite import summary
from edgelite.framework import errors
from edgelite.summary import Summary

from _tf_fixtures import FIXTURES

DATA = np.load(FIXTURES / "summaries.npz")


def _tf(name):
    return bytes(DATA[f"bytes/{name}"].tobytes())


def _bytes(value):
    return value.item() if isinstance(value, np.ndarray) else value


def test_summary_ops_equal_tensorflow_bytes():
    with tf.Graph().as_default():
        fetch = {
            "scalar": summary.scalar("loss", tf.constant(0.125)),
            "scalar_zero": summary.scalar("zero", tf.constant(0.0)),
            "histogram": summary.histogram("weights", tf.constant(DATA["hist"])),
            "histogram_int": summary.histogram("ints", tf.constant([1, 1, 2, 3, 5, 8])),
            "text": summary.text("notes", tf.constant(["hello", "wörld"])),
        }
        with tf.name_scope("scope"):
            fetch["scalar_scoped"] = summary.scalar("acc", tf.constant(0.5))
        fetch["merged"] = summary.merge([fetch["scalar"], fetch["histogram_int"]])
        with tf.Session() as sess:
            out = sess.run(fetch)
    for key, value in out.items():
        assert _bytes(value) == _tf(key), key


def test_image_op_tags_and_sizes():
    with tf.Graph().as_default():
        op = summary.image("signed", tf.constant(DATA["img_signed"]), max_outputs=3)
        with tf.Session() as sess:
            ours = Summary.FromString(sess.run(op))
    theirs = Summary.FromString(_tf("image_signed"))
    assert [v.tag for v in ours.value] == [v.tag for v in theirs.value]
    assert [(v.image.height, v.image.width) for v in ours.value] == [
        (v.image.height, v.image.width) for v in theirs.value]


def test_merge_all_collection_and_errors():
    with tf.Graph().as_default():
        assert summary.merge_all() is None
        a = summary.scalar("a", tf.constant(1.0))
        summary.scalar("b", tf.constant(2.0), collections=["other"])
        merged = summary.merge_all()
        dup = summary.merge([a, a])
        bad_hist = summary.histogram("h", tf.constant([1.0, np.nan]))
        with pytest.raises(ValueError, match="dtype string"):
            summary.text("t", tf.constant(1.0))
        with tf.Session() as sess:
            assert [v.tag for v in Summary.FromString(sess.run(merged)).value] == ["a"]
            with pytest.raises(errors.InvalidArgumentError, match="Duplicate tag a"):
                sess.run(dup)
            with pytest.raises(errors.InvalidArgumentError, match="Nan in summary histogram for: h"):
                sess.run(bad_hist)


def test_merge_op_names_equal_tensorflow():
    """merge / merge_all name their op inside a 'Merge' scope (or name/name), which scripts fetch by name."""
    import json
    ref = json.loads((FIXTURES / "merge_names.json").read_text())
    with tf.Graph().as_default():
        a = summary.scalar("a", tf.constant(1.0))
        b = summary.histogram("b", tf.constant([1.0, 2.0]))
        merged = [summary.merge([a, b]), summary.merge([a], name="foo"), summary.merge_all(),
                  summary.merge_all(name="bar"), summary.merge([a, b], collections=["mine"])]
        with tf.name_scope("outer"):
            merged.append(summary.merge([a]))
        assert [m.name for m in merged] == ref["merged"]
        assert [t.name for t in tf.get_collection("mine")] == ref["mine"]
        assert [t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)] == ref["summaries"]
        with tf.Session() as sess:
            assert sess.run(merged[0]) == sess.run(merged[2])
