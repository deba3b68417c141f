"""tf.compat.v1.nn.dropout: zero elements with probability `rate`, scale the kept ones by 1 / (1 - rate)."""
from __future__ import annotations

import numbers
from typing import Any, Optional

from edgelite.framework import ops
from edgelite.ops import array_ops, math_ops, random_ops


def _noise_shape(x: ops.Tensor, noise_shape: Any) -> Any:
    """noise_shape with None entries filled from x's shape (the whole shape when noise_shape is None)."""
    if noise_shape is None:
        return array_ops.shape(x)
    if isinstance(noise_shape, (list, tuple)) and any(d is None for d in noise_shape):
        if x.shape.ndims is None or len(noise_shape) != x.shape.ndims:
            raise ValueError(f"noise_shape {noise_shape} must have the rank of x ({x.shape})")
        dims = x.shape.as_list()
        filled = [dims[i] if d is None else d for i, d in enumerate(noise_shape)]
        if None not in filled:
            return filled
        dyn = array_ops.shape(x)
        return array_ops.stack([dyn[i] if d is None else d for i, d in enumerate(filled)])
    return noise_shape


def checked_input(x: Any, rate: Any) -> tuple:
    """(whether rate is a Python number, x as a tensor), with TF's errors for a rate outside [0, 1) and for a
    non-floating x."""
    is_number = isinstance(rate, numbers.Real)
    if is_number and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    x = ops.convert_to_tensor(x, name="x")
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                         f"x={x} with dtype {x.dtype}")
    return is_number, x


def dropout(x: Any, keep_prob: Any = None, noise_shape: Any = None, seed: Optional[int] = None,
            name: Optional[str] = None, rate: Any = None) -> ops.Tensor:
    """Randomly drops elements (rate = 1 - keep_prob); the expected value of every element is unchanged."""
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'rate' and 'keep_prob'")
    if keep_prob is not None:
        if isinstance(keep_prob, numbers.Real) and not 0 < keep_prob <= 1:
            raise ValueError(f"`keep_prob` must be a scalar tensor or a float in the range (0, 1], got {keep_prob}")
        rate = 1 - keep_prob
    if rate is None:
        raise ValueError("dropout needs `rate` (or the deprecated `keep_prob`)")
    with ops.name_scope(name, "dropout", [x]) as name:
        is_number, x = checked_input(x, rate)
        if is_number:
            scaled = math_ops.multiply(x, ops.convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
            rate_t = ops.convert_to_tensor(rate, dtype=x.dtype, name="rate")
        else:
            rate_t = ops.convert_to_tensor(rate, dtype=x.dtype, name="rate")
            if rate_t.shape.ndims not in (None, 0):
                raise ValueError(f"`rate` must be a scalar, got shape {rate_t.shape}")
            scaled = math_ops.realdiv(x, 1 - rate_t)
        random = random_ops.random_uniform(_noise_shape(x, noise_shape), seed=seed, dtype=x.dtype)
        keep_mask = math_ops.greater_equal(random, rate_t)
        out = math_ops.multiply(scaled, math_ops.cast(keep_mask, x.dtype), name=name)
        out.set_shape(x.shape)
        return out
