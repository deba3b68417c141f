"""Cases for the sparse ops that rearrange entries: reorder, reshape, slice, split, concat, fill_empty_rows,
transpose, expand_dims, eye, from_dense, retain, reset_shape (values, gradients, errors)."""
from __future__ import annotations

import numpy as np

UNSORTED = ([[1, 2], [0, 3], [1, 0], [0, 0]], [1.0, 2.0, 3.0, 4.0], [2, 4])


def _st(tf, spec=UNSORTED, dtype=None):
    ind, val, shape = spec
    return tf.SparseTensor(ind, tf.constant(val, dtype=dtype or tf.float64), shape)


def _grad_of(tf, sp_out, values, weights):
    """d sum(weights * sp_out.values) / d values (weights fixed, one per output entry)."""
    return tf.gradients(tf.reduce_sum(sp_out.values * tf.constant(weights, sp_out.values.dtype)), values)


def _reorder(tf):
    st = _st(tf)
    out = tf.sparse_reorder(st)
    return [out, _grad_of(tf, out, st.values, [1.0, 2.0, 3.0, 4.0])], {}


def _reorder_3d(tf):
    st = tf.SparseTensor([[1, 0, 1], [0, 2, 0], [1, 0, 0], [0, 0, 5]], np.array([1, 2, 3, 4], np.int32), [2, 3, 6])
    return [tf.sparse.reorder(st)], {}


def _reorder_unknown_shape(tf):
    sp = tf.sparse_placeholder(tf.float32, shape=[None, 4])
    return [tf.sparse.reorder(sp)], {sp: ([[1, 1], [0, 2]], [1.0, 2.0], [2, 4])}


def _reorder_oob(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.reorder(sp)], {sp: ([[1, 1], [0, 5]], [1.0, 2.0], [2, 4])}


def _reshape(tf):
    st = tf.sparse.reorder(_st(tf))
    return [tf.sparse.reshape(st, [4, -1]), tf.sparse_reshape(st, [8])], {}


def _reshape_3d(tf):
    st = tf.SparseTensor([[0, 1, 2], [1, 2, 3]], [5, 6], [2, 3, 4])
    return [tf.sparse.reshape(st, [-1, 4])], {}


def _reshape_bad_static(tf):
    return [tf.sparse.reshape(_st(tf), [3, 3])], {}


def _reshape_bad_runtime(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.reshape(sp, [3, -1])], {sp: ([[0, 1]], [1.0], [2, 4])}


def _reshape_two_unknown(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.reshape(sp, [-1, -1])], {sp: ([[0, 1]], [1.0], [2, 4])}


def _slice(tf):
    st = tf.sparse.reorder(_st(tf))
    out = tf.sparse.slice(st, [0, 1], [2, 2])
    return [out, _grad_of(tf, out, st.values, [10.0])], {}


def _slice_past_end(tf):
    st = _st(tf)
    return [tf.sparse_slice(st, [1, 2], [5, 5]), tf.sparse_slice(st, [3, 0], [1, 1])], {}


def _split(tf):
    st = tf.sparse.reorder(tf.SparseTensor([[0, 0], [0, 4], [1, 1], [1, 6], [0, 2]], [1, 2, 3, 4, 5], [2, 7]))
    return tf.sparse.split(sp_input=st, num_split=3, axis=1), {}


def _split_rows(tf):
    st = tf.sparse.reorder(tf.SparseTensor([[0, 0], [2, 1], [1, 1]], [1.0, 2.0, 3.0], [3, 2]))
    return tf.sparse_split(sp_input=st, num_split=2, split_dim=0), {}


def _split_positional(tf):
    return tf.sparse_split(_st(tf), 2, 1), {}


def _split_too_many(tf):
    return tf.sparse.split(sp_input=_st(tf), num_split=5, axis=0), {}


def _concat(tf):
    a = tf.SparseTensor([[0, 2], [1, 0], [1, 1]], ["a", "b", "c"], [2, 3])
    b = tf.SparseTensor([[0, 1], [0, 2]], ["d", "e"], [2, 4])
    return [tf.sparse.concat(1, [a, b]), tf.sparse_concat(0, [a, a])], {}


def _concat_expand(tf):
    a = tf.SparseTensor([[0, 2], [1, 0]], [1.0, 2.0], [2, 3])
    b = tf.SparseTensor([[0, 1], [2, 3]], [3.0, 4.0], [3, 4])
    return [tf.sparse.concat(axis=0, sp_inputs=[a, b], expand_nonconcat_dim=True),
            tf.sparse.concat(-1, [a, b], expand_nonconcat_dim=True)], {}


