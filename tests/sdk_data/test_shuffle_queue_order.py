"""RandomShuffleQueue, tf.random.shuffle and the shuffling input pipelines give TensorFlow's seeded orders
(fixtures/tf_shuffle_queues.json, recorded from TensorFlow by fixtures/generate_tf_shuffle_queues.py)."""
from __future__ import annotations

import json
import re
import threading
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
