"""Grayscale morphology: Dilation2D (max over a window of input + structuring element) with its input and
filter gradient ops, dilation2d, and erosion2d by duality."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops, tensor_shape
from edgelite.framework.op_def_registry import REAL_NUMBER_TYPES, register_op
from edgelite.ops import array_ops, math_ops

from .argmax_pool_ops import first_max
from .window_nd import WindowND

_ATTRS = {"strides": None, "rates": None, "padding": None}


def _window(attrs: dict, x_shape: Any, f_shape: Any) -> WindowND:
    return WindowND(x_shape[1:3], f_shape[:2], attrs["strides"][1:3], attrs["rates"][1:3], attrs["padding"])


def _scan(ctx: Any, x: np.ndarray, w: np.ndarray) -> tuple:
    """(padded geometry, max of input + filter per output, ordinal of the winning tap)."""
    if x.ndim != 4 or w.ndim != 3 or x.shape[3] != w.shape[2]:
        raise ValueError(f"Dilation2D needs input [batch, h, w, depth] and filter [fh, fw, depth] of the same depth, "
                         f"got {list(x.shape)} and {list(w.shape)}")
    g = _window(ctx.attrs, x.shape, w.shape)
    xp = g.pad(x, -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min)
    best, tap = first_max(xp, g, lambda t, sl: xp[sl] + w[t])
    return g, best, tap


def _forward(ctx: Any, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return _scan(ctx, x, w)[1].astype(x.dtype)


def _backprop_input(ctx: Any, x: np.ndarray, w: np.ndarray, dy: np.ndarray) -> np.ndarray:
    g, _, winner = _scan(ctx, x, w)
    dxp = np.zeros(g.pad(x).shape, dy.dtype)
    for k, (_, sl) in enumerate(g.taps()):
        dxp[sl] += np.where(winner == k, dy, 0)
    return g.crop(dxp)


def _backprop_filter(ctx: Any, x: np.ndarray, w: np.ndarray, dy: np.ndarray) -> np.ndarray:
    g, _, winner = _scan(ctx, x, w)
    dw = np.zeros(w.shape, dy.dtype)
    for k, (tap, _) in enumerate(g.taps()):
        dw[tap] = np.where(winner == k, dy, 0).sum(axis=(0, 1, 2))
    return dw


def _shape(op: Any) -> list:
    xs, fs = op.inputs[0].shape, op.inputs[1].shape
    for s, rank, what in ((xs, 4, "input"), (fs, 3, "filter")):
        if s.ndims is not None and s.ndims != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {s.ndims} for '{op.name}' (op: '{op.type}') "
                             f"with input shapes: {xs}, {fs}.")
    x = xs.as_list() if xs.ndims is not None else [None] * 4
    f = fs.as_list() if fs.ndims is not None else [None] * 3
    st, r, p = op.get_attr("strides"), op.get_attr("rates"), op.get_attr("padding")
    spatial = [None if x[i] is None or f[i - 1] is None else
               WindowND([x[i]], [f[i - 1]], [st[i]], [r[i]], p).out_spatial[0] for i in (1, 2)]
    return [tensor_shape.TensorShape([x[0]] + spatial + [x[3]])]


_TYPES = {"T": REAL_NUMBER_TYPES}
register_op("Dilation2D", inputs=["input: T", "filter: T"], outputs=["output: T"], attrs=_ATTRS, kernel=_forward,
            shape_fn=_shape, allowed_dtypes=_TYPES)
register_op("Dilation2DBackpropInput", inputs=["input: T", "filter: T", "out_backprop: T"],
            outputs=["in_backprop: T"], attrs=_ATTRS, kernel=_backprop_input,
            shape_fn=lambda op: [op.inputs[0].shape], allowed_dtypes=_TYPES)
register_op("Dilation2DBackpropFilter", inputs=["input: T", "filter: T", "out_backprop: T"],
            outputs=["filter_backprop: T"], attrs=_ATTRS, kernel=_backprop_filter,
            shape_fn=lambda op: [op.inputs[1].shape], allowed_dtypes=_TYPES)


@ops.RegisterGradient("Dilation2D")
def _dilation2d_grad(op: Any, grad: Any) -> list:
    attrs = {k: op.get_attr(k) for k in _ATTRS}
    x, w = op.inputs
    return [ops.apply_op("Dilation2DBackpropInput", [x, w, grad], attrs),
            ops.apply_op("Dilation2DBackpropFilter", [x, w, grad], attrs)]


def _four(value: Any, what: str) -> list:
    vals = [int(v) for v in value]
    if len(vals) != 4 or vals[0] != 1 or vals[3] != 1:
        raise ValueError(f"{what} must be a list of 4 ints [1, {what}_height, {what}_width, 1], got {value}")
    return vals


def dilation2d(input: Any, filter: Any = None, strides: Any = None, rates: Any = None,  # noqa: A002
               padding: Any = None, name: Optional[str] = None, filters: Any = None,
               dilations: Any = None) -> ops.Tensor:
    """Grayscale dilation: max over each window of input + filter, the filter taps `rates` apart."""
    filter = filters if filter is None else filter
    rates = dilations if rates is None else rates
    attrs = {"strides": _four(strides, "strides"), "rates": _four(rates, "rates"), "padding": padding}
    return ops.apply_op("Dilation2D", [input, filter], attrs, name=name)


def erosion2d(value: Any, kernel: Any, strides: Any, rates: Any, padding: str,
              name: Optional[str] = None) -> ops.Tensor:
    """Grayscale erosion: min over each window of value - kernel (the dual of dilation2d)."""
    with ops.name_scope(name, "erosion2d", [value, kernel]) as name:
        return math_ops.negative(dilation2d(math_ops.negative(value), array_ops.reverse(kernel, [0, 1]), strides,
                                            rates, padding, name=name))
