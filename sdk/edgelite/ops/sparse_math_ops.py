"""Arithmetic on SparseTensors: sparse_add, sparse_maximum/minimum, sparse_reduce_sum/max(_sparse),
sparse_softmax, SparseTensor * / dense, sparse_tensor_dense_matmul, sparse_matmul; with TF's gradients."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue, as_sparse
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import sparse_math_kernels as k

_SPARSE = (SparseTensor, SparseTensorValue)


def _rank(op: ops.Operation, i: int) -> Optional[int]:
    s = op.inputs[i].shape
    return None if s.ndims is None else s[0].value


_BINARY_IN = ["a_indices: int64", "a_values: T", "a_shape: int64", "b_indices: int64", "b_values: T",
              "b_shape: int64"]
register_op("SparseAdd", inputs=_BINARY_IN + ["thresh: Treal"],
            outputs=["sum_indices: int64", "sum_values: T", "sum_shape: int64"], kernel=k.sparse_add_kernel,
            shape_fn=lambda op: [[None, _rank(op, 2)], [None], [_rank(op, 2)]])
register_op("SparseAddGrad",
            inputs=["backprop_val_grad: T", "a_indices: int64", "b_indices: int64", "sum_indices: int64"],
            outputs=["a_val_grad: T", "b_val_grad: T"], kernel=k.sparse_add_grad_kernel,
            shape_fn=lambda op: [[op.inputs[1].shape[0].value if op.inputs[1].shape.ndims else None],
                                 [op.inputs[2].shape[0].value if op.inputs[2].shape.ndims else None]])
register_op("SparseTensorDenseAdd",
            inputs=["a_indices: Tindices", "a_values: T", "a_shape: Tindices", "b: T"], outputs=["output: T"],
            attrs={"Tindices": dtypes.int64}, kernel=k.sparse_dense_add_kernel,
            shape_fn=lambda op: [op.inputs[3].shape])
register_op("SparseSparseMaximum", inputs=_BINARY_IN, outputs=["output_indices: int64", "output_values: T"],
            kernel=k.sparse_extremum_kernel(np.maximum), shape_fn=lambda op: [[None, _rank(op, 2)], [None]])
register_op("SparseSparseMinimum", inputs=_BINARY_IN, outputs=["output_indices: int64", "output_values: T"],
            kernel=k.sparse_extremum_kernel(np.minimum), shape_fn=lambda op: [[None, _rank(op, 2)], [None]])


def _reduce_shape(op: ops.Operation) -> list:
    dense = tensor_util.constant_value(op.inputs[2])
    axes = tensor_util.constant_value(op.inputs[3])
    if dense is None or axes is None:
        return [None]
    rank = len(dense)
    red = set(int(a) % rank for a in np.ravel(axes)) if rank else set()
    if op.get_attr("keep_dims"):
        return [[1 if d in red else int(dense[d]) for d in range(rank)]]
    return [[int(dense[d]) for d in range(rank) if d not in red]]


_REDUCE_IN = ["input_indices: int64", "input_values: T", "input_shape: int64", "reduction_axes: int32"]
_SPARSE_OUT = ["output_indices: int64", "output_values: T", "output_shape: int64"]
for _name, _op in (("SparseReduceSum", "sum"), ("SparseReduceMax", "max")):
    register_op(_name, inputs=_REDUCE_IN, outputs=["output: T"], attrs={"keep_dims": False},
                kernel=k.sparse_reduce_kernel(_op, False), shape_fn=_reduce_shape)
    register_op(_name + "Sparse", inputs=_REDUCE_IN, outputs=_SPARSE_OUT, attrs={"keep_dims": False},
                kernel=k.sparse_reduce_kernel(_op, True), shape_fn=lambda op: [[None, None], [None], [None]])
register_op("SparseSoftmax", inputs=["sp_indices: int64", "sp_values: T", "sp_shape: int64"],
            outputs=["output: T"], kernel=k.sparse_softmax_kernel, shape_fn=lambda op: [op.inputs[1].shape])
for _name, _fn in (("SparseDenseCwiseMul", np.multiply), ("SparseDenseCwiseDiv", np.divide),
                   ("SparseDenseCwiseAdd", np.add)):
    register_op(_name, inputs=["sp_indices: int64", "sp_values: T", "sp_shape: int64", "dense: T"],
                outputs=["output: T"], kernel=k.sparse_dense_cwise_kernel(_fn, _name),
                shape_fn=lambda op: [[op.inputs[0].shape[0].value if op.inputs[0].shape.ndims else None]])


def _matmul_shape(op: ops.Operation) -> list:
    dense = tensor_util.constant_value_as_shape(op.inputs[2])
    a = dense if dense.ndims is not None else tensor_shape.unknown_shape(2)
    b = op.inputs[3].shape
    rows = a[1].value if op.get_attr("adjoint_a") else a[0].value
    cols = None if b.ndims is None else (b[0].value if op.get_attr("adjoint_b") else b[1].value)
    return [[rows, cols]]


register_op("SparseTensorDenseMatMul",
            inputs=["a_indices: Tindices", "a_values: T", "a_shape: int64", "b: T"], outputs=["product: T"],
            attrs={"adjoint_a": False, "adjoint_b": False, "Tindices": dtypes.int64},
            kernel=k.sparse_dense_matmul_kernel, shape_fn=_matmul_shape)


def _sparse_matmul_kernel(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a.T if ctx.attrs["transpose_a"] else a
    b = b.T if ctx.attrs["transpose_b"] else b
    return np.matmul(a.astype(np.float32), b.astype(np.float32))


def _sparse_matmul_shape(op: ops.Operation) -> list:
    a, b = op.inputs[0].shape.with_rank(2), op.inputs[1].shape.with_rank(2)
    rows = a[1] if op.get_attr("transpose_a") else a[0]
    cols = b[0] if op.get_attr("transpose_b") else b[1]
    return [[rows.value, cols.value]]


register_op("SparseMatMul", inputs=["a: Ta", "b: Tb"], outputs=["product: float32"],
            attrs={"transpose_a": False, "transpose_b": False, "a_is_sparse": False, "b_is_sparse": False,
                   "Ta": dtypes.float32, "Tb": dtypes.float32},
            kernel=_sparse_matmul_kernel, shape_fn=_sparse_matmul_shape,
            allowed_dtypes={"Ta": [dtypes.float32, dtypes.bfloat16], "Tb": [dtypes.float32, dtypes.bfloat16]})

for _t in ("SparseAddGrad", "SparseSparseMaximum", "SparseSparseMinimum", "SparseReduceMax",
           "SparseReduceMaxSparse", "SparseReduceSumSparse", "SparseDenseCwiseAdd"):
    ops.NoGradient(_t)


# ---- gradients ------------------------------------------------------------------------------------
@ops.RegisterGradient("SparseAdd")
def _sparse_add_grad(op: ops.Operation, *grads: Any) -> list:
    a_grad, b_grad = ops.apply_op("SparseAddGrad", [grads[1], op.inputs[0], op.inputs[3], op.outputs[0]])
    a_grad.set_shape(op.inputs[1].shape)
    b_grad.set_shape(op.inputs[4].shape)
    return [None, a_grad, None, None, b_grad, None, None]


@ops.RegisterGradient("SparseTensorDenseAdd")
def _sparse_dense_add_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    return [None, array_ops.gather_nd(grad, op.inputs[0]), None, grad]


@ops.RegisterGradient("SparseReduceSum")
def _sparse_reduce_sum_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    indices, shape, axes = op.inputs[0], op.inputs[2], op.inputs[3]
    rank = array_ops.size(shape)
    reduced = math_ops.reduce_max(array_ops.one_hot(math_ops.floormod(array_ops.reshape(axes, [-1]), rank), rank,
                                                    dtype=dtypes.int64), axis=0)
    kept_shape = shape * (1 - reduced) + reduced
    # Reduced coordinates collapse to 0 in the kept-dims gradient.
    grad_kept = array_ops.reshape(grad, kept_shape)
    return [None, array_ops.gather_nd(grad_kept, indices * (1 - reduced)), None, None]


@ops.RegisterGradient("SparseSoftmax")
def _sparse_softmax_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    indices, _, shape = op.inputs
    out = op.outputs[0]
    product = SparseTensor(indices, out * grad, shape)
    sum_reduced = -sparse_reduce_sum(product, [-1], keepdims=True)
    shifted = ops.apply_op("SparseDenseCwiseAdd", [indices, grad, shape, sum_reduced])
    return [None, shifted * out, None]


def _cwise_mul_div_grad(op: ops.Operation, grad: ops.Tensor, is_mul: bool) -> list:
    x_indices, x_values, x_shape, y = op.inputs
    y_shape = math_ops.cast(array_ops.shape(y), dtypes.int64)
    added = array_ops.expand_dims(array_ops.size(x_shape) - array_ops.size(y_shape), 0)
    aug_y_shape = array_ops.concat([array_ops.ones(added, dtypes.int64), y_shape], 0)
    scaled = x_indices // (x_shape // aug_y_shape)
    scaled = array_ops.slice(scaled, array_ops.concat([[0], added], 0), [-1, -1])
    dense_vals = array_ops.gather_nd(y, scaled)
    if is_mul:
        dx, dy_val = grad * dense_vals, grad * x_values
    else:
        dx, dy_val = grad / dense_vals, grad * (-x_values / math_ops.square(dense_vals))
    # Several sparse entries may read the same dense element, so their gradients add up.
    dy = ops.apply_op("SparseTensorDenseAdd", [scaled, dy_val, y_shape, array_ops.zeros_like(y)])
    return [None, dx, None, dy]


@ops.RegisterGradient("SparseDenseCwiseMul")
def _cwise_mul_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    return _cwise_mul_div_grad(op, grad, True)


@ops.RegisterGradient("SparseDenseCwiseDiv")
def _cwise_div_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    return _cwise_mul_div_grad(op, grad, False)


@ops.RegisterGradient("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    a_indices, a_values, a_shape, b = op.inputs
    adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    b_grad = ops.apply_op("SparseTensorDenseMatMul", [a_indices, a_values, a_shape, grad],
                          {"adjoint_a": not adj_a})
    if adj_b:
        b_grad = array_ops.matrix_transpose(b_grad)
    rows, cols = a_indices[:, 0], a_indices[:, 1]
    parts_a = array_ops.gather(grad, cols if adj_a else rows)
    parts_b = array_ops.gather(array_ops.transpose(b) if adj_b else b, rows if adj_a else cols)
    return [None, math_ops.reduce_sum(parts_a * parts_b, axis=1), None, b_grad]


@ops.RegisterGradient("SparseMatMul")
def _sparse_matmul_grad(op: ops.Operation, grad: ops.Tensor) -> list:
    a, b = op.inputs
    t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")

    def mm(x: ops.Tensor, y: ops.Tensor, dtype: Any, ta: bool = False, tb: bool = False) -> ops.Tensor:
        prod = math_ops.matmul(math_ops.cast(x, dtypes.float32), math_ops.cast(y, dtypes.float32),
                               transpose_a=ta, transpose_b=tb)
        return prod if prod.dtype == dtype else math_ops.cast(prod, dtype)

    if not t_a and not t_b:
        return [mm(grad, b, a.dtype, tb=True), mm(a, grad, b.dtype, ta=True)]
    if not t_a:
        return [mm(grad, b, a.dtype), mm(grad, a, b.dtype, ta=True)]
    if not t_b:
        return [mm(b, grad, a.dtype, tb=True), mm(a, grad, b.dtype)]
    return [mm(b, grad, a.dtype, ta=True, tb=True), mm(grad, a, b.dtype, ta=True, tb=True)]


# ---- wrappers -------------------------------------------------------------------------------------
def sparse_add(a: Any, b: Any, threshold: Any = None, thresh: Any = None) -> Any:
    """a + b where at least one is sparse: sparse + sparse is sparse (pairs with |sum| < threshold dropped),
    sparse + dense is dense."""
    if threshold is not None and thresh is not None:
        raise ValueError("Cannot specify both 'threshold' and 'thresh'")
    threshold = thresh if threshold is None else threshold
    threshold = 0 if threshold is None else threshold
    if not any(isinstance(x, _SPARSE) for x in (a, b)):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if all(isinstance(x, _SPARSE) for x in (a, b)):
        a, b = as_sparse(a), as_sparse(b)
        thr = ops.convert_to_tensor(threshold, dtype=a.values.dtype.real_dtype.base_dtype, name="threshold")
        ind, val, shape = ops.apply_op("SparseAdd", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                     b.dense_shape, thr], name="SparseAdd")
        a.shape.assert_is_compatible_with(b.shape)
        static = array_ops.broadcast_static_shape(a.shape, b.shape)
        return SparseTensor(ind, val, static.as_list() if static.is_fully_defined() else shape)
    if isinstance(b, _SPARSE):
        a, b = b, a
    a = as_sparse(a)
    return ops.apply_op("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, b],
                        name="SparseTensorDenseAdd")


def _extremum(op_type: str, sp_a: Any, sp_b: Any, name: Optional[str]) -> SparseTensor:
    sp_a, sp_b = as_sparse(sp_a), as_sparse(sp_b)
    with ops.name_scope(name, op_type, [sp_a.indices, sp_a.values, sp_b.indices, sp_b.values]) as scope:
        ind, val = ops.apply_op(op_type, [sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices, sp_b.values,
                                          sp_b.dense_shape], name=scope)
    return SparseTensor(ind, val, sp_a.dense_shape)


def sparse_maximum(sp_a: Any, sp_b: Any, name: Optional[str] = None) -> SparseTensor:
    """Elementwise max of two same-shape SparseTensors; a missing entry counts as zero."""
    return _extremum("SparseSparseMaximum", sp_a, sp_b, name)


def sparse_minimum(sp_a: Any, sp_b: Any, name: Optional[str] = None) -> SparseTensor:
    """Elementwise min of two same-shape SparseTensors; a missing entry counts as zero."""
    return _extremum("SparseSparseMinimum", sp_a, sp_b, name)


def _reduction_axes(sp_input: SparseTensor, axis: Any) -> Any:
    if axis is not None:
        return axis
    rank = sp_input.shape.ndims
    if rank is not None:
        return ops.convert_to_tensor(np.arange(rank, dtype=np.int32))
    return math_ops.range(0, math_ops.cast(array_ops.size(sp_input.dense_shape), dtypes.int32))


def _pick(new: Any, old: Any, new_name: str, old_name: str) -> Any:
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'")
    return old if new is None else new


def _reduce(op_type: str, sp_input: Any, axis: Any, keepdims: Any, reduction_axes: Any, keep_dims: Any,
            sparse_out: bool) -> Any:
    keepdims = bool(_pick(keepdims, keep_dims, "keepdims", "keep_dims") or False)
    axis = _pick(axis, reduction_axes, "axis", "reduction_axes")
    sp_input = as_sparse(sp_input)
    args = [sp_input.indices, sp_input.values, sp_input.dense_shape,
            math_ops.cast(_reduction_axes(sp_input, axis), dtypes.int32)]
    out = ops.apply_op(op_type + ("Sparse" if sparse_out else ""), args, {"keep_dims": keepdims})
    return SparseTensor(*out) if sparse_out else out


def sparse_reduce_sum(sp_input: Any, axis: Any = None, keepdims: Any = None, reduction_axes: Any = None,
                      keep_dims: Any = None) -> ops.Tensor:
    """Dense sum of a SparseTensor's entries over axis (all if None)."""
    return _reduce("SparseReduceSum", sp_input, axis, keepdims, reduction_axes, keep_dims, False)


