"""Conv3D with Conv3DBackpropInputV2 / Conv3DBackpropFilterV2 (ops, numpy kernels, gradients) and the wrappers
conv3d, conv3d_transpose and conv3d_backprop_filter(_v2)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops, tensor_shape
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value_as_shape
from edgelite.kernels.geometry import output_size
from edgelite.ops import array_ops

from . import window_nd

_ATTRS = {"strides": None, "padding": None, "data_format": "NDHWC", "dilations": [1, 1, 1, 1, 1]}
_TO_LAST, _TO_FIRST = (0, 2, 3, 4, 1), (0, 4, 1, 2, 3)


def spatial_axes(data_format: str) -> tuple:
    """(spatial axes, channel axis) of a 5-D tensor in NDHWC or NCDHW layout."""
    if data_format == "NDHWC":
        return (1, 2, 3), 4
    if data_format == "NCDHW":
        return (2, 3, 4), 1
    raise ValueError(f"data_format must be 'NDHWC' or 'NCDHW', got {data_format!r}")


def check_window_attrs(attrs: dict, op_type: str, keys: tuple = ("strides",)) -> None:
    """TF's build-time checks of 5-element window attrs: none on the batch or channel dimension."""
    _, c = spatial_axes(attrs["data_format"])
    for key in keys:
        vals = list(attrs[key])
        if len(vals) != 5:
            raise ValueError(f"{op_type}: {key} must have 5 elements, got {len(vals)}")
        if vals[0] != 1 or vals[c] != 1:
            raise ValueError(f"{op_type}: {key} in the batch and depth dimensions must be 1, got {vals}")
    if attrs["padding"] not in ("SAME", "VALID"):
        raise ValueError(f"{op_type}: padding must be 'SAME' or 'VALID', got {attrs['padding']!r}")


def channels_last(x: np.ndarray, data_format: str) -> np.ndarray:
    return x if data_format == "NDHWC" else np.transpose(x, _TO_LAST)


def channels_first(x: np.ndarray, data_format: str) -> np.ndarray:
    return x if data_format == "NDHWC" else np.transpose(x, _TO_FIRST)


def last_shape(shape: Any, data_format: str) -> list:
    """A 5-D shape vector reordered to NDHWC."""
    shape = [int(d) for d in shape]
    return shape if data_format == "NDHWC" else [shape[i] for i in _TO_LAST]


def geometry(attrs: dict, in_last: Any, window: Any) -> window_nd.WindowND:
    """The window geometry for an NDHWC input shape and a 3-entry window."""
    sp, _ = spatial_axes(attrs["data_format"])
    strides = [attrs["strides"][a] for a in sp]
    dil = attrs.get("dilations", [1] * 5)
    return window_nd.WindowND(list(in_last)[1:4], window, strides, [dil[a] for a in sp], attrs["padding"])


