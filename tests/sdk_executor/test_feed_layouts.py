"""Feeds of a key layout seen before skip the key resolution, but every value is still converted and checked:
a new shape, a bad value, a tensor marked unfeedable later fail as on the first run."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf


def test_repeated_feeds_are_converted_and_shape_checked_every_run():
    x = tf.placeholder(tf.float32, [None, 2])
    flag = tf.placeholder(tf.bool, [])
    y = tf.where(flag, x * 2.0, x)
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(y, {x: [[1, 2]], flag: True}), [[2.0, 4.0]])
        got = s.run(y, {x: [[1, 2], [3, 4]], flag: 0})
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, [[1.0, 2.0], [3.0, 4.0]])
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(1, 3\)"):
            s.run(y, {x: [[1, 2, 3]], flag: True})
        with pytest.raises(TypeError, match="Cannot feed value"):
            s.run(y, {x: [["a", "b"]], flag: True})
        with pytest.raises(TypeError, match="cannot be a tf.Tensor"):
            s.run(y, {x: tf.zeros([1, 2]), flag: True})
        np.testing.assert_array_equal(s.run(y, {flag: False, x: [[5, 6]]}), [[5.0, 6.0]])


def test_tensor_made_unfeedable_after_a_run_is_refused():
    x = tf.placeholder(tf.float32, [])
    y = x + 1.0
    with tf.Session() as s:
        assert s.run(y, {y: 3.0}) == 3.0
        tf.get_default_graph().prevent_feeding(y)
        with pytest.raises(ValueError, match="may not be fed"):
            s.run(y, {y: 3.0})
