"""Cases for sparse arithmetic: add, maximum/minimum, reductions, softmax, * and / by dense, matmuls."""
from __future__ import annotations

import numpy as np

A = ([[0, 0], [0, 2], [1, 1], [2, 3]], [1.0, -2.0, 3.0, 0.5], [3, 4])
B = ([[0, 2], [1, 0], [1, 1], [2, 2]], [2.0, 4.0, -3.0, -1.0], [3, 4])


def _st(tf, spec, dtype=None):
    ind, val, shape = spec
    return tf.SparseTensor(ind, tf.constant(val, dtype=dtype or tf.float64), shape)


def _add(tf):
    a, b = _st(tf, A), _st(tf, B)
    s = tf.sparse.add(a, b)
    g = tf.gradients(tf.reduce_sum(s.values * tf.constant([1, 2, 3, 4, 5, 6], tf.float64)), [a.values, b.values])
    return [s, tf.sparse_add(a, b, threshold=0.5), g], {}


def _add_int(tf):
    a, b = _st(tf, A, tf.int32), _st(tf, B, tf.int32)
    return [tf.sparse.add(a, b)], {}


def _add_dense(tf):
    a = _st(tf, A)
    d = tf.constant(np.arange(12.0).reshape(3, 4))
    out = tf.sparse.add(d, a)
    return [out, tf.gradients(tf.reduce_sum(out * out), [a.values, d])], {}


def _add_dense_only(tf):
    return [tf.sparse.add(tf.constant([1.0]), tf.constant([2.0]))], {}


def _add_shape_mismatch(tf):
    a = tf.sparse_placeholder(tf.float32)
    b = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.add(a, b)], {a: ([[0, 0]], [1.0], [2, 3]), b: ([[0, 0]], [1.0], [2, 4])}


def _add_rank_mismatch(tf):
    a = tf.sparse_placeholder(tf.float32)
    b = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.add(a, b)], {a: ([[0, 0]], [1.0], [2, 3]), b: ([[0]], [1.0], [2])}


def _add_dense_mismatch(tf):
    a = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.add(a, tf.placeholder_with_default(np.zeros((2, 2), np.float32), [None, None]))], \
        {a: ([[0, 0]], [1.0], [2, 3])}


def _maximum(tf):
    a, b = _st(tf, A), _st(tf, B)
    return [tf.sparse.maximum(a, b), tf.sparse_minimum(a, b)], {}


def _reduce_sum(tf):
    a = _st(tf, A)
    outs = [tf.sparse.reduce_sum(a), tf.sparse_reduce_sum(a, 1), tf.sparse.reduce_sum(a, axis=0, keepdims=True),
            tf.sparse.reduce_sum(a, -1, keep_dims=True)]
    g = tf.gradients(tf.reduce_sum(outs[1] * tf.constant([1.0, 2.0, 3.0], tf.float64)), a.values)
    return outs + [g], {}


def _reduce_sum_3d(tf):
    st = tf.SparseTensor([[0, 0, 1], [0, 1, 1], [1, 0, 0], [1, 2, 1]], tf.constant([1.0, 2.0, 3.0, 4.0]), [2, 3, 2])
    outs = [tf.sparse.reduce_sum(st, [0, 2]), tf.sparse.reduce_sum(st, [1], keepdims=True)]
    g = tf.gradients(tf.reduce_sum(outs[1] * tf.constant([[[1.0, 2.0]], [[3.0, 4.0]]])), st.values)
    return outs + [g], {}


def _reduce_sum_sparse(tf):
    a = _st(tf, A)
    return [tf.sparse.reduce_sum_sparse(a, 0), tf.sparse_reduce_sum_sparse(a, 1, keepdims=True)], {}


def _reduce_max(tf):
    st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [1, 2]], tf.constant([-1.0, -2.0, 3.0, 0.5]), [3, 3])
    return [tf.sparse.reduce_max(st), tf.sparse.reduce_max(st, 1), tf.sparse_reduce_max(st, 0, keepdims=True),
            tf.sparse.reduce_max_sparse(st, 1), tf.sparse_reduce_max_sparse(st, 0)], {}


def _reduce_max_int(tf):
    st = tf.SparseTensor([[0, 1], [1, 0]], tf.constant([-3, -5], tf.int32), [2, 3])
    return [tf.sparse.reduce_max(st, 1), tf.sparse.reduce_sum(st, 0)], {}


