"""RaggedTensor cases (construction, conversion, accessors, feeds, validation errors), shared by the TensorFlow
fixture generator and the edgelite tests (recorded into fixtures/tf_ragged.json under "ragged")."""
from __future__ import annotations

import numpy as np

V5 = [1, 2, 3, 4, 5]


def _rt(tf):
    return tf.RaggedTensor.from_row_splits(V5, [0, 2, 2, 5])


def _rt2(tf):
    """[[[1, 2], []], [], [[3], [4, 5]]] with ragged_rank 2."""
    return tf.RaggedTensor.from_nested_row_splits(V5, [[0, 2, 2, 4], [0, 2, 2, 3, 5]])


def _floats(tf):
    return tf.RaggedTensor.from_row_lengths([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1, 0, 2])


def _fed(tf, dtype, ragged_rank, value, value_shape=None):
    p = tf.ragged.placeholder(dtype, ragged_rank, value_shape)
    return p, {p: value}


def _placeholder_feed(tf):
    p = tf.ragged.placeholder(tf.float32, 1, [])
    return {"rt": p, "dense": p.to_tensor(-1.0), "lengths": p.row_lengths()}, \
        {p: tf.ragged.constant_value([[1.0, 2.0], [], [3.0]], dtype=np.float32)}


def _placeholder_feed_nested(tf):
    p = tf.ragged.placeholder(tf.int32, 2, [2])
    value = tf.ragged.constant_value([[[[1, 2]], []], [[[3, 4], [5, 6]]]], ragged_rank=2, dtype=np.int32)
    return {"rt": p, "sparse": p.to_sparse(), "bound": p.bounding_shape()}, {p: value}


def _feed_components(tf):
    values = tf.placeholder(tf.int64, [None])
    splits = tf.placeholder(tf.int64, [None])
    rt = tf.RaggedTensor.from_row_splits(values, splits)
    return rt.to_tensor(), {values: [1, 2, 3], splits: [0, 3, 3]}


def _validate_fed(tf, factory, partition, n_values=3, **kw):
    """A factory's validation with its partition fed, so the checks run in the session."""
    values = tf.placeholder(tf.int32, [None])
    part = tf.placeholder(tf.int64, [None])
    rt = factory(values, part, **kw)
    return rt, {values: list(range(n_values)), part: partition}


def _uniform_fed(tf):
    values = tf.placeholder(tf.int32, [None])
    length = tf.placeholder(tf.int64, [])
    rt = tf.RaggedTensor.from_uniform_row_length(values, length, nrows=2)
    return rt, {values: [1, 2, 3, 4, 5], length: 2}


def _value_rowids_nrows_fed(tf):
    values = tf.placeholder(tf.int32, [None])
    rowids = tf.placeholder(tf.int64, [None])
    nrows = tf.placeholder(tf.int64, [])
    return tf.RaggedTensor.from_value_rowids(values, rowids, nrows), {values: [1, 2, 3], rowids: [0, 1, 3],
                                                                        nrows: 3}


def _from_sparse_not_ragged_right(tf):
    st = tf.SparseTensor(tf.placeholder_with_default(tf.constant([[0, 0], [0, 2]], tf.int64), [None, 2]),
                         [1, 2], [2, 3])
    return tf.RaggedTensor.from_sparse(st)


