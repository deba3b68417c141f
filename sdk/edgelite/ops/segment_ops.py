"""Segment reductions: sorted (segment_*), unsorted (unsorted_segment_*) and sparse (sparse_segment_*)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import FLOAT_TYPES, NUMBER_TYPES, REAL_NUMBER_TYPES, register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import segment_kernels as sk
from edgelite.ops.math_ops import segment_sum, unsorted_segment_sum
from edgelite.ops.shape_checks import merge_dim, shape_error, with_rank, with_rank_at_least

_INDEX = [dtypes.int32, dtypes.int64]
_MINMAX_TYPES = list(REAL_NUMBER_TYPES)


# ---- static shapes ------------------------------------------------------------------------------------------------
def _sorted_shape(op: Any) -> list:
    data = with_rank_at_least(op, 0, 1)
    # TF leaves a length mismatch to run time ("segment_ids should be the same size as dimension 0 of input.")
    with_rank(op, 1, 1)
    return [None if data.ndims is None else [None] + data.as_list()[1:]]


def _num_segments(op: Any, i: int) -> Optional[int]:
    with_rank(op, i, 0)
    n = tensor_util.constant_value(op.inputs[i])
    return None if n is None else int(n)


def _unsorted_shape(op: Any) -> list:
    data, ids = op.inputs[0].shape, op.inputs[1].shape
    n = _num_segments(op, 2)
    if data.ndims is None or ids.ndims is None:
        return [None]
    if data.ndims < ids.ndims:
        raise shape_error(op, f"Shape must be at least rank {ids.ndims} but is rank {data.ndims}")
    for a, b in zip(data.as_list(), ids.as_list()):
        merge_dim(op, a, b)
    return [[n] + data.as_list()[ids.ndims:]]


def _sparse_shape(op: Any) -> list:
    data = with_rank_at_least(op, 0, 1)
    indices = with_rank(op, 1, 1).as_list()[0]
    ids = with_rank(op, 2, 1).as_list()[0]
    if indices is not None and ids is not None and indices != ids:
        raise shape_error(op, f"Dimension 0 in both shapes must be equal, but are {indices} and {ids}. Shapes are "
                              f"[{indices}] and [{ids}].")
    n = _num_segments(op, 3) if len(op.inputs) > 3 else None
    return [None if data.ndims is None else [n] + data.as_list()[1:]]


def _sparse_grad_shape(op: Any) -> list:
    grad = op.inputs[0].shape
    n = tensor_util.constant_value(op.inputs[3])
    return [None if grad.ndims is None else [None if n is None else int(n)] + grad.as_list()[1:]]


# ---- op registrations ---------------------------------------------------------------------------------------------
_SORTED_TYPES = {"Sum": NUMBER_TYPES, "Mean": NUMBER_TYPES, "Prod": NUMBER_TYPES, "Max": _MINMAX_TYPES,
                 "Min": _MINMAX_TYPES}
for _kind, _types in _SORTED_TYPES.items():
    register_op(f"Segment{_kind}", inputs=["data: T", "segment_ids: Tindices"], outputs=["output: T"],
                kernel=sk.make_kernel(sk.segment_reduce, _kind.lower()), shape_fn=_sorted_shape,
                allowed_dtypes={"T": list(_types), "Tindices": _INDEX})
for _kind in ("Sum", "Prod", "Max", "Min"):
    register_op(f"UnsortedSegment{_kind}", inputs=["data: T", "segment_ids: Tindices", "num_segments: Tnumsegments"],
                outputs=["output: T"], kernel=sk.make_kernel(sk.unsorted_segment_reduce, _kind.lower()),
                shape_fn=_unsorted_shape, attrs={"Tnumsegments": dtypes.int32},
                allowed_dtypes={"T": list(_SORTED_TYPES[_kind]), "Tindices": _INDEX, "Tnumsegments": _INDEX})
for _kind, _types in (("Sum", REAL_NUMBER_TYPES), ("Mean", FLOAT_TYPES), ("SqrtN", FLOAT_TYPES)):
    _allowed = {"T": list(_types), "Tidx": _INDEX, "Tsegmentids": _INDEX}
    _attrs = {"Tidx": dtypes.int32, "Tsegmentids": dtypes.int32, "sparse_gradient": False}
    _base = ["data: T", "indices: Tidx", "segment_ids: Tsegmentids"]
    register_op(f"SparseSegment{_kind}", inputs=_base, outputs=["output: T"], attrs=_attrs,
                kernel=sk.make_kernel(sk.sparse_segment_reduce, _kind.lower()), shape_fn=_sparse_shape,
                allowed_dtypes=_allowed)
    register_op(f"SparseSegment{_kind}WithNumSegments", inputs=_base + ["num_segments: Tnumsegments"],
                outputs=["output: T"], attrs=dict(_attrs, Tnumsegments=dtypes.int32),
                kernel=sk.make_kernel(sk.sparse_segment_reduce, _kind.lower()), shape_fn=_sparse_shape,
                allowed_dtypes=dict(_allowed, Tnumsegments=_INDEX))
    register_op(f"SparseSegment{_kind}Grad", inputs=["grad: T", "indices: Tidx", "segment_ids: Tsegmentids",
                                                     "output_dim0: int32"],
                outputs=["output: T"], attrs={"Tidx": dtypes.int32, "Tsegmentids": dtypes.int32},
                kernel=sk.make_kernel(sk.sparse_segment_grad, _kind.lower()), shape_fn=_sparse_grad_shape,
                allowed_dtypes={"T": list(FLOAT_TYPES), "Tidx": _INDEX, "Tsegmentids": _INDEX})


# ---- gradients ----------------------------------------------------------------------------------------------------
def _gather_drop_negatives(params: Any, ids: Any) -> tuple:
    """params gathered at ids, with zero rows where an id is negative; also the (broadcastable) keep mask."""
    is_positive = math_ops.greater_equal(ids, array_ops.zeros_like(ids))
    safe = array_ops.where_v2(is_positive, ids, array_ops.zeros_like(ids))
    gathered = array_ops.gather(params, safe)
    mask_shape = array_ops.concat([array_ops.shape(is_positive),
                                   array_ops.ones_like(array_ops.shape(gathered)[array_ops.rank(ids):])], 0)
    mask = array_ops.reshape(is_positive, mask_shape)
    return array_ops.where_v2(mask, gathered, array_ops.zeros_like(gathered)), mask


@ops.RegisterGradient("SegmentSum")
def _segment_sum_grad(op: Any, grad: Any) -> tuple:
    return array_ops.gather(grad, op.inputs[1]), None


@ops.RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op: Any, grad: Any) -> tuple:
    return _gather_drop_negatives(grad, op.inputs[1])[0], None, None


@ops.RegisterGradient("SegmentMean")
def _segment_mean_grad(op: Any, grad: Any) -> tuple:
    data, ids = op.inputs
    ones_shape = array_ops.concat([array_ops.shape(ids),
                                   array_ops.ones(array_ops.expand_dims(array_ops.rank(data) - 1, 0),
                                                  dtype=dtypes.int32)], 0)
    counts = segment_sum(array_ops.ones(ones_shape, dtype=grad.dtype), ids)
    return array_ops.gather(math_ops.divide(grad, counts), ids), None


@ops.RegisterGradient("SegmentMax")
@ops.RegisterGradient("SegmentMin")
def _segment_min_max_grad(op: Any, grad: Any) -> tuple:
    """The gradient is shared equally by the entries equal to their segment's extreme."""
    data, ids = op.inputs
    is_selected = math_ops.equal(data, array_ops.gather(op.outputs[0], ids))
    num_selected = segment_sum(math_ops.cast(is_selected, grad.dtype), ids)
    gathered = array_ops.gather(math_ops.divide(grad, num_selected), ids)
    return array_ops.where_v2(is_selected, gathered, array_ops.zeros_like(data)), None


