"""Keras Conv2D, pooling and global pooling layers (Conv2D and the 2-D pooling reuse edgelite.layers)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.layers import convolutional as tf_conv
from edgelite.layers import convolutional_nd as tf_conv_nd
from edgelite.layers import pooling_nd as tf_pool_nd
from edgelite.layers.input_spec import InputSpec
from edgelite.layers import pooling as tf_pool
from edgelite.ops import math_ops

from .. import activations, backend, initializers, regularizers
from ..engine.base_layer import Layer
from .core import kernel_bias_config


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
                          activation=activations.get(activation), use_bias=use_bias,
                          kernel_initializer=initializers.get(kernel_initializer),
                          bias_initializer=initializers.get(bias_initializer),
                          kernel_regularizer=regularizers.get(kernel_regularizer),
                          bias_regularizer=regularizers.get(bias_regularizer),
                          activity_regularizer=regularizers.get(activity_regularizer),
                          kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, **kwargs)

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
    """Mean over steps: [b, steps, c] -> [b, c]."""

    _reduce = staticmethod(math_ops.reduce_mean)
    _rank = 1


class GlobalMaxPooling1D(_GlobalPooling):
    """Max over steps: [b, steps, c] -> [b, c]."""

    _reduce = staticmethod(math_ops.reduce_max)
    _rank = 1
