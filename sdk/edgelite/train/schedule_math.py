"""Learning-rate schedule formulas evaluated in numpy, in the learning rate's dtype and TensorFlow's op order.

Each function maps a global step (any integer or float) to the decayed learning rate as a numpy scalar of
`dtype`; the graph wrappers in `learning_rate_decay` run these as kernels.
"""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Union

import numpy as np
from numpy.typing import DTypeLike

Scalar = Union[int, float, np.number]


def _f(x, dtype):
    return np.dtype(dtype).type(x)


def _cast(x: Scalar, dtype: DTypeLike) -> np.generic:
    """A Python hyperparameter as TensorFlow's math_ops.cast(x, dtype) gives it: a Python float becomes a float32
    tensor first, so a float64 schedule sees float32(decay_rate), not the double."""
    if isinstance(x, float) and np.dtype(dtype) == np.float64:
        return np.float64(np.float32(x))
    return _f(x, dtype)


def _recip(c: np.generic) -> np.generic:
    """1 / c in c's dtype: TensorFlow's graph optimizer turns every division by a constant into a product with
    this reciprocal (so 180 / 60 becomes 180 * 0.016666668 = 3.0000002 in float32)."""
    return type(c)(1) / c


def _unary(fn, x: np.generic) -> np.generic:
    """fn(x) correctly rounded to x's dtype, as the C library's functions behind TensorFlow's scalar kernels give
    it (numpy's vectorised float32 exp/cos/pow may be an ulp off)."""
    return type(x)(fn(np.float64(x)))


def _pow(x: np.generic, y: np.generic) -> np.generic:
    """x ** y from the C library's pow (as TensorFlow's scalar Pow kernel), rounded to x's dtype."""
    try:
        value = math.pow(float(x), float(y))
    except (ValueError, OverflowError):  # negative base with a fractional power, or overflow: numpy's nan/inf
        with np.errstate(all="ignore"):
            value = float(np.power(np.float64(x), np.float64(y)))
    return type(x)(value)


# Each schedule follows the graph TensorFlow actually runs. With a constant step, its optimizer folds the
# whole formula with exact kernels in source order (`folded`); otherwise divisions by constants become products
# with reciprocals and chains of constant factors are multiplied together first, as the comments show.


def exponential_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar, decay_rate: Scalar,
                      staircase: bool = False, dtype: DTypeLike = np.float32, folded: bool = False) -> np.generic:
    """learning_rate * decay_rate ^ (step / decay_steps), the exponent floored when staircase."""
    s, steps = _f(step, dtype), _cast(decay_steps, dtype)
    p = s / steps if folded else _recip(steps) * s
    if staircase:
        p = np.floor(p)
    return _f(learning_rate, dtype) * _pow(_cast(decay_rate, dtype), p)


def natural_exp_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar, decay_rate: Scalar,
                      staircase: bool = False, dtype: DTypeLike = np.float32, folded: bool = False) -> np.generic:
    """learning_rate * exp(-decay_rate) ^ (step / decay_steps): TensorFlow takes exp(-decay_rate) in float32 and
    hands it to exponential decay."""
    rate = _unary(np.exp, -np.float32(decay_rate))
    return exponential_decay(step, learning_rate, decay_steps, _f(rate, dtype), staircase, dtype, folded)


def inverse_time_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar, decay_rate: Scalar,
                       staircase: bool = False, dtype: DTypeLike = np.float32, folded: bool = False) -> np.generic:
    """learning_rate / (1 + decay_rate * step / decay_steps), the ratio floored when staircase."""
    s, steps, rate = _f(step, dtype), _cast(decay_steps, dtype), _cast(decay_rate, dtype)
    if folded or staircase:
        p = s / steps if folded else _recip(steps) * s
        scaled = rate * (np.floor(p) if staircase else p)
    else:
        scaled = s * (rate * _recip(steps))  # decay_rate * (step * 1/decay_steps), constants first
    return _f(learning_rate, dtype) / (_f(1, dtype) + scaled)


def _power(base: np.generic, power: np.generic) -> np.generic:
    """base ** power; the optimizer's rewrites (Sqrt, Square, identity) give the same correctly rounded values."""
    return _pow(base, power)


def polynomial_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar, end_learning_rate: Scalar = 0.0001,
                     power: Scalar = 1.0, cycle: bool = False, dtype: DTypeLike = np.float32,
                     folded: bool = False) -> np.generic:
    """(lr - end) * (1 - step/decay_steps)^power + end; with cycle the horizon grows to the next multiple."""
    s = _f(step, dtype)
    steps = _cast(decay_steps, dtype)
    if cycle:
        ratio = s / _f(decay_steps, dtype) if folded else _recip(_f(decay_steps, dtype)) * s
        multiplier = _f(1.0, dtype) if s == 0 else np.ceil(ratio)
        p = s / (steps * multiplier)
    else:
        clipped = np.minimum(s, steps)
        p = clipped / steps if folded else _recip(steps) * clipped
    lr, end = _f(learning_rate, dtype), _cast(end_learning_rate, dtype)
    return _power(_f(1, dtype) - p, _cast(power, dtype)) * (lr - end) + end


def piecewise_constant(x: Scalar, boundaries: Sequence, values: Sequence) -> Any:
    """values[0] while x <= boundaries[0], values[i] on (boundaries[i-1], boundaries[i]], values[-1] beyond."""
    for i, b in enumerate(boundaries):
        if x <= b:
            return values[i]
    return values[-1]


def _half_cosine(angle: np.generic) -> np.generic:
    """1 + cos(angle), the factor every cosine schedule scales."""
    return _unary(np.cos, angle) + type(angle)(1.0)


