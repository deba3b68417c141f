"""tf.data datasets and iterators against TensorFlow's recorded elements, plus iterator behaviour."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from . import data_cases, result_codec

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DATASETS = json.loads((FIXTURES / "tf_data.json").read_text())["datasets"]


@pytest.mark.parametrize("name,fn", data_cases.DATASET_CASES, ids=[c[0] for c in data_cases.DATASET_CASES])
def test_matches_tensorflow(name, fn, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    got, want = result_codec.run_dataset(tf, fn), DATASETS[name]
    if name == "err_generator_shape":
        # TensorFlow appends the Python traceback of the generator's thread.
        assert got["end"][0] == want["end"][0] and got["end"][1] in want["end"][1]
        got["end"] = want["end"]
    assert got == want


def test_initializable_iterator_with_fed_placeholder_and_reinitialization():
    n = tf.placeholder(tf.int64, [])
    it = tf.data.Dataset.range(n).map(lambda x: x * 10).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="not been initialized"):
            sess.run(nxt)
        sess.run(it.initializer, {n: 2})
        assert [sess.run(nxt) for _ in range(2)] == [0, 10]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(nxt)
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(nxt)
        sess.run(it.initializer, {n: 1})
        assert sess.run(nxt) == 0


def test_reinitializable_and_feedable_iterators():
    train = tf.data.Dataset.range(5)
    val = tf.data.Dataset.range(100, 102)
    it = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    nxt = it.get_next()
    init_train, init_val = it.make_initializer(train), it.make_initializer(val)
    handle = tf.placeholder(tf.string, [])
    feedable = tf.data.Iterator.from_string_handle(handle, train.output_types, train.output_shapes)
    a = tf.data.make_one_shot_iterator(tf.data.Dataset.range(7, 9))
    with tf.Session() as sess:
        sess.run(init_val)
        assert sess.run(nxt) == 100
        sess.run(init_train)
        assert sess.run(nxt) == 0
        h = sess.run(a.string_handle())
        assert sess.run(feedable.get_next(), {handle: h}) == 7
    with pytest.raises(TypeError):
        it.make_initializer(tf.data.Dataset.from_tensors(1.0))
    with pytest.raises(ValueError):
        a.initializer  # noqa: B018 - one-shot iterators have none


def test_one_shot_iterator_refuses_placeholders_and_shapes_are_static():
    p = tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(ValueError, match="one-shot"):
        tf.data.Dataset.from_tensor_slices(p).make_one_shot_iterator()
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((4, 3), np.float32), np.arange(4))).batch(2, True)
    x, y = ds.make_one_shot_iterator().get_next()
    assert x.shape.as_list() == [2, 3] and y.shape.as_list() == [2] and y.dtype == tf.int64
    assert ds.output_classes == (tf.Tensor, tf.Tensor) and tf.data.experimental.AUTOTUNE == -1


def test_shuffle_reshuffles_each_epoch_unless_told_not_to():
    def epochs(reshuffle):
        g = tf.Graph()
        with g.as_default():
            nxt = tf.data.Dataset.range(8).shuffle(8, seed=1, reshuffle_each_iteration=reshuffle).repeat(2) \
                .batch(8).make_one_shot_iterator().get_next()
            with tf.Session() as sess:
                return [sess.run(nxt).tolist() for _ in range(2)]
    a, b = epochs(True)
    assert sorted(a) == sorted(b) == list(range(8)) and a != b
    c, d = epochs(False)
    assert c == d and epochs(False) == [c, d]


def test_prefetch_runs_ahead_and_session_close_stops_its_thread():
    produced = []

    def gen():
        for i in range(1000):
            produced.append(i)
            yield i
    nxt = tf.data.Dataset.from_generator(gen, tf.int64, []).prefetch(4).make_one_shot_iterator().get_next()
    before = set(threading.enumerate())
    sess = tf.Session()
    assert sess.run(nxt) == 0
    deadline = time.monotonic() + 5
    while len(produced) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(produced) >= 4  # the background thread filled the buffer ahead of the step
    sess.close()
    deadline = time.monotonic() + 5
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(threading.enumerate()) - before


@pytest.mark.parametrize("name", data_cases.CORRUPT_FILES)
def test_damaged_records_fail_like_tensorflow(name, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    want = json.loads((FIXTURES / "tf_data.json").read_text())["corrupt"][name]
    assert data_cases.read_corrupt(tf, name, result_codec.error_core) == want
