"""A cond's gradient reads the forward branch's intermediates instead of running the branch again.

Batch norm under a bool-tensor `training` flag is a cond; each training step must run its forward
FusedBatchNormV3 kernel once per layer, as TensorFlow does.
"""
import numpy as np
import pytest

import edgelite as tf
from edgelite.framework import op_def_registry


@pytest.fixture
def kernel_calls(monkeypatch):
    """Count kernel invocations per op type (the executor reads the kernel when it builds a plan)."""
    counts: dict = {}

    def wrap(op_type):
        od = op_def_registry.get_op_def(op_type)
        inner = od.kernel

        def counted(ctx, *args):
            counts[op_type] = counts.get(op_type, 0) + 1
            return inner(ctx, *args)

        monkeypatch.setattr(od, "kernel", counted)

    return counts, wrap


def _bn_net(training):
    x = tf.placeholder(tf.float32, [4, 5, 5, 3])
    h = tf.layers.batch_normalization(tf.layers.conv2d(x, 4, 3), training=training)
    h = tf.layers.batch_normalization(tf.nn.relu(h), training=training)
    loss = tf.reduce_mean(tf.square(h))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    return x, loss, train


def test_batch_norm_forward_runs_once_per_training_step(kernel_calls):
    counts, wrap = kernel_calls
    wrap("FusedBatchNormV3")
    wrap("FusedBatchNormGradV3")
    with tf.Graph().as_default():
        is_training = tf.placeholder_with_default(True, [])
        x, loss, train = _bn_net(is_training)
        feed = {x: np.random.RandomState(0).randn(4, 5, 5, 3).astype(np.float32)}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            counts.clear()
            sess.run(train, feed)
            assert counts == {"FusedBatchNormV3": 2, "FusedBatchNormGradV3": 2}
            counts.clear()
            sess.run(loss, {**feed, is_training: False})
            assert counts == {"FusedBatchNormV3": 2}


def _grads_through_cond(fetch_forward):
    with tf.Graph().as_default():
        flag = tf.placeholder(tf.bool, [])
        v = tf.Variable([1.0, -2.0, 3.0])
        y = tf.cond(flag, lambda: tf.reduce_sum(tf.exp(v) * tf.sin(v)), lambda: tf.reduce_sum(v * v))
        g = tf.gradients(y, v)[0]
        with tf.Session() as sess:
            sess.run(v.initializer)
            out = {}
            for f in (True, False):
                fetches = [g, y] if fetch_forward else [g]
                out[f] = sess.run(fetches, {flag: f})[0]
            # Feeding the cond's output: the forward op does not run, its gradient recomputes what it reads.
            out["fed"] = sess.run(g, {flag: True, y: 0.0})
    return out


def test_cond_gradient_matches_formula_with_and_without_forward_fetch():
    v = np.array([1.0, -2.0, 3.0], np.float32)
    expect_true = np.exp(v) * (np.sin(v) + np.cos(v))
    for fetch_forward in (True, False):
        out = _grads_through_cond(fetch_forward)
        np.testing.assert_allclose(out[True], expect_true, rtol=1e-5)
        np.testing.assert_allclose(out[False], 2 * v, rtol=1e-6)
        np.testing.assert_allclose(out["fed"], expect_true, rtol=1e-5)
