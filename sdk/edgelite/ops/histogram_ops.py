"""Counting ops: bincount, histogram_fixed_width(_bins) and confusion_matrix."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.shape_checks import with_rank, with_rank_at_most
from edgelite.ops.tensor_format import format_element

_INDEX = [dtypes.int32, dtypes.int64]
_COUNT_TYPES = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


# ---- bincount -----------------------------------------------------------------------------------------------------
def _dense_bincount_kernel(ctx: Any, arr: np.ndarray, size: np.ndarray, weights: np.ndarray) -> np.ndarray:
    n = int(size)
    if size.ndim != 0:
        raise _invalid(f"Shape must be rank 0 but is rank {size.ndim}")
    if n < 0:
        raise _invalid(f"size ({n}) must be non-negative")
    if arr.size and arr.min() < 0:
        raise _invalid("Input arr must be non-negative!")
    binary = ctx.attrs["binary_output"]
    dtype = ctx.op.outputs[0].dtype.as_numpy_dtype
    if weights.size and weights.shape != arr.shape:
        raise _invalid(f"Input arr and weights must have the same shape, got {list(arr.shape)} and "
                       f"{list(weights.shape)}")
    rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim == 2 else arr.reshape(1, -1)
    w = weights.reshape(rows.shape) if weights.size else None
    out = np.zeros((rows.shape[0], n), dtype=dtype)
    keep = rows < n
    r = np.broadcast_to(np.arange(rows.shape[0])[:, None], rows.shape)
    if binary:
        out[r[keep], rows[keep]] = 1
    else:
        np.add.at(out, (r[keep], rows[keep]), 1 if w is None else w[keep])
    return out if arr.ndim == 2 else out[0]


def _dense_bincount_shape(op: Any) -> list:
    arr = with_rank_at_most(op, 0, 2)
    with_rank(op, 1, 0)
    n = tensor_util.constant_value(op.inputs[1])
    n = None if n is None else int(n)
    if arr.ndims == 2:
        return [[arr.as_list()[0], n]]
    return [None if arr.ndims is None else [n]]


register_op("DenseBincount", inputs=["input: Tidx", "size: Tidx", "weights: T"], outputs=["output: T"],
            attrs={"binary_output": False}, kernel=_dense_bincount_kernel, shape_fn=_dense_bincount_shape,
            allowed_dtypes={"Tidx": _INDEX, "T": _COUNT_TYPES})


def bincount(arr: Any, weights: Any = None, minlength: Any = None, maxlength: Any = None,
             dtype: Any = dtypes.int32, name: Optional[str] = None) -> ops.Tensor:
    """How often each value 0..max(arr) occurs in arr (or the sum of its weights); length clipped to
    [minlength, maxlength]."""
    with ops.name_scope(name, "bincount", [arr, weights, minlength, maxlength]):
        arr = ops.convert_to_tensor(arr, name="arr")
        if not arr.dtype.is_integer:
            arr = math_ops.cast(arr, dtypes.int32)
        nonempty = math_ops.greater(math_ops.reduce_prod(array_ops.shape(arr)), 0)
        size = math_ops.cast(nonempty, arr.dtype) * (math_ops.reduce_max(arr) + 1)
        if minlength is not None:
            size = math_ops.maximum(ops.convert_to_tensor(minlength, dtype=arr.dtype, name="minlength"), size)
        if maxlength is not None:
            size = math_ops.minimum(ops.convert_to_tensor(maxlength, dtype=arr.dtype, name="maxlength"), size)
        arr = array_ops.reshape(arr, [-1])
        if weights is None:
            weights = ops.convert_to_tensor(np.zeros(0, dtypes.as_dtype(dtype).as_numpy_dtype), name="weights")
        else:
            weights = array_ops.reshape(ops.convert_to_tensor(weights, name="weights"), [-1])
        return ops.apply_op("DenseBincount", [arr, size, weights])


# ---- histograms ---------------------------------------------------------------------------------------------------
def _histogram_kernel(ctx: Any, values: np.ndarray, value_range: np.ndarray, nbins: np.ndarray) -> np.ndarray:
    n = int(nbins)
    lo, hi = value_range[0], value_range[1]
    if not lo < hi:
        raise _invalid(f"value_range should satisfy value_range[0] < value_range[1], but got "
                       f"'[{format_element(lo)}, {format_element(hi)}]'")
    if n <= 0:
        raise _invalid(f"nbins should be a positive number, but got '{n}'")
    # TF computes the bin in double: (max(v, lo) - lo) / ((hi - lo) / nbins), capped at nbins - 1
    step = (float(hi) - float(lo)) / n
    shifted = (np.maximum(values, lo) - lo).astype(np.float64)
    bins = np.minimum(shifted / step, n - 1).astype(np.int64)
    return np.bincount(bins.ravel(), minlength=n).astype(ctx.op.outputs[0].dtype.as_numpy_dtype)


def _histogram_shape(op: Any) -> list:
    with_rank(op, 1, 1)
    with_rank(op, 2, 0)
    n = tensor_util.constant_value(op.inputs[2])
    if n is not None and int(n) <= 0:
        raise ValueError(f"Requires nbins > 0: {int(n)}")
    return [[None if n is None else int(n)]]


register_op("HistogramFixedWidth", inputs=["values: T", "value_range: T", "nbins: int32"], outputs=["out: dtype"],
            attrs={"dtype": dtypes.int32}, kernel=_histogram_kernel, shape_fn=_histogram_shape,
            allowed_dtypes={"T": _COUNT_TYPES, "dtype": _INDEX})
ops.NoGradient("HistogramFixedWidth")


def histogram_fixed_width(values: Any, value_range: Any, nbins: Any = 100, dtype: Any = dtypes.int32,
                          name: Optional[str] = None) -> ops.Tensor:
    """Counts of values in nbins equal-width bins over value_range; values outside go to the end bins."""
    with ops.name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as scope:
        return ops.apply_op("HistogramFixedWidth", [values, value_range, nbins], {"dtype": dtypes.as_dtype(dtype)},
                            name=scope)


def histogram_fixed_width_bins(values: Any, value_range: Any, nbins: Any = 100, dtype: Any = dtypes.int32,
                               name: Optional[str] = None) -> ops.Tensor:
    """The bin (0..nbins-1) of each value for histogram_fixed_width; int32 whatever dtype says, as in TF."""
    with ops.name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        values = ops.convert_to_tensor(values, name="values")
        shape = array_ops.shape(values)
        values = array_ops.reshape(values, [-1])
        value_range = ops.convert_to_tensor(value_range, name="value_range")
        nbins = ops.convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        nbins_float = math_ops.cast(nbins, values.dtype)
        scaled = math_ops.truediv(values - value_range[0], value_range[1] - value_range[0], name="scaled_values")
        indices = math_ops.floor(nbins_float * scaled, name="indices")
        indices = math_ops.cast(math_ops.clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
        return array_ops.reshape(indices, shape)


# ---- confusion matrix ---------------------------------------------------------------------------------------------
def confusion_matrix(labels: Any, predictions: Any, num_classes: Any = None, dtype: Any = dtypes.int32,
                     name: Optional[str] = None, weights: Any = None) -> ops.Tensor:
    """[num_classes, num_classes] counts (or summed weights) of (label, prediction) pairs; rows are labels."""
    with ops.name_scope(name, "confusion_matrix", [predictions, labels, num_classes, weights]):
        labels = ops.convert_to_tensor(labels, name="labels")
        predictions = ops.convert_to_tensor(predictions, name="predictions")
        labels, predictions = _remove_squeezable_dimensions(labels, predictions)
        predictions = math_ops.cast(predictions, dtypes.int64)
        labels = math_ops.cast(labels, dtypes.int64)
        labels = _checked(labels, "`labels` contains negative values.  ", lower=True)
        predictions = _checked(predictions, "`predictions` contains negative values.  ", lower=True)
        if num_classes is None:
            num_classes = math_ops.maximum(math_ops.reduce_max(predictions), math_ops.reduce_max(labels)) + 1
        else:
            num_classes = math_ops.cast(num_classes, dtypes.int64)
            labels = _checked(labels, "`labels` out of bound", bound=num_classes)
            predictions = _checked(predictions, "`predictions` out of bound", bound=num_classes)
        dtype = dtypes.as_dtype(dtype)
        if weights is not None:
            weights = ops.convert_to_tensor(weights, name="weights")
            predictions.shape.assert_is_compatible_with(weights.shape)
            weights = math_ops.cast(weights, dtype)
        shape = array_ops.stack([num_classes, num_classes])
        indices = array_ops.stack([labels, predictions], axis=1)
        values = array_ops.ones_like(predictions, dtype) if weights is None else weights
        return array_ops.scatter_nd(indices, values, math_ops.cast(shape, dtypes.int64))


def _remove_squeezable_dimensions(labels: ops.Tensor, predictions: ops.Tensor) -> tuple:
    """Drop a trailing size-1 dim from whichever of labels/predictions has one more dim than the other."""
    lr, pr = labels.shape.ndims, predictions.shape.ndims
    if lr is not None and pr is not None:
        if pr - lr == 1 and predictions.shape.as_list()[-1] == 1:
            predictions = array_ops.squeeze(predictions, [-1])
        elif lr - pr == 1 and labels.shape.as_list()[-1] == 1:
            labels = array_ops.squeeze(labels, [-1])
    return labels, predictions


def _checked(x: ops.Tensor, message: str, lower: bool = False, bound: Any = None) -> ops.Tensor:
    """x, after a run-time check that it is >= 0 (lower) or < bound, failing with TF's message."""
    from edgelite.ops.control_flow_ops import with_dependencies
    from edgelite.ops.logging_ops import Assert
    zero = array_ops.zeros_like(x)
    if lower:
        cond = math_ops.reduce_all(math_ops.less_equal(zero, x))
        data = [message, "Condition x >= 0 did not hold element-wise:", "x (%s) = " % x.name, x]
    else:
        cond = math_ops.reduce_all(math_ops.less(x, bound))
        data = [message, "Condition x < y did not hold element-wise:", "x (%s) = " % x.name, x,
                "y (%s) = " % bound.name, bound]
    return with_dependencies([Assert(cond, data)], x)
