"""Every recurrent case of rnn_cases.py against TensorFlow 2.21's recorded results: variable names,
outputs, final states and gradients (w.r.t. the inputs and every weight), and a TF checkpoint restore."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import lstm_model, rnn_cases

HERE = Path(__file__).resolve().parent / "fixtures"
META = json.loads((HERE / "tf_rnn.json").read_text())
DATA = np.load(HERE / "tf_rnn.npz")


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test starts from an empty default graph."""
    with tf.Graph().as_default() as g:
        yield g


@pytest.mark.parametrize("name,build", rnn_cases.CASES, ids=[c[0] for c in rnn_cases.CASES])
def test_case_matches_tensorflow(name, build):
    meta = META["cases"][name]
    x = tf.placeholder(tf.float32, [rnn_cases.BATCH, rnn_cases.TIME, rnn_cases.DEPTH], name="x")
    lengths = tf.placeholder(tf.int32, [rnn_cases.BATCH], name="lengths")
    results = build(tf, x, lengths)
    assert [r.shape.as_list() for r in results] == meta["result_shapes"]
    assert [v.op.name for v in tf.global_variables()] == meta["variables"]
    train_vars = tf.trainable_variables()
    assert [v.op.name for v in train_vars] == meta["trainable"]
    weights = rnn_cases.result_weights(name, meta["result_shapes"])
    loss = tf.add_n([tf.reduce_sum(r * w) for r, w in zip(results, weights)])
    grads = tf.gradients(loss, [x] + train_vars)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():
            v.load(rnn_cases.weight_value(v.op.name, tuple(v.shape.as_list())), sess)
        vals = sess.run(results + grads, {x: DATA[f"{name}/x"], lengths: rnn_cases.LENGTHS})
    for k, got in enumerate(vals[:len(results)]):
        np.testing.assert_allclose(got, DATA[f"{name}/result_{k}"], rtol=1e-5, atol=1e-6, err_msg=f"result {k}")
    np.testing.assert_allclose(vals[len(results)], DATA[f"{name}/grad_x"], rtol=1e-4, atol=1e-5)
    for var, got in zip(train_vars, vals[len(results) + 1:]):
        np.testing.assert_allclose(got, DATA[f"{name}/grad/{var.op.name}"], rtol=1e-4, atol=1e-5,
                                   err_msg=var.op.name)


def test_tf_checkpoint_restores_by_name():
    x = tf.placeholder(tf.float32, [None, lstm_model.TIME, lstm_model.DEPTH], name="x")
    lengths = tf.placeholder(tf.int32, [None], name="lengths")
    logits = lstm_model.build(tf, x, lengths)
    assert [v.op.name for v in tf.global_variables()] == META["checkpoint"]["variables"]
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, str(HERE / "lstm_ckpt" / "model.ckpt"))
        got = sess.run(logits, {x: lstm_model.inputs(), lengths: lstm_model.LENGTHS})
    np.testing.assert_allclose(got, np.load(HERE / "lstm_ckpt" / "logits.npy"), rtol=1e-5, atol=1e-6)
