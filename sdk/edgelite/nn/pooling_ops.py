"""MaxPool / AvgPool ops with their gradient ops (MaxPoolGrad, MaxPoolGradGrad, AvgPoolGrad) and wrappers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value_as_shape
from edgelite.kernels import pooling as pool_kernels
from edgelite.ops import array_ops

from ._window import WindowAttrs, dims4, expand_sequence, make_shape, nhwc_call, nhwc_shape, spatial_index

_POOL_ATTRS = {"ksize": None, "strides": None, "padding": None, "data_format": "NHWC"}


def _window(attrs: dict) -> WindowAttrs:
    return WindowAttrs(attrs, ksize=attrs["ksize"])


def _check_pool_attrs(attrs: dict) -> None:
    h, w, c = spatial_index(attrs.get("data_format", "NHWC"))
    for key in ("ksize", "strides"):
        vals = attrs[key]
        if len(vals) != 4:
            raise ValueError(f"Sliding window {key} field must specify 4 dimensions")
        if vals[0] != 1 or vals[c] != 1:
            raise ValueError("Pooling is not yet supported on the batch or depth dimension.")
    if attrs["padding"] not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {attrs['padding']!r}")


def _pool_shape(op: Any) -> list:
    _check_pool_attrs(op.attrs)
    a = _window(op.attrs)
    x = dims4(op.inputs[0].shape, "input")
    _, _, ci = spatial_index(a.data_format)
    oh, ow = a.out_dims(x, a.ksize)
    return [make_shape(x[0], oh, ow, x[ci], a.data_format)]


def _max_pool_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    a = _window(ctx.attrs)
    return nhwc_call(a.data_format, lambda v: pool_kernels.max_pool(v, a.ksize, a.strides, a.padding), x)


def _max_pool_grad_kernel(ctx: Any, x: np.ndarray, y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    a = _window(ctx.attrs)
    return nhwc_call(a.data_format, lambda xx, yy, g: pool_kernels.max_pool_grad(xx, yy, g, a.ksize, a.strides,
                                                                                 a.padding),
                     x, y, dy, nchw_inputs=(0, 1, 2))


def _max_pool_grad_grad_kernel(ctx: Any, x: np.ndarray, y: np.ndarray, g: np.ndarray) -> np.ndarray:
    a = _window(ctx.attrs)
    return nhwc_call(a.data_format, lambda xx, yy, gg: pool_kernels.max_pool_grad_grad(xx, yy, gg, a.ksize,
                                                                                       a.strides, a.padding),
                     x, y, g, nchw_inputs=(0, 1, 2))


def _avg_pool_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    a = _window(ctx.attrs)
    return nhwc_call(a.data_format, lambda v: pool_kernels.avg_pool(v, a.ksize, a.strides, a.padding), x)


def _avg_pool_grad_kernel(ctx: Any, sizes: np.ndarray, dy: np.ndarray) -> np.ndarray:
    a = _window(ctx.attrs)
    shape = nhwc_shape(sizes, a.data_format)
    return nhwc_call(a.data_format, lambda g: pool_kernels.avg_pool_grad(shape, g, a.ksize, a.strides, a.padding),
                     dy)


register_op("MaxPool", inputs=["input: T"], outputs=["output: T"], attrs=dict(_POOL_ATTRS, explicit_paddings=[]),
            kernel=_max_pool_kernel,
            shape_fn=_pool_shape)
register_op("MaxPoolGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"], outputs=["output: T"],
            attrs=_POOL_ATTRS, kernel=_max_pool_grad_kernel, shape_fn=lambda op: [op.inputs[0].shape])
register_op("MaxPoolGradGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"], outputs=["output: T"],
            attrs=_POOL_ATTRS, kernel=_max_pool_grad_grad_kernel, shape_fn=lambda op: [op.inputs[1].shape])
register_op("AvgPool", inputs=["value: T"], outputs=["output: T"], attrs=_POOL_ATTRS, kernel=_avg_pool_kernel,
            shape_fn=_pool_shape)
register_op("AvgPoolGrad", inputs=["orig_input_shape: int32", "grad: T"], outputs=["output: T"],
            attrs=_POOL_ATTRS, kernel=_avg_pool_grad_kernel,
            shape_fn=lambda op: [constant_value_as_shape(op.inputs[0]).with_rank(4)])


def _pool_attrs_of(op: Any) -> dict:
    return {k: op.get_attr(k) for k in _POOL_ATTRS}


@ops.RegisterGradient("MaxPool")
def _max_pool_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad], _pool_attrs_of(op))


@ops.RegisterGradient("MaxPoolGrad")
def _max_pool_grad_grad(op: Any, grad: Any) -> list:
    return [array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
            ops.apply_op("MaxPoolGradGrad", [op.inputs[0], op.inputs[1], grad], _pool_attrs_of(op))]


@ops.RegisterGradient("AvgPool")
def _avg_pool_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("AvgPoolGrad", [array_ops.shape(op.inputs[0]), grad], _pool_attrs_of(op))


@ops.RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad(op: Any, grad: Any) -> list:
    return [None, ops.apply_op("AvgPool", [grad], _pool_attrs_of(op))]


def _pool_op(op_type: str, value: Any, ksize: Any, strides: Any, padding: Any, data_format: Optional[str],
             name: Optional[str]) -> ops.Tensor:
    data_format = data_format or "NHWC"
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID' for {op_type}, got {padding!r}")
    attrs = {"ksize": expand_sequence(ksize, "ksize", data_format),
             "strides": expand_sequence(strides, "strides", data_format),
             "padding": padding.upper(), "data_format": data_format}
    return ops.apply_op(op_type, [value], attrs, name=name)


def max_pool(value: Any = None, ksize: Any = None, strides: Any = None, padding: Any = None,
             data_format: str = "NHWC", name: Optional[str] = None, input: Any = None) -> ops.Tensor:  # noqa: A002
    """Max pooling over 2-D windows of a 4-D tensor (tf.compat.v1.nn.max_pool)."""
    value = value if input is None else input
    return _pool_op("MaxPool", value, ksize, strides, padding, data_format, name)


def avg_pool(value: Any = None, ksize: Any = None, strides: Any = None, padding: Any = None,
             data_format: str = "NHWC", name: Optional[str] = None, input: Any = None) -> ops.Tensor:  # noqa: A002
    """Average pooling over 2-D windows; SAME padding is left out of each window's mean."""
    value = value if input is None else input
    return _pool_op("AvgPool", value, ksize, strides, padding, data_format, name)
