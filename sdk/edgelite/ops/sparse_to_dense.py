"""SparseToDense: scatter sparse values into a dense tensor of a default value (tf.sparse.to_dense)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import as_sparse
from edgelite.ops import sparse_checks as checks


def _sparse_to_dense_kernel(ctx: Any, indices: np.ndarray, shape: np.ndarray, values: np.ndarray,
                            default: np.ndarray) -> np.ndarray:
    if indices.ndim > 2:
        raise checks.invalid(f"sparse_indices should be a scalar, vector, or matrix, got shape "
                             f"{checks.fmt_index(indices.shape)}")
    n = indices.shape[0] if indices.ndim > 0 else 1
    rank = indices.shape[1] if indices.ndim > 1 else 1
    if values.ndim > 1 or (values.ndim == 1 and values.shape[0] != n):
        raise checks.invalid(f"sparse_values has incorrect shape {checks.fmt_index(values.shape)}, should be [] "
                             f"or [{n}]")
    if default.ndim != 0:
        raise checks.invalid("default_value should be a scalar.")
    shape = np.ravel(shape).astype(np.int64)
    if shape.size != rank:
        raise checks.invalid(f"output_shape has incorrect number of elements: {shape.size} should be: {rank}")
    idx = np.asarray(indices, dtype=np.int64).reshape(n, rank)
    if ctx.attrs["validate_indices"]:
        checks.validate_sorted_in_bounds(idx, shape)
    elif n and checks.out_of_bounds(idx, shape).any():
        i = checks.first_true(checks.out_of_bounds(idx, shape))
        raise checks.invalid(f"indices[{i}] = {checks.fmt_index(idx[i])} is out of bounds: need 0 <= index < "
                             f"{checks.fmt_index(shape)}")
    out = np.full(tuple(shape), default, dtype=values.dtype)
    if n:
        out[tuple(idx.T)] = values
    return out


def _sparse_to_dense_shape(op: ops.Operation) -> list:
    checks.input_with_rank(op, 1, 1)
    return [tensor_util.constant_value_as_shape(op.inputs[1])]


register_op("SparseToDense",
            inputs=["sparse_indices: Tindices", "output_shape: Tindices", "sparse_values: T", "default_value: T"],
            outputs=["dense: T"], attrs={"validate_indices": True, "Tindices": dtypes.int32},
            kernel=_sparse_to_dense_kernel, shape_fn=_sparse_to_dense_shape,
            allowed_dtypes={"Tindices": [dtypes.int32, dtypes.int64]})


@ops.RegisterGradient("SparseToDense")
def _sparse_to_dense_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    from edgelite.ops import array_ops, math_ops
    indices, shape = op.inputs[0], op.inputs[1]
    values_grad = array_ops.gather_nd(grad, indices)
    default_grad = math_ops.reduce_sum(grad) - math_ops.reduce_sum(values_grad)
    return [array_ops.zeros_like(indices), array_ops.zeros_like(shape), values_grad, default_grad]


def sparse_to_dense(sparse_indices: Any, output_shape: Any, sparse_values: Any, default_value: Any = 0,
                    validate_indices: bool = True, name: Optional[str] = None) -> ops.Tensor:
    """Dense tensor of output_shape: sparse_values at sparse_indices, default_value elsewhere (TF1 op)."""
    with ops.name_scope(name, "SparseToDense", [sparse_indices, output_shape, sparse_values]) as scope:
        values = ops.convert_to_tensor(sparse_values, name="sparse_values")
        default = ops.convert_to_tensor(default_value, dtype=values.dtype, name="default_value")
        return ops.apply_op("SparseToDense", [sparse_indices, output_shape, values, default],
                            {"validate_indices": validate_indices}, name=scope)


def sparse_tensor_to_dense(sp_input: Any, default_value: Any = None, validate_indices: bool = True,
                           name: Optional[str] = None) -> ops.Tensor:
    """The dense tensor a SparseTensor stands for, with default_value (zero if None) where nothing is stored."""
    from edgelite.ops import array_ops
    sp_input = as_sparse(sp_input)
    if default_value is None:
        default_value = array_ops.zeros([], dtype=sp_input.dtype)
    return ops.apply_op("SparseToDense",
                        [sp_input.indices, sp_input.dense_shape, sp_input.values,
                         ops.convert_to_tensor(default_value, dtype=sp_input.dtype)],
                        {"validate_indices": validate_indices}, name=name or "SparseToDense")
