"""Finite-difference checks of the sparse ops' gradients (float64, central differences)."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite.test import gradient_checker

IND = [[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]]
SHAPE = [3, 4]


def _values():
    return tf.placeholder(tf.float64, [5], name="values")


def _sp_matmul():
    v, b = _values(), tf.placeholder(tf.float64, [4, 2], name="b")
    return [v, b], [[5], [4, 2]], tf.sparse.sparse_dense_matmul(tf.SparseTensor(IND, v, SHAPE), b), [3, 2]


def _sp_matmul_adjoint():
    v, b = _values(), tf.placeholder(tf.float64, [2, 3], name="b")
    out = tf.sparse.sparse_dense_matmul(tf.SparseTensor(IND, v, SHAPE), b, adjoint_a=True, adjoint_b=True)
    return [v, b], [[5], [2, 3]], out, [4, 2]


def _sp_add():
    v, w = _values(), tf.placeholder(tf.float64, [3], name="w")
    s = tf.sparse.add(tf.SparseTensor(IND, v, SHAPE), tf.SparseTensor([[0, 2], [1, 0], [2, 3]], w, SHAPE))
    return [v, w], [[5], [3]], tf.sparse.to_dense(s), SHAPE


def _sp_dense_add():
    v, d = _values(), tf.placeholder(tf.float64, SHAPE, name="d")
    return [v, d], [[5], SHAPE], tf.sparse.add(tf.SparseTensor(IND, v, SHAPE), d) ** 2, SHAPE


def _reduce_sum():
    v = _values()
    return [v], [[5]], tf.sparse.reduce_sum(tf.SparseTensor(IND, v, SHAPE), 1) ** 2, [3]


def _softmax():
    v = _values()
    return [v], [[5]], tf.sparse.softmax(tf.SparseTensor(IND, v, SHAPE)).values, [5]


def _cwise():
    v, d = _values(), tf.placeholder(tf.float64, [4], name="d")
    st = tf.SparseTensor(IND, v, SHAPE)
    return [v, d], [[5], [4]], tf.concat([(st * d).values, (st / (d + 2.0)).values], 0), [10]


def _to_dense():
    v, dv = _values(), tf.placeholder(tf.float64, [], name="default")
    return [v, dv], [[5], []], tf.sparse_to_dense(IND, SHAPE, v, dv) ** 2, SHAPE


def _slice_fill_reorder():
    v = _values()
    st = tf.SparseTensor([[2, 0], [0, 2], [1, 1], [0, 0], [2, 3]], v, SHAPE)
    sliced = tf.sparse.slice(tf.sparse.reorder(st), [0, 1], [3, 3])
    filled, _ = tf.sparse.fill_empty_rows(sliced, 0.5)
    return [v], [[5]], tf.sparse.to_dense(filled, validate_indices=False) ** 2, [3, 3]


def _embedding():
    params = tf.placeholder(tf.float64, [4, 2], name="params")
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([1, 3, 1], tf.int64), [3, 2])
    w = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([0.5, 2.0, 1.5], tf.float64), [3, 2])
    # The multiply densifies the IndexedSlices gradient of the lookup, which the checker cannot run.
    out = tf.nn.embedding_lookup_sparse(params * 1.0, ids, w, combiner="sqrtn")
    return [params], [[4, 2]], out, [3, 2]


@pytest.mark.parametrize("build", [_sp_matmul, _sp_matmul_adjoint, _sp_add, _sp_dense_add, _reduce_sum, _softmax,
                                   _cwise, _to_dense, _slice_fill_reorder, _embedding])
def test_gradient_matches_finite_differences(build) -> None:
    rng = np.random.default_rng(7)
    with tf.Graph().as_default(), tf.Session():
        xs, shapes, y, y_shape = build()
        inits = [rng.uniform(0.5, 1.5, size=s) for s in shapes]
        err = gradient_checker.compute_gradient_error(xs, shapes, y, y_shape, x_init_value=inits, delta=1e-6)
    assert err < 1e-6
