"""Quantization parameters from ranges, and weight/bias quantization, by the TFLite quantizer's rules.

- ranges narrower than 1e-6 are first widened to at least [-5e-7, 5e-7], so that bounded activations
  (RELU6, ...) stay representable in int32 at the resulting scale;
- activations (asymmetric): the range is widened to contain 0; scale = (max - min) / (qmax - qmin); the
  zero point is solved from whichever end gives the smaller rounding error, then clamped to
  [qmin, qmax] and rounded half away from zero (int8: from the minimum alone, in float32, as TF's
  quantizer re-derives it);
- int16 activations: symmetric, zero point 0, scale = max|range| / 32767;
- weights: symmetric int8 in [-127, 127] with zero point 0, per output channel (per tensor for the
  dynamic-range fully connected op and the legacy uint8 path, which is asymmetric uint8);
- bias: int32 (int64 with int16 activations) at scale input_scale * weight_scale, zero point 0.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from edgelite.lite.ir import QuantParams

NEAR_ZERO = 1.0e-6
LIMITS = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767), "int32": (-(2 ** 31), 2 ** 31 - 1),
          "int64": (-(2 ** 63), 2 ** 63 - 1)}


def round_away(x: np.ndarray) -> np.ndarray:
    """Round half away from zero (C's round), elementwise."""
    x = np.asarray(x, np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def expand_small_range(rmin: float, rmax: float) -> tuple:
    """[rmin, rmax], widened around 0 to a width of at least 1e-6 when it is narrower."""
    if float(rmax) - float(rmin) > NEAR_ZERO:
        return float(rmin), float(rmax)
    return min(float(rmin), -NEAR_ZERO / 2), max(float(rmax), NEAR_ZERO / 2)


def asymmetric(rmin: float, rmax: float, dtype: str) -> QuantParams:
    """Per-tensor asymmetric parameters covering [rmin, rmax] (widened to include 0)."""
    qmin, qmax = LIMITS[dtype]
    rmin, rmax = expand_small_range(rmin, rmax)
    rmin, rmax = min(rmin, 0.0), max(rmax, 0.0)
    scale = (rmax - rmin) / (qmax - qmin)
    if dtype == "int8":
        # TF's int8 quantizer re-derives the zero point in float32 from the minimum alone: the two ends can
        # round differently when the zero point lies halfway (a range symmetric about 0).
        zp = np.float32(qmin) - np.float32(rmin) / np.float32(scale)
        zp = qmin if zp < qmin else qmax if zp > qmax else int(round_away(zp))
        return QuantParams.per_tensor(scale, zp)
    from_min, from_max = qmin - rmin / scale, qmax - rmax / scale
    zp = from_min if abs(qmin) + abs(rmin / scale) < abs(qmax) + abs(rmax / scale) else from_max
    zp = qmin if zp < qmin else qmax if zp > qmax else int(round_away(zp))
    return QuantParams.per_tensor(scale, zp)


def symmetric(rmin: float, rmax: float, dtype: str = "int16") -> QuantParams:
    """Per-tensor symmetric parameters (zero point 0) covering [rmin, rmax]."""
    qmax = LIMITS[dtype][1]
    rmin, rmax = expand_small_range(rmin, rmax)
    return QuantParams.per_tensor(max(abs(rmin), abs(rmax)) / qmax, 0)


def quantize_array(data: np.ndarray, q: QuantParams, dtype: str) -> np.ndarray:
    """Quantize a float array with (possibly per-axis) parameters, clamped to the type's range."""
    data = np.asarray(data, np.float64)
    scale, zp = q.scale.astype(np.float64), q.zero_point.astype(np.float64)
    if q.scale.size > 1:
        shape = [1] * data.ndim
        shape[q.dim] = q.scale.size
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    lo, hi = LIMITS[dtype]
    return np.clip(round_away(data / scale) + zp, lo, hi).astype(dtype)


def symmetric_weights(w: np.ndarray, axis: Optional[int]) -> tuple:
    """(int8 weights, params): symmetric in [-127, 127], per channel along `axis` (None = per tensor)."""
    w = np.asarray(w, np.float64)
    if axis is None:
        max_abs = np.array([np.abs(w).max() if w.size else 0.0])
    else:
        max_abs = np.abs(np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)).max(axis=1)
    scale = np.where(max_abs > 0, max_abs / 127.0, 1.0)
    q = QuantParams(scale.astype(np.float32), np.zeros(scale.size, np.int64), 0 if axis is None else axis)
    return np.clip(quantize_array(w, QuantParams(scale, q.zero_point, q.dim), "int32"), -127, 127).astype(np.int8), q


def asymmetric_weights(w: np.ndarray, dtype: str = "uint8") -> tuple:
    """(quantized weights, params): per-tensor asymmetric over the weights' own range (legacy uint8 path)."""
    q = asymmetric(float(np.min(w)), float(np.max(w)), dtype)
    return quantize_array(w, q, dtype), q


def bias(b: np.ndarray, input_scale: float, weight_scale: np.ndarray, dtype: str = "int32") -> tuple:
    """(quantized bias, params) at scale input_scale * weight_scale (per channel), zero point 0."""
    scale = np.float64(input_scale) * np.asarray(weight_scale, np.float64)
    q = QuantParams(scale.astype(np.float32), np.zeros(scale.size, np.int64), 0)
    return quantize_array(b, QuantParams(scale, q.zero_point, 0), dtype), q
