"""tensor_scatter_nd_{update,add,sub,min,max}: a copy of a tensor with slices addressed by indices changed."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.framework.common_shapes import format_shape
from edgelite.framework.tensor_shape import TensorShape
from edgelite.ops.shape_checks import shape_error, with_rank_at_least


def fmt(shape: Any) -> str:
    return format_shape(shape if isinstance(shape, TensorShape) else TensorShape(shape))

_INDEX = [dtypes.int32, dtypes.int64]
_UFUNCS = {"Update": None, "Add": np.add, "Sub": np.subtract, "Min": np.minimum, "Max": np.maximum}


def _kernel(kind: str) -> Any:
    def kernel(ctx: Any, tensor: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        k = indices.shape[-1]
        flat = indices.reshape(-1, k)
        slice_shape = tensor.shape[k:]
        if updates.shape != indices.shape[:-1] + slice_shape:
            raise errors.InvalidArgumentError(
                None, None, f"Dimensions [{indices.ndim - 1},{updates.ndim}) of updates[shape="
                            f"{list(updates.shape)}] must match dimensions [{k},{tensor.ndim}) of input[shape="
                            f"{list(tensor.shape)}]")
        bounds = np.array(tensor.shape[:k])
        bad = ((flat < 0) | (flat >= bounds)).any(axis=1)
        if bad.any():
            i = int(np.argmax(bad))
            raise errors.InvalidArgumentError(
                None, None, f"indices[{i}] = [{', '.join(str(int(v)) for v in flat[i])}] does not index into "
                            f"shape [{','.join(str(d) for d in tensor.shape)}]")
        out = tensor.copy()
        rows = updates.reshape((flat.shape[0],) + slice_shape)
        if kind == "Update":
            out[tuple(flat.T)] = rows
        else:
            _UFUNCS[kind].at(out, tuple(flat.T), rows)
        return out
    return kernel


def _shape(op: Any) -> list:
    tensor, indices, updates = (t.shape for t in op.inputs)
    with_rank_at_least(op, 1, 1)
    if tensor.ndims is None or indices.ndims is None or updates.ndims is None:
        return [tensor]
    k = indices.as_list()[-1]
    if k is not None:
        if k > tensor.ndims:
            raise shape_error(op, f"Index innermost dimension length must be <= tensor rank; saw: {k} vs. "
                                  f"{tensor.ndims}")
        outer = indices.ndims - 1
        slice_in, slice_up = tensor.as_list()[k:], updates.as_list()[outer:]
        for i, (a, b) in enumerate(zip(slice_in, slice_up)):
            if a is not None and b is not None and a != b:
                raise shape_error(op, f"Dimensions [{k},{tensor.ndims}) of input[shape={fmt(tensor)}] = "
                                      f"{fmt(slice_in)} must match dimensions [{outer},{updates.ndims}) of "
                                      f"updates[shape={fmt(updates)}] = {fmt(slice_up)}: Dimension {i} in both "
                                      f"shapes must be equal, but are {a} and {b}. Shapes are {fmt(slice_in)} and "
                                      f"{fmt(slice_up)}.")
    return [tensor]


for _kind in _UFUNCS:
    register_op(f"TensorScatter{_kind}", inputs=["tensor: T", "indices: Tindices", "updates: T"],
                outputs=["output: T"], attrs={"bad_indices_policy": ""}, kernel=_kernel(_kind), shape_fn=_shape,
                allowed_dtypes={"Tindices": _INDEX})


@ops.RegisterGradient("TensorScatterUpdate")
def _update_grad(op: Any, grad: Any) -> tuple:
    indices, updates = op.inputs[1], op.inputs[2]
    return (tensor_scatter_nd_update(grad, indices, array_ops.zeros_like(updates)), None,
            array_ops.gather_nd(grad, indices))


@ops.RegisterGradient("TensorScatterAdd")
def _add_grad(op: Any, grad: Any) -> tuple:
    return grad, None, array_ops.gather_nd(grad, op.inputs[1])


@ops.RegisterGradient("TensorScatterSub")
def _sub_grad(op: Any, grad: Any) -> tuple:
    return grad, None, -array_ops.gather_nd(grad, op.inputs[1])


@ops.RegisterGradient("TensorScatterMin")
@ops.RegisterGradient("TensorScatterMax")
def _min_max_grad(op: Any, grad: Any) -> tuple:
    """Entries equal to the result share its gradient, whether they came from the tensor or the updates."""
    x, indices, y = op.inputs
    out = op.outputs[0]
    x_ind = math_ops.cast(math_ops.equal(x, out), grad.dtype)
    y_ind = math_ops.cast(math_ops.equal(y, array_ops.gather_nd(out, indices)), grad.dtype)
    ys_ind = array_ops.scatter_nd(indices, y_ind, array_ops.shape(x))
    shared = grad / (x_ind + ys_ind)
    return shared * x_ind, None, array_ops.gather_nd(shared, indices) * y_ind


def tensor_scatter_nd_update(tensor: Any, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
    """tensor with the slices at indices replaced by updates."""
    return ops.apply_op("TensorScatterUpdate", [tensor, indices, updates], name=name)


def tensor_scatter_nd_add(tensor: Any, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
    """tensor with updates added at indices (duplicates accumulate)."""
    return ops.apply_op("TensorScatterAdd", [tensor, indices, updates], name=name)


def tensor_scatter_nd_sub(tensor: Any, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
    """tensor with updates subtracted at indices (duplicates accumulate)."""
    return ops.apply_op("TensorScatterSub", [tensor, indices, updates], name=name)


def tensor_scatter_nd_min(tensor: Any, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
    """tensor with each addressed slice replaced by its elementwise minimum with the updates."""
    return ops.apply_op("TensorScatterMin", [tensor, indices, updates], name=name)


def tensor_scatter_nd_max(tensor: Any, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
    """tensor with each addressed slice replaced by its elementwise maximum with the updates."""
    return ops.apply_op("TensorScatterMax", [tensor, indices, updates], name=name)


tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub
