"""Rank-generic and transposed convolution/pooling entry points: convolution, conv_transpose,
conv1d_transpose, atrous_conv2d_transpose, max_pool_v2/avg_pool_v2 and the depthwise backprop wrappers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.ops import array_ops

from .composite_ops import conv1d
from .conv3d_ops import conv3d, conv3d_transpose
from .conv_ops import _attrs, conv2d, conv2d_transpose
from .pooling_1d import avg_pool1d, max_pool1d
from .pooling_ops import avg_pool, max_pool
from .pool3d_ops import avg_pool3d, max_pool3d


def get_sequence(value: Any, n: int, channel_index: int, name: str) -> list:
    """An int or an n- or (n+2)-entry window argument as n+2 entries (1 on the batch and channel axes)."""
    if value is None:
        return [1] * (n + 2)
    vals = [int(value)] if np.ndim(value) == 0 else [int(v) for v in value]
    if len(vals) == n + 2:
        return vals
    if len(vals) == 1:
        vals = vals * n
    elif len(vals) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length "
                         f"{len(vals)}")
    return [1, 1] + vals if channel_index == 1 else [1] + vals + [1]


def _spatial_rank(input: Any, data_format: Optional[str]) -> int:  # noqa: A002
    rank = input.shape.ndims
    if rank is None:
        if data_format is None:
            raise ValueError(f"`input` must have a static shape or a data format. Received: "
                             f"input.shape={input.shape} and data_format={data_format}")
        rank = len(data_format)
    n = rank - 2
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={input.shape} of rank "
                         f"{n + 2}.")
    return n


def _pool_v2(ops_by_rank: dict, input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
             data_format: Optional[str], name: Optional[str]) -> ops.Tensor:
    input = ops.convert_to_tensor(input)
    n = _spatial_rank(input, data_format)
    channel_index = n + 1 if data_format is None or not data_format.startswith("NC") else 1
    ksize = get_sequence(ksize, n, channel_index, "ksize")
    strides = get_sequence(strides, n, channel_index, "strides")
    if isinstance(padding, (list, tuple)) and n == 3:
        raise ValueError("Explicit padding is not supported with an input tensor of rank 5")
    return ops_by_rank[n](input, ksize=ksize, strides=strides, padding=padding, data_format=data_format, name=name)


def max_pool_v2(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Optional[str] = None,  # noqa: A002
                name: Optional[str] = None) -> ops.Tensor:
    """Max pooling over 1-, 2- or 3-D windows, chosen by the input's rank."""
    return _pool_v2({1: max_pool1d, 2: max_pool, 3: max_pool3d}, input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Optional[str] = None,  # noqa: A002
                name: Optional[str] = None) -> ops.Tensor:
    """Average pooling over 1-, 2- or 3-D windows, chosen by the input's rank."""
    return _pool_v2({1: avg_pool1d, 2: avg_pool, 3: avg_pool3d}, input, ksize, strides, padding, data_format, name)


def convolution(input: Any, filter: Any = None, padding: Any = None, strides: Any = None,  # noqa: A002
                dilation_rate: Any = None, name: Optional[str] = None, data_format: Optional[str] = None,
                filters: Any = None, dilations: Any = None) -> ops.Tensor:
    """N-D convolution (N = 1, 2, 3 from the filter's rank) with optional dilation."""
    filter = filters if filter is None else filter
    dilation_rate = dilations if dilation_rate is None else dilation_rate
    with ops.name_scope(name, "convolution", [input, filter]) as name:
        input = ops.convert_to_tensor(input, name="input")
        filter = ops.convert_to_tensor(filter, name="filter")
        rank = filter.shape.ndims if filter.shape.ndims is not None else input.shape.ndims
        n = None if rank is None else rank - 2
        if n is None or not 1 <= n <= 3:
            raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={n}.")
        channel_index = 1 if data_format is not None and data_format.startswith("NC") else n + 1
        strides = get_sequence(strides, n, channel_index, "strides")
        dilation_rate = get_sequence(dilation_rate, n, channel_index, "dilations")
        if n == 1:
            return conv1d(input, filter, strides, padding, data_format=data_format, dilations=dilation_rate,
                          name=name)
        if n == 2:
            return conv2d(input, filter, strides, padding, data_format=data_format or "NHWC",
                          dilations=dilation_rate, name=name)
        return conv3d(input, filter, strides, padding, data_format=data_format or "NDHWC", dilations=dilation_rate,
                      name=name)


def conv1d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: str = "SAME",  # noqa
                     data_format: str = "NWC", dilations: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Transposed 1-D convolution, run as a 2-D one over a height of one."""
    with ops.name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as name:
        if data_format is None or data_format == "NWC":
            fmt, spatial, channel_index = "NHWC", 1, 2
        elif data_format == "NCW":
            fmt, spatial, channel_index = "NCHW", 2, 1
        else:
            raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
        strides = [1] + get_sequence(strides, 1, channel_index, "stride")
        dilations = [1] + get_sequence(dilations, 1, channel_index, "dilations")
        input = array_ops.expand_dims(input, spatial)
        filters = array_ops.expand_dims(filters, 0)
        if not isinstance(output_shape, ops.Tensor):
            output_shape = list(output_shape)
        output_shape = array_ops.concat([output_shape[:spatial], [1], output_shape[spatial:]], 0)
        result = ops.apply_op("Conv2DBackpropInput", [output_shape, filters, input],
                              dict(_attrs(strides, padding, fmt, dilations), use_cudnn_on_gpu=True), name=name)
        return array_ops.squeeze(result, [spatial])


def conv_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: str = "SAME",  # noqa: A002
                   data_format: Optional[str] = None, dilations: Any = None,
                   name: Optional[str] = None) -> ops.Tensor:
    """Transposed convolution of rank len(output_shape) - 2."""
    with ops.name_scope(name, "conv_transpose", [input, filters, output_shape]) as name:
        if isinstance(output_shape, ops.Tensor):
            n = output_shape.shape.as_list()[0] - 2
        elif hasattr(output_shape, "__len__"):
            n = len(output_shape) - 2
        else:
            raise ValueError("`output_shape` must be a tensor or sized collection")
        if not 1 <= n <= 3:
            raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape} of "
                             f"length {n + 2}.")
        if n == 1:
            return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations,
                                    name)
        channel_index = 1 if data_format is not None and data_format.startswith("NC") else n + 1
        strides = get_sequence(strides, n, channel_index, "strides")
        dilations = get_sequence(dilations, n, channel_index, "dilations")
        if n == 2:
            return conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC", name,
                                    dilations=dilations)
        return conv3d_transpose(input, filters, output_shape, strides, padding, data_format or "NDHWC", name,
                                dilations=dilations)


def atrous_conv2d_transpose(value: Any, filters: Any, output_shape: Any, rate: int, padding: str,
                            name: Optional[str] = None) -> ops.Tensor:
    """The transpose of atrous_conv2d: the input-gradient of a stride-1 convolution with holes."""
    with ops.name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]) as name:
        value = ops.convert_to_tensor(value, name="value")
        filters = ops.convert_to_tensor(filters, name="filters")
        if not value.shape[3].is_compatible_with(filters.shape[3]):
            raise ValueError(f"`value` channel count must be compatible with `filters` input channel count. "
                             f"Received: value.shape={value.shape} with channel count {value.shape[3]} and "
                             f"filters.shape={filters.shape} with input channel count {filters.shape[3]}.")
        if rate < 1:
            raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
        if padding not in ("SAME", "VALID"):
            raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
        return conv2d_transpose(value, filters, output_shape, [1, 1, 1, 1], padding, "NHWC", name,
                                dilations=[1, rate, rate, 1])


def depthwise_conv2d_native_backprop_input(input_sizes: Any, filter: Any, out_backprop: Any,  # noqa: A002
                                           strides: Any, padding: Any, data_format: str = "NHWC",
                                           dilations: Any = (1, 1, 1, 1), name: Optional[str] = None) -> ops.Tensor:
    """Gradient of depthwise_conv2d_native with respect to its input, given the input's shape."""
    return ops.apply_op("DepthwiseConv2dNativeBackpropInput", [input_sizes, filter, out_backprop],
                        _attrs(strides, padding, data_format, dilations), name=name)


def depthwise_conv2d_native_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any,  # noqa: A002
                                            strides: Any, padding: Any, data_format: str = "NHWC",
                                            dilations: Any = (1, 1, 1, 1),
                                            name: Optional[str] = None) -> ops.Tensor:
    """Gradient of depthwise_conv2d_native with respect to its filter, given the filter's shape."""
    return ops.apply_op("DepthwiseConv2dNativeBackpropFilter", [input, filter_sizes, out_backprop],
                        _attrs(strides, padding, data_format, dilations), name=name)