def _conv_kernel(ctx: Any, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    fmt = ctx.attrs["data_format"]
    xl = channels_last(x, fmt)
    if xl.shape[-1] != w.shape[3]:
        raise ValueError(f"Input depth must be evenly divisible by filter depth: {xl.shape[-1]} vs {w.shape[3]}")
    return channels_first(window_nd.conv(xl, w, geometry(ctx.attrs, xl.shape, w.shape[:3])), fmt)


def _backprop_input_kernel(ctx: Any, sizes: np.ndarray, w: np.ndarray, dy: np.ndarray) -> np.ndarray:
    fmt = ctx.attrs["data_format"]
    shape = last_shape(sizes, fmt)
    g = geometry(ctx.attrs, shape, w.shape[:3])
    return channels_first(window_nd.conv_backprop_input(shape, w, channels_last(dy, fmt), g), fmt)


def _backprop_filter_kernel(ctx: Any, x: np.ndarray, sizes: np.ndarray, dy: np.ndarray) -> np.ndarray:
    fmt = ctx.attrs["data_format"]
    xl = channels_last(x, fmt)
    g = geometry(ctx.attrs, xl.shape, [int(s) for s in sizes[:3]])
    return window_nd.conv_backprop_filter(xl, sizes, channels_last(dy, fmt), g)


def _dims(shape: tensor_shape.TensorShape, rank: int, what: str, op: Any) -> list:
    if shape.ndims is None:
        return [None] * rank
    if shape.ndims != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {shape.ndims} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {what}.")
    return shape.as_list()


def out_shape(op: Any, x: list, window: list, channels: Any) -> tensor_shape.TensorShape:
    """The static output shape of a 3-D window op over input dims x (in the op's layout)."""
    sp, c = spatial_axes(op.get_attr("data_format"))
    strides, padding = op.get_attr("strides"), op.get_attr("padding")
    dil = op.attrs.get("dilations", [1] * 5)
    out = list(x)
    out[c] = channels
    for i, a in enumerate(sp):
        known = x[a] is not None and window[i] is not None
        out[a] = output_size(x[a], window[i], strides[a], dil[a], padding)[0] if known else None
    return tensor_shape.TensorShape(out)


def _conv_shape(op: Any) -> list:
    check_window_attrs(op.attrs, op.type, ("strides", "dilations"))
    x = _dims(op.inputs[0].shape, 5, op.inputs[0].shape, op)
    w = _dims(op.inputs[1].shape, 5, op.inputs[1].shape, op)
    _, c = spatial_axes(op.get_attr("data_format"))
    if x[c] is not None and w[3] is not None and x[c] % w[3]:
        raise ValueError(f"Depth of input ({x[c]}) is not a multiple of input depth of filter ({w[3]}) for "
                         f"'{op.name}' (op: 'Conv3D') with input shapes: {op.inputs[0].shape}, {op.inputs[1].shape}.")
    if x[c] is not None and w[3] is not None and x[c] != w[3]:
        raise ValueError(f"Grouped 3-D convolution (input depth {x[c]}, filter depth {w[3]}) is not supported "
                         f"for '{op.name}' (op: 'Conv3D')")
    return [out_shape(op, x, w[:3], w[4])]


register_op("Conv3D", inputs=["input: T", "filter: T"], outputs=["output: T"], attrs=_ATTRS, kernel=_conv_kernel,
            shape_fn=_conv_shape)
register_op("Conv3DBackpropInputV2", inputs=["input_sizes: Tshape", "filter: T", "out_backprop: T"],
            outputs=["output: T"], attrs=dict(_ATTRS, Tshape=None), kernel=_backprop_input_kernel,
            shape_fn=lambda op: [constant_value_as_shape(op.inputs[0]).with_rank(5)])
register_op("Conv3DBackpropFilterV2", inputs=["input: T", "filter_sizes: int32", "out_backprop: T"],
            outputs=["output: T"], attrs=_ATTRS, kernel=_backprop_filter_kernel,
            shape_fn=lambda op: [constant_value_as_shape(op.inputs[1]).with_rank(5)])


def _attrs_of(op: Any) -> dict:
    return {k: op.get_attr(k) for k in _ATTRS}


@ops.RegisterGradient("Conv3D")
def _conv3d_grad(op: Any, grad: Any) -> list:
    x, w = op.inputs
    a = _attrs_of(op)
    return [ops.apply_op("Conv3DBackpropInputV2", [array_ops.shape(x), w, grad], a),
            ops.apply_op("Conv3DBackpropFilterV2", [x, array_ops.shape(w), grad], a)]


@ops.RegisterGradient("Conv3DBackpropInputV2")
def _conv3d_backprop_input_grad(op: Any, grad: Any) -> list:
    _, w, dy = op.inputs
    a = _attrs_of(op)
    return [None, ops.apply_op("Conv3DBackpropFilterV2", [grad, array_ops.shape(w), dy], a),
            ops.apply_op("Conv3D", [grad, w], a)]


@ops.RegisterGradient("Conv3DBackpropFilterV2")
def _conv3d_backprop_filter_grad(op: Any, grad: Any) -> list:
    x, _, dy = op.inputs
    a = _attrs_of(op)
    return [ops.apply_op("Conv3DBackpropInputV2", [array_ops.shape(x), grad, dy], a), None,
            ops.apply_op("Conv3D", [x, grad], a)]


def _seq5(value: Any, what: str, data_format: str) -> list:
    """An int, or a 1-, 3- or 5-entry strides/dilations argument, as 5 entries."""
    if value is None:
        return [1] * 5
    vals = [int(value)] if np.ndim(value) == 0 else [int(v) for v in value]
    if len(vals) == 5:
        return vals
    if len(vals) == 1:
        vals = vals * 3
    if len(vals) != 3:
        raise ValueError(f"{what} should be of length 1, 3 or 5. Received: {what}={value} of length {len(vals)}")
    sp, _ = spatial_axes(data_format)
    out = [1] * 5
    for a, v in zip(sp, vals):
        out[a] = v
    return out


def window_attrs(strides: Any, padding: Any, data_format: Optional[str], dilations: Any = None) -> dict:
    data_format = data_format or "NDHWC"
    spatial_axes(data_format)
    return {"strides": _seq5(strides, "strides", data_format), "padding": str(padding).upper(),
            "data_format": data_format, "dilations": _seq5(dilations, "dilations", data_format)}


def conv3d(input: Any, filter: Any = None, strides: Any = None, padding: Any = None,  # noqa: A002
           data_format: str = "NDHWC", dilations: Any = (1, 1, 1, 1, 1), name: Optional[str] = None,
           filters: Any = None) -> ops.Tensor:
    """3-D cross-correlation of [batch, depth, height, width, in] with a [kd, kh, kw, in, out] filter."""
    filter = filters if filter is None else filter
    return ops.apply_op("Conv3D", [input, filter], window_attrs(strides, padding, data_format, dilations), name=name)


def conv3d_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any,  # noqa: A002
                           padding: Any, data_format: str = "NDHWC", dilations: Any = (1, 1, 1, 1, 1),
                           name: Optional[str] = None) -> ops.Tensor:
    """Gradient of conv3d with respect to its filter, given the filter's shape."""
    return ops.apply_op("Conv3DBackpropFilterV2", [input, filter_sizes, out_backprop],
                        window_attrs(strides, padding, data_format, dilations), name=name)


