"""tf.sparse.bincount: counts (or weight sums) of non-negative ints as a SparseTensor, per row for axis=-1."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops
from edgelite.ops import sparse_checks as checks


def _count(rows: np.ndarray, values: np.ndarray, weights: np.ndarray, n_rows: int, attrs: dict,
           out_dtype: np.dtype, batched: bool) -> tuple:
    """Sorted (row, value) pairs with their counts; the dense size follows TF's GetOutputSize."""
    if (values < 0).any():
        raise checks.invalid(f"Input values must all be non-negative, got {int(values[values < 0][0])}")
    maxlength, minlength = attrs["maxlength"], attrs["minlength"]
    keep = np.ones(values.size, bool) if maxlength <= 0 else values < maxlength
    rows, values = rows[keep], values[keep]
    w = weights[keep] if weights.size else np.ones(values.size, out_dtype)
    max_seen = int(values.max()) if values.size else -1
    size = maxlength if maxlength > 0 else max(max_seen + 1, minlength)
    pairs, inverse = np.unique(np.stack([rows, values], axis=1), axis=0, return_inverse=True) if values.size else \
        (np.zeros((0, 2), np.int64), np.zeros(0, np.int64))
    sums = np.zeros(pairs.shape[0], out_dtype)
    np.add.at(sums, np.ravel(inverse), w.astype(out_dtype))
    if attrs["binary_output"]:
        sums = np.ones_like(sums)
    indices = pairs.astype(np.int64) if batched else pairs[:, 1:].astype(np.int64)
    shape = np.array([n_rows, size] if batched else [size], np.int64)
    return indices, sums, shape


def _dense_count_kernel(ctx: Any, values: np.ndarray, weights: np.ndarray) -> tuple:
    if values.ndim not in (1, 2):
        raise checks.invalid(f"Input must be a 1 or 2-dimensional tensor. Got: {values.ndim}")
    if weights.size and weights.shape != values.shape:
        raise checks.invalid(f"Weights and values must have the same shape. Weight shape: "
                             f"{checks.fmt_index(weights.shape)}; values shape: {checks.fmt_index(values.shape)}")
    batched = values.ndim == 2
    rows = np.repeat(np.arange(values.shape[0]), values.shape[1]) if batched else np.zeros(values.size, np.int64)
    out_dtype = np.dtype(dtypes.as_dtype(ctx.attrs["output_type"]).as_numpy_dtype)
    return _count(rows, values.ravel().astype(np.int64), weights.ravel(), values.shape[0] if batched else 1,
                  ctx.attrs, out_dtype, batched)


def _sparse_count_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray,
                         weights: np.ndarray) -> tuple:
    if weights.size and weights.shape != values.shape:
        raise checks.invalid(f"Weights and values must have the same shape. Weight shape: "
                             f"{checks.fmt_index(weights.shape)}; values shape: {checks.fmt_index(values.shape)}")
    batched = shape.size == 2
    rows = indices[:, 0].astype(np.int64) if batched else np.zeros(values.size, np.int64)
    out_dtype = np.dtype(dtypes.as_dtype(ctx.attrs["output_type"]).as_numpy_dtype)
    return _count(rows, values.astype(np.int64), weights, int(shape[0]) if batched else 1, ctx.attrs, out_dtype,
                  batched)


_ATTRS = {"minlength": -1, "maxlength": -1, "binary_output": False}
_OUT = ["output_indices: int64", "output_values: output_type", "output_dense_shape: int64"]


def _count_shape(rank: Optional[int]) -> list:
    return [[None, rank], [None], [rank]]


register_op("DenseCountSparseOutput", inputs=["values: T", "weights: output_type"], outputs=_OUT, attrs=_ATTRS,
            kernel=_dense_count_kernel, shape_fn=lambda op: _count_shape(op.inputs[0].shape.ndims))
register_op("SparseCountSparseOutput",
            inputs=["indices: int64", "values: T", "dense_shape: int64", "weights: output_type"], outputs=_OUT,
            attrs=_ATTRS, kernel=_sparse_count_kernel,
            shape_fn=lambda op: _count_shape(op.inputs[2].shape[0].value if op.inputs[2].shape.ndims else None))
ops.NoGradient("DenseCountSparseOutput")
ops.NoGradient("SparseCountSparseOutput")


def sparse_bincount(values: Any, weights: Any = None, axis: Optional[int] = 0, minlength: Optional[int] = None,
                    maxlength: Optional[int] = None, binary_output: bool = False,
                    name: Optional[str] = None) -> SparseTensor:
    """How often each value occurs (weight sums if weights), over everything (axis=0) or per row (axis=-1)."""
    with ops.name_scope(name, "count", [values, weights]):
        if not isinstance(values, SparseTensor):
            values = ops.convert_to_tensor(values, name="values")
        if weights is not None and not isinstance(weights, SparseTensor):
            weights = ops.convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only "
                             "one.")
        axis = 0 if axis is None else axis
        if axis not in (0, -1):
            raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
        attrs = {"minlength": -1 if minlength is None else int(minlength),
                 "maxlength": -1 if maxlength is None else int(maxlength), "binary_output": binary_output}
        if axis == 0:
            if isinstance(values, SparseTensor):
                weights = weights.values if isinstance(weights, SparseTensor) else weights
                values = values.values
            else:
                weights = None if weights is None else array_ops.reshape(weights, [-1])
                values = array_ops.reshape(values, [-1])
        if isinstance(values, SparseTensor):
            w = weights.values if isinstance(weights, SparseTensor) else weights
            w = array_ops.constant([], dtype=values.dtype) if w is None else w
            out = ops.apply_op("SparseCountSparseOutput", [values.indices, values.values, values.dense_shape, w],
                               dict(attrs, output_type=w.dtype.base_dtype))
        else:
            w = array_ops.constant([], dtype=values.dtype) if weights is None else weights
            out = ops.apply_op("DenseCountSparseOutput", [values, w], dict(attrs, output_type=w.dtype.base_dtype))
        return SparseTensor(*out)
