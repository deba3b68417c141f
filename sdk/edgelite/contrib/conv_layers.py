"""tf.contrib.layers.conv2d (convolution2d) and the 2-D pooling functions: 'weights'/'biases' in a 'Conv' scope."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from edgelite.framework import ops
from edgelite.layers.base import normalize_tuple
from edgelite.nn import bias_add, relu
from edgelite.nn.conv_dispatch import convolution
from edgelite.nn.pooling_ops import avg_pool, max_pool
from edgelite.ops import init_ops, variable_scope

from .framework import add_arg_scope
from .initializers import xavier_initializer
from .layer_functions import _collect, _variable_collections

_FORMATS = (None, "NHWC", "NCHW")


@add_arg_scope
def conv2d(inputs: Any, num_outputs: int, kernel_size: Any, stride: Any = 1, padding: str = "SAME",
           data_format: Optional[str] = None, rate: Any = 1, activation_fn: Optional[Callable] = relu,
           normalizer_fn: Optional[Callable] = None, normalizer_params: Optional[dict] = None,
           weights_initializer: Any = xavier_initializer(), weights_regularizer: Optional[Callable] = None,
           biases_initializer: Any = init_ops.zeros_initializer(), biases_regularizer: Optional[Callable] = None,
           reuse: Any = None, variables_collections: Any = None, outputs_collections: Optional[Sequence[str]] = None,
           trainable: bool = True, scope: Optional[str] = None) -> ops.Tensor:
    """activation_fn(conv(inputs, weights) + biases) (or normalizer_fn in place of the biases), with a
    [kh, kw, in, num_outputs] 'weights' variable; SAME padding and relu by default."""
    if data_format not in _FORMATS:
        raise ValueError(f"Invalid data_format: {data_format!r}")
    channels_first = data_format == "NCHW"
    with variable_scope.variable_scope(scope, "Conv", [inputs], reuse=reuse):
        inputs = ops.convert_to_tensor(inputs)
        if inputs.shape.ndims != 4:
            raise ValueError(f"Convolution expects input with rank 4, got {inputs.shape.ndims}")
        kernel = normalize_tuple(kernel_size, 2, "kernel_size")
        strides = normalize_tuple(stride, 2, "strides")
        dilation = normalize_tuple(rate, 2, "dilation_rate")
        if max(strides) > 1 and max(dilation) > 1:
            raise ValueError("strides > 1 not supported in conjunction with dilation_rate > 1")
        depth = inputs.shape.as_list()[1 if channels_first else -1]
        if depth is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        dtype = inputs.dtype.base_dtype
        weights = variable_scope.get_variable(
            "weights", list(kernel) + [depth, num_outputs], dtype=dtype, initializer=weights_initializer,
            regularizer=weights_regularizer, trainable=trainable,
            collections=_variable_collections(variables_collections, "weights"))
        fmt = "NCHW" if channels_first else "NHWC"
        outputs = convolution(inputs, weights, padding=padding.upper(), strides=strides, dilation_rate=dilation,
                              data_format=fmt)
        if normalizer_fn is None and biases_initializer is not None:
            biases = variable_scope.get_variable(
                "biases", [num_outputs], dtype=dtype, initializer=biases_initializer,
                regularizer=biases_regularizer, trainable=trainable,
                collections=_variable_collections(variables_collections, "biases"))
            outputs = bias_add(outputs, biases, data_format=fmt)
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
    return _collect(outputs_collections, outputs)


def _pool(pool_fn: Callable, default_name: str, inputs: Any, kernel_size: Any, stride: Any, padding: str,
          data_format: str, outputs_collections: Any, scope: Optional[str]) -> ops.Tensor:
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    kh, kw = normalize_tuple(kernel_size, 2, "pool_size")
    sh, sw = normalize_tuple(stride, 2, "strides")
    window = [1, 1, kh, kw] if data_format == "NCHW" else [1, kh, kw, 1]
    steps = [1, 1, sh, sw] if data_format == "NCHW" else [1, sh, sw, 1]
    with ops.name_scope(scope, default_name, [inputs]):
        outputs = pool_fn(ops.convert_to_tensor(inputs), ksize=window, strides=steps, padding=padding.upper(),
                          data_format=data_format)
    return _collect(outputs_collections, outputs)


@add_arg_scope
def max_pool2d(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID", data_format: str = "NHWC",
               outputs_collections: Optional[Sequence[str]] = None, scope: Optional[str] = None) -> ops.Tensor:
    """2-D max pooling over kernel_size windows every stride (VALID padding, stride 2 by default)."""
    return _pool(max_pool, "MaxPool2D", inputs, kernel_size, stride, padding, data_format, outputs_collections, scope)


@add_arg_scope
def avg_pool2d(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID", data_format: str = "NHWC",
               outputs_collections: Optional[Sequence[str]] = None, scope: Optional[str] = None) -> ops.Tensor:
    """2-D average pooling over kernel_size windows every stride (VALID padding, stride 2 by default)."""
    return _pool(avg_pool, "AvgPool2D", inputs, kernel_size, stride, padding, data_format, outputs_collections, scope)


convolution2d = conv2d
