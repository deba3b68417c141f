"""Keras Conv2D, pooling and global pooling layers (Conv2D and the 2-D pooling reuse edgelite.layers)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.layers import convolutional as tf_conv
from edgelite.layers import convolutional_nd as tf_conv_nd
from edgelite.layers import pooling_nd as tf_pool_nd
from edgelite.layers.input_spec import InputSpec
from edgelite.layers import pooling as tf_pool
from edgelite.ops import array_ops, math_ops

from .. import activations, backend, initializers, regularizers
from ..engine.base_layer import Layer
from .core import _name_of, kernel_bias_config


def _kernel_bias_kwargs(args: dict) -> dict:
    """A Keras conv constructor's activation and kernel/bias arguments resolved for edgelite.layers."""
    return dict(activation=activations.get(args["activation"]), use_bias=args["use_bias"],
                kernel_initializer=initializers.get(args["kernel_initializer"]),
                bias_initializer=initializers.get(args["bias_initializer"]),
                kernel_regularizer=regularizers.get(args["kernel_regularizer"]),
                bias_regularizer=regularizers.get(args["bias_regularizer"]),
                activity_regularizer=regularizers.get(args["activity_regularizer"]),
                kernel_constraint=args["kernel_constraint"], bias_constraint=args["bias_constraint"])


class _Conv(Layer):
    """Keras's convolution signature over an edgelite.layers convolution (`_base`); kernels 'glorot_uniform'."""

    _base: Any = None
    _image_default = True

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: Optional[str] = None, dilation_rate: Any = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, groups: int = 1, **kwargs: Any) -> None:
        if groups != 1:
            raise ValueError(f"{type(self).__name__} here supports groups=1 only. Received: groups={groups}")
        default_format = backend.image_data_format() if self._image_default else "channels_last"
        Layer._keras_init(self._base.__init__, self, filters, kernel_size, strides=strides, padding=padding,
                          data_format=data_format or default_format, dilation_rate=dilation_rate,
                          **_kernel_bias_kwargs(locals()), **kwargs)

    def get_config(self) -> dict:
        padding = "causal" if getattr(self, "causal", False) else self.padding.lower()
        return dict(super().get_config(), filters=self.filters, kernel_size=list(self.kernel_size),
                    strides=list(self.strides), padding=padding, data_format=self.data_format,
                    dilation_rate=list(self.dilation_rate), groups=1, **kernel_bias_config(self))


class Conv2D(_Conv, tf_conv.Conv2D):
    """2-D convolution, kernel [kh, kw, in, filters], then bias and activation."""

    _base = tf_conv.Conv2D


class Conv1D(_Conv, tf_conv_nd.Conv1D):
    """1-D convolution over [batch, steps, channels], kernel [k, in, filters]; padding may be 'causal'."""

    _base = tf_conv_nd.Conv1D
    _image_default = False


class _Pooling(Layer):
    """Shared Keras signature of the pooling layers: pool_size 2 per axis, strides default pool_size."""

    _base: Any = None
    _image_default = True

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: str = "valid",
                 data_format: Optional[str] = None, **kwargs: Any) -> None:
        default_format = backend.image_data_format() if self._image_default else "channels_last"
        Layer._keras_init(self._base.__init__, self, pool_size, strides, padding=padding,
                          data_format=data_format or default_format, **kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), pool_size=list(self.pool_size), padding=self.padding.lower(),
                    strides=list(self.strides), data_format=self.data_format)


class MaxPooling2D(_Pooling, tf_pool.MaxPooling2D):
    """Max over 2-D windows."""

    _base = tf_pool.MaxPooling2D


class AveragePooling2D(_Pooling, tf_pool.AveragePooling2D):
    """Mean over 2-D windows."""

    _base = tf_pool.AveragePooling2D


class MaxPooling1D(_Pooling, tf_pool_nd.MaxPooling1D):
    """Max over windows of steps."""

    _base = tf_pool_nd.MaxPooling1D
    _image_default = False


class AveragePooling1D(_Pooling, tf_pool_nd.AveragePooling1D):
    """Mean over windows of steps."""

    _base = tf_pool_nd.AveragePooling1D
    _image_default = False


