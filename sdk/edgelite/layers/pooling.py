"""MaxPooling2D and AveragePooling2D layers and their functional forms (tf.compat.v1.layers)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import ops
from edgelite.nn import avg_pool, max_pool

from .base import Layer, normalize_padding, normalize_tuple, op_data_format


class _Pooling2D(Layer):
    """Pooling over the spatial axes; `_rank` is their number and `_formats` the op's channels-last/first names."""

    _op: Any = None
    _rank = 2
    _formats = ("NHWC", "NCHW")

    def __init__(self, pool_size: Any, strides: Any, padding: str = "valid", data_format: str = "channels_last",
                 name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.pool_size = normalize_tuple(pool_size, self._rank, "pool_size")
        self.strides = normalize_tuple(strides if strides is not None else pool_size, self._rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = data_format
        self.op_format = self._formats[0] if op_data_format(data_format) == "NHWC" else self._formats[1]

    def call(self, inputs: Any) -> Any:
        """One pooling op over the spatial axes."""
        last = self.op_format == self._formats[0]
        window = [1, *self.pool_size, 1] if last else [1, 1, *self.pool_size]
        strides = [1, *self.strides, 1] if last else [1, 1, *self.strides]
        return type(self)._op(inputs, ksize=window, strides=strides, padding=self.padding,
                              data_format=self.op_format)


class MaxPooling2D(_Pooling2D):
    """Max pooling over 2-D windows."""

    _op = staticmethod(max_pool)


class AveragePooling2D(_Pooling2D):
    """Average pooling over 2-D windows."""

    _op = staticmethod(avg_pool)


def max_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: Optional[str] = None) -> ops.Tensor:
    """Functional MaxPooling2D."""
    return MaxPooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name, _scope=name)(inputs)


def average_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: Optional[str] = None) -> ops.Tensor:
    """Functional AveragePooling2D."""
    return AveragePooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name,
                            _scope=name)(inputs)
