"""RaggedTensor.from_tensor: the rows of a dense tensor, whole, cut to given lengths, or cut before trailing
padding; ragged_rank > 1 keeps the middle dimensions as uniform-length partitions."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.ops import array_ops, math_ops


def from_tensor(cls: type, tensor: Any, lengths: Any, padding: Any, ragged_rank: int, name: Optional[str],
                splits_dtype: dtypes.DType) -> Any:
    """See RaggedTensor.from_tensor."""
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not isinstance(ragged_rank, int):
        raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
    if ragged_rank <= 0:
        raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received {ragged_rank}.")
    with ops.name_scope(name, "RaggedFromTensor", [tensor, lengths, padding]):
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        if tensor.shape.ndims is not None and tensor.shape.ndims < 2:
            raise ValueError(f"The rank of a RaggedTensor must be greater than 1, i.e., a list of scalars won't "
                             f"have ragged dimensions. Received argument `tensor` with rank {tensor.shape.ndims}.")
        tensor.shape.with_rank_at_least(ragged_rank + 1)
        input_shape = array_ops.shape(tensor, out_type=splits_dtype)
        ncols = input_shape[1]
        if isinstance(lengths, (list, tuple)) and len(lengths) and not isinstance(lengths[0], (int, float)):
            return _from_nested_lengths(cls, tensor, lengths, ragged_rank)
        if ragged_rank > 1:
            return _deep(cls, tensor, lengths, padding, ragged_rank, input_shape, splits_dtype)
        if padding is not None:
            lengths = _lengths_before_padding(tensor, padding, ncols, splits_dtype)
        if lengths is not None:
            lengths = ops.convert_to_tensor(lengths, name="lengths", dtype_hint=splits_dtype)
            if not lengths.dtype.is_integer:
                raise TypeError(f"lengths must be an integer tensor; dtype={lengths.dtype}")
            lengths = math_ops.cast(lengths, splits_dtype)
            lengths.shape.assert_has_rank(1)
            lengths = math_ops.maximum(math_ops.minimum(lengths, ncols), 0)
            splits = array_ops.concat([array_ops.zeros([1], splits_dtype), math_ops.cumsum(lengths)], axis=0)
            mask = array_ops.sequence_mask(lengths, maxlen=ncols)
            values = array_ops.boolean_mask(tensor, mask)
            return cls.from_row_splits(values, splits, validate=False)
        if tensor.shape.is_fully_defined():
            # TensorFlow's shape() of a known shape is a constant, so its reshape has a known result shape
            known = tensor.shape.as_list()
            values = array_ops.reshape(tensor, [known[0] * known[1]] + known[2:])
        else:
            values = array_ops.reshape(tensor, array_ops.concat(
                [array_ops.reshape(input_shape[0] * input_shape[1], [1]), input_shape[2:]], axis=0))
        dims = tensor.shape.as_list() if tensor.shape.ndims is not None else [None, None]
        nrows = input_shape[0] if dims[0] is None else ops.convert_to_tensor(dims[0], dtype=splits_dtype)
        ncols = input_shape[1] if dims[1] is None else ops.convert_to_tensor(dims[1], dtype=splits_dtype)
        return cls.from_uniform_row_length(values, ncols, nrows=nrows, validate=False)


def _lengths_before_padding(tensor: ops.Tensor, padding: Any, ncols: ops.Tensor,
                            splits_dtype: dtypes.DType) -> ops.Tensor:
    """Per row, one past the last cell that is not all padding."""
    padding = ops.convert_to_tensor(padding, name="padding", dtype=tensor.dtype)
    padding.shape.assert_is_compatible_with(tensor.shape[2:])
    is_pad = math_ops.equal(padding, tensor)
    rank = tensor.shape.ndims
    if rank is None:
        raise ValueError("from_tensor with padding needs the rank of tensor to be known")
    if rank > 2:
        is_pad = math_ops.reduce_all(is_pad, axis=list(range(2, rank)))
    real = math_ops.cast(math_ops.logical_not(is_pad), splits_dtype)
    ends = real * array_ops.expand_dims(math_ops.range(1, ncols + 1), 0)
    return math_ops.reduce_max(ends, axis=1)


def _from_nested_lengths(cls: type, tensor: ops.Tensor, lengths: Any, ragged_rank: int) -> Any:
    if ragged_rank not in (1, len(lengths)):
        raise ValueError(f"If Argument `lengths` is a tuple of row_lengths, argument `ragged_rank` must be "
                         f"len(lengths): {len(lengths)}. Received ragged_rank: {ragged_rank}.")
    tensor.shape.with_rank_at_least(len(lengths) + 1)
    count = math_ops.reduce_sum(lengths[-1])
    mask = cls.from_nested_row_lengths(array_ops.ones(array_ops.reshape(count, [1]), dtype=dtypes.bool), lengths,
                                       validate=False)
    values = array_ops.boolean_mask(tensor, mask.to_tensor(default_value=False))
    return cls.from_nested_row_lengths(values, lengths, validate=False)


def _deep(cls: type, tensor: ops.Tensor, lengths: Any, padding: Any, ragged_rank: int, input_shape: ops.Tensor,
          splits_dtype: dtypes.DType) -> Any:
    """ragged_rank > 1: the first ragged_rank dimensions merged, made ragged, then split again uniformly."""
    if tensor.shape.is_fully_defined():
        dims = tensor.shape.as_list()
        dim_size: Any = np.cumprod(dims)
        new_shape: Any = [int(dim_size[ragged_rank - 1])] + dims[ragged_rank:]
    else:
        dim_size = math_ops.cumprod(input_shape)
        new_shape = array_ops.concat([array_ops.reshape(dim_size[ragged_rank - 1], [1]), input_shape[ragged_rank:]],
                                     axis=0)
    result = cls.from_tensor(array_ops.reshape(tensor, new_shape), lengths, padding, row_splits_dtype=splits_dtype)
    for axis in range(ragged_rank - 1, 0, -1):
        known = tensor_shape.dimension_value(tensor.shape[axis])
        dim_len = input_shape[axis] if known is None else ops.convert_to_tensor(known, dtype=splits_dtype)
        nrows = dim_size[axis - 1]
        nrows = ops.convert_to_tensor(int(nrows), dtype=splits_dtype) if isinstance(nrows, np.integer) else nrows
        result = cls.from_uniform_row_length(result, dim_len, nrows=nrows, validate=False)
    return result
