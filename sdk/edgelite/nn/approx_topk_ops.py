"""approx_max_k / approx_min_k (the ApproxTopK op). On CPU TensorFlow computes them exactly, so the kernel is an
exact, stable top-k along the reduction dimension; the gradient scatters back to the selected positions."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops, math_ops

_ATTRS = {"k": None, "reduction_dimension": -1, "recall_target": 0.95, "is_max_k": True,
          "reduction_input_size_override": -1, "aggregate_to_topk": True}
_TYPES = {"T": [dtypes.float16, dtypes.bfloat16, dtypes.float32]}


def _kernel(ctx: Any, x: np.ndarray) -> tuple:
    k, axis = int(ctx.attrs["k"]), int(ctx.attrs["reduction_dimension"]) % x.ndim
    if k > x.shape[axis]:
        raise ValueError(f"k={k} must not exceed the size {x.shape[axis]} of reduction dimension {axis}")
    keys = -x if ctx.attrs["is_max_k"] else x
    idx = np.take(np.argsort(keys, axis=axis, kind="stable"), np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx.astype(np.int32)


def _shape(op: Any) -> list:
    shape = op.inputs[0].shape
    if shape.ndims is None:
        return [None, None]
    dims = shape.as_list()
    axis = op.get_attr("reduction_dimension") % len(dims)
    k = op.get_attr("k")
    if dims[axis] is not None and k > dims[axis]:
        raise ValueError(f"k={k} must not exceed the size {dims[axis]} of reduction dimension {axis} for "
                         f"'{op.name}' (op: 'ApproxTopK')")
    dims[axis] = k
    return [tensor_shape.TensorShape(dims), tensor_shape.TensorShape(dims)]


register_op("ApproxTopK", inputs=["input: T"], outputs=["values: T", "indices: int32"], attrs=_ATTRS,
            kernel=_kernel, shape_fn=_shape, allowed_dtypes=_TYPES)


@ops.RegisterGradient("ApproxTopK")
def _approx_top_k_grad(op: Any, grad: Any, unused_indices_grad: Any) -> Any:
    """Each value's gradient goes back to the position it was taken from."""
    x, idx = op.inputs[0], op.outputs[1]
    axis = op.get_attr("reduction_dimension") % x.shape.ndims
    rank = x.shape.ndims
    # bring the reduction dimension last, scatter row by row with one-hot sums, and move it back
    perm = [d for d in range(rank) if d != axis] + [axis]
    inv = list(np.argsort(perm))
    size = array_ops.shape(x)[axis]
    onehot = array_ops.one_hot(array_ops.transpose(idx, perm), size, dtype=grad.dtype)
    dx = math_ops.reduce_sum(onehot * array_ops.expand_dims(array_ops.transpose(grad, perm), -1), axis=-2)
    return array_ops.transpose(dx, inv)


def _approx(is_max: bool, operand: Any, k: int, reduction_dimension: int, recall_target: float,
            reduction_input_size_override: int, aggregate_to_topk: bool, name: Optional[str]) -> tuple:
    attrs = {"k": int(k), "reduction_dimension": int(reduction_dimension), "recall_target": float(recall_target),
             "is_max_k": is_max, "reduction_input_size_override": int(reduction_input_size_override),
             "aggregate_to_topk": bool(aggregate_to_topk)}
    return tuple(ops.apply_op("ApproxTopK", [operand], attrs, name=name))


def approx_max_k(operand: Any, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: Optional[str] = None) -> tuple:
    """(values, indices) of the k largest entries along reduction_dimension, largest first."""
    return _approx(True, operand, k, reduction_dimension, recall_target, reduction_input_size_override,
                   aggregate_to_topk, name)


def approx_min_k(operand: Any, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: Optional[str] = None) -> tuple:
    """(values, indices) of the k smallest entries along reduction_dimension, smallest first."""
    return _approx(False, operand, k, reduction_dimension, recall_target, reduction_input_size_override,
                   aggregate_to_topk, name)