@ops.RegisterGradient("UnsortedSegmentMax")
@ops.RegisterGradient("UnsortedSegmentMin")
def _unsorted_segment_min_max_grad(op: Any, grad: Any) -> tuple:
    data, ids, num = op.inputs
    gathered_out, mask = _gather_drop_negatives(op.outputs[0], ids)
    is_selected = math_ops.logical_and(math_ops.equal(data, gathered_out), mask)
    num_selected = unsorted_segment_sum(math_ops.cast(is_selected, grad.dtype), ids, num)
    gathered, _ = _gather_drop_negatives(math_ops.divide(grad, num_selected), ids)
    return array_ops.where_v2(is_selected, gathered, array_ops.zeros_like(data)), None, None


def _prod_partials(data: Any, is_zero: Any, non_zero_data: Any, prod: Any, non_zero_prod: Any) -> Any:
    """d prod / d x_i: prod / x_i, or the product of the other entries where x_i is the segment's only zero."""
    return array_ops.where_v2(is_zero, non_zero_prod, math_ops.divide(prod, non_zero_data))


@ops.RegisterGradient("SegmentProd")
def _segment_prod_grad(op: Any, grad: Any) -> tuple:
    data, ids = op.inputs
    is_zero = math_ops.equal(data, array_ops.zeros_like(data))
    num_zeros = segment_sum(math_ops.cast(is_zero, dtypes.int32), ids)
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
    partial = _prod_partials(data, is_zero, non_zero_data, array_ops.gather(op.outputs[0], ids),
                             array_ops.gather(segment_prod(non_zero_data, ids), ids))
    return array_ops.gather(grad, ids) * partial, None


