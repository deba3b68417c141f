"""Local response normalisation (LRN): each value divided by (bias + alpha * sum of squares over its depth
neighbourhood) ** beta, with the LRNGrad op."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.framework.op_def_registry import register_op

_ATTRS = {"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5}
_TYPES = {"T": [dtypes.float16, dtypes.bfloat16, dtypes.float32]}


def _window_sum(v: np.ndarray, r: int) -> np.ndarray:
    """Sum of v over depth positions d - r .. d + r (clipped at the ends) along the last axis."""
    depth = v.shape[-1]
    c = np.concatenate([np.zeros(v.shape[:-1] + (1,), v.dtype), np.cumsum(v, axis=-1)], axis=-1)
    d = np.arange(depth)
    hi = np.minimum(d + r + 1, depth)
    lo = np.maximum(d - r, 0)
    return c[..., hi] - c[..., lo]


def _norm(ctx: Any, x: np.ndarray) -> np.ndarray:
    a = ctx.attrs
    return a["bias"] + a["alpha"] * _window_sum(np.square(x.astype(np.float64)), int(a["depth_radius"]))


def _check_rank(x: np.ndarray, what: str) -> None:
    if x.ndim != 4:
        raise ValueError(f"{what} must be 4-dimensional, got shape {list(x.shape)}")


def _lrn_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    _check_rank(x, "input")
    return x / np.power(_norm(ctx, x), ctx.attrs["beta"])


def _lrn_grad_kernel(ctx: Any, dy: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    _check_rank(dy, "input_grads")
    a = ctx.attrs
    beta, r = a["beta"], int(a["depth_radius"])
    x64 = x.astype(np.float64)
    n = _norm(ctx, x64)
    # d y_i / d x_j = [i == j] n_i^-beta - 2 alpha beta x_i x_j n_i^(-beta-1) for j in i's window (symmetric)
    inner = _window_sum(dy * x64 * np.power(n, -beta - 1), r)
    return dy * np.power(n, -beta) - 2 * a["alpha"] * beta * x64 * inner


def _rank4(op: Any) -> list:
    shape = op.inputs[0].shape
    if shape.ndims is not None and shape.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {shape.ndims} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {shape}.")
    return [shape]


register_op("LRN", inputs=["input: T"], outputs=["output: T"], attrs=_ATTRS, kernel=_lrn_kernel, shape_fn=_rank4,
            allowed_dtypes=_TYPES)
register_op("LRNGrad", inputs=["input_grads: T", "input_image: T", "output_image: T"], outputs=["output: T"],
            attrs=_ATTRS, kernel=_lrn_grad_kernel, shape_fn=_rank4, allowed_dtypes=_TYPES)


@ops.RegisterGradient("LRN")
def _lrn_grad(op: Any, grad: Any) -> Any:
    attrs = {k: op.get_attr(k) for k in _ATTRS}
    return ops.apply_op("LRNGrad", [grad, op.inputs[0], op.outputs[0]], attrs)


def local_response_normalization(input: Any, depth_radius: int = 5, bias: float = 1.0,  # noqa: A002
                                 alpha: float = 1.0, beta: float = 0.5, name: Optional[str] = None) -> ops.Tensor:
    """input / (bias + alpha * sum(input[..., d-r:d+r+1] ** 2)) ** beta over the last (depth) axis."""
    attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha), "beta": float(beta)}
    return ops.apply_op("LRN", [input], attrs, name=name)


lrn = local_response_normalization
