"""Random ops with TF's graph/op seed rules; each seeded op replays its stream in every new session."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import random_seed
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import FLOAT_TYPES, register_op
from edgelite.ops import math_ops

_SEED_ATTRS = {"seed": 0, "seed2": 0}


def _shape_of(op: Any) -> list:
    return [tensor_util.constant_value_as_shape(op.inputs[0])]


def _dims(shape: np.ndarray) -> list:
    return [int(d) for d in np.ravel(shape)]


def _float_draw(fn: Any) -> Any:
    def kernel(ctx: Any, shape: np.ndarray) -> np.ndarray:
        dt = ctx.attrs["dtype"].as_numpy_dtype
        draw = fn(ctx.rng, _dims(shape), np.float64 if dt in (np.float16,) else dt)
        return draw.astype(dt, copy=False)
    return kernel


def _truncated(rng: np.random.Generator, shape: list, dt: Any) -> np.ndarray:
    out = rng.standard_normal(shape, dtype=dt)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()), dtype=dt)
        bad = np.abs(out) > 2
    return out


register_op("RandomStandardNormal", inputs=["shape: T"], outputs=["output: dtype"],
            kernel=_float_draw(lambda rng, s, dt: rng.standard_normal(s, dtype=dt)), shape_fn=_shape_of,
            attrs=dict(_SEED_ATTRS), stateful=True)
register_op("RandomUniform", inputs=["shape: T"], outputs=["output: dtype"],
            kernel=_float_draw(lambda rng, s, dt: rng.random(s, dtype=dt)), shape_fn=_shape_of,
            attrs=dict(_SEED_ATTRS), stateful=True)
register_op("TruncatedNormal", inputs=["shape: T"], outputs=["output: dtype"], kernel=_float_draw(_truncated),
            shape_fn=_shape_of, attrs=dict(_SEED_ATTRS), stateful=True)


def _uniform_int_kernel(ctx: Any, shape: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    if not lo < hi:
        raise errors.InvalidArgumentError(None, None, f"Need minval < maxval: {lo} >= {hi}")
    return ctx.rng.integers(int(lo), int(hi), size=_dims(shape), dtype=lo.dtype)


register_op("RandomUniformInt", inputs=["shape: T", "minval: Tout", "maxval: Tout"], outputs=["output: Tout"],
            kernel=_uniform_int_kernel, shape_fn=_shape_of, attrs=dict(_SEED_ATTRS), stateful=True)


def _shuffle_kernel(ctx: Any, value: np.ndarray) -> np.ndarray:
    """TensorFlow's RandomShuffle: a Fisher-Yates pass over the rows drawing exactly n - 1 samples (sample %
    rows left) from a Philox run reserved per step, so a seeded op repeats TensorFlow's permutations."""
    if value.ndim == 0 or value.size <= 1 or value.shape[0] <= 1:
        return value.copy()
    from edgelite.data.philox import op_generator
    key = ("RandomShuffle", id(ctx.op))
    gen = ctx.state.rngs.get(key)
    if gen is None:
        gen = ctx.state.rngs[key] = op_generator(int(ctx.attrs.get("seed", 0)), int(ctx.attrs.get("seed2", 0)))
    n = value.shape[0]
    picks = gen.reserve(n - 1).take(n - 1) % np.arange(n, 1, -1, dtype=np.uint32)
    order = list(range(n))
    for i, j in enumerate(picks.tolist()):
        order[i], order[i + j] = order[i + j], order[i]
    return value[order]


register_op("RandomShuffle", inputs=["value: T"], outputs=["output: T"], kernel=_shuffle_kernel,
            shape_fn=lambda op: [op.inputs[0].shape], attrs=dict(_SEED_ATTRS), stateful=True)


def _multinomial_kernel(ctx: Any, logits: np.ndarray, num: np.ndarray) -> np.ndarray:
    n = int(num)
    z = logits.astype(np.float64)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    cdf = np.cumsum(p, axis=1)
    cdf /= cdf[:, -1:]
    u = ctx.rng.random((logits.shape[0], n))
    idx = (u[:, :, None] >= cdf[:, None, :]).sum(axis=2)
    return np.minimum(idx, logits.shape[1] - 1).astype(ctx.attrs["output_dtype"].as_numpy_dtype)


def _multinomial_shape(op: Any) -> list:
    s = op.inputs[0].shape.with_rank(2)
    n = tensor_util.constant_value(op.inputs[1])
    b = s[0].value if s.ndims else None
    return [[b, None if n is None else int(n)]]


register_op("Multinomial", inputs=["logits: T", "num_samples: int32"], outputs=["output: output_dtype"],
            kernel=_multinomial_kernel, shape_fn=_multinomial_shape,
            attrs=dict(_SEED_ATTRS, output_dtype=dtypes.int64), stateful=True, allowed_dtypes={"T": FLOAT_TYPES})

