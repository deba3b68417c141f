"""Readers, input producers and batchers against TensorFlow's recorded outputs; threads end cleanly."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from . import data_cases, result_codec

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PIPELINES = json.loads((FIXTURES / "tf_data.json").read_text())["pipelines"]


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test its own graph: start_queue_runners starts every runner in the graph's collection."""
    with tf.Graph().as_default():
        yield


@pytest.mark.parametrize("name,fn", data_cases.PIPELINE_CASES, ids=[c[0] for c in data_cases.PIPELINE_CASES])
def test_matches_tensorflow(name, fn, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    before = set(threading.enumerate())
    assert result_codec.run_pipeline(tf, fn) == PIPELINES[name]
    assert set(threading.enumerate()) <= before


def test_shuffle_batch_covers_every_epoch_once():
    def build(tf):
        tf.set_random_seed(3)
        x, = tf.train.slice_input_producer([np.arange(20)], num_epochs=3, shuffle=True)
        return tf.train.shuffle_batch([x], batch_size=7, capacity=30, min_after_dequeue=10, num_threads=1,
                                      allow_smaller_final_batch=True)

    def run():
        return result_codec.run_pipeline(tf, build)
    # Which elements a shuffling queue holds at each dequeue depends on thread timing (in TensorFlow too),
    # so only the multiset of elements and the batch sizes are fixed.
    a = run()
    values = [v for r in a["results"] for v in r["values"]]
    assert sorted(values) == sorted(list(range(20)) * 3) and a["end"] == "OutOfRangeError"
    assert [r["shape"] for r in a["results"]] == [[7]] * 8 + [[4]]


def test_seeded_input_producer_repeats_its_order():
    def build(tf):
        tf.set_random_seed(11)
        return tf.train.slice_input_producer([np.arange(10)], num_epochs=2, shuffle=True)[0]
    a, b = result_codec.run_pipeline(tf, build), result_codec.run_pipeline(tf, build)
    order = [r["values"][0] for r in a["results"]]
    assert a == b and sorted(order) == sorted(list(range(10)) * 2) and order[:10] != list(range(10))


def test_request_stop_ends_runner_threads_blocked_on_a_full_queue():
    q = tf.train.range_input_producer(1000, shuffle=False, capacity=4)
    x = q.dequeue()
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        assert sess.run(x) == 0
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
        assert not any(t.is_alive() for t in threads)


def test_monitored_session_runs_queue_runners_and_stops_at_end_of_input():
    x = tf.train.batch([tf.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()], batch_size=2)
    seen = []
    with tf.train.MonitoredSession() as sess:
        while not sess.should_stop():
            seen.extend(sess.run(x).tolist())
    assert seen == list(range(6))


def test_reader_counters_and_reset(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    q = tf.train.string_input_producer(["records_none.tfrecord"] * 2, shuffle=False)
    r = tf.TFRecordReader()
    k, _ = r.read(q)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        for _ in range(26):
            key = sess.run(k)
        assert sess.run([r.num_records_produced(), r.num_work_units_completed()]) == [26, 1]
        assert key == b"records_none.tfrecord:0"
        sess.run(r.reset())
        assert sess.run(r.num_records_produced()) == 0
        coord.request_stop()
        coord.join(threads)


def test_match_filenames_once_and_errors(tmp_path):
    for n in ("b.txt", "a.txt", "c.dat"):
        (tmp_path / n).write_text(n)
    files = tf.train.match_filenames_once(str(tmp_path / "*.txt"))
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert [Path(p.decode()).name for p in sess.run(files)] == ["a.txt", "b.txt"]
    with pytest.raises(ValueError, match="non-null"):
        tf.train.string_input_producer([])
    with pytest.raises(ValueError, match="num_epochs"):
        tf.train.limit_epochs(tf.constant(1), num_epochs=0)
