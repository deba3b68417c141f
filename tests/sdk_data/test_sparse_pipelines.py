"""SparseTensors through tf.data sources, batch/unbatch and the queue batchers, against TensorFlow's records."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from . import result_codec, sparse_cases
from .test_parsing_vs_tf import run_case

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MORE = json.loads((FIXTURES / "tf_more.json").read_text())


@pytest.mark.parametrize("name,fn", sparse_cases.DATASET_CASES, ids=[c[0] for c in sparse_cases.DATASET_CASES])
def test_datasets_match_tensorflow(name, fn, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    got, want = result_codec.run_dataset(tf, fn), MORE["datasets"][name]
    if name == "err_sparse_unbatch_unsorted":
        # TensorFlow runs unbatch's splitting as an internal map function and names it in front of the text.
        assert got["end"][0] == want["end"][0] and want["end"][1].endswith(": " + got["end"][1])
        got["end"] = want["end"]
    assert got == want


@pytest.mark.parametrize("name,fn", sparse_cases.BUILD_ERROR_CASES,
                         ids=[c[0] for c in sparse_cases.BUILD_ERROR_CASES])
def test_build_errors_match_tensorflow(name, fn):
    assert run_case(fn) == MORE["build_errors"][name]


@pytest.fixture
def fresh_graph():
    with tf.Graph().as_default():
        yield


@pytest.mark.parametrize("name,fn", sparse_cases.PIPELINE_CASES, ids=[c[0] for c in sparse_cases.PIPELINE_CASES])
def test_batchers_match_tensorflow(name, fn, monkeypatch, fresh_graph):
    monkeypatch.chdir(FIXTURES)
    before = set(threading.enumerate())
    assert result_codec.run_pipeline(tf, fn) == MORE["pipelines"][name]
    assert set(threading.enumerate()) <= before


def test_shuffle_batch_keeps_each_sparse_row_with_its_dense_partner(fresh_graph):
    def build(tf):
        tf.set_random_seed(2)
        x = tf.train.range_input_producer(12, num_epochs=1, shuffle=False).dequeue()
        sp = sparse_cases._counted_sparse(tf, x)
        return tf.train.shuffle_batch([sp, x], 4, capacity=12, min_after_dequeue=3, num_threads=2,
                                      allow_smaller_final_batch=True)
    g = tf.get_default_graph()
    with g.as_default():
        sp, x = build(tf)
        dense = tf.sparse.to_dense(sp, default_value=-1)
        rows, seen = [], []
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            try:
                while True:
                    d, xs = sess.run([dense, x])
                    rows.append(d)
                    seen.extend(xs.tolist())
            except tf.errors.OutOfRangeError:
                pass
            coord.request_stop()
            coord.join(threads)
    assert sorted(seen) == list(range(12)) and seen != sorted(seen)
    xs = iter(seen)
    for d in rows:
        for row in d:
            n = next(xs)
            assert row[:n].tolist() == list(range(n)) and (row[n:] == -1).all()
