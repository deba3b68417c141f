"""MaxPool3D / AvgPool3D with their gradient ops (MaxPool3DGrad, AvgPool3DGrad) and the max_pool3d /
avg_pool3d wrappers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value_as_shape
from edgelite.ops import array_ops

from . import window_nd
from .window_nd import input_dims
from .conv3d_ops import channels_first, channels_last, check_window_attrs, geometry, last_shape, out_shape
from .conv3d_ops import spatial_axes, window_attrs

_TYPES = {"T": [dtypes.float16, dtypes.bfloat16, dtypes.float32]}
_ATTRS = {"ksize": None, "strides": None, "padding": None, "data_format": "NDHWC"}


def _window(attrs: dict) -> list:
    sp, _ = spatial_axes(attrs["data_format"])
    return [attrs["ksize"][a] for a in sp]


def _pool_kernel(fn: Any) -> Any:
    def kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
        fmt = ctx.attrs["data_format"]
        xl = channels_last(x, fmt)
        return channels_first(fn(xl, geometry(ctx.attrs, xl.shape, _window(ctx.attrs))), fmt)
    return kernel


def _max_grad_kernel(ctx: Any, x: np.ndarray, y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    fmt = ctx.attrs["data_format"]
    xl = channels_last(x, fmt)
    g = geometry(ctx.attrs, xl.shape, _window(ctx.attrs))
    return channels_first(window_nd.max_pool_grad(xl, channels_last(y, fmt), channels_last(dy, fmt), g), fmt)


def _avg_grad_kernel(ctx: Any, sizes: np.ndarray, dy: np.ndarray) -> np.ndarray:
    fmt = ctx.attrs["data_format"]
    shape = last_shape(sizes, fmt)
    g = geometry(ctx.attrs, shape, _window(ctx.attrs))
    return channels_first(window_nd.avg_pool_grad(shape, channels_last(dy, fmt), g), fmt)


def _pool_shape(op: Any) -> list:
    check_window_attrs(op.attrs, op.type, ("ksize", "strides"))
    x = input_dims(op, 5)
    _, c = spatial_axes(op.get_attr("data_format"))
    return [out_shape(op, x, _window(op.attrs), x[c])]


register_op("MaxPool3D", inputs=["input: T"], outputs=["output: T"], attrs=_ATTRS,
            kernel=_pool_kernel(window_nd.max_pool), shape_fn=_pool_shape, allowed_dtypes=_TYPES)
register_op("AvgPool3D", inputs=["input: T"], outputs=["output: T"], attrs=_ATTRS,
            kernel=_pool_kernel(window_nd.avg_pool), shape_fn=_pool_shape, allowed_dtypes=_TYPES)
register_op("MaxPool3DGrad", inputs=["orig_input: TInput", "orig_output: TInput", "grad: T"], outputs=["output: T"],
            attrs=_ATTRS, kernel=_max_grad_kernel, shape_fn=lambda op: [op.inputs[0].shape])
register_op("AvgPool3DGrad", inputs=["orig_input_shape: int32", "grad: T"], outputs=["output: T"], attrs=_ATTRS,
            kernel=_avg_grad_kernel, shape_fn=lambda op: [constant_value_as_shape(op.inputs[0]).with_rank(5)])


def _attrs_of(op: Any) -> dict:
    return {k: op.get_attr(k) for k in _ATTRS}


@ops.RegisterGradient("MaxPool3D")
def _max_pool3d_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("MaxPool3DGrad", [op.inputs[0], op.outputs[0], grad], _attrs_of(op))


@ops.RegisterGradient("AvgPool3D")
def _avg_pool3d_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("AvgPool3DGrad", [array_ops.shape(op.inputs[0]), grad], _attrs_of(op))


@ops.RegisterGradient("AvgPool3DGrad")
def _avg_pool3d_grad_grad(op: Any, grad: Any) -> list:
    return [None, ops.apply_op("AvgPool3D", [grad], _attrs_of(op))]


def _pool3d(op_type: str, input: Any, ksize: Any, strides: Any, padding: str,  # noqa: A002
            data_format: Optional[str], name: Optional[str]) -> ops.Tensor:
    a = window_attrs(strides, padding, data_format)
    attrs = {"ksize": window_attrs(ksize, padding, data_format)["strides"], "strides": a["strides"],
             "padding": a["padding"], "data_format": a["data_format"]}
    return ops.apply_op(op_type, [input], attrs, name=name)


def max_pool3d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NDHWC",  # noqa: A002
               name: Optional[str] = None) -> ops.Tensor:
    """Max pooling over 3-D windows of a 5-D tensor."""
    return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NDHWC",  # noqa: A002
               name: Optional[str] = None) -> ops.Tensor:
    """Average pooling over 3-D windows; SAME padding is left out of each window's mean."""
    return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)
