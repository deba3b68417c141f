"""tf.contrib.layers' variance-scaling initializers (xavier_initializer): contrib's own fan rules and constants."""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

from edgelite.framework import dtypes
from edgelite.ops import random_ops

# contrib's truncated normal uses stddev sqrt(1.3 * factor / n): 1.3 undoes the variance lost by truncating at 2 sigma.
_TRUNCATION_VARIANCE = 1.3
_MODES = ("FAN_IN", "FAN_OUT", "FAN_AVG")


def _fans(shape: Any) -> tuple[float, float]:
    """fan_in and fan_out as contrib computes them: the last two dims, times every leading (receptive field) dim."""
    shape = [int(d) for d in shape]
    if not shape:
        return 1.0, 1.0
    fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
    fan_out = float(shape[-1])
    for dim in shape[:-2]:
        fan_in *= dim
        fan_out *= dim
    return fan_in, fan_out


def variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN", uniform: bool = False,
                                 seed: Optional[int] = None, dtype: Any = dtypes.float32) -> Callable:
    """An initializer with variance factor / n (n from mode): uniform in +-sqrt(3 factor / n), or truncated normal."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in _MODES:
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")

    def _initializer(shape: Any, dtype: Any = dtype, partition_info: Any = None) -> Any:
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError("Cannot create initializer for non-floating point type.")
        fan_in, fan_out = _fans(partition_info.full_shape if partition_info is not None else shape)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return random_ops.random_uniform(shape, -limit, limit, dtype, seed=seed)
        stddev = math.sqrt(_TRUNCATION_VARIANCE * factor / n)
        return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=seed)
    return _initializer


def xavier_initializer(uniform: bool = True, seed: Optional[int] = None, dtype: Any = dtypes.float32) -> Callable:
    """Glorot/Xavier initialization: variance_scaling_initializer(factor=1.0, mode='FAN_AVG')."""
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed, dtype=dtype)


xavier_initializer_conv2d = xavier_initializer
