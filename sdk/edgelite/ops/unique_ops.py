"""unique, unique_with_counts and setdiff1d (ListDiff): set-like ops over 1-D tensors, in first-seen order."""
from __future__ import annotations

import collections
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops.shape_checks import with_rank

_INDEX = [dtypes.int32, dtypes.int64]


def _unique(x: np.ndarray) -> tuple:
    """Distinct values in order of first appearance, each entry's position among them, and their counts."""
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return values[order], rank[inverse.ravel()], counts[order]


def _unique_shape(op: Any) -> list:
    n = with_rank(op, 0, 1).as_list()[0]
    return [[None], [n], [None]][:len(op.outputs)]


register_op("Unique", inputs=["x: T"], outputs=["y: T", "idx: out_idx"], attrs={"out_idx": dtypes.int32},
            kernel=lambda ctx, x: _unique(x)[:2], shape_fn=_unique_shape, allowed_dtypes={"out_idx": _INDEX})
register_op("UniqueWithCounts", inputs=["x: T"], outputs=["y: T", "idx: out_idx", "count: out_idx"],
            attrs={"out_idx": dtypes.int32}, kernel=lambda ctx, x: _unique(x), shape_fn=_unique_shape,
            allowed_dtypes={"out_idx": _INDEX})


def _list_diff_kernel(ctx: Any, x: np.ndarray, y: np.ndarray) -> tuple:
    keep = np.flatnonzero(~np.isin(x, y))
    return x[keep], keep


def _list_diff_shape(op: Any) -> list:
    with_rank(op, 0, 1)
    with_rank(op, 1, 1)
    return [[None], [None]]


register_op("ListDiff", inputs=["x: T", "y: T"], outputs=["out: T", "idx: out_idx"], attrs={"out_idx": dtypes.int32},
            kernel=_list_diff_kernel, shape_fn=_list_diff_shape, allowed_dtypes={"out_idx": _INDEX})
for _t in ("Unique", "UniqueWithCounts", "ListDiff"):
    ops.NoGradient(_t)

UniqueResult = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCountsResult = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
ListDiffResult = collections.namedtuple("ListDiff", ["out", "idx"])


def unique(x: Any, out_idx: Any = dtypes.int32, name: Optional[str] = None) -> UniqueResult:
    """Distinct entries of a 1-D tensor in first-seen order, and the position of each entry among them."""
    return UniqueResult(*ops.apply_op("Unique", [x], {"out_idx": dtypes.as_dtype(out_idx)}, name=name))


def unique_with_counts(x: Any, out_idx: Any = dtypes.int32, name: Optional[str] = None) -> UniqueWithCountsResult:
    """unique() plus how often each distinct entry occurs."""
    return UniqueWithCountsResult(*ops.apply_op("UniqueWithCounts", [x], {"out_idx": dtypes.as_dtype(out_idx)},
                                                name=name))


def setdiff1d(x: Any, y: Any, index_dtype: Any = dtypes.int32, name: Optional[str] = None) -> ListDiffResult:
    """The entries of x not in y (in x's order, duplicates kept) and their positions in x."""
    return ListDiffResult(*ops.apply_op("ListDiff", [x, y], {"out_idx": dtypes.as_dtype(index_dtype)}, name=name))


listdiff = setdiff1d
