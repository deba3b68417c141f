"""tf.ragged.boolean_mask: keep the entries of data where mask is True without flattening the mask's
dimensions (each row keeps its own surviving entries), for dense or ragged data and masks."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, check_ops, math_ops

from .constant_eval import static_value
from .ragged_tensor import RaggedTensor
from .row_partition import row_splits_to_segment_ids


def _convert(x: Any, name: str, dtype: Any = None) -> Any:
    return x if isinstance(x, RaggedTensor) else ops.convert_to_tensor(x, dtype=dtype, name=name)


def _splits_of(lengths: ops.Tensor) -> ops.Tensor:
    return array_ops.concat([ops.convert_to_tensor([0], dtype=lengths.dtype), math_ops.cumsum(lengths)], axis=-1)


def _splits_dtype(data: Any, mask: Any) -> dtypes.DType:
    found = {x.row_splits.dtype for x in (data, mask) if isinstance(x, RaggedTensor)}
    if len(found) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    return found.pop() if found else dtypes.int64


def boolean_mask(data: Any, mask: Any, name: Optional[str] = None) -> Any:
    """data's entries where mask (a prefix of data's shape) is True, rows kept as ragged rows."""
    with ops.name_scope(name, "RaggedMask", [data, mask]):
        data = _convert(data, "data")
        mask = _convert(mask, "mask", dtypes.bool)
        splits_dtype = _splits_dtype(data, mask)
        if mask.shape.ndims is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if mask.shape.ndims == 0:
            raise ValueError("mask cannot be scalar.")
        if isinstance(mask, RaggedTensor):
            return _ragged_mask(data, mask, splits_dtype)
        if isinstance(data, RaggedTensor) and mask.shape.ndims == 1:
            kept_splits = _splits_of(array_ops.boolean_mask(data.row_lengths(), mask))
            value_mask = array_ops.gather(mask, row_splits_to_segment_ids(data.row_splits))
            return RaggedTensor.from_row_splits(boolean_mask(data.values, value_mask), kept_splits, validate=False)
        if isinstance(data, RaggedTensor):
            mask = RaggedTensor.from_tensor(mask, ragged_rank=min(data.ragged_rank, mask.shape.ndims - 1),
                                            row_splits_dtype=data.row_splits.dtype)
            return boolean_mask(data, mask)
        return _dense_mask(data, mask, splits_dtype)


def _ragged_mask(data: Any, mask: RaggedTensor, splits_dtype: dtypes.DType) -> Any:
    """A ragged mask: its row splits must be data's outer ones; rows are counted, then masked recursively."""
    if not isinstance(data, RaggedTensor):
        data = RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank, row_splits_dtype=mask.row_splits.dtype)
    ours, theirs = mask.nested_row_splits, data.nested_row_splits[:mask.ragged_rank]
    if len(ours) != len(theirs):
        raise ValueError("Inputs must have identical ragged splits")
    checks = [check_ops.assert_equal(a, b, message="Inputs must have identical ragged splits")
              for a, b in zip(ours, theirs)]
    with ops.control_dependencies(checks):
        splits = []
        while isinstance(mask, RaggedTensor):
            if mask.shape.ndims > 2:
                splits.append(mask.row_splits)
            else:
                kept = math_ops.unsorted_segment_sum(math_ops.cast(mask.values, splits_dtype), mask.value_rowids(),
                                                     mask.nrows())
                splits.append(_splits_of(kept))
            mask, data = mask.values, data.values
        return RaggedTensor.from_nested_row_splits(boolean_mask(data, mask), splits, validate=False)


def _dense_mask(data: ops.Tensor, mask: ops.Tensor, splits_dtype: dtypes.DType) -> Any:
    """Both dense: the kept values, regrouped by the mask's inner dimensions (ragged for a mask of rank >= 2)."""
    values = array_ops.boolean_mask(data, mask)
    if mask.shape.ndims < 2:
        return values
    kept = math_ops.reduce_sum(math_ops.cast(mask, splits_dtype), axis=-1)
    values = RaggedTensor.from_row_lengths(values, array_ops.reshape(kept, [-1]), validate=False)
    if mask.shape.ndims > 2:
        shape = array_ops.shape(mask, out_type=splits_dtype)
        split_size = math_ops.cumprod(shape) + 1
        for dim in range(mask.shape.ndims - 3, -1, -1):
            splits = math_ops.range(split_size[dim]) * shape[dim + 1]
            known = static_value(split_size[dim])
            if known is not None:
                splits.set_shape([int(known)])
            values = RaggedTensor.from_row_splits(values, splits, validate=False)
    return values
