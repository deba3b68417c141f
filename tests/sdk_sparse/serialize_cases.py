"""Cases for serialize_sparse / serialize_many_sparse (bytes compared with TF's) and deserialize_many_sparse."""
from __future__ import annotations

import numpy as np


def _st(tf, dtype):
    vals = np.array([1.5, -2.0, 3.0, 4.25]).astype(dtype) if dtype != object else \
        np.array([b"a", b"", b"xyz", "é".encode()], dtype=object)
    return tf.SparseTensor([[0, 1], [1, 0], [1, 2], [3, 1]], tf.constant(vals), [4, 3])


def _serialize(tf):
    outs = [tf.serialize_sparse(_st(tf, np.float32)), tf.io.serialize_sparse(_st(tf, object))]
    return outs + [tf.serialize_many_sparse(_st(tf, np.int64)), tf.io.serialize_many_sparse(_st(tf, object))], {}


def _round_trip(tf):
    ser = tf.serialize_many_sparse(_st(tf, np.float64))
    back = tf.deserialize_many_sparse(ser, tf.float64, rank=2)
    strs = tf.io.deserialize_many_sparse(tf.serialize_many_sparse(_st(tf, object)), tf.string)
    return [back, strs], {}


def _merge_batches(tf):
    a = tf.serialize_sparse(tf.SparseTensor([[0, 1], [2, 0]], [1, 2], [3, 2]))
    b = tf.serialize_sparse(tf.SparseTensor([[1, 4]], [3], [2, 5]))
    return [tf.deserialize_many_sparse(tf.stack([a, b]), tf.int32)], {}


def _deserialize_wrong_dtype(tf):
    return [tf.deserialize_many_sparse(tf.serialize_many_sparse(_st(tf, np.float32)), tf.int32)], {}


def _many_rank1(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.serialize_many_sparse(sp)], {sp: ([[0]], [1.0], [2])}


CASES = [("serialize", _serialize), ("round_trip", _round_trip), ("merge_batches", _merge_batches),
         ("deserialize_wrong_dtype", _deserialize_wrong_dtype), ("many_rank1", _many_rank1)]
