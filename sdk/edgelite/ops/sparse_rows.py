"""Splitting a SparseTensor value into its rows (first dimension) and stacking rows back into a minibatch:
what from_tensor_slices/unbatch and the queue batchers do to SparseTensor components."""
from __future__ import annotations

from typing import Any, List

import numpy as np

from edgelite.framework import errors
from edgelite.framework.sparse_tensor import SparseTensorValue
from edgelite.ops.sparse_checks import validate_sorted_in_bounds


def split_rows(value: Any, what: str = "SparseTensor") -> List[SparseTensorValue]:
    """The dense_shape[0] row SparseTensorValues of value (rank >= 1); like TF's SerializeManySparse, the
    indices must be in bounds, sorted and unique (InvalidArgumentError naming the first bad one)."""
    shape = np.asarray(value.dense_shape, np.int64)
    if shape.shape[0] < 1:
        raise errors.InvalidArgumentError(None, None, f"{what}: cannot split a SparseTensor of rank 0 into rows")
    indices = np.asarray(value.indices, np.int64).reshape(-1, shape.shape[0])
    values = np.asarray(value.values)
    validate_sorted_in_bounds(indices, shape)
    n = int(shape[0])
    bounds = np.searchsorted(indices[:, 0], np.arange(n + 1))
    inner = shape[1:].copy()
    return [SparseTensorValue(indices[a:b, 1:], values[a:b], inner.copy()) for a, b in zip(bounds[:-1], bounds[1:])]


def stack_rows(parts: list) -> SparseTensorValue:
    """One minibatch SparseTensorValue of row values: a leading batch index on every index, dense shape [n] and
    the elementwise largest shape of the rows; the rows' entries keep their order."""
    ranks = [len(np.ravel(p.dense_shape)) for p in parts]
    for i, r in enumerate(ranks[1:], 1):
        if r != ranks[0]:
            raise errors.InvalidArgumentError(None, None, f"Inconsistent rank across SparseTensors: rank prior to "
                                                          f"SparseTensor[{i}] was: {ranks[0] + 1} but rank of "
                                                          f"SparseTensor[{i}] is: {r + 1}")
    rank = ranks[0] if ranks else 0
    indices = [np.concatenate([np.full((len(p.values), 1), i, np.int64),
                               np.asarray(p.indices, np.int64).reshape(-1, rank)], axis=1)
               for i, p in enumerate(parts)]
    shape = np.max(np.stack([np.asarray(p.dense_shape, np.int64).reshape(rank) for p in parts]), axis=0) \
        if parts else np.zeros(rank, np.int64)
    values = np.concatenate([np.asarray(p.values) for p in parts]) if parts else np.zeros(0)
    return SparseTensorValue(np.concatenate(indices).reshape(-1, rank + 1) if parts else
                             np.zeros((0, rank + 1), np.int64), values,
                             np.concatenate([[len(parts)], shape]).astype(np.int64))
