"""SparseTensor object API beyond the TF-recorded cases: callables, eval, with_values, names in tf.sparse."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf


def test_make_callable_feeds_sparse_like_run() -> None:
    with tf.Graph().as_default():
        sp = tf.sparse_placeholder(tf.float32, shape=[2, 3])
        d = tf.sparse.to_dense(sp)
        value = tf.SparseTensorValue([[0, 2], [1, 0]], [1.0, 2.0], [2, 3])
        with tf.Session() as sess:
            want = sess.run(d, {sp: value})
            got = sess.make_callable(d, [sp])(value)
    np.testing.assert_array_equal(got, want)


def test_eval_with_values_and_from_value() -> None:
    with tf.Graph().as_default():
        st = tf.SparseTensor.from_value(tf.SparseTensorValue([[0], [2]], [3, 4], [4]))
        doubled = st.with_values(st.values * 2)
        assert doubled.shape.as_list() == [4]
        with tf.Session():
            v = doubled.eval()
            base = st.eval()
    assert isinstance(v, tf.SparseTensorValue)
    np.testing.assert_array_equal(v.values, base.values * 2)
    np.testing.assert_array_equal(v.indices, base.indices)


def test_names_and_predicates() -> None:
    assert tf.sparse.SparseTensor is tf.SparseTensor
    assert tf.sparse.SparseTensorValue is tf.SparseTensorValue
    with tf.Graph().as_default():
        st = tf.SparseTensor([[0]], [1.0], [2])
        d = tf.sparse.to_dense(st)
        assert d.op in st.consumers()
        assert st.graph is tf.get_default_graph()
        assert tf.convert_to_tensor_or_sparse_tensor(st) is st


def test_set_shape_refuses_incompatible() -> None:
    with tf.Graph().as_default():
        sp = tf.sparse_placeholder(tf.float32, shape=[3, None])
        sp.set_shape([3, 5])
        assert sp.shape.as_list() == [3, 5]
        with pytest.raises(ValueError):
            sp.set_shape([4, 5])
