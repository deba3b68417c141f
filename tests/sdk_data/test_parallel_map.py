"""map(num_parallel_calls): TensorFlow's elements and errors, order kept unless deterministic=False, worker
threads gone when the session closes, elements really in flight together."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

import edgelite as tf
from . import parallel_cases, result_codec

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MORE = json.loads((FIXTURES / "tf_more.json").read_text())


@pytest.mark.parametrize("name,fn", parallel_cases.DATASET_CASES, ids=[c[0] for c in parallel_cases.DATASET_CASES])
def test_matches_tensorflow(name, fn):
    got, want = result_codec.run_dataset(tf, fn), MORE["datasets"][name]
    if name in ("parallel_map_error_at_element", "parallel_map_source_error"):
        # TensorFlow names the failing map node (with a graph-wide counter) in front of the kernel's text.
        assert want["end"][1].startswith("Error in user-defined function passed to ")
        assert got["end"][0] == want["end"][0] and want["end"][1].endswith(": " + got["end"][1])
        got["end"] = want["end"]
    if name == "parallel_map_nondeterministic":
        # Any order is allowed; the elements are the same.
        got["results"].sort(key=lambda r: r["values"])
        want["results"].sort(key=lambda r: r["values"])
    assert got == want


def _drain(ds) -> list:
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        try:
            while True:
                out.append(int(sess.run(nxt)))
        except tf.errors.OutOfRangeError:
            pass
    return out


def _overlap(**kw) -> tuple:
    """Elements of a map whose calls sleep 0.1 s each (a stateful py_func, GIL released, which
    map_parallelization leaves sequential), and the most calls that were running at the same moment."""
    lock = threading.Lock()
    running, peak = [0], [0]

    def slow(x):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.1)
        with lock:
            running[0] -= 1
        return x
    opts = tf.data.Options()
    opts.threading.private_threadpool_size = 4  # at least 4 at once however many CPUs there are
    with tf.Graph().as_default():
        out = _drain(tf.data.Dataset.range(8).map(lambda x: tf.py_func(slow, [x], tf.int64), **kw).with_options(opts))
    return out, peak[0]


def test_parallel_calls_overlap_and_keep_order():
    serial, serial_peak = _overlap()
    parallel, parallel_peak = _overlap(num_parallel_calls=4)
    assert serial == parallel == list(range(8))
    assert serial_peak == 1 and parallel_peak >= 2


def test_options_deterministic_false_lets_fast_elements_overtake():
    def uneven(x):
        time.sleep(0.8 if x == 0 else 0.0)
        return x
    opts = tf.data.Options()
    opts.deterministic = False
    opts.threading.private_threadpool_size = 2
    with tf.Graph().as_default():
        ds = tf.data.Dataset.range(4).map(lambda x: tf.py_func(uneven, [x], tf.int64), num_parallel_calls=2)
        out = _drain(ds.with_options(opts))
    assert sorted(out) == [0, 1, 2, 3] and out[0] != 0
    with tf.Graph().as_default():
        ds = tf.data.Dataset.range(4).map(lambda x: tf.py_func(uneven, [x], tf.int64), num_parallel_calls=2,
                                          deterministic=True)
        out = _drain(ds.with_options(opts))
    assert out == [0, 1, 2, 3]


def test_session_close_ends_the_map_workers():
    before = set(threading.enumerate())
    with tf.Graph().as_default():
        nxt = tf.data.make_one_shot_iterator(
            tf.data.Dataset.range(10 ** 6).map(lambda x: x + 1, num_parallel_calls=2)).get_next()
        sess = tf.Session()
        assert sess.run(nxt) == 1
        sess.close()
    deadline = time.monotonic() + 5
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(threading.enumerate()) - before
