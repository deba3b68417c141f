"""tf.ragged.constant / constant_value (from nested Python lists) and tf.ragged.placeholder."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.ops import array_ops

from .ragged_tensor import RaggedTensor
from .ragged_tensor_value import RaggedTensorValue


def _depths(pylist: Any, depth: int = 0) -> tuple:
    """(depth of the scalars, or None if there are none; greatest list depth)."""
    if not isinstance(pylist, (list, tuple)) and not (isinstance(pylist, np.ndarray) and pylist.ndim):
        return depth, depth
    scalar, deepest = None, depth + 1
    for item in pylist:
        s, d = _depths(item, depth + 1)
        if s is not None:
            if scalar is not None and s != scalar:
                raise ValueError("all scalar values must have the same nesting depth")
            scalar = s
        deepest = max(deepest, d)
    return scalar, deepest


def _inner_shape(rows: list, ragged_rank: int) -> tuple:
    """The uniform shape of the items ragged_rank levels down (ValueError when they differ)."""
    items = rows
    for _ in range(ragged_rank):
        items = [x for row in items for x in row]
    shapes = {np.shape(x) for x in items}
    if len(shapes) > 1:
        raise ValueError("inner values have inconsistent shape")
    return shapes.pop() if shapes else (0,) * 0


def _split(pylist: Any, ragged_rank: int, splits_dtype: Any) -> tuple:
    """(flat items, [row_splits outermost first]) of pylist cut ragged_rank levels deep."""
    nested = []
    items = list(pylist)
    for _ in range(ragged_rank):
        lengths = [len(row) for row in items]
        nested.append(np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(splits_dtype))
        items = [x for row in items for x in row]
    return items, nested


def _resolve(pylist: Any, ragged_rank: Optional[int], inner_shape: Any) -> tuple:
    scalar_depth, max_depth = _depths(pylist)
    if scalar_depth is not None and max_depth > scalar_depth:
        raise ValueError("all scalar values must have the same nesting depth")
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if (scalar_depth is not None and expected != scalar_depth) or (scalar_depth is None and expected < max_depth):
            raise ValueError("pylist has scalar values depth %d, but ragged_rank=%d and len(inner_shape)=%d require "
                             "scalar value depth %d" % (scalar_depth, ragged_rank, len(inner_shape), expected))
    if ragged_rank is None:
        depth = max_depth if scalar_depth is None else scalar_depth
        ragged_rank = max(1, depth - 1 - (0 if inner_shape is None else len(inner_shape)))
    if ragged_rank < 0 or (scalar_depth is not None and ragged_rank >= scalar_depth):
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    if inner_shape is None:
        inner_shape = _inner_shape(list(pylist), ragged_rank)
    return ragged_rank, tuple(inner_shape)


def constant_value(pylist: Any, dtype: Any = None, ragged_rank: Optional[int] = None, inner_shape: Any = None,
                   row_splits_dtype: Any = "int64") -> Any:
    """A RaggedTensorValue (numpy) of a nested list; a plain array when ragged_rank is 0."""
    splits_dtype = dtypes.as_dtype(row_splits_dtype).as_numpy_dtype
    np_dtype = None if dtype is None else dtypes.as_dtype(dtype).as_numpy_dtype
    if isinstance(pylist, RaggedTensorValue):
        return pylist
    if not isinstance(pylist, (list, tuple)):
        return np.reshape(np.array(pylist, dtype=np_dtype), inner_shape if inner_shape is not None else ())
    ragged_rank, inner = _resolve(pylist, ragged_rank, inner_shape)
    if ragged_rank == 0:
        return np.reshape(np.array(pylist, dtype=np_dtype), inner)
    items, nested = _split(pylist, ragged_rank, splits_dtype)
    values = np.reshape(np.array(items, dtype=np_dtype), (-1,) + inner)
    result: Any = values
    for splits in reversed(nested):
        result = RaggedTensorValue(result, splits)
    return result


def constant(pylist: Any, dtype: Any = None, ragged_rank: Optional[int] = None, inner_shape: Any = None,
             name: Optional[str] = None, row_splits_dtype: Any = dtypes.int64) -> Any:
    """A constant RaggedTensor of a nested list (a plain constant Tensor when ragged_rank is 0)."""
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    with ops.name_scope(name, "RaggedConstant"):
        if not isinstance(pylist, (list, tuple)):
            return ops.convert_to_tensor(pylist, dtype=dtype) if inner_shape is None else \
                array_ops.reshape(ops.convert_to_tensor(pylist, dtype=dtype), inner_shape)
        ragged_rank, inner = _resolve(pylist, ragged_rank, inner_shape)
        if ragged_rank == 0:
            return array_ops.reshape(ops.convert_to_tensor(pylist, dtype=dtype), inner)
        items, nested = _split(pylist, ragged_rank, splits_dtype.as_numpy_dtype)
        flat = ops.convert_to_tensor(items, dtype=dtype if items or dtype else dtypes.float32, name="values")
        if not items or inner:
            flat = array_ops.reshape(flat, (-1,) + inner)
        result: Any = flat
        for splits in reversed(nested):
            result = RaggedTensor.from_row_splits(result, ops.convert_to_tensor(splits, dtype=splits_dtype),
                                                  validate=False)
        return result


def placeholder(dtype: Any, ragged_rank: int, value_shape: Any = None, name: Optional[str] = None) -> Any:
    """A RaggedTensor of placeholders (flat_values and one int64 row_splits per ragged dimension) to feed."""
    if ragged_rank == 0:
        return array_ops.placeholder(dtype, value_shape, name)
    with ops.name_scope(name, "RaggedPlaceholder", []):
        flat_shape = tensor_shape.TensorShape([None]).concatenate(tensor_shape.as_shape(value_shape) if value_shape
                                                                  is not None else tensor_shape.unknown_shape())
        result: Any = array_ops.placeholder(dtype, flat_shape, "flat_values")
        for i in reversed(range(ragged_rank)):
            splits = array_ops.placeholder(dtypes.int64, [None], f"row_splits_{i}")
            result = RaggedTensor.from_row_splits(result, splits, validate=False)
        return result
