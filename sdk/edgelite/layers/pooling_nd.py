"""MaxPooling1D/3D and AveragePooling1D/3D layers and their functional forms (tf.compat.v1.layers)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import ops
from edgelite.nn import avg_pool1d, avg_pool3d, max_pool1d, max_pool3d

from .base import apply_layer
from .pooling import _Pooling2D


class _Pooling1D(_Pooling2D):
    _rank = 1
    _formats = ("NWC", "NCW")


class _Pooling3D(_Pooling2D):
    _rank = 3
    _formats = ("NDHWC", "NCDHW")


class MaxPooling1D(_Pooling1D):
    """Max pooling over 1-D windows of [batch, width, channels] (or [batch, channels, width])."""

    _op = staticmethod(max_pool1d)


class AveragePooling1D(_Pooling1D):
    """Average pooling over 1-D windows."""

    _op = staticmethod(avg_pool1d)


class MaxPooling3D(_Pooling3D):
    """Max pooling over 3-D windows of [batch, depth, height, width, channels] (or channels first)."""

    _op = staticmethod(max_pool3d)


class AveragePooling3D(_Pooling3D):
    """Average pooling over 3-D windows."""

    _op = staticmethod(avg_pool3d)


def max_pooling1d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: Optional[str] = None) -> ops.Tensor:
    """Functional MaxPooling1D."""
    return apply_layer(MaxPooling1D, locals())


def average_pooling1d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: Optional[str] = None) -> ops.Tensor:
    """Functional AveragePooling1D."""
    return apply_layer(AveragePooling1D, locals())


def max_pooling3d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: Optional[str] = None) -> ops.Tensor:
    """Functional MaxPooling3D."""
    return apply_layer(MaxPooling3D, locals())


def average_pooling3d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: Optional[str] = None) -> ops.Tensor:
    """Functional AveragePooling3D."""
    return apply_layer(AveragePooling3D, locals())