@ops.RegisterGradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op: Any, grad: Any) -> tuple:
    data, ids, num = op.inputs
    is_zero = math_ops.equal(data, array_ops.zeros_like(data))
    num_zeros = unsorted_segment_sum(math_ops.cast(is_zero, dtypes.int32), ids, num)
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
    gathered_prod, _ = _gather_drop_negatives(op.outputs[0], ids)
    gathered_non_zero, _ = _gather_drop_negatives(unsorted_segment_prod(non_zero_data, ids, num), ids)
    gathered_grad, _ = _gather_drop_negatives(grad, ids)
    return gathered_grad * _prod_partials(data, is_zero, non_zero_data, gathered_prod, gathered_non_zero), None, None


def _sparse_segment_grad(kind: str, with_num: bool) -> Any:
    def grad_fn(op: Any, grad: Any) -> list:
        data, indices, ids = op.inputs[:3]
        dim0 = array_ops.shape(data)[0]
        dx = ops.apply_op(f"SparseSegment{kind}Grad", [grad, indices, ids, dim0])
        return [dx, None, None] + ([None] if with_num else [])
    return grad_fn


for _kind in ("Sum", "Mean", "SqrtN"):
    ops.RegisterGradient(f"SparseSegment{_kind}")(_sparse_segment_grad(_kind, False))
    ops.RegisterGradient(f"SparseSegment{_kind}WithNumSegments")(_sparse_segment_grad(_kind, True))
    ops.NoGradient(f"SparseSegment{_kind}Grad")


# ---- wrappers -----------------------------------------------------------------------------------------------------
def segment_mean(data: Any, segment_ids: Any, name: Optional[str] = None) -> ops.Tensor:
    """Means of data over sorted segment ids (empty segments give 0)."""
    return ops.apply_op("SegmentMean", [data, segment_ids], name=name)


def segment_max(data: Any, segment_ids: Any, name: Optional[str] = None) -> ops.Tensor:
    """Maxima of data over sorted segment ids (empty segments give 0)."""
    return ops.apply_op("SegmentMax", [data, segment_ids], name=name)


def segment_min(data: Any, segment_ids: Any, name: Optional[str] = None) -> ops.Tensor:
    """Minima of data over sorted segment ids (empty segments give 0)."""
    return ops.apply_op("SegmentMin", [data, segment_ids], name=name)


def segment_prod(data: Any, segment_ids: Any, name: Optional[str] = None) -> ops.Tensor:
    """Products of data over sorted segment ids (empty segments give 1)."""
    return ops.apply_op("SegmentProd", [data, segment_ids], name=name)


def unsorted_segment_max(data: Any, segment_ids: Any, num_segments: Any, name: Optional[str] = None) -> ops.Tensor:
    """Per-segment maxima; segments that receive nothing hold the dtype's lowest value."""
    return ops.apply_op("UnsortedSegmentMax", [data, segment_ids, num_segments], name=name)


