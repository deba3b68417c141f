"""Moments from sufficient statistics: sufficient_statistics, normalize_moments and weighted_moments."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops


def _keep(keep_dims: Optional[bool], keepdims: Optional[bool]) -> bool:
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    value = keepdims if keepdims is not None else keep_dims
    return bool(value) if value is not None else False


def sufficient_statistics(x: Any, axes: Sequence[int], shift: Any = None, keep_dims: Optional[bool] = None,
                          name: Optional[str] = None, keepdims: Optional[bool] = None) -> tuple:
    """(count, sum(x - shift), sum((x - shift)^2), shift) over axes: what moments are computed from."""
    axes = list(set(axes))
    keep = _keep(keep_dims, keepdims)
    with ops.name_scope(name, "sufficient_statistics", [x, shift]):
        x = ops.convert_to_tensor(x, name="x")
        shape = x.shape
        dims = shape.as_list() if shape.ndims is not None else None
        if dims is not None and all(dims[d] is not None for d in axes):
            count = 1
            for d in axes:
                count *= dims[d]
            counts = ops.convert_to_tensor(count, dtype=x.dtype)
        else:
            dims = array_ops.gather(math_ops.cast(array_ops.shape(x), x.dtype), axes)
            counts = math_ops.reduce_prod(dims, name="count")
        if shift is not None:
            shift = ops.convert_to_tensor(shift, name="shift")
            m_ss, v_ss = math_ops.subtract(x, shift), math_ops.squared_difference(x, shift)
        else:
            m_ss, v_ss = x, math_ops.square(x)
        m_ss = math_ops.reduce_sum(m_ss, axes, keepdims=keep, name="mean_ss")
        v_ss = math_ops.reduce_sum(v_ss, axes, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts: Any, mean_ss: Any, variance_ss: Any, shift: Any,
                      name: Optional[str] = None) -> tuple:
    """(mean, variance) from the count, shifted sum and shifted sum of squares."""
    with ops.name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = math_ops.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor), math_ops.square(shifted_mean),
                                     name="variance")
    return mean, variance


def weighted_moments(x: Any, axes: Sequence[int], frequency_weights: Any, name: Optional[str] = None,
                     keep_dims: Optional[bool] = None, keepdims: Optional[bool] = None) -> tuple:
    """(mean, variance) of x over axes with each element counted frequency_weights times."""
    keep = _keep(keep_dims, keepdims)
    with ops.name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(frequency_weights, name="frequency_weights")
        half = x.dtype == dtypes.float16
        if half:
            x = math_ops.cast(x, dtypes.float32)
        if weights.dtype != x.dtype:
            weights = math_ops.cast(weights, x.dtype)
        weighted_sum = math_ops.reduce_sum(weights * x, axes, name="weighted_input_sum", keepdims=True)
        sum_of_weights = math_ops.reduce_sum(weights + array_ops.zeros_like(x), axes, name="sum_of_weights",
                                             keepdims=True)
        mean = math_ops.div_no_nan(weighted_sum, sum_of_weights)
        distsq = math_ops.reduce_sum(weights * math_ops.squared_difference(x, mean), axes, name="weighted_distsq",
                                     keepdims=True)
        variance = math_ops.div_no_nan(distsq, sum_of_weights)
        if not keep:
            mean = array_ops.squeeze(mean, axis=axes)
            variance = array_ops.squeeze(variance, axis=axes)
        if half:
            mean = math_ops.cast(mean, dtypes.float16)
            variance = math_ops.cast(variance, dtypes.float16)
        return mean, variance
