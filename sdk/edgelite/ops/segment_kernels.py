"""Numpy kernels of the segment reductions (sorted, unsorted, sparse), with TensorFlow's run-time checks."""
from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from edgelite.framework import errors


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _first_failure(runs: np.ndarray, rows: int, extra_bad: Optional[np.ndarray] = None) -> Optional[tuple]:
    """(kind, run) of the first failing run, checked in TF's order: ids increasing, id in range, then extra_bad."""
    order_bad = np.append(runs[:-1] > runs[1:], False)
    range_bad = (runs < 0) | (runs >= rows)
    bad = order_bad | range_bad if extra_bad is None else order_bad | range_bad | extra_bad
    if not bad.any():
        return None
    k = int(np.argmax(bad))
    return ("order" if order_bad[k] else "range" if range_bad[k] else "extra"), k


def _runs(ids: np.ndarray) -> tuple:
    """Start positions and ids of the runs of equal consecutive ids."""
    starts = np.flatnonzero(np.append(True, ids[1:] != ids[:-1])) if ids.size else np.zeros(0, np.int64)
    return starts, ids[starts]


def _range_message(seg: int, rows: int) -> str:
    return f"Segment id {seg} out of range [0, {rows}), possibly because 'segment_ids' input is not sorted."


def _trunc_div(total: np.ndarray, count: np.ndarray) -> np.ndarray:
    """total / count in total's dtype: true division for floats, truncation toward zero for integers."""
    if total.dtype.kind in "fc":
        return total / count
    q = np.abs(total) // count
    return np.where(total < 0, -q, q)


def _column(v: np.ndarray, ndim: int) -> np.ndarray:
    return v.reshape((-1,) + (1,) * (ndim - 1))


def segment_reduce(kind: str, data: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Segment{Sum,Mean,Max,Min,Prod} over sorted ids; empty segments give 1 for prod, else 0 (as TF)."""
    if data.ndim < 1 or ids.shape[0] != data.shape[0]:
        raise _invalid("segment_ids should be the same size as dimension 0 of input.")
    rows = int(ids[-1]) + 1 if ids.size else 0
    if rows < 0:
        raise _invalid("segment ids must be >= 0")
    starts, runs = _runs(ids)
    failure = _first_failure(runs, rows)
    if failure is not None:
        kind_bad, k = failure
        raise _invalid("segment ids are not increasing" if kind_bad == "order" else
                       _range_message(int(runs[k]), rows))
    out = np.full((rows,) + data.shape[1:], 1 if kind == "prod" else 0, dtype=data.dtype)
    if not starts.size:
        return out
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[kind]
    reduced = ufunc.reduceat(data, starts, axis=0)
    if kind == "mean":
        counts = np.diff(np.append(starts, ids.shape[0]))
        reduced = _trunc_div(reduced, _column(counts, data.ndim).astype(data.dtype))
    out[runs] = reduced
    return out


def _extreme(dtype: np.dtype, highest: bool) -> object:
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.max if highest else info.min


_UNSORTED = {
    # kind: (ufunc, initial value for segments that receive nothing)
    "sum": (np.add, lambda dt: 0), "prod": (np.multiply, lambda dt: 1),
    "max": (np.maximum, lambda dt: _extreme(dt, False)), "min": (np.minimum, lambda dt: _extreme(dt, True)),
}


def unsorted_segment_reduce(kind: str, data: np.ndarray, ids: np.ndarray, num: np.ndarray) -> np.ndarray:
    """UnsortedSegment{Sum,Prod,Max,Min}: negative ids are dropped; empty segments hold the reduction's identity."""
    n = int(num)
    if n < 0:
        raise _invalid(f"Input num_segments == {n} must not be negative.")
    if data.shape[:ids.ndim] != ids.shape:
        raise _invalid(f"data.shape = {list(data.shape)} does not start with segment_ids.shape = {list(ids.shape)}")
    flat_ids = ids.ravel()
    too_big = flat_ids >= n
    if too_big.any():
        k = int(np.argmax(too_big))
        raise _invalid(f"segment_ids[{k}] = {int(flat_ids[k])} is out of range [0, {n})")
    ufunc, initial = _UNSORTED[kind]
    tail = data.shape[ids.ndim:]
    out = np.full((n,) + tail, initial(data.dtype), dtype=data.dtype)
    keep = flat_ids >= 0
    ufunc.at(out, flat_ids[keep], data.reshape((-1,) + tail)[keep])
    return out


def _sparse_weights(kind: str, counts: np.ndarray) -> np.ndarray:
    if kind == "mean":
        return 1.0 / np.maximum(counts, 1)
    return 1.0 / np.sqrt(np.maximum(counts, 1))


def sparse_segment_reduce(kind: str, data: np.ndarray, indices: np.ndarray, ids: np.ndarray,
                          num: Optional[np.ndarray] = None) -> np.ndarray:
    """SparseSegment{Sum,Mean,SqrtN}[WithNumSegments]: reduce data[indices[i]] into segment ids[i] (sorted)."""
    if indices.shape[0] != ids.shape[0]:
        raise _invalid("segment_ids and indices should have same size.")
    last = int(ids[-1]) if ids.size else -1
    rows = last + 1 if num is None else int(num)
    if rows < 0:
        raise _invalid("segment ids must be >= 0")
    if num is not None and ids.size and rows <= last:
        raise _invalid("segment ids must be < num_segments")
    starts, runs = _runs(ids)
    index_bad = (indices < 0) | (indices >= data.shape[0])
    run_of = np.cumsum(np.append(True, ids[1:] != ids[:-1])) - 1 if ids.size else np.zeros(0, np.int64)
    run_bad = np.bincount(run_of[index_bad], minlength=runs.shape[0]) > 0
    failure = _first_failure(runs, rows, run_bad)
    if failure is not None:
        kind_bad, k = failure
        if kind_bad == "order":
            raise _invalid("segment ids are not increasing")
        if kind_bad == "range":
            raise _invalid(_range_message(int(runs[k]), rows))
        i = int(np.flatnonzero(index_bad & (run_of == k))[0])
        raise _invalid(f"Bad: indices[{i}] == {int(indices[i])} out of range [0, {data.shape[0]})")
    out = np.zeros((rows,) + data.shape[1:], dtype=data.dtype)
    if not starts.size:
        return out
    reduced = np.add.reduceat(data[indices], starts, axis=0)
    if kind != "sum":
        counts = np.diff(np.append(starts, ids.shape[0]))
        reduced = reduced * _column(_sparse_weights(kind, counts), data.ndim).astype(data.dtype)
    out[runs] = reduced
    return out


def sparse_segment_grad(kind: str, grad: np.ndarray, indices: np.ndarray, ids: np.ndarray,
                        dim0: np.ndarray) -> np.ndarray:
    """Backward of sparse_segment_reduce: out[indices[i]] += weight(ids[i]) * grad[ids[i]]."""
    out = np.zeros((int(dim0),) + grad.shape[1:], dtype=grad.dtype)
    rows = grad[ids]
    if kind != "sum":
        counts = np.bincount(ids, minlength=grad.shape[0])
        rows = rows * _column(_sparse_weights(kind, counts)[ids], grad.ndim).astype(grad.dtype)
    np.add.at(out, indices, rows)
    return out


def make_kernel(fn: Callable, kind: str) -> Callable:
    """A registry kernel `kernel(ctx, *arrays)` that calls fn(kind, *arrays)."""
    return lambda ctx, *arrays: fn(kind, *arrays)
