"""Bias and fused batch-normalisation kernels with their gradients (TF's BiasAddGrad / FusedBatchNormGrad)."""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from . import native
from .backend import native_for


def channel_axis(ndim: int, data_format: str) -> int:
    """Position of the channel axis for NHWC-like ("N...C") or NCHW-like ("NC...") layouts."""
    if data_format.startswith("NC"):
        return 1
    if data_format.startswith("N") and data_format.endswith("C"):
        return ndim - 1
    raise ValueError(f"data_format must be NHWC-like or NCHW-like, got {data_format!r}")


def _per_channel(v: np.ndarray, ndim: int, axis: int) -> np.ndarray:
    shape = [1] * ndim
    shape[axis] = v.shape[0]
    return v.reshape(shape)


def bias_add(x: np.ndarray, bias: np.ndarray, data_format: str = "NHWC") -> np.ndarray:
    """Adds a 1-D bias along the channel axis."""
    if bias.ndim != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {bias.ndim} for bias")
    axis = channel_axis(x.ndim, data_format) if x.ndim > 2 else x.ndim - 1
    if x.ndim < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {x.ndim} for value")
    if x.shape[axis] != bias.shape[0]:
        raise ValueError(f"Dimensions must be equal, but are {x.shape[axis]} and {bias.shape[0]}")
    return x + _per_channel(bias, x.ndim, axis)


def bias_add_grad(dy: np.ndarray, data_format: str = "NHWC") -> np.ndarray:
    """Sums the gradient over every axis except the channel axis."""
    axis = channel_axis(dy.ndim, data_format) if dy.ndim > 2 else dy.ndim - 1
    h = native_for(dy) if axis == dy.ndim - 1 else None
    if h is not None:
        return native.channel_sum(h, dy)
    return dy.sum(axis=tuple(a for a in range(dy.ndim) if a != axis))


def _reduce_axes(ndim: int, axis: int) -> Tuple[int, ...]:
    return tuple(a for a in range(ndim) if a != axis)


def _rows(x: np.ndarray, axis: int) -> Tuple[np.ndarray, int]:
    """Channels-last data as a [pixels, channels] matrix (numpy reduces one leading axis much faster than three)."""
    if axis == x.ndim - 1 and x.ndim > 2:
        return x.reshape(-1, x.shape[-1]), 1
    return x, axis


