"""Cases for tf.sparse.bincount: dense and sparse input, axis 0 and -1, weights, min/maxlength, binary."""
from __future__ import annotations

import numpy as np


def _dense(tf):
    v = tf.constant([[3, 1, 1], [0, 4, 1]])
    w = tf.constant([[0.5, 1.0, 2.0], [1.5, 0.25, 1.0]])
    return [tf.sparse.bincount(v), tf.sparse.bincount(v, axis=-1), tf.sparse.bincount(v, weights=w),
            tf.sparse.bincount(v, axis=-1, minlength=7), tf.sparse.bincount(v, maxlength=3),
            tf.sparse.bincount(v, axis=-1, binary_output=True),
            tf.sparse.bincount(tf.constant(np.array([5, 2, 5], np.int64)))], {}


def _sparse(tf):
    st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]], tf.constant([2, 2, 7, 0, 2]), [3, 4])
    w = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]], tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]), [3, 4])
    return [tf.sparse.bincount(st), tf.sparse.bincount(st, axis=-1), tf.sparse.bincount(st, weights=w, axis=-1),
            tf.sparse.bincount(st, axis=-1, maxlength=5, binary_output=True)], {}


def _bad_axis(tf):
    return [tf.sparse.bincount(tf.constant([1]), axis=1)], {}


def _weights_and_binary(tf):
    return [tf.sparse.bincount(tf.constant([1]), weights=tf.constant([1.0]), binary_output=True)], {}


CASES = [("dense", _dense), ("sparse", _sparse), ("bad_axis", _bad_axis), ("weights_and_binary", _weights_and_binary)]
