"""tf.nn.experimental: dropout with a caller-supplied uniform sampler (general_dropout) or with a stateless,
seed-determined one (stateless_dropout)."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import ops
from edgelite.ops import array_ops, math_ops
from edgelite.ops.random_extra_ops import stateless_random_uniform

from .dropout import _noise_shape, checked_input


def _dropout(x: Any, rate: Any, noise_shape: Any, uniform_sampler: Callable, name: Optional[str],
             default_name: str) -> ops.Tensor:
    """x / (1 - rate) where uniform_sampler(shape, dtype) >= rate, else 0."""
    with ops.name_scope(name, default_name, [x]):
        is_number, x = checked_input(x, rate)
        if is_number and rate == 0:
            return x
        if is_number:
            kept = math_ops.multiply(x, ops.convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
        else:
            rate = ops.convert_to_tensor(rate)
            rate.shape.assert_has_rank(0)
            if rate.dtype != x.dtype:
                if not rate.dtype.is_compatible_with(x.dtype):
                    raise ValueError(f"`x.dtype` must be compatible with `rate.dtype`. Received: x.dtype=<dtype: "
                                     f"'{x.dtype.name}'> and rate.dtype=<dtype: '{rate.dtype.name}'>")
                rate = math_ops.cast(rate, x.dtype, name="rate")
            kept = math_ops.realdiv(x, math_ops.subtract(ops.convert_to_tensor(1, dtype=x.dtype), rate))
        random = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
        out = array_ops.where_v2(random >= rate, kept, ops.convert_to_tensor(0, dtype=x.dtype))
        out.set_shape(x.shape)
        return out


def general_dropout(x: Any, rate: Any, uniform_sampler: Callable, noise_shape: Any = None,
                    name: Optional[str] = None) -> ops.Tensor:
    """Dropout whose uniform [0, 1) noise comes from uniform_sampler(shape=..., dtype=...)."""
    return _dropout(x, rate, noise_shape, uniform_sampler, name, "dropout")


def stateless_dropout(x: Any, rate: Any, seed: Any, rng_alg: Any = None, noise_shape: Any = None,
                      name: Optional[str] = None) -> ops.Tensor:
    """Dropout whose mask is a function of the [2]-shaped seed only: the same seed drops the same elements."""
    def sampler(shape: Any, dtype: Any) -> ops.Tensor:
        return stateless_random_uniform(shape, seed=seed, dtype=dtype, alg=rng_alg or "auto_select")

    return _dropout(x, rate, noise_shape, sampler, name, "stateless_dropout")
