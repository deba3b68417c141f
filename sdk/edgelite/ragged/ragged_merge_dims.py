"""RaggedTensor.merge_dims: dimensions outer_axis..inner_axis flattened into one, row-major."""
from __future__ import annotations

import math
from typing import Any, Optional

from edgelite.ops import array_ops, math_ops


def positive_axis(axis: Any, ndims: Optional[int], axis_name: str) -> int:
    """axis counted from the front (negative axes need a known rank), checked against the rank."""
    if not isinstance(axis, int):
        raise TypeError(f"{axis_name} must be an int; got {type(axis).__name__}")
    if ndims is not None:
        if 0 <= axis < ndims:
            return axis
        if -ndims <= axis < 0:
            return axis + ndims
        raise ValueError(f"{axis_name}={axis} out of bounds: expected {-ndims}<={axis_name}<{ndims}")
    if axis < 0:
        raise ValueError(f"{axis_name}={axis} may only be negative if rank(self) is statically known.")
    return axis


def _reshape_merged(value: Any, outer: int, inner: int) -> Any:
    """A dense tensor with dimensions outer..inner merged by a reshape."""
    if value.shape.is_fully_defined():
        dims = value.shape.as_list()
        return array_ops.reshape(value, dims[:outer] + [-1] + dims[inner + 1:])
    shape = array_ops.shape(value)
    return array_ops.reshape(value, array_ops.concat([shape[:outer], [-1], shape[inner + 1:]], axis=0))


def merge_dims(value: Any, outer_axis: int, inner_axis: int) -> Any:
    """See RaggedTensor.merge_dims; value may also be a dense tensor."""
    from .ragged_tensor import RaggedTensor
    rank = value.shape.ndims
    outer_axis = positive_axis(outer_axis, rank, "outer_axis")
    inner_axis = positive_axis(inner_axis, rank, "inner_axis")
    if not outer_axis <= inner_axis:
        raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to inner_axis "
                         f"({inner_axis}).")
    if outer_axis == inner_axis:
        return value
    # merging the outermost dimensions of a ragged tensor is taking its values
    while outer_axis == 0 and isinstance(value, RaggedTensor):
        value = value.values
        inner_axis -= 1
        if inner_axis == 0:
            return value
    if not isinstance(value, RaggedTensor):
        return _reshape_merged(value, outer_axis, inner_axis)
    if outer_axis > 1:
        return value.with_values(merge_dims(value.values, outer_axis - 1, inner_axis - 1))
    values, splits = value.values, value.row_splits
    for axis in range(outer_axis, inner_axis):
        if isinstance(values, RaggedTensor):
            splits = array_ops.gather(values.row_splits, splits)
            values = values.values
            continue
        cut = inner_axis - axis + 1
        if values.shape.is_fully_defined():
            dims = values.shape.as_list()
            values = array_ops.reshape(values, [-1] + dims[cut:])
            splits = splits * math.prod(dims[1:cut])
        else:
            shape = array_ops.shape(values)
            size = math_ops.cast(math_ops.reduce_prod(shape[1:cut]), splits.dtype)
            values = array_ops.reshape(values, array_ops.concat([[-1], shape[cut:]], axis=0))
            splits = splits * size
        break
    return RaggedTensor.from_row_splits(values, splits)