def unsorted_segment_min(data: Any, segment_ids: Any, num_segments: Any, name: Optional[str] = None) -> ops.Tensor:
    """Per-segment minima; segments that receive nothing hold the dtype's highest value."""
    return ops.apply_op("UnsortedSegmentMin", [data, segment_ids, num_segments], name=name)


def unsorted_segment_prod(data: Any, segment_ids: Any, num_segments: Any, name: Optional[str] = None) -> ops.Tensor:
    """Per-segment products; segments that receive nothing hold 1."""
    return ops.apply_op("UnsortedSegmentProd", [data, segment_ids, num_segments], name=name)


def _segment_counts(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    """max(1, entries per segment), shaped to broadcast against the segment sums (TF's _unsorted_segment_N)."""
    ones = array_ops.ones_like(segment_ids, dtype=data.dtype)
    n = unsorted_segment_sum(ones, segment_ids, num_segments)
    n = math_ops.maximum(n, array_ops.ones_like(n))
    if data.shape.ndims is not None and segment_ids.shape.ndims is not None:
        shape = [-1] + [1] * (data.shape.ndims - segment_ids.shape.ndims)
    else:
        extra = array_ops.rank(data) - array_ops.rank(segment_ids)
        shape = array_ops.concat([[-1], array_ops.ones(array_ops.expand_dims(extra, 0), dtype=dtypes.int32)], 0)
    return array_ops.reshape(n, shape)


def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any, name: Optional[str] = None) -> ops.Tensor:
    """Per-segment means over unsorted ids; empty segments give 0."""
    with ops.name_scope(name, "UnsortedSegmentMean"):
        data = ops.convert_to_tensor(data, name="data")
        segment_ids = ops.convert_to_tensor(segment_ids, name="segment_ids")
        n = _segment_counts(data, segment_ids, num_segments)
        return unsorted_segment_sum(data, segment_ids, num_segments) / n


def unsorted_segment_sqrt_n(data: Any, segment_ids: Any, num_segments: Any,
                            name: Optional[str] = None) -> ops.Tensor:
    """Per-segment sums divided by sqrt(entries in the segment); empty segments give 0."""
    with ops.name_scope(name, "UnsortedSegmentSqrtN"):
        data = ops.convert_to_tensor(data, name="data")
        segment_ids = ops.convert_to_tensor(segment_ids, name="segment_ids")
        n = _segment_counts(data, segment_ids, num_segments)
        return unsorted_segment_sum(data, segment_ids, num_segments) / math_ops.sqrt(n)


def _sparse_segment(kind: str, data: Any, indices: Any, segment_ids: Any, name: Optional[str],
                    num_segments: Any) -> ops.Tensor:
    if num_segments is None:
        return ops.apply_op(f"SparseSegment{kind}", [data, indices, segment_ids], name=name)
    return ops.apply_op(f"SparseSegment{kind}WithNumSegments", [data, indices, segment_ids, num_segments],
                        name=name)


def sparse_segment_sum(data: Any, indices: Any, segment_ids: Any, name: Optional[str] = None,
                       num_segments: Any = None) -> ops.Tensor:
    """out[k] = sum of data[indices[i]] with segment_ids[i] == k (ids sorted)."""
    return _sparse_segment("Sum", data, indices, segment_ids, name, num_segments)


def sparse_segment_mean(data: Any, indices: Any, segment_ids: Any, name: Optional[str] = None,
                        num_segments: Any = None) -> ops.Tensor:
    """out[k] = mean of data[indices[i]] with segment_ids[i] == k (ids sorted)."""
    return _sparse_segment("Mean", data, indices, segment_ids, name, num_segments)


def sparse_segment_sqrt_n(data: Any, indices: Any, segment_ids: Any, name: Optional[str] = None,
                          num_segments: Any = None) -> ops.Tensor:
    """out[k] = sum of data[indices[i]] with segment_ids[i] == k, divided by sqrt(count)."""
    return _sparse_segment("SqrtN", data, indices, segment_ids, name, num_segments)
