"""TF1 script idioms that TensorFlow accepts: saving into a new directory, any nest of variables as var_list,
summary names with ':' in them, NumPy integer indices, and reduce_sum gradients of scalars fed at run time."""
from __future__ import annotations

import logging
import os

import numpy as np
import pytest

import edgelite as tf
from edgelite import errors


def _saver_and_session():
    v = tf.Variable(1.5, name="v")
    return v, tf.train.Saver()


def test_unsharded_save_creates_the_missing_checkpoint_directory(tmp_path):
    # TensorFlow's unsharded SaveV2 kernel creates the prefix's directory (one level, not its parents).
    with tf.Graph().as_default():
        v, saver = _saver_and_session()
        with tf.Session() as sess:
            sess.run(v.initializer)
            path = saver.save(sess, str(tmp_path / "ckpt" / "model.ckpt"))
            assert sorted(os.listdir(tmp_path / "ckpt")) == [
                "checkpoint", "model.ckpt.data-00000-of-00001", "model.ckpt.index", "model.ckpt.meta"]
            sess.run(v.assign(0.0))
            saver.restore(sess, path)
            assert sess.run(v) == 1.5
            with pytest.raises(ValueError, match="Parent directory of .*a/b/model.ckpt doesn't exist, can't save"):
                saver.save(sess, str(tmp_path / "a" / "b" / "model.ckpt"))


def test_sharded_save_needs_an_existing_directory(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        saver = tf.train.Saver(sharded=True)
        with tf.Session() as sess:
            sess.run(v.initializer)
            with pytest.raises(ValueError, match="doesn't exist, can't save"):
                saver.save(sess, str(tmp_path / "new" / "model.ckpt"))


def test_var_list_may_be_dict_values_or_a_nest():
    with tf.Graph().as_default():
        weights = {"b": tf.Variable(2.0, name="b"), "a": tf.Variable(3.0, name="a")}
        loss = weights["a"] * weights["b"]
        opt = tf.train.GradientDescentOptimizer(0.1)
        grads = opt.compute_gradients(loss, var_list=weights.values())
        assert [v for _, v in grads] == list(weights.values())
        assert [v for _, v in opt.compute_gradients(loss, var_list=weights)] == [weights["a"], weights["b"]]
        train = opt.minimize(loss, var_list=weights.values())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            assert sess.run([weights["a"], weights["b"]]) == pytest.approx([3.0 - 0.2, 2.0 - 0.3])


def test_summary_names_are_cleaned_and_logged(caplog):
    caplog.set_level(logging.INFO, logger="edgelite")
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], name="W1")
        hist = tf.summary.histogram(w.name, w)
        scalar = tf.summary.scalar("/loss value", tf.constant(1.0))
        assert hist.op.name == "W1_0" and scalar.op.name == "loss_value"
        with tf.Session() as sess:
            sess.run(w.initializer)
            summary = tf.Summary.FromString(sess.run(tf.summary.merge([hist, scalar])))
    assert [v.tag for v in summary.value] == ["W1_0", "loss_value"]
    assert "Summary name W1:0 is illegal; using W1_0 instead." in caplog.text


def test_numpy_integer_scalars_index_tensors():
    value = np.arange(24).reshape(2, 3, 4)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.constant(value)
        cases = [
            (x[np.int64(1)], value[1]),
            (x[np.int32(0):np.int64(2), np.int16(-1)], value[0:2, -1]),
            (x[:, np.int64(1), ::np.int32(2)], value[:, 1, ::2]),
        ]
        for got, want in cases:
            np.testing.assert_array_equal(sess.run(got), want)


def test_linear_regression_with_unknown_shape_placeholders_trains():
    # reduce_sum of a scalar: its gradient takes the (empty) reduction axes modulo rank 0, which must not fail.
    xs = np.array([3.3, 4.4, 5.5, 6.71], np.float32)
    ys = np.array([1.7, 2.76, 2.09, 3.19], np.float32)
    with tf.Graph().as_default():
        X, Y = tf.placeholder("float"), tf.placeholder("float")
        W, b = tf.Variable(0.5, name="weight"), tf.Variable(0.1, name="bias")
        cost = tf.reduce_sum(tf.pow(tf.add(tf.multiply(X, W), b) - Y, 2)) / (2 * len(xs))
        train = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            w_ref, b_ref = np.float32(0.5), np.float32(0.1)
            for x, y in zip(xs, ys):
                sess.run(train, {X: x, Y: y})
                err = w_ref * x + b_ref - y
                w_ref, b_ref = w_ref - 0.01 * err * x / len(xs), b_ref - 0.01 * err / len(xs)
            assert sess.run([W, b]) == pytest.approx([w_ref, b_ref], rel=1e-5)


def test_integer_division_by_zero_fails_only_when_it_happens():
    with tf.Graph().as_default(), tf.Session() as sess:
        empty = tf.constant([], tf.int32)
        assert sess.run(tf.floormod(empty, 0)).shape == (0,)
        with pytest.raises(errors.InvalidArgumentError, match="Integer division by zero"):
            sess.run(tf.floormod(tf.constant([1]), 0))


def test_reshape_of_partly_known_shape_checks_divisibility_at_build_time():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2])
        with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 2 but is 5"):
            tf.reshape(x, [5])
        assert tf.reshape(x, [6]).shape.as_list() == [6]
