"""tf.ragged.range: row i is range(starts[i], limits[i], deltas[i]) (scalars broadcast), one RaggedRange op."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import math_ops

from .ragged_tensor import RaggedTensor

_ORDER = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def _ragged_range_kernel(ctx: Any, starts: np.ndarray, limits: np.ndarray, deltas: np.ndarray) -> tuple:
    for name, x in (("starts", starts), ("limits", limits), ("deltas", deltas)):
        if x.ndim > 1:
            raise errors.InvalidArgumentError(None, None, f"{name} must be a scalar or vector")
    sizes = {x.shape[0] for x in (starts, limits, deltas) if x.ndim == 1}
    if len(sizes) > 1:
        raise errors.InvalidArgumentError(None, None, "starts, limits, and deltas must have the same shape")
    n = sizes.pop() if sizes else 1
    starts, limits, deltas = (np.broadcast_to(x, (n,)) for x in (starts, limits, deltas))
    if (deltas == 0).any():
        raise errors.InvalidArgumentError(None, None, "Requires delta != 0")
    with np.errstate(invalid="ignore"):
        counts = np.where(deltas > 0, np.ceil((limits - starts) / deltas), np.ceil((starts - limits) / -deltas))
    counts = np.maximum(counts, 0).astype(np.int64)
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(ctx.attrs["Tsplits"].as_numpy_dtype)
    steps = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(splits[:-1].astype(np.int64), counts)
    values = (np.repeat(starts, counts) + steps * np.repeat(deltas, counts)).astype(starts.dtype)
    return splits, values


def _ragged_range_shape(op: Any) -> list:
    rows = None
    for x in op.inputs:
        if x.shape.ndims is not None and x.shape.ndims > 1:
            raise ValueError(f"Shape must be at most rank 1 but is rank {x.shape.ndims}")
        d = x.shape.as_list()[0] if x.shape.ndims == 1 else None
        if d is not None and rows is not None and d != rows:
            raise ValueError(f"Dimensions must be equal, but are {d} and {rows}")
        rows = d if d is not None else rows
    if all(x.shape.ndims == 0 for x in op.inputs):
        rows = 1
    return [[None if rows is None else rows + 1], [None]]


register_op("RaggedRange", inputs=["starts: T", "limits: T", "deltas: T"],
            outputs=["rt_nested_splits: Tsplits", "rt_dense_values: T"], attrs={"Tsplits": dtypes.int64},
            kernel=_ragged_range_kernel, shape_fn=_ragged_range_shape)
ops.NoGradient("RaggedRange")


def range(starts: Any, limits: Any = None, deltas: Any = 1, dtype: Any = None,  # noqa: A001 - TF's name
          name: Optional[str] = None, row_splits_dtype: Any = dtypes.int64) -> RaggedTensor:
    """Row i holds starts[i], starts[i] + deltas[i], ... up to limits[i] (exclusive)."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    with ops.name_scope(name, "RaggedRange", [starts, limits, deltas]) as scope:
        starts = ops.convert_to_tensor(starts, dtype=dtype, name="starts")
        limits = ops.convert_to_tensor(limits, dtype=dtype, name="limits")
        deltas = ops.convert_to_tensor(deltas, dtype=dtype, name="deltas")
        if dtype is None:
            widest = max((t.dtype for t in (starts, limits, deltas)), key=_ORDER.index)
            starts, limits, deltas = (math_ops.cast(t, widest) for t in (starts, limits, deltas))
        splits, values = ops.apply_op("RaggedRange", [starts, limits, deltas], {"Tsplits": row_splits_dtype},
                                      name=scope)
        return RaggedTensor.from_row_splits(values, splits, validate=False)
