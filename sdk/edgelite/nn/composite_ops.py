"""tf.nn functions built from other ops: conv1d, atrous_conv2d, relu_layer, crelu, swish/silu."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import ops
from edgelite.ops import array_ops, math_ops

from .activation_ops import relu
from .conv_ops import conv2d
from .normalization_ops import xw_plus_b


def conv1d(value: Any = None, filters: Any = None, stride: Any = None, padding: Any = None,
           use_cudnn_on_gpu: Any = None, data_format: Optional[str] = None, name: Optional[str] = None,
           input: Any = None, dilations: Any = None) -> ops.Tensor:  # noqa: A002
    """1-D convolution of [batch, width, in] (NWC) or [batch, in, width] (NCW) with a [k, in, out] filter,
    run as a 2-D convolution over a height of one."""
    value = value if input is None else input
    if data_format in (None, "NWC", "NHWC"):
        spatial, fmt = 1, "NHWC"
    elif data_format in ("NCW", "NCHW"):
        spatial, fmt = 2, "NCHW"
    else:
        raise ValueError(f"data_format must be 'NWC' or 'NCW', got {data_format!r}")
    s = _width_entry(1 if stride is None else stride, fmt, "stride")
    d = _width_entry(1 if dilations is None else dilations, fmt, "dilations")
    with ops.name_scope(name, "conv1d", [value, filters]) as name:
        value = array_ops.expand_dims(value, spatial)
        filters = array_ops.expand_dims(filters, 0)
        out = conv2d(value, filters, [1, 1, s, 1] if fmt == "NHWC" else [1, 1, 1, s], padding,
                     data_format=fmt, dilations=[1, 1, d, 1] if fmt == "NHWC" else [1, 1, 1, d])
        return array_ops.squeeze(out, [spatial], name=name)


def _width_entry(value: Any, fmt: str, what: str) -> int:
    """The width entry of an int or a 1- or 3-element conv1d stride/dilation list."""
    if not isinstance(value, (list, tuple)):
        return int(value)
    if len(value) == 1:
        return int(value[0])
    if len(value) == 3:
        return int(value[1] if fmt == "NHWC" else value[2])
    raise ValueError(f"{what} should be of length 1 or 3, got {value}")


def atrous_conv2d(value: Any, filters: Any, rate: int, padding: str, name: Optional[str] = None) -> ops.Tensor:
    """2-D convolution with holes: the filter taps are `rate` pixels apart."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    with ops.name_scope(name, "atrous_conv2d", [value, filters]) as name:
        return conv2d(value, filters, [1, 1, 1, 1], padding, dilations=[1, int(rate), int(rate), 1], name=name)


def relu_layer(x: Any, weights: Any, biases: Any, name: Optional[str] = None) -> ops.Tensor:
    """relu(x @ weights + biases)."""
    with ops.name_scope(name, "relu_layer", [x, weights, biases]) as name:
        return relu(xw_plus_b(x, weights, biases), name=name)


def crelu(features: Any, name: Optional[str] = None, axis: int = -1) -> ops.Tensor:
    """Concatenated ReLU: concat([relu(x), relu(-x)], axis), doubling the depth."""
    with ops.name_scope(name, "CRelu", [features]) as name:
        features = ops.convert_to_tensor(features, name="features")
        c = array_ops.concat([features, -features], axis, name=name)
        return relu(c)


def swish(features: Any, beta: Any = 1.0, name: Optional[str] = None) -> ops.Tensor:
    """features * sigmoid(beta * features) (also tf.nn.silu); beta gets a gradient too."""
    with ops.name_scope(name, "swish", [features]) as name:
        features = ops.convert_to_tensor(features, name="features")
        beta = math_ops.cast(ops.convert_to_tensor(beta, name="beta"), features.dtype)
        return math_ops.multiply(features, math_ops.sigmoid(beta * features), name=name)


silu = swish