def _channel_dot(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
    """sum(a * b) per channel, without the a * b temporary for [pixels, channels] matrices."""
    if a.ndim == 2 and axis == 1:
        return np.einsum("ij,ij->j", a, b)
    return (a * b).sum(axis=_reduce_axes(a.ndim, axis))


def _native_channels_last(x: np.ndarray, data_format: str, *arrays: np.ndarray):
    """The native kernels for float32 data whose channels are the last axis, else None.

    TensorFlow's CPU FusedBatchNorm has no float64 kernel and neither has libedgelite: float64 stays on numpy."""
    if x.ndim < 2 or x.dtype != np.float32 or channel_axis(x.ndim, data_format) != x.ndim - 1:
        return None
    return native_for(*arrays)


def _reported_statistics(bmean: np.ndarray, bvar: np.ndarray, n: int, mean: Optional[np.ndarray],
                         variance: Optional[np.ndarray], factor: float, dtype: np.dtype) -> Tuple[np.ndarray, ...]:
    """(batch_mean, batch_variance, saved_mean, saved_variance) outputs of a training FusedBatchNorm."""
    unbiased = bvar * (n / (n - 1)) if n > 1 else np.full_like(bvar, np.nan)
    out_mean, out_var = bmean, unbiased
    if factor != 1.0:
        out_mean = (1 - factor) * mean.astype(bmean.dtype) + factor * bmean
        out_var = (1 - factor) * variance.astype(bvar.dtype) + factor * unbiased
    return out_mean.astype(dtype), out_var.astype(dtype), bmean.astype(dtype), bvar.astype(dtype)


def fused_batch_norm(x: np.ndarray, scale: np.ndarray, offset: np.ndarray,
                     mean: Optional[np.ndarray], variance: Optional[np.ndarray],
                     epsilon: float = 1e-3, is_training: bool = True, exponential_avg_factor: float = 1.0,
                     data_format: str = "NHWC") -> Tuple[np.ndarray, ...]:
    """FusedBatchNorm: returns (y, batch_mean, batch_variance, saved_mean, saved_variance).

    In training the normalisation uses the biased batch variance, the reported batch variance is the
    unbiased (n / (n - 1)) one, and with exponential_avg_factor != 1 both reported statistics are
    already blended into the running `mean` / `variance` inputs.
    """
    h = _native_channels_last(x, data_format, x, scale, offset)
    if h is not None and is_training:
        y, bmean, bvar = native.batch_norm(h, x, scale, offset, None, None, epsilon, True)
        return (y,) + _reported_statistics(bmean, bvar, x.size // max(x.shape[-1], 1), mean, variance,
                                           exponential_avg_factor, scale.dtype)
    if h is not None and mean is not None and variance is not None and native_for(mean, variance) is not None:
        y = native.batch_norm(h, x, scale, offset, mean, variance, epsilon, False)[0]
        return y, mean.copy(), variance.copy(), mean.copy(), variance.copy()
    acc = np.float64 if x.dtype == np.float64 else np.float32
    xa, axis = _rows(x.astype(acc, copy=False), channel_axis(x.ndim, data_format))
    sa, oa = scale.astype(acc, copy=False), offset.astype(acc, copy=False)
    if is_training:
        n = xa.size // xa.shape[axis]
        bmean = xa.mean(axis=_reduce_axes(xa.ndim, axis))
        y = xa - _per_channel(bmean, xa.ndim, axis)
        bvar = _channel_dot(y, y, axis) / n
        inv = 1.0 / np.sqrt(bvar + epsilon)
        # y holds the centred input, a fresh array: scale and shift it in place.
        y *= _per_channel(inv * sa, xa.ndim, axis)
        y += _per_channel(oa, xa.ndim, axis)
        return (y.astype(x.dtype, copy=False).reshape(x.shape),) + _reported_statistics(
            bmean, bvar, n, mean, variance, exponential_avg_factor, scale.dtype)
    ma, va = mean.astype(acc, copy=False), variance.astype(acc, copy=False)
    inv = 1.0 / np.sqrt(va + epsilon)
    y = (xa - _per_channel(ma, xa.ndim, axis)) * _per_channel(inv * sa, xa.ndim, axis)
    y += _per_channel(oa, xa.ndim, axis)
    return (y.astype(x.dtype, copy=False).reshape(x.shape), mean.copy(), variance.copy(), mean.copy(),
            variance.copy())


def fused_batch_norm_grad(dy: np.ndarray, x: np.ndarray, scale: np.ndarray, saved_mean: np.ndarray,
                          saved_variance: np.ndarray, epsilon: float = 1e-3, is_training: bool = True,
                          data_format: str = "NHWC") -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FusedBatchNormGrad: (dx, dscale, doffset) from the statistics the forward pass used."""
    h = _native_channels_last(x, data_format, dy, x, scale, saved_mean, saved_variance)
    if h is not None:
        return native.batch_norm_grad(h, dy, x, scale, saved_mean, saved_variance, epsilon, is_training)
    acc = np.float64 if x.dtype == np.float64 else np.float32
    xa, axis = _rows(x.astype(acc, copy=False), channel_axis(x.ndim, data_format))
    dya = dy.astype(acc, copy=False).reshape(xa.shape)
    nd = xa.ndim
    inv = 1.0 / np.sqrt(saved_variance.astype(acc) + epsilon)
    xc = xa - _per_channel(saved_mean.astype(acc), nd, axis)
    doffset = dya.sum(axis=_reduce_axes(nd, axis))
    dscale = _channel_dot(dya, xc, axis) * inv
    k = _per_channel(scale.astype(acc) * inv, nd, axis)
    if is_training:
        n = xa.size // xa.shape[axis]
        # dx = k * (dy - doffset / n - xhat * dscale / n), built in xc's fresh buffer.
        xc *= _per_channel(dscale * inv / n, nd, axis)
        dx = np.subtract(dya, xc, out=xc)
        dx -= _per_channel(doffset / n, nd, axis)
        dx *= k
    else:
        dx = dya * k
    return (dx.astype(x.dtype, copy=False).reshape(x.shape), dscale.astype(scale.dtype),
            doffset.astype(scale.dtype))
