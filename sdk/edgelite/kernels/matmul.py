"""Float32 MatMul / BatchMatMul on libedgelite's GEMM (el_train_mat_mul) instead of numpy's BLAS.

The compiled product sums every output in depth order on the kernels' own threads, so a training step's dense
layers give the same bits on any thread count and no BLAS thread pool runs beside the kernels' pool.
Anything the compiled product does not take (other dtypes, numpy selected, an older library) returns None and
the caller runs numpy.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from .backend import native_for
from .native import _check

_NAME = "el_train_mat_mul"


def _operand(x: np.ndarray, transpose: bool) -> Tuple[np.ndarray, bool]:
    """A C-contiguous float32 array for a matrix operand: a transposed view is read through the flag, not copied."""
    if x.ndim == 2 and not x.flags.c_contiguous and x.T.flags.c_contiguous:
        return x.T, not transpose
    return np.ascontiguousarray(x), transpose


def _call(h: Any, batch: int, m: int, n: int, depth: int, a: np.ndarray, a_stride: int, ta: bool,
          b: np.ndarray, b_stride: int, tb: bool, out: np.ndarray) -> None:
    buf = h.ffi.from_buffer
    status = h.lib.el_train_mat_mul(h.kernels, batch, m, n, depth, buf("float[]", a), a_stride, int(ta),
                                    buf("float[]", b), b_stride, int(tb), buf("float[]", out))
    _check(status, "mat_mul")


def _handle(a: np.ndarray, b: np.ndarray) -> Optional[Any]:
    # native_for also answers for float64, which has no compiled product here.
    h = native_for(a, b) if a.dtype == np.float32 else None
    return h if h is not None and h.has(_NAME) else None


def mat_mul(a: np.ndarray, b: np.ndarray, transpose_a: bool, transpose_b: bool) -> Optional[np.ndarray]:
    """op(a) @ op(b) of two float32 matrices whose inner sizes agree, or None when numpy should run it."""
    h = _handle(a, b)
    if h is None:
        return None
    a, transpose_a = _operand(a, transpose_a)
    b, transpose_b = _operand(b, transpose_b)
    m, depth = (a.shape[1], a.shape[0]) if transpose_a else a.shape
    n = b.shape[0] if transpose_b else b.shape[1]
    out = np.empty((m, n), dtype=np.float32)
    _call(h, 1, m, n, depth, a, 0, transpose_a, b, 0, transpose_b, out)
    return out


def _batch_operand(x: np.ndarray, batch_shape: Tuple[int, ...]) -> Tuple[np.ndarray, int]:
    """x with its batch axes broadcast to batch_shape, and the floats between its matrices (0 when one is shared)."""
    matrix = x.shape[-2] * x.shape[-1]
    if int(np.prod(x.shape[:-2], dtype=np.int64)) == 1:
        return np.ascontiguousarray(x), 0
    if x.shape[:-2] != batch_shape:
        x = np.broadcast_to(x, batch_shape + x.shape[-2:])
    return np.ascontiguousarray(x), matrix


def batch_mat_mul(a: np.ndarray, b: np.ndarray, adj_a: bool, adj_b: bool) -> Optional[np.ndarray]:
    """BatchMatMulV2 of float32 operands (batch axes broadcast, adjoint = transpose for real numbers), or None."""
    h = _handle(a, b)
    if h is None or a.ndim < 2 or b.ndim < 2:
        return None
    m, depth = (a.shape[-1], a.shape[-2]) if adj_a else a.shape[-2:]
    n = b.shape[-2] if adj_b else b.shape[-1]
    if depth != (b.shape[-1] if adj_b else b.shape[-2]):
        return None
    try:
        batch_shape = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    except ValueError:
        return None
    batch = int(np.prod(batch_shape, dtype=np.int64))
    out = np.empty(batch_shape + (m, n), dtype=np.float32)
    if out.size == 0:
        return out
    a, a_stride = _batch_operand(a, batch_shape)
    b, b_stride = _batch_operand(b, batch_shape)
    _call(h, batch, m, n, depth, a, a_stride, adj_a, b, b_stride, adj_b, out)
    return out