def cosine_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar, alpha: Scalar = 0.0,
                 dtype: DTypeLike = np.float32, folded: bool = False) -> np.generic:
    """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha)."""
    steps, pi, half = _cast(decay_steps, dtype), _f(math.pi, dtype), _f(0.5, dtype)
    clipped = np.minimum(_f(step, dtype), steps)
    lr, alpha_c, keep = _f(learning_rate, dtype), _f(alpha, dtype), _f(1 - alpha, dtype)
    if folded:
        return lr * (keep * (half * _half_cosine(pi * (clipped / steps))) + alpha_c)
    # pi * (step * 1/steps) -> step * (pi * 1/steps); (1 - alpha) * (0.5 * x) -> x * (0.5 * (1 - alpha))
    return (alpha_c + _half_cosine(clipped * (pi * _recip(steps))) * (half * keep)) * lr


def cosine_decay_restarts(step: Scalar, learning_rate: Scalar, first_decay_steps: Scalar, t_mul: Scalar = 2.0,
                          m_mul: Scalar = 1.0, alpha: Scalar = 0.0, dtype: DTypeLike = np.float32,
                          folded: bool = False) -> np.generic:
    """SGDR: cosine cycles whose length grows by t_mul and whose peak shrinks by m_mul after each restart."""
    one, half, pi = _f(1.0, dtype), _f(0.5, dtype), _f(math.pi, dtype)
    t_mul_c, m_mul_c, alpha_c = _cast(t_mul, dtype), _cast(m_mul, dtype), _cast(alpha, dtype)
    s, first = _f(step, dtype), _cast(first_decay_steps, dtype)
    fraction = s / first if folded else _recip(first) * s
    if t_mul_c == one:
        i_restart = np.floor(fraction)
        fraction = fraction - i_restart
    else:
        shrink = one - t_mul_c
        log_ratio = _unary(np.log, one - fraction * shrink)
        log_t = _unary(np.log, t_mul_c)
        i_restart = np.floor(log_ratio / log_t if folded else _recip(log_t) * log_ratio)
        grown = _pow(t_mul_c, i_restart)
        sum_r = (one - grown) / shrink if folded else _recip(shrink) * (one - grown)
        fraction = (fraction - sum_r) / grown
    m_fac = _pow(m_mul_c, i_restart)
    cosine = _half_cosine(pi * fraction)
    if folded:
        return _f(learning_rate, dtype) * ((one - alpha_c) * (half * m_fac * cosine) + alpha_c)
    # (1 - alpha) * (0.5 * m_fac * x) -> x * ((0.5 * (1 - alpha)) * m_fac)
    return (alpha_c + cosine * ((half * (one - alpha_c)) * m_fac)) * _f(learning_rate, dtype)


def linear_cosine_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar, num_periods: Scalar = 0.5,
                        alpha: Scalar = 0.0, beta: Scalar = 0.001, dtype: DTypeLike = np.float32,
                        noise: Optional[float] = None, folded: bool = False) -> np.generic:
    """learning_rate * ((alpha + linear [+ noise]) * cosine + beta), linear = (decay_steps - step) / decay_steps."""
    steps, pi, half = _cast(decay_steps, dtype), _f(math.pi, dtype), _f(0.5, dtype)
    clipped = np.minimum(_f(step, dtype), steps)
    periods2 = _f(2.0, dtype) * _cast(num_periods, dtype)
    if folded:
        linear = (steps - clipped) / steps
        cosine = half * _half_cosine(pi * (periods2 * (clipped / steps)))
    else:
        # pi * (2 * num_periods * (step * 1/steps)) -> step * (pi * (2 * num_periods * 1/steps))
        linear = _recip(steps) * (steps - clipped)
        cosine = _half_cosine(clipped * (pi * (periods2 * _recip(steps)))) * half
    if noise is not None:
        linear = linear + _f(noise, dtype)
    return (_cast(beta, dtype) + (_cast(alpha, dtype) + linear) * cosine) * _f(learning_rate, dtype)


def noisy_linear_cosine_stddev(step: Scalar, decay_steps: Scalar, initial_variance: Scalar = 1.0,
                               variance_decay: Scalar = 0.55, dtype: DTypeLike = np.float32) -> np.generic:
    """Standard deviation of the Gaussian noise: sqrt(initial_variance / (1 + step) ** variance_decay)."""
    s = np.minimum(_f(step, dtype), _f(decay_steps, dtype))
    variance = _f(initial_variance, dtype) / np.power(_f(1.0, dtype) + s, _f(variance_decay, dtype))
    return np.sqrt(variance)


def noisy_linear_cosine_decay(step: Scalar, learning_rate: Scalar, decay_steps: Scalar,
                              initial_variance: Scalar = 1.0, variance_decay: Scalar = 0.55,
                              num_periods: Scalar = 0.5, alpha: Scalar = 0.0, beta: Scalar = 0.001,
                              dtype: DTypeLike = np.float32, rng: Optional[np.random.Generator] = None,
                              folded: bool = False) -> np.generic:
    """Linear cosine decay with zero-mean Gaussian noise of variance initial_variance / (1 + step)^variance_decay."""
    std = noisy_linear_cosine_stddev(step, decay_steps, initial_variance, variance_decay, dtype)
    rng = rng if rng is not None else np.random.default_rng()
    noise = _f(rng.standard_normal(), dtype) * std
    return linear_cosine_decay(step, learning_rate, decay_steps, num_periods, alpha, beta, dtype, noise=noise,
                               folded=folded)
