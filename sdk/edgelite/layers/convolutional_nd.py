"""Conv1D, SeparableConv1D, Conv3D and Conv3DTranspose layers and their functional forms (tf.compat.v1.layers)."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import ops
from edgelite.nn import conv1d as nn_conv1d, conv3d as nn_conv3d, conv3d_transpose as nn_conv3d_transpose
from edgelite.nn import separable_conv2d as nn_separable_conv2d
from edgelite.ops import array_ops

from .base import apply_layer
from .convolutional import _ZEROS, Conv2D, Conv2DTranspose, SeparableConv2D, _deconv_length


class _Width1D:
    """The 1-D conv layers' defaults and data formats, and their 'causal' padding (VALID after a left pad)."""

    _rank = 1
    _formats = ("NWC", "NCW")

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = 1, **kwargs: Any) -> None:
        self.causal = isinstance(padding, str) and padding.lower() == "causal"
        super().__init__(filters, kernel_size, strides, "valid" if self.causal else padding, data_format,
                         dilation_rate, **kwargs)

    def _causal_pad(self, inputs: Any) -> Any:
        """Left-pads the width axis by dilation * (k - 1) so that output step t sees inputs up to t only."""
        if not self.causal:
            return inputs
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        pads = [[0, 0], [left, 0], [0, 0]] if self.op_format == "NWC" else [[0, 0], [0, 0], [left, 0]]
        return array_ops.pad(inputs, pads)


class Conv1D(_Width1D, Conv2D):
    """1-D convolution layer: kernel [k, in, filters] over [batch, width, in] (or [batch, in, width]);
    padding may also be 'causal'."""

    def call(self, inputs: Any) -> Any:
        """nn.conv1d, BiasAdd, activation."""
        outputs = nn_conv1d(self._causal_pad(inputs), self.kernel, stride=self.strides[0], padding=self.padding,
                            data_format=self.op_format, dilations=self.dilation_rate[0])
        return self._finish(outputs)


class Conv3D(Conv2D):
    """3-D convolution layer: kernel [kd, kh, kw, in, filters]."""

    _rank = 3
    _formats = ("NDHWC", "NCDHW")

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1, 1), **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, **kwargs)

    def call(self, inputs: Any) -> Any:
        """Conv3D op (named 'Conv3D' in the layer scope), BiasAdd, activation."""
        outputs = nn_conv3d(inputs, self.kernel, strides=self._window4(self.strides), padding=self.padding,
                            data_format=self.op_format, dilations=self._window4(self.dilation_rate), name="Conv3D")
        return self._finish(outputs)


class SeparableConv1D(_Width1D, SeparableConv2D):
    """Depthwise [k, in, depth_multiplier] then pointwise [1, in * depth_multiplier, filters], run as the 2-D
    separable convolution over a height of one."""

    def build(self, input_shape: Any) -> None:
        """Creates depthwise_kernel, pointwise_kernel and bias."""
        c = self._in_channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", [self.kernel_size[0], c, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", [1, c * self.depth_multiplier, self.filters], initializer=self.pointwise_initializer,
            regularizer=self.pointwise_regularizer, constraint=self.pointwise_constraint)
        self._build_bias()
        self.built = True

    def call(self, inputs: Any) -> Any:
        """Adds a unit height axis, nn.separable_conv2d, removes it, then BiasAdd and activation."""
        last = self.op_format == "NWC"
        axis, fmt = (1, "NHWC") if last else (2, "NCHW")
        strides = [1, 1, self.strides[0], 1] if last else [1, 1, 1, self.strides[0]]
        outputs = nn_separable_conv2d(array_ops.expand_dims(self._causal_pad(inputs), axis),
                                      array_ops.expand_dims(self.depthwise_kernel, 0),
                                      array_ops.expand_dims(self.pointwise_kernel, 0), strides=strides,
                                      padding=self.padding, rate=(1, self.dilation_rate[0]), data_format=fmt)
        return self._finish(array_ops.squeeze(outputs, [axis]))


class Conv3DTranspose(Conv2DTranspose):
    """Transposed 3-D convolution: kernel [kd, kh, kw, filters, in]."""

    _rank = 3
    _formats = ("NDHWC", "NCDHW")

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 data_format: str = "channels_last", **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, **kwargs)

    def call(self, inputs: Any) -> Any:
        """Conv3DBackpropInputV2 with the output shape computed from the input's (static or dynamic) shape."""
        static = inputs.shape.as_list()
        last = self.op_format == "NDHWC"
        axes = (1, 2, 3) if last else (2, 3, 4)
        dyn = array_ops.shape(inputs)
        static_sp = [_deconv_length(static[a], self.kernel_size[i], self.padding, self.strides[i])
                     for i, a in enumerate(axes)]
        sp = [n if n is not None else self._dynamic_length(dyn[a], i) for i, (n, a) in enumerate(zip(static_sp, axes))]
        dims = [dyn[0], *sp, self.filters] if last else [dyn[0], self.filters, *sp]
        outputs = nn_conv3d_transpose(inputs, self.kernel, array_ops.stack(dims),
                                      strides=self._window4(self.strides), padding=self.padding,
                                      data_format=self.op_format)
        outputs.set_shape([static[0], *static_sp, self.filters] if last else [static[0], self.filters, *static_sp])
        return self._finish(outputs)


def conv1d(inputs: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = 1, activation: Optional[Callable] = None,
           use_bias: bool = True, kernel_initializer: Any = None, bias_initializer: Any = _ZEROS,
           kernel_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
           activity_regularizer: Optional[Callable] = None, kernel_constraint: Any = None,
           bias_constraint: Any = None, trainable: bool = True, name: Optional[str] = None,
           reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional Conv1D (variables 'conv1d/kernel', 'conv1d/bias')."""
    return apply_layer(Conv1D, locals())


def conv3d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = (1, 1, 1),
           activation: Optional[Callable] = None, use_bias: bool = True, kernel_initializer: Any = None,
           bias_initializer: Any = _ZEROS, kernel_regularizer: Optional[Callable] = None,
           bias_regularizer: Optional[Callable] = None, activity_regularizer: Optional[Callable] = None,
           kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
           name: Optional[str] = None, reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional Conv3D (variables 'conv3d/kernel', 'conv3d/bias')."""
    return apply_layer(Conv3D, locals())


def separable_conv1d(inputs: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                     data_format: str = "channels_last", dilation_rate: Any = 1, depth_multiplier: int = 1,
                     activation: Optional[Callable] = None, use_bias: bool = True, depthwise_initializer: Any = None,
                     pointwise_initializer: Any = None, bias_initializer: Any = _ZEROS,
                     depthwise_regularizer: Optional[Callable] = None,
                     pointwise_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
                     activity_regularizer: Optional[Callable] = None, depthwise_constraint: Any = None,
                     pointwise_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                     name: Optional[str] = None, reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional SeparableConv1D."""
    return apply_layer(SeparableConv1D, locals())


def conv3d_transpose(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Optional[Callable] = None, use_bias: bool = True,
                     kernel_initializer: Any = None, bias_initializer: Any = _ZEROS,
                     kernel_regularizer: Optional[Callable] = None, bias_regularizer: Optional[Callable] = None,
                     activity_regularizer: Optional[Callable] = None, kernel_constraint: Any = None,
                     bias_constraint: Any = None, trainable: bool = True, name: Optional[str] = None,
                     reuse: Optional[bool] = None) -> ops.Tensor:
    """Functional Conv3DTranspose."""
    return apply_layer(Conv3DTranspose, locals())