def _reduce_bad_axis(tf):
    return [tf.sparse.reduce_sum(_st(tf, A), 2)], {}


def _softmax(tf):
    st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]],
                         tf.constant([1.0, 2.0, -1.0, 0.5, 0.25, 3.0], tf.float64), [3, 4])
    out = tf.sparse.softmax(st)
    g = tf.gradients(tf.reduce_sum(out.values * tf.constant([1, -2, 3, 0.5, 2, -1], tf.float64)), st.values)
    return [out, g], {}


def _softmax_3d(tf):
    st = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 2]], tf.constant([1.0, 2.0, 3.0, 4.0]), [2, 2, 3])
    return [tf.sparse_softmax(st)], {}


def _softmax_rank1(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.softmax(sp)], {sp: ([[0], [1]], [1.0, 2.0], [3])}


def _cwise(tf):
    a = _st(tf, A)
    d = tf.constant([1.0, 2.0, 4.0, -2.0], tf.float64)
    m = tf.constant(np.arange(1.0, 13.0).reshape(3, 4))
    prod, quo = a * d, a / m
    g = tf.gradients(tf.reduce_sum(prod.values) + tf.reduce_sum(quo.values * quo.values), [a.values, d, m])
    return [prod, quo, g], {}


def _cwise_int_div(tf):
    st = tf.SparseTensor([[0, 1], [1, 0]], tf.constant([3, 5], tf.int32), [2, 2])
    return [st / tf.constant(2, tf.int32)], {}


def _matmul(tf):
    a = _st(tf, A)
    b = tf.constant(np.arange(8.0).reshape(4, 2) - 3)
    outs = [tf.sparse.sparse_dense_matmul(a, b),
            tf.sparse_tensor_dense_matmul(a, tf.transpose(b), adjoint_b=True),
            tf.sparse.matmul(a, tf.constant(np.ones((3, 2))), adjoint_a=True)]
    g = tf.gradients(tf.reduce_sum(outs[0] * outs[0]) + tf.reduce_sum(outs[1]), [a.values, b])
    return outs + [g], {}


def _matmul_dense_sparse(tf):
    a = _st(tf, A)
    d = tf.constant(np.arange(6.0).reshape(2, 3))
    return [tf.sparse.sparse_dense_matmul(d, a), tf.sparse.sparse_dense_matmul(tf.transpose(d), a, adjoint_a=True)], {}


def _matmul_mismatch(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.sparse_dense_matmul(sp, tf.ones([5, 2]))], {sp: ([[0, 0]], [1.0], [2, 3])}


def _matmul_oob(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.sparse_dense_matmul(sp, tf.ones([3, 2]))], {sp: ([[0, 4]], [1.0], [2, 3])}


def _sparse_matmul(tf):
    a = tf.constant(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    b = tf.constant(np.arange(12.0, dtype=np.float32).reshape(3, 4) / 3)
    out = tf.sparse_matmul(a, b, a_is_sparse=True)
    out_t = tf.sparse_matmul(b, a, transpose_a=True, transpose_b=True)
    g = tf.gradients(tf.reduce_sum(out * out) + tf.reduce_sum(out_t), [a, b])
    return [out, out_t, g], {}


CASES = [
    ("add", _add), ("add_int", _add_int), ("add_dense", _add_dense), ("add_dense_only", _add_dense_only),
    ("add_shape_mismatch", _add_shape_mismatch), ("add_rank_mismatch", _add_rank_mismatch),
    ("add_dense_mismatch", _add_dense_mismatch),
    ("maximum", _maximum), ("reduce_sum", _reduce_sum), ("reduce_sum_3d", _reduce_sum_3d),
    ("reduce_sum_sparse", _reduce_sum_sparse), ("reduce_max", _reduce_max), ("reduce_max_int", _reduce_max_int),
    ("reduce_bad_axis", _reduce_bad_axis), ("softmax", _softmax), ("softmax_3d", _softmax_3d),
    ("softmax_rank1", _softmax_rank1), ("cwise", _cwise), ("cwise_int_div", _cwise_int_div),
    ("matmul", _matmul), ("matmul_dense_sparse", _matmul_dense_sparse), ("matmul_mismatch", _matmul_mismatch),
    ("matmul_oob", _matmul_oob), ("sparse_matmul", _sparse_matmul),
]
