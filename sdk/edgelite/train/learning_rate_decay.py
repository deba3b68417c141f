"""Learning-rate schedules as graph ops (tf.compat.v1.train.exponential_decay and friends).

Each schedule is one op whose kernel evaluates the formula in `schedule_math` in the learning rate's dtype;
every function raises ValueError when global_step is None, as documented.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops, tensor_util
from edgelite.framework.op_def_registry import register_op

from . import schedule_math as sm

_SCALAR = lambda op: [[]]  # noqa: E731


def _decay_kernel(ctx: Any, learning_rate: np.ndarray, step: np.ndarray) -> np.ndarray:
    attrs = ctx.attrs
    fn = attrs["schedule"]
    params = dict(zip(attrs["param_names"], attrs["param_values"]))
    dtype = np.asarray(learning_rate).dtype
    kwargs = dict(params, learning_rate=learning_rate.item(), dtype=dtype, folded=bool(attrs["folded"]))
    if fn == "noisy_linear_cosine_decay":
        kwargs["rng"] = ctx.rng
    for flag in ("staircase", "cycle"):
        if flag in kwargs:
            kwargs[flag] = bool(kwargs[flag])
    return np.asarray(getattr(sm, fn)(step.item(), **kwargs), dtype=dtype)


register_op("LearningRateDecay", inputs=["learning_rate: T", "global_step: Tstep"], outputs=["decayed: T"],
            attrs={"schedule": "", "param_names": [], "param_values": [], "folded": False}, kernel=_decay_kernel,
            shape_fn=_SCALAR,
            stateful=False)
register_op("NoisyLearningRateDecay", inputs=["learning_rate: T", "global_step: Tstep"], outputs=["decayed: T"],
            attrs={"schedule": "", "param_names": [], "param_values": [], "folded": False, "seed": 0, "seed2": 0},
            kernel=_decay_kernel, shape_fn=_SCALAR, stateful=True)


def _schedule(fn: str, default_name: str, learning_rate: Any, global_step: Any, name: Optional[str],
              **params: Any) -> Any:
    if global_step is None:
        raise ValueError(f"global_step is required for {fn}.")
    names = sorted(params)
    values = [float(params[k]) for k in names]
    op_type = "NoisyLearningRateDecay" if fn == "noisy_linear_cosine_decay" else "LearningRateDecay"
    with ops.name_scope(name, default_name, [learning_rate, global_step]) as scope:
        lr = ops.convert_to_tensor(learning_rate, name="learning_rate")
        step = ops.convert_to_tensor(global_step)
        # A constant step makes TensorFlow fold the whole formula with exact divisions (see schedule_math).
        folded = tensor_util.constant_value(step) is not None
        return ops.apply_op(op_type, [lr, step], attrs={"schedule": fn, "param_names": names,
                                                        "param_values": values, "folded": folded}, name=scope)


def exponential_decay(learning_rate: Any, global_step: Any, decay_steps: int, decay_rate: float,
                      staircase: bool = False, name: Optional[str] = None) -> Any:
    """learning_rate * decay_rate ^ (global_step / decay_steps) (integer division when staircase)."""
    return _schedule("exponential_decay", "ExponentialDecay", learning_rate, global_step, name,
                     decay_steps=decay_steps, decay_rate=decay_rate, staircase=staircase)


def natural_exp_decay(learning_rate: Any, global_step: Any, decay_steps: int, decay_rate: float,
                      staircase: bool = False, name: Optional[str] = None) -> Any:
    """learning_rate * exp(-decay_rate * global_step / decay_steps)."""
    return _schedule("natural_exp_decay", "ExponentialTimeDecay", learning_rate, global_step, name,
                     decay_steps=decay_steps, decay_rate=decay_rate, staircase=staircase)


def inverse_time_decay(learning_rate: Any, global_step: Any, decay_steps: int, decay_rate: float,
                       staircase: bool = False, name: Optional[str] = None) -> Any:
    """learning_rate / (1 + decay_rate * global_step / decay_steps)."""
    return _schedule("inverse_time_decay", "InverseTimeDecay", learning_rate, global_step, name,
                     decay_steps=decay_steps, decay_rate=decay_rate, staircase=staircase)


def polynomial_decay(learning_rate: Any, global_step: Any, decay_steps: int, end_learning_rate: float = 0.0001,
                     power: float = 1.0, cycle: bool = False, name: Optional[str] = None) -> Any:
    """(learning_rate - end) * (1 - step / decay_steps) ^ power + end, optionally cycling the horizon."""
    return _schedule("polynomial_decay", "PolynomialDecay", learning_rate, global_step, name,
                     decay_steps=decay_steps, end_learning_rate=end_learning_rate, power=power, cycle=cycle)


def cosine_decay(learning_rate: Any, global_step: Any, decay_steps: int, alpha: float = 0.0,
                 name: Optional[str] = None) -> Any:
    """Cosine decay from learning_rate to alpha * learning_rate over decay_steps."""
    return _schedule("cosine_decay", "CosineDecay", learning_rate, global_step, name, decay_steps=decay_steps,
                     alpha=alpha)


def cosine_decay_restarts(learning_rate: Any, global_step: Any, first_decay_steps: int, t_mul: float = 2.0,
                          m_mul: float = 1.0, alpha: float = 0.0, name: Optional[str] = None) -> Any:
    """Cosine decay with warm restarts (SGDR)."""
    return _schedule("cosine_decay_restarts", "SGDRDecay", learning_rate, global_step, name,
                     first_decay_steps=first_decay_steps, t_mul=t_mul, m_mul=m_mul, alpha=alpha)


def linear_cosine_decay(learning_rate: Any, global_step: Any, decay_steps: int, num_periods: float = 0.5,
                        alpha: float = 0.0, beta: float = 0.001, name: Optional[str] = None) -> Any:
    """learning_rate * ((alpha + linear) * cosine + beta)."""
    return _schedule("linear_cosine_decay", "LinearCosineDecay", learning_rate, global_step, name,
                     decay_steps=decay_steps, num_periods=num_periods, alpha=alpha, beta=beta)


def noisy_linear_cosine_decay(learning_rate: Any, global_step: Any, decay_steps: int, initial_variance: float = 1.0,
                              variance_decay: float = 0.55, num_periods: float = 0.5, alpha: float = 0.0,
                              beta: float = 0.001, name: Optional[str] = None) -> Any:
    """Linear cosine decay with Gaussian noise of variance initial_variance / (1 + step) ^ variance_decay."""
    return _schedule("noisy_linear_cosine_decay", "NoisyLinearCosineDecay", learning_rate, global_step, name,
                     decay_steps=decay_steps, initial_variance=initial_variance, variance_decay=variance_decay,
                     num_periods=num_periods, alpha=alpha, beta=beta)


def _piecewise_kernel(ctx: Any, x: np.ndarray, boundaries: np.ndarray, values: np.ndarray) -> np.ndarray:
    return np.asarray(sm.piecewise_constant(x.item(), list(boundaries), list(values)), dtype=values.dtype)


register_op("PiecewiseConstant", inputs=["x: Tx", "boundaries: Tx", "values: T"], outputs=["output: T"],
            kernel=_piecewise_kernel, shape_fn=_SCALAR)


def piecewise_constant(x: Any, boundaries: Sequence[Any], values: Sequence[Any], name: Optional[str] = None) -> Any:
    """values[i] for x in (boundaries[i-1], boundaries[i]]; ValueError on mismatched types or lengths."""
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with ops.name_scope(name, "PiecewiseConstant", [x]) as scope:
        x_t = ops.convert_to_tensor(x)
        b_ts = [ops.convert_to_tensor(b) for b in boundaries]
        v_ts = [ops.convert_to_tensor(v) for v in values]
        for b in b_ts:
            if b.dtype.base_dtype != x_t.dtype.base_dtype and not (
                    b.dtype.base_dtype == dtypes.int32 and x_t.dtype.base_dtype == dtypes.int64):
                raise ValueError(f"Boundaries ({b.dtype.base_dtype}) must have the same dtype as x "
                                 f"({x_t.dtype.base_dtype}).")
        for v in v_ts[1:]:
            if v.dtype.base_dtype != v_ts[0].dtype.base_dtype:
                raise ValueError(f"Values must have elements all with the same dtype ({v_ts[0].dtype.base_dtype} "
                                 f"vs {v.dtype.base_dtype}).")
        from edgelite.ops import array_ops, math_ops
        b_all = array_ops.stack([math_ops.cast(b, x_t.dtype.base_dtype) for b in b_ts])
        v_all = array_ops.stack(v_ts)
        return ops.apply_op("PiecewiseConstant", [x_t, b_all, v_all], name=scope)


piecewise_constant_decay = piecewise_constant