def sparse_reduce_sum_sparse(sp_input: Any, axis: Any = None, keepdims: Any = None, reduction_axes: Any = None,
                             keep_dims: Any = None) -> SparseTensor:
    """Sparse sum over axis: one entry per group that has entries."""
    return _reduce("SparseReduceSum", sp_input, axis, keepdims, reduction_axes, keep_dims, True)


def sparse_reduce_max(sp_input: Any, axis: Any = None, keepdims: Any = None, reduction_axes: Any = None,
                      keep_dims: Any = None) -> ops.Tensor:
    """Dense max of the stored entries over axis (all if None)."""
    return _reduce("SparseReduceMax", sp_input, axis, keepdims, reduction_axes, keep_dims, False)


def sparse_reduce_max_sparse(sp_input: Any, axis: Any = None, keepdims: Any = None, reduction_axes: Any = None,
                             keep_dims: Any = None) -> SparseTensor:
    """Sparse max over axis: one entry per group that has entries."""
    return _reduce("SparseReduceMax", sp_input, axis, keepdims, reduction_axes, keep_dims, True)


def sparse_softmax(sp_input: Any, name: Optional[str] = None) -> SparseTensor:
    """Softmax over the stored entries of each innermost row (missing entries take no part)."""
    sp_input = as_sparse(sp_input)
    with ops.name_scope(name, "SparseSoftmax", [sp_input.indices, sp_input.values]) as scope:
        out = ops.apply_op("SparseSoftmax", [sp_input.indices, sp_input.values, sp_input.dense_shape], name=scope)
        return SparseTensor(sp_input.indices, out, sp_input.dense_shape)


