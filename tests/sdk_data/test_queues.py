"""Queues against TensorFlow's recorded step-by-step results, and their behaviour across threads."""
from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest

import edgelite as tf
from . import data_cases, result_codec

QUEUES = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_data.json").read_text())["queues"]


def _normalized(steps: list) -> list:
    """Queue resource numbers count queues process-wide, so they depend on what ran before."""
    text = json.dumps(steps)
    return json.loads(re.sub(r"'_\d+_", "'_N_", text))


@pytest.mark.parametrize("name,fn", data_cases.QUEUE_CASES, ids=[c[0] for c in data_cases.QUEUE_CASES])
def test_matches_tensorflow(name, fn):
    assert _normalized(result_codec.run_steps(tf, fn)) == _normalized(QUEUES[name])


def _run_in_thread(sess, fetch):
    box = {}

    def target():
        try:
            box["value"] = sess.run(fetch)
        except Exception as e:  # noqa: BLE001 - the test inspects it
            box["error"] = e
    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t, box


def test_blocked_dequeue_unblocks_when_another_thread_enqueues():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    deq = q.dequeue_many(2)
    enq = q.enqueue_many([[4, 5]])
    with tf.Session() as sess:
        t, box = _run_in_thread(sess, deq)
        time.sleep(0.05)
        assert t.is_alive()
        sess.run(enq)
        t.join(5)
        assert not t.is_alive() and box["value"].tolist() == [4, 5]


def test_blocked_enqueue_waits_for_room_and_close_lets_pending_enqueue_finish():
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    enq = q.enqueue_many([[1, 2]])
    with tf.Session() as sess:
        t, box = _run_in_thread(sess, enq)
        deadline = time.monotonic() + 5
        while sess.run(q.size()) < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        assert t.is_alive() and sess.run(q.size()) == 1
        sess.run(q.close())
        assert sess.run(q.dequeue()) == 1
        t.join(5)
        assert not t.is_alive() and "error" not in box
        assert sess.run(q.dequeue()) == 2


def test_close_with_cancel_fails_pending_enqueue():
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    enq = q.enqueue_many([[1, 2]])
    with tf.Session() as sess:
        t, box = _run_in_thread(sess, enq)
        time.sleep(0.05)
        sess.run(q.close(cancel_pending_enqueues=True))
        t.join(5)
        assert isinstance(box.get("error"), tf.errors.CancelledError)


def test_session_close_cancels_blocked_dequeue():
    q = tf.FIFOQueue(3, tf.float32)
    deq = q.dequeue()
    sess = tf.Session()
    t, box = _run_in_thread(sess, deq)
    deadline = time.monotonic() + 5
    while not sess._state.op_state and time.monotonic() < deadline:  # the queue exists once the step runs
        time.sleep(0.01)
    time.sleep(0.05)
    sess.close()
    t.join(5)
    assert not t.is_alive() and isinstance(box.get("error"), tf.errors.CancelledError)


def test_random_shuffle_queue_keeps_min_after_dequeue_and_is_seeded():
    def order():
        g = tf.Graph()
        with g.as_default():
            q = tf.RandomShuffleQueue(20, 5, tf.int32, shapes=[[]], seed=7)
            enq = q.enqueue_many([list(range(10))])
            with tf.Session() as sess:
                sess.run(enq)
                first = sess.run(q.dequeue_many(5)).tolist()
                t, box = _run_in_thread(sess, q.dequeue())
                time.sleep(0.05)
                assert t.is_alive()  # 5 left == min_after_dequeue: must wait until more arrive or close
                sess.run(q.close())
                t.join(5)
                rest = [box["value"]] + sess.run(q.dequeue_up_to(10)).tolist()
                return first + rest
    a, b = order(), order()
    assert a == b and sorted(a) == list(range(10)) and a != list(range(10))


def test_dequeue_shapes_and_names():
    q = tf.FIFOQueue(5, [tf.float32, tf.int64], shapes=[[3], []])
    x, y = q.dequeue_many(4)
    assert x.shape.as_list() == [4, 3] and y.shape.as_list() == [4]
    u, _ = q.dequeue_up_to(4)
    assert u.shape.as_list() == [None, 3]
    assert q.dtypes == [tf.float32, tf.int64] and q.names is None
    with pytest.raises(ValueError):
        q.enqueue([[1.0, 2.0], 3])
    assert q.queue_ref.op.type == "FIFOQueueV2" and q.dequeue()[0].op.type == "QueueDequeueV2"
