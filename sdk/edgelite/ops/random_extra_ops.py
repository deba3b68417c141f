"""random_gamma (with TF's implicit reparameterization gradient), random_poisson and the stateless random ops.

Stateless ops draw from numpy's Philox generator keyed by the seed pair: the same seed gives the same values in
every session and graph, as in TF, but not TF's own bits (TF keys its Philox differently)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import random_seed
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.random_ops import shape_tensor
from edgelite.ops.shape_checks import shape_error, with_rank
from edgelite.ops.special_math_ops import igamma_grad_a

_INDEX = [dtypes.int32, dtypes.int64]
_HALF_TO_DOUBLE = [dtypes.float16, dtypes.float32, dtypes.float64]
_NUMERIC_DRAW = [dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64]


def _dims(shape: np.ndarray) -> list:
    return [int(d) for d in np.ravel(shape)]


def _sample_shape(op: Any, param_inputs: tuple = ()) -> list:
    """The requested shape (input 0) followed by the broadcast shape of the parameter inputs."""
    shape = tensor_util.constant_value_as_shape(op.inputs[0])
    params = [op.inputs[i].shape for i in param_inputs]
    if shape.ndims is None or any(p.ndims is None for p in params):
        return [None]
    tail: tuple = ()
    for p in params:
        tail = np.broadcast_shapes(tail, tuple(1 if d is None else d for d in p.as_list()))
    return [shape.as_list() + list(tail)]


def _seeds(seed: Optional[int]) -> dict:
    s1, s2 = random_seed.get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


# ---- random_gamma -------------------------------------------------------------------------------------------------
def _gamma_draw(rng: np.random.Generator, alpha: np.ndarray, dims: list) -> np.ndarray:
    """Gamma(alpha, 1) samples of shape dims + alpha.shape; NaN where alpha <= 0 (TF's convention)."""
    a = alpha.astype(np.float64)
    ok = a > 0
    draw = rng.standard_gamma(np.where(ok, a, 1.0), size=tuple(dims) + a.shape)
    return np.where(ok, draw, np.nan).astype(alpha.dtype)


register_op("RandomGamma", inputs=["shape: S", "alpha: T"], outputs=["output: T"], attrs={"seed": 0, "seed2": 0},
            kernel=lambda ctx, shape, alpha: _gamma_draw(ctx.rng, alpha, _dims(shape)),
            shape_fn=lambda op: _sample_shape(op, (1,)), stateful=True,
            allowed_dtypes={"S": _INDEX, "T": _HALF_TO_DOUBLE})


def _gamma_sample_grad(alpha: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """d sample / d alpha at fixed quantile: -(dP/da) / (dP/dx), P the regularized lower incomplete gamma."""
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    from scipy import special
    log_pdf = -x + special.xlogy(a - 1, x) - special.gammaln(a)
    return (-igamma_grad_a(a, x) / np.exp(log_pdf)).astype(sample.dtype)


register_op("RandomGammaGrad", inputs=["alpha: T", "sample: T"], outputs=["output: T"],
            kernel=lambda ctx, a, s: _gamma_sample_grad(a, s),
            shape_fn=lambda op: [op.inputs[1].shape], allowed_dtypes={"T": [dtypes.float32, dtypes.float64]})
ops.NoGradient("RandomGammaGrad")


@ops.RegisterGradient("RandomGamma")
def _random_gamma_grad(op: Any, grad: Any) -> tuple:
    """Implicit reparameterization: samples move with alpha at a fixed quantile; summed over the sample dims."""
    shape, alpha = op.inputs
    sample = op.outputs[0]
    num_sample_dims = array_ops.shape(shape)[0]
    ones = array_ops.ones(array_ops.expand_dims(num_sample_dims, 0), dtype=dtypes.int32)
    alpha_b = array_ops.reshape(alpha, array_ops.concat([ones, array_ops.shape(alpha)], 0))
    partial_a = ops.apply_op("RandomGammaGrad", [alpha_b, sample])
    return None, math_ops.reduce_sum(grad * partial_a, axis=math_ops.range(num_sample_dims))


def random_gamma(shape: Any, alpha: Any, beta: Any = None, dtype: Any = dtypes.float32, seed: Any = None,
                 name: Optional[str] = None) -> ops.Tensor:
    """Gamma(alpha, rate beta) samples of shape shape + broadcast(alpha, beta).shape (at least dtype's tiny)."""
    dtype = dtypes.as_dtype(dtype)
    with ops.name_scope(name, "random_gamma", [shape, alpha, beta]):
        shape = ops.convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        alpha = ops.convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        alpha_b = _broadcast_params(alpha, beta)
        tiny = np.finfo(alpha.dtype.as_numpy_dtype).tiny
        draw = ops.apply_op("RandomGamma", [shape, alpha_b], _seeds(seed))
        return math_ops.maximum(tiny, draw / beta)


def _broadcast_params(alpha: ops.Tensor, beta: ops.Tensor) -> ops.Tensor:
    """alpha broadcast against beta, keeping the static shape when both are known (as TF does)."""
    bshape = array_ops.broadcast_dynamic_shape(array_ops.shape(alpha), array_ops.shape(beta))
    out = array_ops.broadcast_to(alpha, bshape)
    if alpha.shape.is_fully_defined() and beta.shape.is_fully_defined():
        out.set_shape(np.broadcast_shapes(tuple(alpha.shape.as_list()), tuple(beta.shape.as_list())))
    return out


# ---- random_poisson -----------------------------------------------------------------------------------------------
def _poisson_draw(rng: np.random.Generator, rate: np.ndarray, dims: list, out_dtype: Any) -> np.ndarray:
    lam = rate.astype(np.float64)
    ok = lam >= 0
    draw = rng.poisson(np.where(ok, lam, 0.0), size=tuple(dims) + lam.shape).astype(np.float64)
    return np.where(ok, draw, np.nan).astype(out_dtype) if np.dtype(out_dtype).kind == "f" else draw.astype(out_dtype)


register_op("RandomPoissonV2", inputs=["shape: S", "rate: R"], outputs=["output: dtype"],
            attrs={"seed": 0, "seed2": 0, "R": dtypes.float64, "dtype": dtypes.int64},
            kernel=lambda ctx, shape, rate: _poisson_draw(ctx.rng, rate, _dims(shape),
                                                          ctx.attrs["dtype"].as_numpy_dtype),
            shape_fn=lambda op: _sample_shape(op, (1,)), stateful=True,
            allowed_dtypes={"S": _INDEX, "R": _NUMERIC_DRAW, "dtype": _NUMERIC_DRAW})
ops.NoGradient("RandomPoissonV2")


def random_poisson(lam: Any, shape: Any, dtype: Any = dtypes.float32, seed: Any = None,
                   name: Optional[str] = None) -> ops.Tensor:
    """Poisson(lam) samples of shape shape + lam.shape."""
    with ops.name_scope(name, "random_poisson", [lam, shape]):
        shape = ops.convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        lam = ops.convert_to_tensor(lam, name="rate")
        return ops.apply_op("RandomPoissonV2", [shape, lam], dict(_seeds(seed), dtype=dtypes.as_dtype(dtype)))


# ---- stateless ops ------------------------------------------------------------------------------------------------
def _generator(seed: np.ndarray) -> np.random.Generator:
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise errors.InvalidArgumentError(None, None, f"seed must have shape [2], not {list(seed.shape)}")
    key = [int(s) % (1 << 64) for s in seed]
    return np.random.Generator(np.random.Philox(key=key))


def _check_seed(op: Any, i: int) -> None:
    s = with_rank(op, i, 1).as_list()[0]
    if s is not None and s != 2:
        raise shape_error(op, f"Dimension must be 2 but is {s}")


def _stateless(draw: Callable, params: tuple = ()) -> dict:
    def kernel(ctx: Any, shape: np.ndarray, seed: np.ndarray, *args: np.ndarray) -> np.ndarray:
        return draw(ctx, _generator(seed), _dims(shape), *args)

    def shape_fn(op: Any) -> list:
        _check_seed(op, 1)
        return _sample_shape(op, params)
    return {"kernel": kernel, "shape_fn": shape_fn}


def _float_out(ctx: Any, values: np.ndarray) -> np.ndarray:
    return values.astype(ctx.attrs["dtype"].as_numpy_dtype)


def _truncated_standard(rng: np.random.Generator, dims: list) -> np.ndarray:
    out = rng.standard_normal(dims)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out


_STATELESS_FLOATS = [dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]
_SEED_ALLOWED = {"T": _INDEX, "Tseed": _INDEX}
_SEED_ATTRS = {"T": dtypes.int32, "Tseed": dtypes.int64}
register_op("StatelessRandomUniform", inputs=["shape: T", "seed: Tseed"], outputs=["output: dtype"],
            attrs=dict(_SEED_ATTRS, dtype=dtypes.float32),
            allowed_dtypes=dict(_SEED_ALLOWED, dtype=_STATELESS_FLOATS),
            **_stateless(lambda ctx, rng, dims: _float_out(ctx, rng.random(dims))))
register_op("StatelessRandomNormal", inputs=["shape: T", "seed: Tseed"], outputs=["output: dtype"],
            attrs=dict(_SEED_ATTRS, dtype=dtypes.float32),
            allowed_dtypes=dict(_SEED_ALLOWED, dtype=_STATELESS_FLOATS),
            **_stateless(lambda ctx, rng, dims: _float_out(ctx, rng.standard_normal(dims))))
register_op("StatelessTruncatedNormal", inputs=["shape: T", "seed: Tseed"], outputs=["output: dtype"],
            attrs=dict(_SEED_ATTRS, dtype=dtypes.float32),
            allowed_dtypes=dict(_SEED_ALLOWED, dtype=_STATELESS_FLOATS),
            **_stateless(lambda ctx, rng, dims: _float_out(ctx, _truncated_standard(rng, dims))))


def _uniform_int(ctx: Any, rng: np.random.Generator, dims: list, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    if not lo < hi:
        raise errors.InvalidArgumentError(None, None, f"Need minval < maxval: {int(lo)} >= {int(hi)}")
    return rng.integers(int(lo), int(hi), size=dims, dtype=lo.dtype)


register_op("StatelessRandomUniformInt", inputs=["shape: T", "seed: Tseed", "minval: dtype", "maxval: dtype"],
            outputs=["output: dtype"], attrs=dict(_SEED_ATTRS),
            allowed_dtypes=dict(_SEED_ALLOWED, dtype=_INDEX), **_stateless(_uniform_int))


def _stateless_poisson(ctx: Any, rng: np.random.Generator, dims: list, lam: np.ndarray) -> np.ndarray:
    return _poisson_draw(rng, np.broadcast_to(lam, dims), [], ctx.attrs["dtype"].as_numpy_dtype)


def _stateless_gamma(ctx: Any, rng: np.random.Generator, dims: list, alpha: np.ndarray) -> np.ndarray:
    return _gamma_draw(rng, np.broadcast_to(alpha, dims), [])


def _stateless_binomial(ctx: Any, rng: np.random.Generator, dims: list, counts: np.ndarray,
                        probs: np.ndarray) -> np.ndarray:
    n = np.broadcast_to(counts, dims).astype(np.int64)
    p = np.broadcast_to(probs, dims).astype(np.float64)
    return rng.binomial(n, p).astype(ctx.attrs["dtype"].as_numpy_dtype)


def _stateless_param_truncated(ctx: Any, rng: np.random.Generator, dims: list, means: np.ndarray,
                               stddevs: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Normal(means, stddevs) restricted to [lo, hi], by inverting the normal CDF on the allowed interval."""
    from scipy import special
    m, s, a, b = (np.broadcast_to(v, dims).astype(np.float64) for v in (means, stddevs, lo, hi))
    ca, cb = special.ndtr((a - m) / s), special.ndtr((b - m) / s)
    u = rng.random(dims)
    out = m + s * special.ndtri(ca + u * (cb - ca))
    return np.clip(out, a, b).astype(means.dtype)


def _explicit_shape(op: Any) -> list:
    _check_seed(op, 1)
    return [tensor_util.constant_value_as_shape(op.inputs[0])]


register_op("StatelessRandomPoisson", inputs=["shape: T", "seed: Tseed", "lam: Rtype"], outputs=["output: dtype"],
            attrs=dict(_SEED_ATTRS), allowed_dtypes=dict(_SEED_ALLOWED, Rtype=_NUMERIC_DRAW, dtype=_NUMERIC_DRAW),
            kernel=_stateless(_stateless_poisson)["kernel"], shape_fn=_explicit_shape)
register_op("StatelessRandomGammaV2", inputs=["shape: T", "seed: Tseed", "alpha: dtype"], outputs=["output: dtype"],
            attrs=dict(_SEED_ATTRS), allowed_dtypes=dict(_SEED_ALLOWED, dtype=_HALF_TO_DOUBLE),
            kernel=_stateless(_stateless_gamma)["kernel"], shape_fn=_explicit_shape)
register_op("StatelessRandomBinomial", inputs=["shape: S", "seed: Tseed", "counts: T", "probs: T"],
            outputs=["output: dtype"], attrs={"S": dtypes.int32, "Tseed": dtypes.int64, "T": dtypes.float64,
                                              "dtype": dtypes.int64},
            allowed_dtypes={"S": _INDEX, "Tseed": _INDEX, "T": _NUMERIC_DRAW, "dtype": _NUMERIC_DRAW},
            kernel=_stateless(_stateless_binomial)["kernel"], shape_fn=_explicit_shape)
register_op("StatelessParameterizedTruncatedNormal",
            inputs=["shape: S", "seed: Tseed", "means: dtype", "stddevs: dtype", "minvals: dtype", "maxvals: dtype"],
            outputs=["output: dtype"], attrs={"S": dtypes.int32, "Tseed": dtypes.int64},
            allowed_dtypes={"S": _INDEX, "Tseed": _INDEX, "dtype": _HALF_TO_DOUBLE},
            kernel=_stateless(_stateless_param_truncated)["kernel"], shape_fn=_explicit_shape)


def _stateless_multinomial_kernel(ctx: Any, logits: np.ndarray, num: np.ndarray, seed: np.ndarray) -> np.ndarray:
    rng = _generator(seed)
    z = logits.astype(np.float64)
    z = z - z.max(axis=1, keepdims=True)
    cdf = np.cumsum(np.exp(z), axis=1)
    cdf /= cdf[:, -1:]
    u = rng.random((logits.shape[0], int(num)))
    idx = (u[:, :, None] >= cdf[:, None, :]).sum(axis=2)
    return np.minimum(idx, logits.shape[1] - 1).astype(ctx.attrs["output_dtype"].as_numpy_dtype)


def _stateless_multinomial_shape(op: Any) -> list:
    _check_seed(op, 2)
    s = with_rank(op, 0, 2).as_list()
    n = tensor_util.constant_value(op.inputs[1])
    return [[s[0], None if n is None else int(n)]]


register_op("StatelessMultinomial", inputs=["logits: T", "num_samples: int32", "seed: Tseed"],
            outputs=["output: output_dtype"], attrs={"Tseed": dtypes.int64, "output_dtype": dtypes.int64},
            kernel=_stateless_multinomial_kernel, shape_fn=_stateless_multinomial_shape,
            allowed_dtypes={"Tseed": _INDEX, "output_dtype": _INDEX})
for _t in ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal", "StatelessRandomUniformInt",
           "StatelessRandomPoisson", "StatelessRandomGammaV2", "StatelessRandomBinomial",
           "StatelessParameterizedTruncatedNormal", "StatelessMultinomial"):
    ops.NoGradient(_t)


def _seed_tensor(seed: Any) -> ops.Tensor:
    return ops.convert_to_tensor(seed, name="seed", dtype_hint=dtypes.int64) if not isinstance(seed, ops.Tensor) \
        else seed


def stateless_random_uniform(shape: Any, seed: Any, minval: Any = 0, maxval: Any = None,
                             dtype: Any = dtypes.float32, name: Optional[str] = None,
                             alg: str = "auto_select") -> ops.Tensor:
    """Uniform samples on [minval, maxval) that depend only on shape and the seed pair."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer and (minval is None) != (maxval is None):
        raise ValueError(f"For integer `dtype` argument <dtype: '{dtype.name}'>, argument `minval` and `maxval` must be both None "
                         f"or not None. Got `minval`={minval} and `maxval`={maxval}.")
    with ops.name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as scope:
        shape = shape_tensor(shape)
        seed = _seed_tensor(seed)
        if dtype.is_integer:
            lo = ops.convert_to_tensor(minval, dtype=dtype, name="min")
            hi = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
            return ops.apply_op("StatelessRandomUniformInt", [shape, seed, lo, hi], name=scope)
        maxval = 1 if maxval is None else maxval
        lo = ops.convert_to_tensor(minval, dtype=dtype, name="min")
        hi = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
        rnd = ops.apply_op("StatelessRandomUniform", [shape, seed], {"dtype": dtype})
        return math_ops.add(rnd * (hi - lo), lo, name=scope)


def _scaled(op_type: str, default: str, shape: Any, seed: Any, mean: Any, stddev: Any, dtype: Any,
            name: Optional[str]) -> ops.Tensor:
    dtype = dtypes.as_dtype(dtype)
    with ops.name_scope(name, default, [shape, seed, mean, stddev]) as scope:
        shape = shape_tensor(shape)
        mean = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = ops.apply_op(op_type, [shape, _seed_tensor(seed)], {"dtype": dtype})
        return math_ops.add(rnd * stddev, mean, name=scope)


def stateless_random_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                            dtype: Any = dtypes.float32, name: Optional[str] = None,
                            alg: str = "auto_select") -> ops.Tensor:
    """Normal samples that depend only on shape and the seed pair."""
    return _scaled("StatelessRandomNormal", "stateless_random_normal", shape, seed, mean, stddev, dtype, name)


def stateless_truncated_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                               dtype: Any = dtypes.float32, name: Optional[str] = None,
                               alg: str = "auto_select") -> ops.Tensor:
    """Normal samples re-drawn beyond two standard deviations, depending only on shape and the seed pair."""
    return _scaled("StatelessTruncatedNormal", "stateless_truncated_normal", shape, seed, mean, stddev, dtype,
                   name)


def _stateless_draws(logits: Any, num_samples: Any, seed: Any, dtype: Any, name: Optional[str],
                     default: str) -> ops.Tensor:
    with ops.name_scope(name, default, [logits, seed]):
        logits = ops.convert_to_tensor(logits, name="logits")
        return ops.apply_op("StatelessMultinomial", [logits, num_samples, _seed_tensor(seed)],
                            {"output_dtype": dtypes.as_dtype(dtype)})


def stateless_multinomial(logits: Any, num_samples: Any, seed: Any, output_dtype: Any = dtypes.int64,
                          name: Optional[str] = None) -> ops.Tensor:
    """Class indices drawn per row of logits, depending only on the seed pair."""
    return _stateless_draws(logits, num_samples, seed, output_dtype, name, "stateless_multinomial")


def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = dtypes.int64,
                          name: Optional[str] = None) -> ops.Tensor:
    """stateless_multinomial under its TF2 name."""
    return _stateless_draws(logits, num_samples, seed, dtype, name, "stateless_categorical")


def stateless_random_poisson(shape: Any, seed: Any, lam: Any, dtype: Any = dtypes.int32,
                             name: Optional[str] = None) -> ops.Tensor:
    """Poisson(lam) samples of the given shape (lam broadcast to its trailing dims), depending only on the seed."""
    with ops.name_scope(name, "stateless_random_poisson", [shape, seed, lam]):
        shape = shape_tensor(shape)
        lam = ops.convert_to_tensor(lam, name="lam")
        return ops.apply_op("StatelessRandomPoisson", [shape, _seed_tensor(seed), lam],
                            {"dtype": dtypes.as_dtype(dtype)})


def stateless_random_gamma(shape: Any, seed: Any, alpha: Any, beta: Any = None, dtype: Any = dtypes.float32,
                           name: Optional[str] = None) -> ops.Tensor:
    """Gamma(alpha, rate beta) samples of the given shape, depending only on the seed pair."""
    dtype = dtypes.as_dtype(dtype)
    with ops.name_scope(name, "stateless_random_gamma", [shape, seed, alpha, beta]):
        shape = shape_tensor(shape)
        alpha = ops.convert_to_tensor(alpha, dtype=dtype, name="alpha")
        beta = ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        alpha_b = _broadcast_params(alpha, beta)
        draw = ops.apply_op("StatelessRandomGammaV2", [shape, _seed_tensor(seed), array_ops.broadcast_to(alpha_b,
                                                                                                        shape)])
        return math_ops.maximum(np.finfo(dtype.as_numpy_dtype).tiny, draw / beta)


def stateless_random_binomial(shape: Any, seed: Any, counts: Any, probs: Any, output_dtype: Any = dtypes.int32,
                              name: Optional[str] = None) -> ops.Tensor:
    """Binomial(counts, probs) samples of the given shape, depending only on the seed pair."""
    with ops.name_scope(name, "stateless_random_binomial", [shape, seed, counts, probs]):
        shape = shape_tensor(shape)
        probs = ops.convert_to_tensor(probs, dtype_hint=dtypes.float32, name="probs")
        counts = ops.convert_to_tensor(counts, dtype=probs.dtype.base_dtype, name="counts")
        return ops.apply_op("StatelessRandomBinomial", [shape, _seed_tensor(seed), counts, probs],
                            {"dtype": dtypes.as_dtype(output_dtype)})


def stateless_parameterized_truncated_normal(shape: Any, seed: Any, means: Any = 0.0, stddevs: Any = 1.0,
                                             minvals: Any = -2.0, maxvals: Any = 2.0,
                                             name: Optional[str] = None) -> ops.Tensor:
    """Normal(means, stddevs) samples restricted to [minvals, maxvals], depending only on the seed pair."""
    with ops.name_scope(name, "stateless_parameterized_truncated_normal", [shape, means, stddevs, minvals, maxvals]):
        shape = shape_tensor(shape)
        means = ops.convert_to_tensor(means, dtype_hint=dtypes.float32, name="means")
        dt = means.dtype.base_dtype
        args = [ops.convert_to_tensor(v, dtype=dt, name=n) for v, n in ((stddevs, "stddevs"), (minvals, "minvals"),
                                                                       (maxvals, "maxvals"))]
        return ops.apply_op("StatelessParameterizedTruncatedNormal", [shape, _seed_tensor(seed), means] + args)