class _GlobalPooling(Layer):
    """Reduces the spatial axes (`_rank` of them) of the input."""

    _reduce: Any = None
    _rank = 2

    def __init__(self, data_format: Optional[str] = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format or backend.image_data_format()
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def call(self, inputs: Any) -> Any:
        """One reduction over the spatial axes."""
        first = 1 if self.data_format == "channels_last" else 2
        axes = list(range(first, first + self._rank))
        return type(self)._reduce(inputs, axis=axes, keepdims=self.keepdims)

    def get_config(self) -> dict:
        return dict(super().get_config(), data_format=self.data_format, keepdims=self.keepdims)


class GlobalAveragePooling2D(_GlobalPooling):
    """Mean over height and width: [b, h, w, c] -> [b, c]."""

    _reduce = staticmethod(math_ops.reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling):
    """Max over height and width: [b, h, w, c] -> [b, c]."""

    _reduce = staticmethod(math_ops.reduce_max)


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over steps: [b, steps, c] -> [b, c]; with a mask, the mean over the unmasked steps."""

    _reduce = staticmethod(math_ops.reduce_mean)
    _rank = 1
    supports_masking = True

    def call(self, inputs: Any, mask: Any = None) -> Any:
        """Mean over the steps (those where mask is True, when a mask comes with the input)."""
        if mask is None:
            return super().call(inputs)
        steps_axis = 1 if self.data_format == "channels_last" else 2
        weights = array_ops.expand_dims(math_ops.cast(mask, inputs.dtype), 2 if steps_axis == 1 else 1)
        return math_ops.reduce_sum(inputs * weights, steps_axis, keepdims=self.keepdims) / \
            math_ops.reduce_sum(weights, steps_axis, keepdims=self.keepdims)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """No mask after pooling the steps away."""
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    """Max over steps: [b, steps, c] -> [b, c]."""

    _reduce = staticmethod(math_ops.reduce_max)
    _rank = 1


class Conv2DTranspose(Layer, tf_conv.Conv2DTranspose):
    """Transposed 2-D convolution (kernel [kh, kw, filters, in]); output_padding and dilation are not offered."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 output_padding: Any = None, data_format: Optional[str] = None, dilation_rate: Any = (1, 1),
                 activation: Any = None, use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        if output_padding is not None or tuple(np.broadcast_to(dilation_rate, 2)) != (1, 1):
            raise ValueError("Conv2DTranspose here supports output_padding=None and dilation_rate=1 only")
        Layer._keras_init(tf_conv.Conv2DTranspose.__init__, self, filters, kernel_size, strides=strides,
                          padding=padding, data_format=data_format or backend.image_data_format(),
                          **_kernel_bias_kwargs(locals()), **kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), filters=self.filters, kernel_size=list(self.kernel_size),
                    strides=list(self.strides), padding=self.padding.lower(), data_format=self.data_format,
                    dilation_rate=[1, 1], output_padding=None, groups=1, **kernel_bias_config(self))


class SeparableConv2D(Layer, tf_conv.SeparableConv2D):
    """Depthwise [kh, kw, in, depth_multiplier] then pointwise [1, 1, in * depth_multiplier, filters]."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: Optional[str] = None, dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                 activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 pointwise_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 depthwise_regularizer: Any = None, pointwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None, pointwise_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any) -> None:
        Layer._keras_init(tf_conv.SeparableConv2D.__init__, self, filters, kernel_size, strides=strides,
                          padding=padding, data_format=data_format or backend.image_data_format(),
                          dilation_rate=dilation_rate, depth_multiplier=depth_multiplier,
                          activation=activations.get(activation), use_bias=use_bias,
                          depthwise_initializer=initializers.get(depthwise_initializer),
                          pointwise_initializer=initializers.get(pointwise_initializer),
                          bias_initializer=initializers.get(bias_initializer),
                          depthwise_regularizer=regularizers.get(depthwise_regularizer),
                          pointwise_regularizer=regularizers.get(pointwise_regularizer),
                          bias_regularizer=regularizers.get(bias_regularizer),
                          activity_regularizer=regularizers.get(activity_regularizer),
                          depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint,
                          bias_constraint=bias_constraint, **kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), filters=self.filters, kernel_size=list(self.kernel_size),
                    strides=list(self.strides), padding=self.padding.lower(), data_format=self.data_format,
                    dilation_rate=list(self.dilation_rate), depth_multiplier=self.depth_multiplier,
                    activation=_name_of(self.activation), use_bias=self.use_bias,
                    depthwise_initializer=_name_of(self.depthwise_initializer),
                    pointwise_initializer=_name_of(self.pointwise_initializer),
                    bias_initializer=_name_of(self.bias_initializer),
                    depthwise_regularizer=_name_of(self.depthwise_regularizer),
                    pointwise_regularizer=_name_of(self.pointwise_regularizer),
                    bias_regularizer=_name_of(self.bias_regularizer),
                    activity_regularizer=_name_of(self.activity_regularizer), depthwise_constraint=None,
                    pointwise_constraint=None, bias_constraint=None)