conv3d_backprop_filter_v2 = conv3d_backprop_filter


def conv3d_transpose(value: Any = None, filter: Any = None, output_shape: Any = None,  # noqa: A002
                     strides: Any = None, padding: str = "SAME", data_format: str = "NDHWC",
                     name: Optional[str] = None, input: Any = None, filters: Any = None,  # noqa: A002
                     dilations: Any = None) -> ops.Tensor:
    """Transposed 3-D convolution (the input-gradient of conv3d); filter is [kd, kh, kw, out, in]."""
    value = input if value is None else value
    filter = filters if filter is None else filter
    with ops.name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as name:
        value = ops.convert_to_tensor(value, name="value")
        filter = ops.convert_to_tensor(filter, name="filter")
        _, c = spatial_axes(data_format or "NDHWC")
        if value.shape.ndims == 5 and filter.shape.ndims == 5:
            in_c, f_c = value.shape.as_list()[c], filter.shape.as_list()[4]
            if in_c is not None and f_c is not None and in_c != f_c:
                raise ValueError(f"Dimensions must be equal, but are {in_c} and {f_c} for "
                                 f"'{name}Conv3DBackpropInputV2' (op: 'Conv3DBackpropInputV2')")
        output_shape = ops.convert_to_tensor(output_shape, name="output_shape")
        return ops.apply_op("Conv3DBackpropInputV2", [output_shape, filter, value],
                            window_attrs(strides, padding, data_format, dilations), name=name)