def sparse_tensor_dense_matmul(sp_a: Any, b: Any, adjoint_a: bool = False, adjoint_b: bool = False,
                               name: Optional[str] = None) -> ops.Tensor:
    """Dense op(sp_a) @ op(b) for a rank-2 SparseTensor and a dense matrix (either side may be the sparse one)."""
    if isinstance(b, _SPARSE):
        if adjoint_a != adjoint_b:
            return array_ops.transpose(sparse_tensor_dense_matmul(b, sp_a, adjoint_a, adjoint_b))
        return array_ops.transpose(sparse_tensor_dense_matmul(b, sp_a, adjoint_a=not adjoint_a,
                                                              adjoint_b=not adjoint_b))
    sp_a = as_sparse(sp_a)
    with ops.name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]) as scope:
        b = ops.convert_to_tensor(b, name="b")
        return ops.apply_op("SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                            {"adjoint_a": adjoint_a, "adjoint_b": adjoint_b}, name=scope)


def sparse_matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, a_is_sparse: bool = False,
                  b_is_sparse: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """float32 matmul of dense float32/bfloat16 matrices (the sparsity flags are hints, as in TF)."""
    return ops.apply_op("SparseMatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b,
                                                 "a_is_sparse": a_is_sparse, "b_is_sparse": b_is_sparse},
                        name=name or "SparseMatMul")


