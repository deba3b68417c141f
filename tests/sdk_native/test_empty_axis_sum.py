"""Sum over an empty axis list is its input (values, dtype and shape kept; TensorFlow forwards the buffer)."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_over_no_axes_is_the_input(dtype, keepdims):
    value = (np.arange(12).reshape(3, 4) - 5).astype(dtype)
    with tf.Graph().as_default():
        x = tf.placeholder(dtype, [3, 4])
        y = tf.reduce_sum(x, axis=[], keepdims=keepdims)
        with tf.Session() as sess:
            out = sess.run(y, {x: value})
    assert out.dtype == value.dtype and out.shape == value.shape
    np.testing.assert_array_equal(out, value)


def test_add_gradient_of_same_shapes_passes_the_incoming_gradient():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [2, 5])
        b = tf.placeholder(tf.float32, [2, 5])
        loss = tf.reduce_sum((a + b) * tf.constant(np.arange(10, dtype=np.float32).reshape(2, 5)))
        ga, gb = tf.gradients(loss, [a, b])
        with tf.Session() as sess:
            va, vb = sess.run([ga, gb], {a: np.ones((2, 5), np.float32), b: np.zeros((2, 5), np.float32)})
    expected = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.testing.assert_array_equal(va, expected)
    np.testing.assert_array_equal(vb, expected)