for _t in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal", "RandomUniformInt", "RandomShuffle",
           "Multinomial"):
    ops.NoGradient(_t)


def _seeds(seed: Optional[int]) -> dict:
    s1, s2 = random_seed.get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


def shape_tensor(shape: Any) -> ops.Tensor:
    """The shape argument of a random op as an int tensor named 'shape'."""
    dtype = None
    if isinstance(shape, (tuple, list)):
        if not shape:
            dtype = dtypes.int32
        else:
            shape = tuple(tensor_shape.dimension_value(d) for d in shape)
    elif isinstance(shape, tensor_shape.TensorShape):
        shape = shape.as_list()
    return ops.convert_to_tensor(shape, dtype=dtype, name="shape")


def _check_float(dtype: Any, fn: str) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype)
    if dtype not in FLOAT_TYPES:
        raise ValueError(f"Invalid dtype {dtype!r} for {fn}: expected a floating point type")
    return dtype


def _set_static(t: ops.Tensor, shape: Any) -> None:
    if not isinstance(shape, ops.Tensor):
        try:
            t.set_shape(tensor_shape.as_shape(shape if not isinstance(shape, tuple) else list(shape)))
        except (TypeError, ValueError):
            pass


def _scaled_normal(op_type: str, scope: str, shape: Any, mean: Any, stddev: Any, dtype: Any, seed: Any,
                   name: Optional[str]) -> ops.Tensor:
    """mean + stddev * samples of the standard-normal op `op_type`, in name scope `scope`."""
    dtype = _check_float(dtype, scope)
    with ops.name_scope(name, scope, [shape, mean, stddev]) as name:
        shape_t = shape_tensor(shape)
        mean_t = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_t = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = ops.apply_op(op_type, [shape_t], dict(_seeds(seed), dtype=dtype))
        mul = rnd * stddev_t
        value = math_ops.add(mul, mean_t, name=name)
        _set_static(value, shape)
        return value


def random_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32, seed: Any = None,
                  name: Optional[str] = None) -> ops.Tensor:
    """Samples from a normal distribution."""
    return _scaled_normal("RandomStandardNormal", "random_normal", shape, mean, stddev, dtype, seed, name)


def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32,
                     seed: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Samples from a normal distribution truncated (re-drawn) beyond two standard deviations."""
    return _scaled_normal("TruncatedNormal", "truncated_normal", shape, mean, stddev, dtype, seed, name)


def random_uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32, seed: Any = None,
                   name: Optional[str] = None) -> ops.Tensor:
    """Samples from a uniform distribution on [minval, maxval)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise ValueError(f"Invalid dtype {dtype!r}")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    with ops.name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
        shape_t = shape_tensor(shape)
        minval_is_zero = isinstance(minval, int) and not isinstance(minval, bool) and minval == 0
        maxval_is_one = isinstance(maxval, int) and not isinstance(maxval, bool) and maxval == 1
        if not minval_is_zero or not maxval_is_one or dtype.is_integer:
            minval = ops.convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
        seeds = _seeds(seed)
        if dtype.is_integer:
            result = ops.apply_op("RandomUniformInt", [shape_t, minval, maxval], seeds, name=name)
        else:
            result = ops.apply_op("RandomUniform", [shape_t], dict(seeds, dtype=dtype))
            if minval_is_zero:
                if not maxval_is_one:
                    result = math_ops.multiply(result, maxval)
            else:
                result = math_ops.add(result * (maxval - minval), minval, name=name)
        _set_static(result, shape)
        return result


def random_shuffle(value: Any, seed: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """value with its first dimension randomly permuted."""
    return ops.apply_op("RandomShuffle", [value], _seeds(seed), name=name)


def multinomial(logits: Any, num_samples: Any, seed: Any = None, name: Optional[str] = None,
                output_dtype: Any = None) -> ops.Tensor:
    """Draw num_samples class indices per row of unnormalised log-probabilities."""
    with ops.name_scope(name, "multinomial", [logits]):
        logits = ops.convert_to_tensor(logits, name="logits")
        attrs = dict(_seeds(seed), output_dtype=dtypes.as_dtype(output_dtype or dtypes.int64))
        return ops.apply_op("Multinomial", [logits, num_samples], attrs)


def categorical(logits: Any, num_samples: Any, dtype: Any = None, seed: Any = None,
                name: Optional[str] = None) -> ops.Tensor:
    """Draw num_samples class indices per row of logits."""
    with ops.name_scope(name, "categorical", [logits]):
        logits = ops.convert_to_tensor(logits, name="logits")
        attrs = dict(_seeds(seed), output_dtype=dtypes.as_dtype(dtype or dtypes.int64))
        return ops.apply_op("Multinomial", [logits, num_samples], attrs)