CASES = [
    ("row_splits", _rt),
    ("row_splits_int32", lambda tf: tf.RaggedTensor.from_row_splits(V5, np.array([0, 3, 5], np.int32))),
    ("row_splits_no_validate", lambda tf: tf.RaggedTensor.from_row_splits(V5, [0, 1, 5], validate=False)),
    ("row_lengths", lambda tf: tf.RaggedTensor.from_row_lengths(V5, [2, 0, 3])),
    ("value_rowids", lambda tf: tf.RaggedTensor.from_value_rowids(V5, [0, 0, 2, 2, 3])),
    ("value_rowids_nrows", lambda tf: tf.RaggedTensor.from_value_rowids(V5, [0, 0, 2, 2, 3], nrows=6)),
    ("row_starts", lambda tf: tf.RaggedTensor.from_row_starts(V5, [0, 1, 1, 4])),
    ("row_limits", lambda tf: tf.RaggedTensor.from_row_limits(V5, [1, 1, 4, 5])),
    ("uniform_row_length", lambda tf: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2)),
    ("uniform_row_length_nrows", lambda tf: tf.RaggedTensor.from_uniform_row_length(
        tf.zeros([0, 2]), 0, nrows=3)),
    ("uniform_over_ragged", lambda tf: tf.RaggedTensor.from_uniform_row_length(_rt2(tf).values, 2)),
    ("nested_row_splits", _rt2),
    ("nested_row_lengths", lambda tf: tf.RaggedTensor.from_nested_row_lengths(V5, [[2, 0, 1], [1, 0, 4]])),
    ("nested_value_rowids", lambda tf: tf.RaggedTensor.from_nested_value_rowids(
        V5, [[0, 0, 2], [0, 2, 2, 2, 2]], [4, 3])),
    ("inner_dims", _floats),
    ("from_tensor", lambda tf: tf.RaggedTensor.from_tensor([[1, 2, 3], [4, 5, 6]])),
    ("from_tensor_lengths", lambda tf: tf.RaggedTensor.from_tensor([[1, 2, 3], [4, 5, 6]], lengths=[1, 5])),
    ("from_tensor_padding", lambda tf: tf.RaggedTensor.from_tensor([[1, 0, 3, 0], [0, 0, 0, 0], [7, 8, 9, 1]],
                                                                   padding=0)),
    ("from_tensor_padding_3d", lambda tf: tf.RaggedTensor.from_tensor(
        [[[1, 1], [0, 0]], [[0, 0], [0, 2]]], padding=[0, 0])),
    ("from_tensor_ragged_rank_2", lambda tf: tf.RaggedTensor.from_tensor(np.arange(24).reshape(2, 3, 4),
                                                                         ragged_rank=2)),
    ("from_tensor_nested_lengths", lambda tf: tf.RaggedTensor.from_tensor(
        np.arange(12).reshape(2, 2, 3), lengths=([2, 1], [1, 3, 2]))),
    ("from_tensor_int32_splits", lambda tf: tf.RaggedTensor.from_tensor([[1, 2], [3, 4]], lengths=[1, 2],
                                                                        row_splits_dtype=tf.int32)),
    ("from_sparse", lambda tf: tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]],
                                                                           [1.5, 2.5, 3.5], [4, 9]))),
    ("to_tensor", lambda tf: _rt(tf).to_tensor()),
    ("to_tensor_default", lambda tf: _rt(tf).to_tensor(default_value=-1)),
    ("to_tensor_shape_cut", lambda tf: _rt(tf).to_tensor(shape=[2, 2])),
    ("to_tensor_shape_pad", lambda tf: _rt(tf).to_tensor(default_value=9, shape=[4, None])),
    ("to_tensor_nested", lambda tf: _rt2(tf).to_tensor()),
    ("to_tensor_inner", lambda tf: _floats(tf).to_tensor(default_value=[7.0, 8.0])),
    ("to_sparse", lambda tf: _rt(tf).to_sparse()),
    ("to_sparse_nested", lambda tf: _rt2(tf).to_sparse()),
    ("to_sparse_inner", lambda tf: _floats(tf).to_sparse()),
    ("accessors", lambda tf: {"lengths": _rt(tf).row_lengths(), "rowids": _rt(tf).value_rowids(),
                              "nrows": _rt(tf).nrows(), "starts": _rt(tf).row_starts(),
                              "limits": _rt(tf).row_limits(), "bound": _rt(tf).bounding_shape(),
                              "nrows32": _rt(tf).nrows(out_type=tf.int32)}),
    ("nested_accessors", lambda tf: {"splits": list(_rt2(tf).nested_row_splits), "flat": _rt2(tf).flat_values,
                                     "lengths": list(_rt2(tf).nested_row_lengths()),
                                     "rowids": list(_rt2(tf).nested_value_rowids()),
                                     "bound": _rt2(tf).bounding_shape(), "values": _rt2(tf).values,
                                     "lengths_axis2": _rt2(tf).row_lengths(axis=2)}),
    ("with_values", lambda tf: _rt(tf).with_values(tf.constant([10, 20, 30, 40, 50]) * 2)),
    ("with_flat_values", lambda tf: _rt2(tf).with_flat_values(tf.cast(_rt2(tf).flat_values, tf.float32) / 2)),
    ("with_row_splits_dtype", lambda tf: _rt2(tf).with_row_splits_dtype(tf.int32)),
    ("constant", lambda tf: tf.ragged.constant([[1, 2], [], [3]])),
    ("constant_floats_nested", lambda tf: tf.ragged.constant([[[1.5], []], [[2.5, 3.5]]])),
    ("constant_strings", lambda tf: tf.ragged.constant([[b"a", b"bc"], [b"d"]])),
    ("constant_inner_shape", lambda tf: tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)),
    ("constant_int32_splits", lambda tf: tf.ragged.constant([[1], [2, 3]], dtype=tf.int64,
                                                            row_splits_dtype=tf.int32)),
    ("constant_empty_rows", lambda tf: tf.ragged.constant([[], []])),
    ("splits_to_segment_ids", lambda tf: tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6])),
    ("segment_ids_to_splits", lambda tf: tf.ragged.segment_ids_to_row_splits([0, 0, 2, 3, 3], num_segments=5)),
    ("segment_ids_to_splits_default", lambda tf: tf.ragged.segment_ids_to_row_splits([0, 0, 1, 3])),
    ("map_flat_values", lambda tf: tf.ragged.map_flat_values(tf.multiply, _rt(tf), 10)),
    ("map_flat_values_two", lambda tf: tf.ragged.map_flat_values(tf.add, _rt2(tf), _rt2(tf).with_flat_values(
        tf.constant([5, 4, 3, 2, 1])))),
    ("placeholder_feed", _placeholder_feed),
    ("placeholder_feed_nested", _placeholder_feed_nested),
    ("feed_components", _feed_components),
    ("merge_dims_0_1", lambda tf: _rt2(tf).merge_dims(0, 1)),
    ("merge_dims_1_2", lambda tf: _rt2(tf).merge_dims(1, 2)),
    ("merge_dims_all", lambda tf: _rt2(tf).merge_dims(0, -1)),
    ("merge_dims_inner_dense", lambda tf: tf.RaggedTensor.from_row_lengths(
        np.arange(12).reshape(3, 2, 2), [2, 1]).merge_dims(1, 3)),
    ("merge_dims_same", lambda tf: _rt(tf).merge_dims(1, 1)),
    ("err_merge_dims_order", lambda tf: _rt2(tf).merge_dims(2, 1)),
    ("err_merge_dims_bounds", lambda tf: _rt2(tf).merge_dims(0, 3)),
    ("nest_flatten", lambda tf: tf.nest.flatten({"r": _rt2(tf), "d": tf.constant(1)}, expand_composites=True)),
    ("nest_pack", lambda tf: tf.nest.pack_sequence_as(_rt(tf), [tf.constant([5, 6, 7, 8, 9]),
                                                                tf.constant([0, 1, 1, 5], tf.int64)],
                                                      expand_composites=True)),
    ("err_nest_pack_shape", lambda tf: tf.nest.pack_sequence_as(_rt(tf), [tf.constant([5, 6, 7, 8, 9]),
                                                                          tf.constant([0, 1, 5], tf.int64)],
                                                                expand_composites=True)),
    ("nest_map", lambda tf: tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, _rt2(tf),
                                                  expand_composites=True)),
    ("op_scalar", lambda tf: {"add": _rt(tf) + 1, "radd": 10 + _rt(tf), "sub": 1 - _rt(tf), "mul": _rt(tf) * 3,
                              "div": _rt(tf) / 2, "floordiv": _rt(tf) // 2, "mod": _rt(tf) % 2,
                              "pow": _rt(tf) ** 2, "neg": -_rt(tf), "abs": abs(-_rt(tf)), "lt": _rt(tf) < 3,
                              "ge": _rt(tf) >= 4}),
    ("op_same_partition", lambda tf: (lambda r: {"sum": r + r.with_flat_values(tf.ones_like(r.flat_values)),
                                                 "prod": r * r})(_rt2(tf))),
    ("op_equal_splits", lambda tf: _rt(tf) - tf.RaggedTensor.from_row_lengths([5, 4, 3, 2, 1], [2, 0, 3])),
    ("op_inner_row", lambda tf: _floats(tf) * tf.constant([10.0, 100.0])),
    ("op_bool", lambda tf: (lambda b: {"and": b & (_rt(tf) > 2), "or": b | False, "not": ~b})(_rt(tf) < 4)),
    ("range", lambda tf: tf.ragged.range([3, 5, 2])),
    ("range_starts_deltas", lambda tf: tf.ragged.range([0, 5, 8], [3, 3, 12], 2)),
    ("range_negative_float", lambda tf: tf.ragged.range(5.0, [0.0, 6.0, 1.5], -1.5)),
    ("range_scalars_int32_splits", lambda tf: tf.ragged.range(2, 7, row_splits_dtype=tf.int32)),
    ("range_mixed_dtypes", lambda tf: tf.ragged.range(tf.constant([1, 2]), tf.constant([4, 4], tf.int64))),
    ("err_range_zero_delta", lambda tf: tf.ragged.range([1, 2], 5, [1, 0])),
    ("err_range_shapes", lambda tf: tf.ragged.range([1, 2], [5, 6, 7])),
    ("err_range_rank", lambda tf: tf.ragged.range([[1]], 5)),
    ("mask_dense_2d", lambda tf: tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                                        [[True, False, True], [False, False, False],
                                                         [True, False, False]])),
    ("mask_dense_1d", lambda tf: tf.ragged.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True])),
    ("mask_dense_3d", lambda tf: tf.ragged.boolean_mask(np.arange(8).reshape(2, 2, 2),
                                                        np.array([[[1, 0], [1, 1]], [[0, 0], [0, 1]]], bool))),
    ("mask_ragged_ragged", lambda tf: tf.ragged.boolean_mask(
        tf.ragged.constant([[1, 2, 3], [4], [5, 6]]), tf.ragged.constant([[False, False, True], [False],
                                                                           [True, True]]))),
    ("mask_ragged_rows", lambda tf: tf.ragged.boolean_mask(_rt2(tf), [True, False, True])),
    ("err_mask_ragged_dense_shape", lambda tf: tf.ragged.boolean_mask(_floats(tf), [[True, False], [False, True],
                                                                              [True, True]])),
    ("mask_ragged_inner_dense", lambda tf: tf.ragged.boolean_mask(
        tf.RaggedTensor.from_row_lengths([[1, 2], [3, 4], [5, 6]], [2, 1]),
        tf.ragged.constant([[True, False], [True]]))),
    ("err_mask_scalar", lambda tf: tf.ragged.boolean_mask([1, 2], True)),
    ("err_mask_splits", lambda tf: tf.ragged.boolean_mask(tf.ragged.constant([[1, 2], [3]]),
                                                          tf.ragged.constant([[True], [False, True]]))),
    ("stack_axis0", lambda tf: tf.ragged.stack([_rt(tf), tf.ragged.constant([[9], [8, 7]])])),
    ("stack_axis1", lambda tf: tf.ragged.stack([_rt(tf), tf.ragged.constant([[9], [8, 7], []])], axis=1)),
    ("stack_axis2", lambda tf: tf.ragged.stack([_rt2(tf), _rt2(tf) * 10], axis=2)),
    ("stack_dense_ragged", lambda tf: tf.ragged.stack([tf.constant([[1, 2], [3, 4], [5, 6]]), _rt(tf)])),
    ("stack_vectors", lambda tf: tf.ragged.stack([tf.constant([1, 2, 3]), tf.constant([4])])),
    ("stack_dense_last_axis", lambda tf: tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=2)),
    ("stack_single", lambda tf: tf.ragged.stack(_rt2(tf), axis=1)),
    ("err_stack_rows", lambda tf: tf.ragged.stack([_rt(tf), tf.ragged.constant([[1]])], axis=1)),
    ("err_stack_empty", lambda tf: tf.ragged.stack([])),
    ("err_stack_rank", lambda tf: tf.ragged.stack([_rt(tf), tf.constant([1, 2])])),
    ("err_stack_axis", lambda tf: tf.ragged.stack([_rt(tf), _rt(tf)], axis=4)),
    ("string_split_ragged", lambda tf: tf.string_split(["a b", "", "c  d e"], result_type="RaggedTensor")),
    ("strings_split_ragged", lambda tf: tf.strings.split(["a<>b", "c"], sep="<>", result_type="RaggedTensor")),
    ("strings_split_scalar", lambda tf: tf.strings.split("x y z", result_type="RaggedTensor")),
    ("strings_split_matrix", lambda tf: tf.strings.split([["a b", "c"], ["", "d e f"]], result_type="RaggedTensor")),
    ("strings_split_matrix_sparse", lambda tf: tf.strings.split([["a b", "c"], ["", "d e f"]])),
    ("strings_split_of_ragged", lambda tf: tf.strings.split(tf.ragged.constant([["a b"], [], ["c", "d e"]]),
                                                            maxsplit=1, result_type="RaggedTensor")),
    ("err_string_split_result_type", lambda tf: tf.string_split(["a"], result_type="Dense")),
    ("err_strings_split_result_type", lambda tf: tf.strings.split(["a"], result_type="Dense")),
    # ---- validation at run time (InvalidArgumentError from the factories' assertions)
    ("err_splits_start", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_splits, [1, 2, 3])),
    ("err_splits_decrease", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_splits, [0, 3, 2, 3])),
    ("err_splits_nvals", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_splits, [0, 1, 2])),
    ("err_lengths_negative", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_lengths, [4, -1])),
    ("err_lengths_nvals", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_lengths, [1, 1])),
    ("err_rowids_decrease", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_value_rowids, [1, 0, 2])),
    ("err_rowids_negative", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_value_rowids, [-1, 0, 2])),
    ("err_rowids_nrows", _value_rowids_nrows_fed),
    ("err_starts_nonzero", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_starts, [1, 2])),
    ("err_starts_past_end", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_starts, [0, 5])),
    ("err_limits_decrease", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_limits, [2, 1, 3])),
    ("err_limits_nvals", lambda tf: _validate_fed(tf, tf.RaggedTensor.from_row_limits, [1, 2])),
    ("err_uniform_nvals", _uniform_fed),
    ("err_from_sparse_not_ragged_right", _from_sparse_not_ragged_right),
    # ---- build-time errors
    ("err_splits_rank", lambda tf: tf.RaggedTensor.from_row_splits(V5, [[0, 5]])),
    ("err_splits_empty", lambda tf: tf.RaggedTensor.from_row_splits(V5, [])),
    ("err_splits_float", lambda tf: tf.RaggedTensor.from_row_splits(V5, tf.constant([0.0, 5.0]))),
    ("err_validate_type", lambda tf: tf.RaggedTensor.from_row_splits(V5, [0, 5], validate=1)),
    ("err_values_scalar", lambda tf: tf.RaggedTensor.from_row_splits(3, [0, 1])),
    ("err_nrows_negative", lambda tf: tf.RaggedTensor.from_value_rowids(V5, [0, 0, 1, 1, 1], nrows=-1)),
    ("err_nrows_small", lambda tf: tf.RaggedTensor.from_value_rowids(V5, [0, 0, 1, 1, 3], nrows=2)),
    ("err_uniform_const", lambda tf: tf.RaggedTensor.from_uniform_row_length(V5, 2, nrows=2)),
    ("err_uniform_negative", lambda tf: tf.RaggedTensor.from_uniform_row_length(V5, -1, nrows=0)),
    ("err_from_tensor_rank1", lambda tf: tf.RaggedTensor.from_tensor([1, 2])),
    ("err_from_tensor_both", lambda tf: tf.RaggedTensor.from_tensor([[1]], lengths=[1], padding=0)),
    ("err_from_tensor_ragged_rank", lambda tf: tf.RaggedTensor.from_tensor([[1]], ragged_rank=0)),
    ("err_from_sparse_rank", lambda tf: tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0, 0]], [1], [1, 1, 1]))),
    ("err_from_sparse_type", lambda tf: tf.RaggedTensor.from_sparse(tf.constant([1]))),
    ("err_splits_dtype_mix", lambda tf: tf.RaggedTensor.from_row_splits(
        tf.RaggedTensor.from_row_splits(V5, np.array([0, 2, 5], np.int32)), tf.constant([0, 2], tf.int64))),
    ("err_constant_depth", lambda tf: tf.ragged.constant([[1, [2]], [3]])),
    ("err_private_constructor", lambda tf: tf.RaggedTensor(tf.constant([1]), None)),
    ("err_convert_to_tensor", lambda tf: tf.convert_to_tensor(_rt(tf)) is None),
]


def constant_value_cases(tf) -> dict:
    """tf.ragged.constant_value results: their lists, types and the numpy dtypes of values and splits."""
    out = {}
    for name, args, kw in [("ints", [[1, 2], [], [3]], {}), ("floats_rank2", [[[1.5], []], [[2.5]]], {}),
                           ("inner", [[[1, 2]], [[3, 4], [5, 6]]], {"ragged_rank": 1}),
                           ("typed", [[1], [2, 3]], {"dtype": "int32", "row_splits_dtype": "int32"})]:
        v = tf.ragged.constant_value(args, **kw)
        out[name] = {"list": v.to_list(), "flat_dtype": str(v.flat_values.dtype),
                     "splits_dtype": str(v.row_splits.dtype), "ragged_rank": v.ragged_rank,
                     "shape": list(v.shape), "repr": repr(v), "str": str(v)}
    return out
