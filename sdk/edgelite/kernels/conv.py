"""2-D convolution kernels (NHWC, HWIO filters): forward, input backprop and filter backprop, dense and depthwise."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import native
from .backend import native_for
from .geometry import Padding, Window2D, crop, pad_input, scatter_taps, window2d, windows


def _geometry(in_shape: Sequence[int], filter_shape: Sequence[int], strides: Sequence[int],
              dilations: Sequence[int], padding: Padding) -> Window2D:
    return window2d(in_shape, filter_shape[:2], strides, dilations, padding)


def _check_channels(in_c: int, filter_shape: Sequence[int]) -> None:
    if int(filter_shape[2]) != in_c:
        raise ValueError(f"input depth must be equal to filter depth: {in_c} vs {int(filter_shape[2])}")


def conv2d(x: np.ndarray, w: np.ndarray, strides: Sequence[int] = (1, 1),
           dilations: Sequence[int] = (1, 1), padding: Padding = "VALID") -> np.ndarray:
    """Cross-correlates NHWC `x` with HWIO `w`; im2col through a strided window view and one matmul."""
    _check_channels(x.shape[3], w.shape)
    g = _geometry(x.shape, w.shape, strides, dilations, padding)
    h = native_for(x, w)
    if h is not None:
        return native.window_op(h, "conv2d", g, x.shape, w.shape[3], _out_shape(x.shape[0], g, w.shape[3]), x, w)
    cols = windows(pad_input(x, g), g)
    k = g.k_h * g.k_w * x.shape[3]
    out = cols.reshape(-1, k) @ w.reshape(k, w.shape[3])
    return out.reshape(x.shape[0], g.out_h, g.out_w, w.shape[3])


def conv2d_backprop_input(input_shape: Sequence[int], w: np.ndarray, dy: np.ndarray,
                          strides: Sequence[int] = (1, 1), dilations: Sequence[int] = (1, 1),
                          padding: Padding = "VALID") -> np.ndarray:
    """Gradient of conv2d with respect to its input (also the forward pass of conv2d_transpose)."""
    input_shape = tuple(int(d) for d in input_shape)
    _check_channels(input_shape[3], w.shape)
    g = _geometry(input_shape, w.shape, strides, dilations, padding)
    _check_out(dy, g, w.shape[3])
    h = native_for(w, dy)
    if h is not None:
        return native.window_op(h, "conv2d_backprop_input", g, input_shape, w.shape[3], input_shape, w, dy)
    return _scatter_tap_products(dy, w, g, input_shape[0], input_shape[3])


def _scatter_tap_products(dy: np.ndarray, w: np.ndarray, g: Window2D, batch: int, channels: int) -> np.ndarray:
    """col2im one filter tap at a time: dy @ w[i, j].T into one reused buffer, added onto the padded input grid.

    Same sums in the same order as building all KH*KW*C columns first, without that KH*KW-times-larger buffer
    and with contiguous reads in the adds (about 1.3-3x faster on ResNet-8's layers).
    """
    dxp = np.zeros((batch, g.padded_h, g.padded_w, channels), dtype=np.result_type(dy, w))
    dy2 = dy.reshape(-1, w.shape[3])
    product = np.empty((dy2.shape[0], channels), dtype=dxp.dtype)
    for i in range(g.k_h):
        for j in range(g.k_w):
            np.matmul(dy2, w[i, j].T, out=product)
            dxp[g.tap(i, j)] += product.reshape(batch, g.out_h, g.out_w, channels)
    return crop(dxp, g)


def conv2d_backprop_filter(x: np.ndarray, filter_shape: Sequence[int], dy: np.ndarray,
                           strides: Sequence[int] = (1, 1), dilations: Sequence[int] = (1, 1),
                           padding: Padding = "VALID") -> np.ndarray:
    """Gradient of conv2d with respect to its HWIO filter."""
    filter_shape = tuple(int(d) for d in filter_shape)
    _check_channels(x.shape[3], filter_shape)
    g = _geometry(x.shape, filter_shape, strides, dilations, padding)
    _check_out(dy, g, filter_shape[3])
    h = native_for(x, dy)
    if h is not None:
        return native.window_op(h, "conv2d_backprop_filter", g, x.shape, filter_shape[3], filter_shape, x, dy)
    cols = windows(pad_input(x, g), g)
    k = g.k_h * g.k_w * x.shape[3]
    dw = cols.reshape(-1, k).T @ dy.reshape(-1, filter_shape[3])
    return dw.reshape(filter_shape)


def depthwise_conv2d(x: np.ndarray, w: np.ndarray, strides: Sequence[int] = (1, 1),
                     dilations: Sequence[int] = (1, 1), padding: Padding = "VALID") -> np.ndarray:
    """Depthwise convolution: filter [KH, KW, C, M] gives C*M channels ordered c*M + m."""
    _check_channels(x.shape[3], w.shape)
    g = _geometry(x.shape, w.shape, strides, dilations, padding)
    c, m = w.shape[2], w.shape[3]
    h = native_for(x, w)
    if h is not None:
        return native.window_op(h, "depthwise_conv2d", g, x.shape, m, _out_shape(x.shape[0], g, c * m), x, w)
    xp = pad_input(x, g)
    out = np.zeros((x.shape[0], g.out_h, g.out_w, c, m), dtype=np.result_type(x, w))
    for i in range(g.k_h):
        for j in range(g.k_w):
            out += xp[g.tap(i, j)][..., None] * w[i, j]
    return out.reshape(x.shape[0], g.out_h, g.out_w, c * m)


def depthwise_conv2d_backprop_input(input_shape: Sequence[int], w: np.ndarray, dy: np.ndarray,
                                    strides: Sequence[int] = (1, 1), dilations: Sequence[int] = (1, 1),
                                    padding: Padding = "VALID") -> np.ndarray:
    """Gradient of depthwise_conv2d with respect to its input."""
    input_shape = tuple(int(d) for d in input_shape)
    _check_channels(input_shape[3], w.shape)
    g = _geometry(input_shape, w.shape, strides, dilations, padding)
    c, m = w.shape[2], w.shape[3]
    _check_out(dy, g, c * m)
    h = native_for(w, dy)
    if h is not None:
        return native.window_op(h, "depthwise_backprop_input", g, input_shape, m, input_shape, w, dy)
    dy5 = dy.reshape(dy.shape[0], g.out_h, g.out_w, c, m)
    cols = np.einsum("nhwcm,ijcm->nhwijc", dy5, w, optimize=True)
    return scatter_taps(cols, g, input_shape[0], c)


def depthwise_conv2d_backprop_filter(x: np.ndarray, filter_shape: Sequence[int], dy: np.ndarray,
                                     strides: Sequence[int] = (1, 1), dilations: Sequence[int] = (1, 1),
                                     padding: Padding = "VALID") -> np.ndarray:
    """Gradient of depthwise_conv2d with respect to its [KH, KW, C, M] filter."""
    filter_shape = tuple(int(d) for d in filter_shape)
    _check_channels(x.shape[3], filter_shape)
    g = _geometry(x.shape, filter_shape, strides, dilations, padding)
    c, m = filter_shape[2], filter_shape[3]
    _check_out(dy, g, c * m)
    h = native_for(x, dy)
    if h is not None:
        return native.window_op(h, "depthwise_backprop_filter", g, x.shape, m, filter_shape, x, dy)
    dy5 = dy.reshape(dy.shape[0], g.out_h, g.out_w, c, m)
    cols = windows(pad_input(x, g), g)
    return np.einsum("nhwijc,nhwcm->ijcm", cols, dy5, optimize=True).astype(dy.dtype, copy=False)


def _out_shape(batch: int, g: Window2D, channels: int) -> tuple:
    return (int(batch), g.out_h, g.out_w, int(channels))


def _check_out(dy: np.ndarray, g: Window2D, channels: int) -> None:
    want = (g.out_h, g.out_w, channels)
    if dy.ndim != 4 or tuple(dy.shape[1:]) != want:
        raise ValueError(f"out_backprop has shape {tuple(dy.shape)}, expected [batch, {want[0]}, {want[1]}, {want[2]}]")
