"""Batching and unbatching ragged values (numpy): rows stacked into one more ragged dimension, or split back."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.framework import errors

from .ragged_tensor_value import RaggedTensorValue


def _levels(value: Any) -> tuple:
    """(flat values, [row_splits outermost first]) of a RaggedTensorValue, or of a dense array (no splits)."""
    if isinstance(value, RaggedTensorValue):
        return value.flat_values, list(value.nested_row_splits)
    return np.asarray(value), []


def stack_values(values: list, splits_dtype: Any) -> RaggedTensorValue:
    """One RaggedTensorValue whose row i is values[i] (dense arrays or RaggedTensorValues of one ragged_rank)."""
    parts = [_levels(v) for v in values]
    if any(len(s) == 0 for _, splits in parts for s in splits):
        raise errors.InvalidArgumentError(None, None, "Invalid ragged splits: ragged splits must have at least one "
                                                      "splits, but is empty")
    depth = len(parts[0][1]) if parts else 0
    outer = np.zeros(len(parts) + 1, np.int64)
    outer[1:] = np.cumsum([len(f) if not s else len(s[0]) - 1 for f, s in parts])
    levels = [outer]
    for k in range(depth):
        offset, pieces = 0, [np.zeros(1, np.int64)]
        for _, splits in parts:
            pieces.append(np.asarray(splits[k][1:], np.int64) + offset)
            offset += int(splits[k][-1])
        levels.append(np.concatenate(pieces))
    flats = [f for f, _ in parts]
    flat = np.concatenate(flats) if flats else np.zeros(0)
    result: Any = flat
    for splits in reversed(levels):
        result = RaggedTensorValue(result, splits.astype(splits_dtype))
    return result


def split_values(value: Any) -> list:
    """The rows of a RaggedTensorValue: RaggedTensorValues one ragged dimension shallower, or dense arrays."""
    flat, splits = _levels(value)
    rows = []
    for i in range(len(splits[0]) - 1):
        lo, hi = int(splits[0][i]), int(splits[0][i + 1])
        inner = []
        for s in splits[1:]:
            inner.append(np.asarray(s[lo:hi + 1]) - s[lo])
            lo, hi = int(s[lo]), int(s[hi])
        row: Any = flat[lo:hi]
        for s in reversed(inner):
            row = RaggedTensorValue(row, s.astype(splits[0].dtype))
        rows.append(row)
    return rows
