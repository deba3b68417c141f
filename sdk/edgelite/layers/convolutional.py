"""Conv2D, SeparableConv2D and Conv2DTranspose layers and their functional forms (tf.compat.v1.layers)."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import ops
from edgelite.nn import bias_add, conv2d as nn_conv2d, conv2d_transpose as nn_conv2d_transpose
from edgelite.nn import separable_conv2d as nn_separable_conv2d
from edgelite.ops import array_ops, init_ops

from .base import Layer, normalize_padding, normalize_tuple, op_data_format

_ZEROS = init_ops.zeros_initializer()


class _Conv(Layer):
    """Shared argument handling of the convolution layers; `_rank` is the number of spatial axes."""

    _rank = 2
    _formats = ("NHWC", "NCHW")

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1),
                 activation: Optional[Callable] = None, use_bias: bool = True, bias_initializer: Any = _ZEROS,
                 bias_regularizer: Optional[Callable] = None, bias_constraint: Any = None,
                 activity_regularizer: Optional[Callable] = None, trainable: bool = True,
                 name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        if self.filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        rank = self._rank
        self.kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = normalize_tuple(strides, rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = data_format
        self.op_format = self._formats[0] if op_data_format(data_format) == "NHWC" else self._formats[1]
        self.dilation_rate = normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activation
        self.use_bias = use_bias
        self.bias_initializer, self.bias_regularizer, self.bias_constraint = (bias_initializer, bias_regularizer,
                                                                              bias_constraint)

    def _in_channels(self, input_shape: Any) -> int:
        ndim = self._rank + 2
        if input_shape.ndims is not None and input_shape.ndims < ndim:
            # TF's Conv InputSpec has min_ndim; more leading batch axes than one are not supported here.
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected "
                             f"min_ndim={ndim}, found ndim={input_shape.ndims}. Full shape received: {input_shape}")
        if input_shape.ndims != ndim:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected "
                             f"ndim={ndim}, found ndim={input_shape.ndims}. Full shape received: {input_shape}")
        axis = -1 if self.op_format == self._formats[0] else 1
        c = input_shape.as_list()[axis]
        if c is None:
            shown = ", ".join("?" if d is None else str(d) for d in input_shape.as_list())
            raise ValueError(f"The channel dimension of the inputs should be defined. The input_shape received is "
                             f"({shown}), where axis {axis} (0-based) is the channel dimension, which found to be "
                             f"`None`.")
        return c

    def _build_bias(self) -> None:
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", [self.filters], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def _finish(self, outputs: Any) -> Any:
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=self.op_format)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def _window4(self, pair: tuple) -> list:
        return [1, *pair, 1] if self.op_format == self._formats[0] else [1, 1, *pair]


class Conv2D(_Conv):
    """2-D convolution layer: kernel [kh, kw, in, filters], then bias and activation."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1),
                 activation: Optional[Callable] = None, use_bias: bool = True, kernel_initializer: Any = None,
                 bias_initializer: Any = _ZEROS, kernel_regularizer: Optional[Callable] = None,
                 bias_regularizer: Optional[Callable] = None, activity_regularizer: Optional[Callable] = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                 name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, bias_constraint, activity_regularizer, trainable, name,
                         **kwargs)
        self.kernel_initializer, self.kernel_regularizer, self.kernel_constraint = (kernel_initializer,
                                                                                    kernel_regularizer,
                                                                                    kernel_constraint)

    def build(self, input_shape: Any) -> None:
        """Creates kernel and bias."""
        c = self._in_channels(input_shape)
        self.kernel = self.add_weight("kernel", [*self.kernel_size, c, self.filters],
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self._build_bias()
        self.built = True

    def call(self, inputs: Any) -> Any:
        """Conv2D op (named 'Conv2D' in the layer scope), BiasAdd, activation."""
        outputs = nn_conv2d(inputs, self.kernel, strides=self._window4(self.strides), padding=self.padding,
                            data_format=self.op_format, dilations=self._window4(self.dilation_rate), name="Conv2D")
        return self._finish(outputs)


class SeparableConv2D(_Conv):
    """Depthwise [kh, kw, in, depth_multiplier] then pointwise [1, 1, in * depth_multiplier, filters]."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                 activation: Optional[Callable] = None, use_bias: bool = True, depthwise_initializer: Any = None,
                 pointwise_initializer: Any = None, bias_initializer: Any = _ZEROS,
                 depthwise_regularizer: Optional[Callable] = None, pointwise_regularizer: Optional[Callable] = None,
                 bias_regularizer: Optional[Callable] = None, activity_regularizer: Optional[Callable] = None,
                 depthwise_constraint: Any = None, pointwise_constraint: Any = None, bias_constraint: Any = None,
                 trainable: bool = True, name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, bias_constraint, activity_regularizer, trainable, name,
                         **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer, self.pointwise_initializer = depthwise_initializer, pointwise_initializer
        self.depthwise_regularizer, self.pointwise_regularizer = depthwise_regularizer, pointwise_regularizer
        self.depthwise_constraint, self.pointwise_constraint = depthwise_constraint, pointwise_constraint

    def build(self, input_shape: Any) -> None:
        """Creates depthwise_kernel, pointwise_kernel and bias."""
        c = self._in_channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", [*self.kernel_size, c, self.depth_multiplier], initializer=self.depthwise_initializer,
            regularizer=self.depthwise_regularizer, constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", [1, 1, c * self.depth_multiplier, self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self._build_bias()
        self.built = True

    def call(self, inputs: Any) -> Any:
        """nn.separable_conv2d, BiasAdd, activation."""
        outputs = nn_separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel,
                                      strides=self._window4(self.strides), padding=self.padding,
                                      rate=self.dilation_rate, data_format=self.op_format)
        return self._finish(outputs)


def _deconv_length(size: Optional[int], k: int, padding: str, stride: int) -> Optional[int]:
    """Output length of a transposed convolution (no output padding)."""
    if size is None:
        return None
    if padding == "VALID":
        return size * stride + max(k - stride, 0)
    return size * stride


class Conv2DTranspose(_Conv):
    """Transposed 2-D convolution: kernel [kh, kw, filters, in]."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", activation: Optional[Callable] = None, use_bias: bool = True,
                 kernel_initializer: Any = None, bias_initializer: Any = _ZEROS,
                 kernel_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
                 activity_regularizer: Optional[Callable] = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, trainable: bool = True, name: Optional[str] = None,
                 **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, (1,) * self._rank, activation,
                         use_bias, bias_initializer, bias_regularizer, bias_constraint, activity_regularizer,
                         trainable, name, **kwargs)
        self.kernel_initializer, self.kernel_regularizer, self.kernel_constraint = (kernel_initializer,
                                                                                    kernel_regularizer,
                                                                                    kernel_constraint)

    def build(self, input_shape: Any) -> None:
        """Creates kernel and bias."""
        c = self._in_channels(input_shape)
        self.kernel = self.add_weight("kernel", [*self.kernel_size, self.filters, c],
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self._build_bias()
        self.built = True

    def call(self, inputs: Any) -> Any:
        """Conv2DBackpropInput with the output shape computed from the input's (static or dynamic) shape."""
        static = inputs.shape.as_list()
        hi, wi = (1, 2) if self.op_format == "NHWC" else (2, 3)
        out_h = _deconv_length(static[hi], self.kernel_size[0], self.padding, self.strides[0])
        out_w = _deconv_length(static[wi], self.kernel_size[1], self.padding, self.strides[1])
        dyn = array_ops.shape(inputs)
        dims = [dyn[0],
                out_h if out_h is not None else self._dynamic_length(dyn[hi], 0),
                out_w if out_w is not None else self._dynamic_length(dyn[wi], 1)]
        dims = [dims[0], dims[1], dims[2], self.filters] if self.op_format == "NHWC" else [dims[0], self.filters,
                                                                                           dims[1], dims[2]]
        outputs = nn_conv2d_transpose(inputs, self.kernel, array_ops.stack(dims), strides=self._window4(self.strides),
                                      padding=self.padding, data_format=self.op_format)
        static_out = [static[0], out_h, out_w, self.filters] if self.op_format == "NHWC" else [
            static[0], self.filters, out_h, out_w]
        outputs.set_shape(static_out)
        return self._finish(outputs)

    def _dynamic_length(self, size: Any, axis: int) -> Any:
        stride, k = self.strides[axis], self.kernel_size[axis]
        if self.padding == "VALID":
            return size * stride + max(k - stride, 0)
        return size * stride


def conv2d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = (1, 1), activation: Optional[Callable] = None,
           use_bias: bool = True, kernel_initializer: Any = None, bias_initializer: Any = _ZEROS,
           kernel_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
           activity_regularizer: Optional[Callable] = None, kernel_constraint: Any = None,
           bias_constraint: Any = None, trainable: bool = True, name: Optional[str] = None,
           reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional Conv2D (variables 'conv2d/kernel', 'conv2d/bias', ...)."""
    layer = Conv2D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                   dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                   kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                   kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name, _reuse=reuse, _scope=name)
    return layer(inputs)


def separable_conv2d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                     activation: Optional[Callable] = None, use_bias: bool = True, depthwise_initializer: Any = None,
                     pointwise_initializer: Any = None, bias_initializer: Any = _ZEROS,
                     depthwise_regularizer: Optional[Callable] = None,
                     pointwise_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
                     activity_regularizer: Optional[Callable] = None, depthwise_constraint: Any = None,
                     pointwise_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                     name: Optional[str] = None, reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional SeparableConv2D."""
    layer = SeparableConv2D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                            dilation_rate=dilation_rate, depth_multiplier=depth_multiplier, activation=activation,
                            use_bias=use_bias, depthwise_initializer=depthwise_initializer,
                            pointwise_initializer=pointwise_initializer, bias_initializer=bias_initializer,
                            depthwise_regularizer=depthwise_regularizer, pointwise_regularizer=pointwise_regularizer,
                            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                            depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint,
                            bias_constraint=bias_constraint, trainable=trainable, name=name, _reuse=reuse,
                            _scope=name)
    return layer(inputs)


def conv2d_transpose(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Optional[Callable] = None, use_bias: bool = True,
                     kernel_initializer: Any = None, bias_initializer: Any = _ZEROS,
                     kernel_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
                     activity_regularizer: Optional[Callable] = None, kernel_constraint: Any = None,
                     bias_constraint: Any = None, trainable: bool = True, name: Optional[str] = None,
                     reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional Conv2DTranspose."""
    layer = Conv2DTranspose(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                            activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                            trainable=trainable, name=name, _reuse=reuse, _scope=name)
    return layer(inputs)