def _concat_both_expand_args(tf):
    a = tf.SparseTensor([[0, 2]], [1.0], [2, 3])
    return [tf.sparse.concat(-1, [a, a], expand_nonconcat_dims=True)], {}


def _concat_mismatch(tf):
    a = tf.sparse_placeholder(tf.float32)
    b = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.concat(1, [a, b])], {a: ([[0, 0]], [1.0], [2, 3]), b: ([[0, 0]], [1.0], [3, 3])}


def _concat_not_sparse(tf):
    return [tf.sparse.concat(0, [_st(tf), tf.constant([[1.0]])])], {}


def _concat_not_list(tf):
    return [tf.sparse.concat(0, _st(tf))], {}


def _fill_empty_rows(tf):
    st = tf.SparseTensor([[1, 2], [1, 0], [3, 1]], tf.constant([1.0, 2.0, 3.0], tf.float64), [5, 4])
    out, empty = tf.sparse.fill_empty_rows(st, -1.0)
    g = tf.gradients(tf.reduce_sum(out.values * tf.constant([1, 2, 3, 4, 5, 6], tf.float64)), st.values)
    return [out, empty, g], {}


def _fill_empty_rows_unsorted_rows(tf):
    st = tf.SparseTensor([[2, 0], [0, 1], [2, 1]], np.array([7, 8, 9], np.int64), [4, 3])
    out, empty = tf.sparse_fill_empty_rows(st, 0)
    return [out, empty], {}


def _fill_empty_rows_bad_row(tf):
    sp = tf.sparse_placeholder(tf.float32)
    return [tf.sparse.fill_empty_rows(sp, 0.0)[0]], {sp: ([[0, 0], [3, 0]], [1.0, 2.0], [2, 2])}


def _transpose(tf):
    st = _st(tf)
    return [tf.sparse.transpose(st), tf.sparse_transpose(tf.SparseTensor(
        [[0, 1, 2], [1, 0, 3]], [1, 2], [2, 3, 4]), [1, 2, 0])], {}


def _expand_dims(tf):
    st = tf.sparse.reorder(_st(tf))
    return [tf.sparse.expand_dims(st, 0), tf.sparse.expand_dims(st), tf.sparse.expand_dims(st, -2)], {}


def _eye(tf):
    return [tf.sparse.eye(3), tf.sparse.eye(2, 4, dtype=tf.int32)], {}


def _from_dense(tf):
    x = tf.constant([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    return [tf.sparse.from_dense(x), tf.sparse.from_dense(tf.constant([["", "a"], ["b", ""]]))], {}


def _retain(tf):
    st = tf.sparse.reorder(_st(tf))
    return [tf.sparse.retain(st, [True, False, False, True]), tf.sparse_retain(st, tf.constant([False] * 4))], {}


def _retain_bad(tf):
    return [tf.sparse.retain(_st(tf), [True, False])], {}


def _reset_shape(tf):
    st = _st(tf)
    return [tf.sparse.reset_shape(st), tf.sparse_reset_shape(st, [3, 6])], {}


def _reset_shape_small(tf):
    return [tf.sparse.reset_shape(_st(tf), [1, 6])], {}


CASES = [
    ("reorder", _reorder), ("reorder_3d", _reorder_3d), ("reorder_unknown_shape", _reorder_unknown_shape),
    ("reorder_oob", _reorder_oob),
    ("reshape", _reshape), ("reshape_3d", _reshape_3d), ("reshape_bad_static", _reshape_bad_static),
    ("reshape_bad_runtime", _reshape_bad_runtime), ("reshape_two_unknown", _reshape_two_unknown),
    ("slice", _slice), ("slice_past_end", _slice_past_end),
    ("split", _split), ("split_rows", _split_rows), ("split_positional", _split_positional),
    ("split_too_many", _split_too_many),
    ("concat", _concat), ("concat_expand", _concat_expand), ("concat_mismatch", _concat_mismatch),
    ("concat_both_expand_args", _concat_both_expand_args), ("concat_not_sparse", _concat_not_sparse),
    ("concat_not_list", _concat_not_list),
    ("fill_empty_rows", _fill_empty_rows), ("fill_empty_rows_unsorted_rows", _fill_empty_rows_unsorted_rows),
    ("fill_empty_rows_bad_row", _fill_empty_rows_bad_row),
    ("transpose", _transpose), ("expand_dims", _expand_dims), ("eye", _eye), ("from_dense", _from_dense),
    ("retain", _retain), ("retain_bad", _retain_bad), ("reset_shape", _reset_shape),
    ("reset_shape_small", _reset_shape_small),
]
