"""Run-time checks of sparse index sets shared by the sparse kernels (order, repeats, bounds)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import errors

REORDER_HINT = ("Many sparse ops require sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                "copy.\n\n")


def fmt_index(row: np.ndarray) -> str:
    """An index row the way TF's messages print it: [1,2,3]."""
    return "[" + ",".join(str(int(v)) for v in np.ravel(row)) + "]"


def invalid(msg: str) -> errors.InvalidArgumentError:
    """An InvalidArgumentError the executor attributes to the running op."""
    return errors.InvalidArgumentError(None, None, msg)


def order_status(indices: np.ndarray) -> np.ndarray:
    """Per row i >= 1: -1 if row i sorts before row i-1, 0 if equal, 1 if after (lexicographic); row 0 gets 1."""
    n = indices.shape[0]
    out = np.ones(n, dtype=np.int64)
    if n < 2 or indices.shape[1] == 0:
        if n >= 2:
            out[1:] = 0
        return out
    diff = indices[1:] - indices[:-1]
    nz = diff != 0
    first = np.argmax(nz, axis=1)
    sign = np.sign(diff[np.arange(n - 1), first])
    out[1:] = np.where(nz.any(axis=1), sign, 0)
    return out


def out_of_bounds(indices: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """Per row: True if some coordinate is negative or not below the dense shape."""
    return ((indices < 0) | (indices >= np.asarray(shape)[None, :])).any(axis=1)


def validate_sorted_in_bounds(indices: np.ndarray, shape: np.ndarray) -> None:
    """SparseToDense's check: each row in bounds, then strictly after the previous one; the first failing row raises."""
    if indices.shape[0] == 0:
        return
    oob = out_of_bounds(indices, shape)
    status = order_status(indices)
    bad = np.flatnonzero(oob | (status <= 0))
    if bad.size == 0:
        return
    i = int(bad[0])
    if oob[i]:
        raise invalid(f"indices[{i}] = {fmt_index(indices[i])} is out of bounds: need 0 <= index < "
                      f"{fmt_index(shape)}")
    if status[i] < 0:
        raise invalid(f"indices[{i}] = {fmt_index(indices[i])} is out of order. {REORDER_HINT}")
    raise invalid(f"indices[{i}] = {fmt_index(indices[i])} is repeated")


def first_true(mask: np.ndarray) -> Optional[int]:
    """The first index where mask holds, or None."""
    hits = np.flatnonzero(mask)
    return int(hits[0]) if hits.size else None


def _dims_str(shape: Any) -> str:
    if shape.ndims is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def shape_error(op: Any, text: str) -> ValueError:
    """A build-time shape error worded like TF's shape-inference failures (naming node and input shapes)."""
    shapes = ", ".join(_dims_str(t.shape) for t in op.inputs)
    return ValueError(f"{text} for '{{{{node {op.name}}}}} = {op.type}[]' with input shapes: {shapes}.")


def input_with_rank(op: Any, i: int, rank: int) -> Any:
    """op.inputs[i]'s static shape, ValueError like TF if its known rank differs from rank."""
    s = op.inputs[i].shape
    if s.ndims is not None and s.ndims != rank:
        raise shape_error(op, f"Shape must be rank {rank} but is rank {s.ndims}")
    return s.with_rank(rank) if s.ndims is None else s
