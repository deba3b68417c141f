"""Input gradients that only the gradient gate waits for are not computed; fetched or read ones are."""
from __future__ import annotations

import numpy as np

import edgelite as tf


def _executed(sess, fetches, feed):
    """Names of the ops a traced run executed."""
    meta = tf.RunMetadata()
    sess.run(fetches, feed, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=meta)
    return {n.node_name for dev in meta.step_stats.dev_stats for n in dev.node_stats}


def _net():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 6, 6, 1], name="x")
        h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu, name="c1")
        h = tf.layers.conv2d(h, 3, 3, padding="same", name="c2")
        loss = tf.reduce_mean(tf.square(h))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)  # gate_gradients=GATE_OP
        init = tf.global_variables_initializer()
    return g, x, loss, train, init


def test_first_layer_input_gradient_is_skipped_but_the_rest_runs():
    g, x, loss, train, init = _net()
    backprop_inputs = {op.name: op for op in g.get_operations() if op.type == "Conv2DBackpropInput"}
    assert len(backprop_inputs) == 2  # the gate's tuple waits for both layers' input gradients
    feed = {x: np.random.default_rng(0).standard_normal((2, 6, 6, 1)).astype(np.float32)}
    with tf.Session(graph=g) as sess:
        sess.run(init)
        ran = _executed(sess, train, feed)
        unread = [n for n, op in backprop_inputs.items() if "c1" in op.inputs[1].op.name]  # dL/dx of layer 1
        read = [n for n in backprop_inputs if n not in unread]
        assert unread and read
        assert not set(unread) & ran and set(read) <= ran
        assert any(n.endswith("Conv2DBackpropFilter") for n in ran)


def test_skipped_gradient_still_runs_when_fetched_or_targeted():
    g, x, loss, train, init = _net()
    feed = {x: np.ones((2, 6, 6, 1), np.float32)}
    first = [op for op in g.get_operations() if op.type == "Conv2DBackpropInput" and "c1" in op.inputs[1].op.name][0]
    with tf.Session(graph=g) as sess:
        sess.run(init)
        dx = sess.run(first.outputs[0], feed)
        assert dx.shape == (2, 6, 6, 1) and np.abs(dx).sum() > 0
        assert first.name in _executed(sess, [train, first], feed)
