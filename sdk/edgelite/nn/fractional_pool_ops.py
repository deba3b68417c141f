"""Fractional max/avg pooling (Graham, 2014): rows and columns are cut into pooling regions of sizes
floor(ratio) or ceil(ratio), in random or pseudo-random order, giving outputs floor(size / ratio) long. The ops
return the region boundaries (the pooling sequences) with the pooled values; their gradient ops take them back."""
from __future__ import annotations

import collections
from typing import Any, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, errors, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops

from .window_nd import input_dims

_ATTRS = {"pooling_ratio": None, "pseudo_random": False, "overlapping": False, "deterministic": False, "seed": 0,
          "seed2": 0}
_TYPES = {"T": [dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64]}
FractionalMaxPool = collections.namedtuple("FractionalMaxPool",
                                           ["output", "row_pooling_sequence", "col_pooling_sequence"])
FractionalAvgPool = collections.namedtuple("FractionalAvgPool", FractionalMaxPool._fields)


def pooling_sequence(rng: np.random.Generator, n_in: int, n_out: int, pseudo_random: bool) -> np.ndarray:
    """Region boundaries 0 = a_0 < ... < a_n_out = n_in whose steps are floor(n_in / n_out) or one more."""
    if n_in % n_out == 0:
        return np.arange(n_out + 1, dtype=np.int64) * (n_in // n_out)
    alpha = n_in / n_out
    k = n_in // n_out
    if pseudo_random:
        # a_i = ceil(alpha * (i + u)) - ceil(alpha * u): u is bounded so that the last step stays within k + 1
        u_max = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        u = rng.random() * u_max
        seq = np.ceil(alpha * (np.arange(n_out + 1) + u)).astype(np.int64)
        seq -= seq[0]
        seq[-1] = n_in
        return seq
    steps = np.full(n_out, k, np.int64)
    steps[: n_in - k * n_out] += 1
    return np.concatenate([[0], np.cumsum(rng.permutation(steps))]).astype(np.int64)


def _regions(seq: np.ndarray, n_in: int, overlapping: bool) -> list:
    """(start, stop) of each pooling region; overlapping regions also take the next region's first element."""
    stops = np.minimum(seq[1:] + (1 if overlapping else 0), n_in)
    return list(zip(seq[:-1].tolist(), stops.tolist()))


def _out_dims(attrs: dict, shape: Sequence[int], kind: str) -> list:
    ratio = [float(r) for r in attrs["pooling_ratio"]]
    if len(ratio) != 4:
        raise ValueError(f"pooling_ratio field must specify 4 dimensions, got {len(ratio)}")
    if ratio[0] != 1.0 or ratio[3] != 1.0:
        raise errors.UnimplementedError(None, None, f"Fractional {kind} pooling is not yet supported on the batch "
                                        "nor channel dimension.")
    if any(r < 1.0 for r in ratio):
        raise ValueError(f"pooling_ratio cannot be smaller than 1, got {ratio}")
    return [None if d is None else int(np.floor(d / r)) for d, r in zip(shape, ratio)]


def _sequences(ctx: Any, x: np.ndarray) -> tuple:
    if x.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional, got shape {list(x.shape)}")
    out = _out_dims(ctx.attrs, x.shape, _KIND[ctx.op.type])
    for i, (d, r) in enumerate(zip(x.shape, ctx.attrs["pooling_ratio"])):
        if out[i] <= 0:
            raise errors.InvalidArgumentError(None, None, f"Pooling ratio is higher than input dimension size for "
                                              f"dimension {i}. Input dim size: {d} pooling ratio: {r:g}")
    key = ("fractional_pool_sequences", ctx.op.name)
    if ctx.attrs["deterministic"] and key in ctx.state.op_state:
        return ctx.state.op_state[key]
    seqs = tuple(pooling_sequence(ctx.rng, x.shape[a], out[a], ctx.attrs["pseudo_random"]) for a in (1, 2))
    if ctx.attrs["deterministic"]:
        ctx.state.op_state[key] = seqs
    return seqs


def _pool(x: np.ndarray, rows: np.ndarray, cols: np.ndarray, overlapping: bool, reduce: Any) -> np.ndarray:
    """reduce(x, axis) over the row regions then the column regions (both reductions separate)."""
    r = np.stack([reduce(x[:, a:b], 1) for a, b in _regions(rows, x.shape[1], overlapping)], axis=1)
    return np.stack([reduce(r[:, :, a:b], 2) for a, b in _regions(cols, x.shape[2], overlapping)], axis=2)


def _max_kernel(ctx: Any, x: np.ndarray) -> tuple:
    rows, cols = _sequences(ctx, x)
    return _pool(x, rows, cols, ctx.attrs["overlapping"], lambda v, a: v.max(axis=a)), rows, cols


def _avg_kernel(ctx: Any, x: np.ndarray) -> tuple:
    rows, cols = _sequences(ctx, x)
    return _pool(x, rows, cols, ctx.attrs["overlapping"], lambda v, a: v.mean(axis=a)).astype(x.dtype), rows, cols


def _max_grad_kernel(ctx: Any, x: np.ndarray, y: np.ndarray, dy: np.ndarray, rows: np.ndarray,
                     cols: np.ndarray) -> np.ndarray:
    overlapping = ctx.attrs["overlapping"]
    n, _, _, c = x.shape
    dx = np.zeros(x.shape, dy.dtype)
    bi, ci = np.meshgrid(np.arange(n), np.arange(c), indexing="ij")
    for i, (r0, r1) in enumerate(_regions(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(_regions(cols, x.shape[2], overlapping)):
            region = x[:, r0:r1, c0:c1, :].reshape(n, -1, c)
            # the first maximum in row-major order of the region takes the gradient
            flat = region.argmax(axis=1)
            rr, cc = r0 + flat // (c1 - c0), c0 + flat % (c1 - c0)
            np.add.at(dx, (bi, rr, cc, ci), dy[:, i, j, :])
    return dx


def _avg_grad_kernel(ctx: Any, shape: np.ndarray, dy: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    overlapping = ctx.attrs["overlapping"]
    dims = [int(d) for d in shape]
    dx = np.zeros(dims, dy.dtype)
    for i, (r0, r1) in enumerate(_regions(rows, dims[1], overlapping)):
        for j, (c0, c1) in enumerate(_regions(cols, dims[2], overlapping)):
            dx[:, r0:r1, c0:c1, :] += (dy[:, i, j, :] / ((r1 - r0) * (c1 - c0)))[:, None, None, :]
    return dx


def _shape(op: Any) -> list:
    x = input_dims(op, 4)
    out = _out_dims(op.attrs, x, _KIND[op.type])
    seq = [None if d is None else d + 1 for d in out]
    return [tensor_shape.TensorShape(out), [seq[1]], [seq[2]]]


_KIND = {"FractionalMaxPool": "max", "FractionalAvgPool": "average"}
_OUTPUTS = ["output: T", "row_pooling_sequence: int64", "col_pooling_sequence: int64"]
register_op("FractionalMaxPool", inputs=["value: T"], outputs=_OUTPUTS, attrs=_ATTRS, kernel=_max_kernel,
            shape_fn=_shape, stateful=True, allowed_dtypes=_TYPES)
register_op("FractionalAvgPool", inputs=["value: T"], outputs=_OUTPUTS, attrs=_ATTRS, kernel=_avg_kernel,
            shape_fn=_shape, stateful=True, allowed_dtypes=_TYPES)
register_op("FractionalMaxPoolGrad",
            inputs=["orig_input: T", "orig_output: T", "out_backprop: T", "row_pooling_sequence: int64",
                    "col_pooling_sequence: int64"], outputs=["output: T"], attrs={"overlapping": False},
            kernel=_max_grad_kernel, shape_fn=lambda op: [op.inputs[0].shape], allowed_dtypes=_TYPES)
register_op("FractionalAvgPoolGrad",
            inputs=["orig_input_tensor_shape: int64", "out_backprop: T", "row_pooling_sequence: int64",
                    "col_pooling_sequence: int64"], outputs=["output: T"], attrs={"overlapping": False},
            kernel=_avg_grad_kernel, shape_fn=lambda op: [[None] * 4], allowed_dtypes=_TYPES)


@ops.RegisterGradient("FractionalMaxPool")
def _fractional_max_pool_grad(op: Any, grad: Any, unused_row_grad: Any, unused_col_grad: Any) -> Any:
    return ops.apply_op("FractionalMaxPoolGrad", [op.inputs[0], op.outputs[0], grad, op.outputs[1], op.outputs[2]],
                        {"overlapping": op.get_attr("overlapping")})


@ops.RegisterGradient("FractionalAvgPool")
def _fractional_avg_pool_grad(op: Any, grad: Any, unused_row_grad: Any, unused_col_grad: Any) -> Any:
    shape = array_ops.shape(op.inputs[0], out_type=dtypes.int64)
    return ops.apply_op("FractionalAvgPoolGrad", [shape, grad, op.outputs[1], op.outputs[2]],
                        {"overlapping": op.get_attr("overlapping")})


def _attrs(pooling_ratio: Any, pseudo_random: bool, overlapping: bool, deterministic: bool, seed: int,
           seed2: int) -> dict:
    ratio = [float(r) for r in (pooling_ratio if np.ndim(pooling_ratio) else [pooling_ratio])]
    return {"pooling_ratio": ratio, "pseudo_random": bool(pseudo_random), "overlapping": bool(overlapping),
            "deterministic": bool(deterministic), "seed": int(seed), "seed2": int(seed2)}


def fractional_max_pool(value: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                        deterministic: bool = False, seed: int = 0, seed2: int = 0,
                        name: Optional[str] = None) -> tuple:
    """(output, row_pooling_sequence, col_pooling_sequence): max pooling over fractional-size regions."""
    attrs = _attrs(pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)
    return FractionalMaxPool(*ops.apply_op("FractionalMaxPool", [value], attrs, name=name))


def fractional_avg_pool(value: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                        deterministic: bool = False, seed: int = 0, seed2: int = 0,
                        name: Optional[str] = None) -> tuple:
    """(output, row_pooling_sequence, col_pooling_sequence): average pooling over fractional-size regions."""
    attrs = _attrs(pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)
    return FractionalAvgPool(*ops.apply_op("FractionalAvgPool", [value], attrs, name=name))
