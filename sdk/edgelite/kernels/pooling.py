"""2-D max and average pooling kernels (NHWC) with their gradients, TF CPU semantics."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import native
from .backend import native_for
from .geometry import Padding, Window2D, crop, pad_input, window2d, windows


def _geometry(in_shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], padding: Padding) -> Window2D:
    return window2d(in_shape, ksize, strides, (1, 1), padding)


def _pooled_shape(in_shape: Sequence[int], g: Window2D) -> tuple:
    return (int(in_shape[0]), g.out_h, g.out_w, int(in_shape[3]))


def _lowest(dtype: np.dtype) -> float:
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return -np.inf
    return np.iinfo(dtype).min


def max_pool(x: np.ndarray, ksize: Sequence[int], strides: Sequence[int], padding: Padding) -> np.ndarray:
    """Max over each window; padding never wins because it holds the dtype's lowest value."""
    g = _geometry(x.shape, ksize, strides, padding)
    h = native_for(x)
    if h is not None:
        return native.window_op(h, "max_pool", g, x.shape, x.shape[3], _pooled_shape(x.shape, g), x)
    return windows(pad_input(x, g, _lowest(x.dtype)), g).max(axis=(3, 4))


def _winner_masks(x: np.ndarray, g: Window2D):
    """Yields (i, j, hit) per filter tap in row-major order: hit marks the windows whose first maximum (TF's
    CPU tie rule: the earliest element in scan order wins) sits at tap (i, j)."""
    xp = pad_input(x, g, _lowest(x.dtype))
    y = windows(xp, g).max(axis=(3, 4))
    claimed = np.zeros(y.shape, dtype=bool)
    for i in range(g.k_h):
        for j in range(g.k_w):
            hit = xp[g.tap(i, j)] == y
            hit &= ~claimed
            claimed |= hit
            yield i, j, hit


def max_pool_grad(x: np.ndarray, y: np.ndarray, dy: np.ndarray, ksize: Sequence[int],
                  strides: Sequence[int], padding: Padding) -> np.ndarray:
    """Routes each output gradient to the input element that won its window (MaxPoolGrad).

    Like TF's CPU kernel, the winners are recomputed from x; `y` is accepted for the op's signature.
    """
    g = _geometry(x.shape, ksize, strides, padding)
    if tuple(dy.shape) != (x.shape[0], g.out_h, g.out_w, x.shape[3]):
        raise ValueError(f"gradient shape {tuple(dy.shape)} does not match the pooled shape "
                         f"{(x.shape[0], g.out_h, g.out_w, x.shape[3])}")
    h = native_for(x, dy)
    if h is not None:
        return native.window_op(h, "max_pool_grad", g, x.shape, x.shape[3], tuple(x.shape), x, dy)
    dxp = np.zeros((x.shape[0], g.padded_h, g.padded_w, x.shape[3]), dtype=dy.dtype)
    zero = np.zeros((), dtype=dy.dtype)
    for i, j, hit in _winner_masks(x, g):
        dxp[g.tap(i, j)] += np.where(hit, dy, zero)
    return crop(dxp, g)


def max_pool_grad_grad(x: np.ndarray, y: np.ndarray, ddx: np.ndarray, ksize: Sequence[int],
                       strides: Sequence[int], padding: Padding) -> np.ndarray:
    """Gradient of MaxPoolGrad with respect to its incoming gradient: picks ddx at each window's winner."""
    g = _geometry(x.shape, ksize, strides, padding)
    ddxp = pad_input(ddx, g)
    out = np.zeros((x.shape[0], g.out_h, g.out_w, x.shape[3]), dtype=ddx.dtype)
    for i, j, hit in _winner_masks(x, g):
        np.copyto(out, ddxp[g.tap(i, j)], where=hit)
    return out


def _window_counts(g: Window2D) -> np.ndarray:
    """Number of real (non-padding) input elements in each output window, shape [OH, OW, 1]."""
    def axis_counts(out: int, k: int, stride: int, pad: int, size: int) -> np.ndarray:
        start = np.arange(out) * stride - pad
        return np.minimum(start + k, size) - np.maximum(start, 0)
    rows = axis_counts(g.out_h, g.k_h, g.stride_h, g.pad_top, g.in_h)
    cols = axis_counts(g.out_w, g.k_w, g.stride_w, g.pad_left, g.in_w)
    return (rows[:, None] * cols[None, :])[:, :, None]


def avg_pool(x: np.ndarray, ksize: Sequence[int], strides: Sequence[int], padding: Padding) -> np.ndarray:
    """Mean over each window, counting only real elements (SAME padding is excluded from the divisor)."""
    g = _geometry(x.shape, ksize, strides, padding)
    h = native_for(x)
    if h is not None:
        return native.window_op(h, "avg_pool", g, x.shape, x.shape[3], _pooled_shape(x.shape, g), x)
    sums = windows(pad_input(x, g), g).sum(axis=(3, 4))
    return (sums / _window_counts(g)).astype(x.dtype, copy=False)


def avg_pool_grad(input_shape: Sequence[int], dy: np.ndarray, ksize: Sequence[int],
                  strides: Sequence[int], padding: Padding) -> np.ndarray:
    """Spreads each output gradient evenly over the real elements of its window (AvgPoolGrad)."""
    input_shape = tuple(int(d) for d in input_shape)
    g = _geometry(input_shape, ksize, strides, padding)
    if tuple(dy.shape) != (input_shape[0], g.out_h, g.out_w, input_shape[3]):
        raise ValueError(f"gradient shape {tuple(dy.shape)} does not match the pooled shape "
                         f"{(input_shape[0], g.out_h, g.out_w, input_shape[3])}")
    h = native_for(dy)
    if h is not None:
        return native.window_op(h, "avg_pool_grad", g, input_shape, input_shape[3], input_shape, dy)
    share = (dy / _window_counts(g)).astype(dy.dtype, copy=False)
    dxp = np.zeros((input_shape[0], g.padded_h, g.padded_w, input_shape[3]), dtype=dy.dtype)
    for i in range(g.k_h):
        for j in range(g.k_w):
            dxp[g.tap(i, j)] += share
    return crop(dxp, g)