def _cwise(op_type: str, default_name: str, sp_x: SparseTensor, y: Any) -> SparseTensor:
    with ops.name_scope(None, default_name, [sp_x, y]) as scope:
        y = ops.convert_to_tensor(y, name="y")
        if y.dtype.base_dtype != sp_x.dtype.base_dtype:
            raise TypeError(f"x and y must have the same dtype, got {sp_x.dtype.base_dtype!r} != "
                            f"{y.dtype.base_dtype!r}")
        values = sp_x.values
        if op_type == "SparseDenseCwiseDiv" and not sp_x.dtype.is_floating and sp_x.dtype.is_integer:
            target = dtypes.float64 if sp_x.dtype.size > 2 else dtypes.float32
            values, y = math_ops.cast(values, target), math_ops.cast(y, target)
        out = ops.apply_op(op_type, [sp_x.indices, values, sp_x.dense_shape, y], name=scope)
    return SparseTensor(sp_x.indices, out, sp_x.dense_shape)


def _install_operators() -> None:
    """SparseTensor * dense and SparseTensor / dense give SparseTensors, as TF overloads them."""
    SparseTensor.__mul__ = lambda self, y: _cwise("SparseDenseCwiseMul", "mul", self, y)
    SparseTensor.__truediv__ = lambda self, y: _cwise("SparseDenseCwiseDiv", "truediv", self, y)
    SparseTensor.__div__ = lambda self, y: _cwise("SparseDenseCwiseDiv", "div", self, y)


_install_operators()
