"""RandomShuffleQueue, tf.random.shuffle and the shuffling input pipelines give TensorFlow's seeded orders
(fixtures/tf_shuffle_queues.json, recorded from TensorFlow by fixtures/generate_tf_shuffle_queues.py)."""
from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from . import result_codec, shuffle_queue_cases as cases

RECORDED = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_shuffle_queues.json").read_text())


def _normalized(value):
    """Queue resource numbers count queues process-wide, so they depend on what ran before."""
    return json.loads(re.sub(r"'_\d+_", "'_N_", json.dumps(value)))


@pytest.mark.parametrize("name,fn", cases.QUEUE_CASES, ids=[c[0] for c in cases.QUEUE_CASES])
def test_queue_steps_match_tensorflow(name, fn):
    assert _normalized(result_codec.run_steps(tf, fn)) == _normalized(RECORDED["queues"][name])


@pytest.mark.parametrize("name,fn", cases.SHUFFLE_CASES, ids=[c[0] for c in cases.SHUFFLE_CASES])
def test_random_shuffle_matches_tensorflow(name, fn):
    assert result_codec.run_steps(tf, fn) == RECORDED["shuffles"][name]


@pytest.mark.parametrize("name,fn", cases.PIPELINE_CASES, ids=[c[0] for c in cases.PIPELINE_CASES])
def test_pipelines_match_tensorflow(name, fn):
    before = set(threading.enumerate())
    assert _normalized(cases.run_settled(tf, fn)) == _normalized(RECORDED["pipelines"][name])
    assert set(threading.enumerate()) <= before


def test_partial_dequeue_many_is_restored_on_close():
    assert _normalized(cases.run_partial_then_close(tf)) == _normalized(RECORDED["partial_then_close"])


def test_waiting_dequeue_many_is_served_by_each_enqueue():
    assert cases.run_served_while_waiting(tf) == RECORDED["served_while_waiting"]


@pytest.mark.parametrize("name,fn", cases.BUILD_ERROR_CASES, ids=[c[0] for c in cases.BUILD_ERROR_CASES])
def test_build_errors_match_tensorflow(name, fn):
    assert cases.build_error(tf, fn) == RECORDED["build_errors"][name]


def test_unseeded_shuffles_differ_between_sessions():
    # A graph of its own: a graph-level seed another test left on the default graph would seed these ops.
    with tf.Graph().as_default():
        x = tf.random_shuffle(tf.range(40))
        q = tf.RandomShuffleQueue(40, 0, tf.int32, shapes=[[]])
        enq, deq = q.enqueue_many([tf.range(40)]), q.dequeue_many(40)

        def draw():
            with tf.Session() as sess:
                sess.run(enq)
                return sess.run(x).tolist(), sess.run(deq).tolist()
        (a, qa), (b, qb) = draw(), draw()
    assert sorted(a) == sorted(qa) == list(range(40)) and a != b and qa != qb


def test_random_shuffle_of_many_rows_is_a_permutation_and_repeats_per_session():
    x = tf.random_shuffle(tf.range(100_000), seed=1)
    runs = []
    for _ in range(2):
        with tf.Session() as sess:
            runs.append([sess.run(x), sess.run(x)])
    assert np.array_equal(np.sort(runs[0][0]), np.arange(100_000))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert not np.array_equal(runs[0][0], runs[0][1])


def test_many_threads_get_every_element_once_and_finish():
    q = tf.RandomShuffleQueue(16, 4, tf.int32, shapes=[[]], seed=3)
    chunk = tf.placeholder(tf.int32, [None])
    enq, many, up_to, close = q.enqueue_many([chunk]), q.dequeue_many(7), q.dequeue_up_to(5), q.close()
    got, errors_seen = [], []
    lock = threading.Lock()
    with tf.Session() as sess:
        def produce(base):
            for start in range(base, base + 200, 10):
                sess.run(enq, {chunk: list(range(start, start + 10))})

        def consume(fetch):
            try:
                while True:
                    values = sess.run(fetch).tolist()
                    with lock:
                        got.extend(values)
            except tf.errors.OutOfRangeError:
                pass
            except Exception as e:  # noqa: BLE001 - reported below
                errors_seen.append(e)
        producers = [threading.Thread(target=produce, args=(b,), daemon=True) for b in (0, 1000, 2000)]
        consumers = [threading.Thread(target=consume, args=(f,), daemon=True) for f in (many, up_to)]
        for t in producers + consumers:
            t.start()
        for t in producers:
            t.join(30)
        sess.run(close)
        for t in consumers:
            t.join(30)
        assert not any(t.is_alive() for t in producers + consumers) and not errors_seen
        # dequeue_many leaves fewer than 7 behind once closed; dequeue_up_to drains them.
        assert sorted(got) == [b + i for b in (0, 1000, 2000) for i in range(200)]


def test_session_close_cancels_a_partly_served_dequeue_many():
    q = tf.RandomShuffleQueue(10, 0, tf.int32, shapes=[[]], seed=1)
    enq, many, size = q.enqueue_many([[1, 2]]), q.dequeue_many(5), q.size()
    sess = tf.Session()
    sess.run(enq)
    box = {}

    def wait():
        try:
            sess.run(many)
        except Exception as e:  # noqa: BLE001 - the test inspects it
            box["error"] = e
    t = threading.Thread(target=wait, daemon=True)
    t.start()
    deadline = time.monotonic() + 10
    while sess.run(size) != 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    sess.close()
    t.join(10)
    assert not t.is_alive() and isinstance(box.get("error"), tf.errors.CancelledError)
