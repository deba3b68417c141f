"""SparseTensor core cases: construction, fetch/feed through Session.run, densifying, SparseToDense checks."""
from __future__ import annotations

import numpy as np

IDX = [[0, 1], [1, 0], [2, 3]]


def _const_fetch(tf):
    st = tf.SparseTensor(IDX, [1.5, -2.0, 3.25], [3, 4])
    return [st, st.values], {}


def _nested_fetch(tf):
    st = tf.SparseTensor(IDX, np.array([1, 2, 3], np.int32), [3, 5])
    return {"a": [st, tf.sparse.to_dense(st)], "b": (st.values,)}, {}


def _placeholder_tuple(tf):
    sp = tf.sparse_placeholder(tf.float64, shape=[3, None], name="sp")
    d = tf.sparse_tensor_to_dense(sp, default_value=-1.0)
    return [d, sp], {sp: ([[0, 0], [2, 1]], [4.0, 5.0], [3, 2])}


def _placeholder_value(tf):
    sp = tf.sparse_placeholder(tf.int64)
    return [tf.sparse.to_dense(sp), sp], {sp: tf.SparseTensorValue([[1], [3]], [7, 9], [5])}


def _placeholder_names(tf):
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 3], name="names")
    return [sp.dense_shape], {}


def _to_dense_unordered(tf):
    st = tf.SparseTensor([[2, 0], [0, 1]], [1.0, 2.0], [3, 2])
    return tf.sparse.to_dense(st, validate_indices=False), {}


def _std_scalar(tf):
    return tf.sparse_to_dense(2, [4], 5), {}


def _std_vector(tf):
    return tf.sparse_to_dense([0, 3], [5], [1.0, 2.0], default_value=-0.5), {}


def _std_int32(tf):
    return tf.sparse_to_dense(tf.constant([[0, 1], [1, 1]], tf.int32), tf.constant([2, 2], tf.int32), 7), {}


def _std_grad(tf):
    v = tf.constant([1.0, 2.0, 3.0], tf.float64)
    dv = tf.constant(0.5, tf.float64)
    d = tf.sparse_to_dense([[0, 0], [1, 2], [2, 1]], [3, 3], v, default_value=dv)
    w = tf.constant(np.arange(9.0).reshape(3, 3))
    return tf.gradients(tf.reduce_sum(d * w), [v, dv]), {}


def _err(indices):
    def build(tf):
        sp = tf.sparse_placeholder(tf.float32, shape=[3, 2])
        return tf.sparse.to_dense(sp), {sp: (indices, [1.0, 2.0], [3, 2])}
    return build


def _std_bad_values(tf):
    return tf.sparse_to_dense([[0], [1]], [3], tf.placeholder_with_default([1.0, 2.0, 3.0], [None])), {}


def _std_bad_default(tf):
    return tf.sparse_to_dense([[0], [1]], [3], [1.0, 2.0], tf.placeholder_with_default([1.0], [None])), {}


def _std_bad_shape_len(tf):
    return tf.sparse_to_dense([[0], [1]], [3, 3], [1.0, 2.0]), {}


def _std_bad_indices_rank(tf):
    return tf.sparse_to_dense([[[0]]], [3], [1.0]), {}


def _std_shape_rank(tf):
    return tf.sparse_to_dense([[0], [1]], [[3]], [1.0, 2.0]), {}


def _st_bad_dense_shape(tf):
    return tf.SparseTensor([[0, 1]], [1.0], [[3, 4]]), {}


def _st_bad_indices(tf):
    return tf.SparseTensor([0, 1], [1.0], [3, 4]), {}


def _st_mismatch(tf):
    return tf.SparseTensor([[0, 1]], [1.0, 2.0], [3, 4]), {}


def _convert_dtype(tf):
    return tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[0]], [1.0], [2]), dtype=tf.int32), {}


def _convert_dense(tf):
    return tf.convert_to_tensor(tf.SparseTensor([[0]], [1.0], [2])), {}


CASES = [
    ("const_fetch", _const_fetch),
    ("nested_fetch", _nested_fetch),
    ("placeholder_tuple", _placeholder_tuple),
    ("placeholder_value", _placeholder_value),
    ("placeholder_names", _placeholder_names),
    ("to_dense_unordered", _to_dense_unordered),
    ("std_scalar", _std_scalar),
    ("std_vector", _std_vector),
    ("std_int32", _std_int32),
    ("std_grad", _std_grad),
    ("to_dense_out_of_order", _err([[1, 1], [0, 0]])),
    ("to_dense_repeated", _err([[0, 0], [0, 0]])),
    ("to_dense_out_of_bounds", _err([[0, 0], [1, 2]])),
    ("to_dense_negative", _err([[-1, 0], [1, 1]])),
    ("std_bad_values", _std_bad_values),
    ("std_bad_default", _std_bad_default),
    ("std_bad_shape_len", _std_bad_shape_len),
    ("std_bad_indices_rank", _std_bad_indices_rank),
    ("std_shape_rank", _std_shape_rank),
    ("st_bad_dense_shape", _st_bad_dense_shape),
    ("st_bad_indices", _st_bad_indices),
    ("st_mismatch", _st_mismatch),
    ("convert_dtype", _convert_dtype),
    ("convert_dense", _convert_dense),
]
