"""nn.top_k (TopKV2, differentiable) and nn.in_top_k (InTopKV2)."""
from __future__ import annotations

import collections
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.op_def_registry import REAL_NUMBER_TYPES, register_op
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import array_ops, math_ops


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _top_k_kernel(ctx: Any, x: np.ndarray, k: np.ndarray) -> tuple:
    k = int(k)
    if k < 0:
        raise _invalid(f"Need k >= 0, got {k}")
    if x.ndim < 1:
        raise _invalid(f"input must be >= 1-D, got shape {list(x.shape)}")
    if x.shape[-1] < k:
        raise _invalid(f"input must have at least k columns. Had {x.shape[-1]}, needed {k}")
    # Largest first with equal values in index order (as TF): a stable ascending sort of the reversed
    # axis, read backwards.
    n = x.shape[-1]
    order = (n - 1 - np.argsort(x[..., ::-1], axis=-1, kind="stable"))[..., ::-1][..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


def _top_k_shape(op: Any) -> list:
    x = op.inputs[0].shape
    k = constant_value(op.inputs[1])
    if k is not None and int(k) < 0:
        raise ValueError(f"Need k >= 0, got {int(k)}")
    if x.ndims is None:
        return [tensor_shape.unknown_shape()] * 2
    if x.ndims < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {x.ndims} for '{op.name}' (op: 'TopKV2')")
    last = x.dims[-1].value
    if k is not None and last is not None and last < int(k):
        raise ValueError(f"input must have last dimension >= k = {int(k)} but is {last} for '{op.name}' "
                         "(op: 'TopKV2')")
    shape = x[:-1].concatenate([None if k is None else int(k)])
    return [shape, shape]


register_op("TopKV2", inputs=["input: T", "k: int32"], outputs=["values: T", "indices: int32"],
            attrs={"sorted": True}, kernel=_top_k_kernel, shape_fn=_top_k_shape,
            allowed_dtypes={"T": list(REAL_NUMBER_TYPES)})


@ops.RegisterGradient("TopKV2")
def _top_k_grad(op: Any, grad: Any, _indices_grad: Any) -> list:
    """Each value's gradient goes back to the position it was taken from; the rest get zero."""
    x, indices = op.inputs[0], op.outputs[1]
    in_shape = array_ops.shape(x)
    last = in_shape[-1]
    k = array_ops.shape(indices)[-1]
    rows = array_ops.reshape(indices, array_ops.stack([-1, k]))
    offsets = array_ops.expand_dims(math_ops.range(array_ops.shape(rows)[0]) * last, -1)
    flat = array_ops.reshape(rows + offsets, [-1, 1])
    total = math_ops.reduce_prod(in_shape)
    dense = array_ops.scatter_nd(flat, array_ops.reshape(grad, [-1]), array_ops.expand_dims(total, 0))
    return [array_ops.reshape(dense, in_shape), None]


TopKResult = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input: Any, k: Any = 1, sorted: bool = True, index_type: Any = dtypes.int32,  # noqa: A002
          name: Optional[str] = None) -> tuple:
    """The k largest entries of the last dimension and their indices (equal values: lower index first), the
    indices as index_type (int32 or int64)."""
    index_type = dtypes.as_dtype(index_type)
    if index_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'index_type' has DataType {index_type.name} not in list of "
                        "allowed values: int16, int32, int64")
    values, indices = ops.apply_op("TopKV2", [input, ops.convert_to_tensor(k, dtypes.int32, name="k")],
                                   attrs={"sorted": sorted}, name=name)
    if index_type != dtypes.int32:
        indices = math_ops.cast(indices, index_type)
    return TopKResult(values, indices)


def _in_top_k_kernel(ctx: Any, predictions: np.ndarray, targets: np.ndarray, k: np.ndarray) -> np.ndarray:
    if predictions.ndim != 2:
        raise _invalid(f"predictions must be 2-dimensional{list(predictions.shape)}")
    if targets.ndim != 1:
        raise _invalid(f"targets must be 1-dimensional{list(targets.shape)}")
    if predictions.shape[0] != targets.shape[0]:
        raise _invalid(f"First dimension of predictions {predictions.shape[0]} must match length of targets "
                       f"{targets.shape[0]}")
    k = int(k)
    classes = predictions.shape[1]
    in_range = (targets >= 0) & (targets < classes)
    rows = np.arange(targets.shape[0])
    target_pred = predictions[rows, np.where(in_range, targets, 0)]
    # A target outside the classes, or any non-finite prediction in the row, cannot be said to be in the top k.
    finite = np.isfinite(predictions).all(axis=1)
    more_probable = (predictions > target_pred[:, None]).sum(axis=1)
    return in_range & finite & (more_probable < k)


def _in_top_k_shape(op: Any) -> list:
    preds = op.inputs[0].shape.with_rank(2)
    targets = op.inputs[1].shape.with_rank(1)
    batch = preds.dims[0].merge_with(targets.dims[0])
    return [[batch.value]]


register_op("InTopKV2", inputs=["predictions: float", "targets: T", "k: T"], outputs=["precision: bool"],
            attrs={"T": dtypes.int32}, kernel=_in_top_k_kernel, shape_fn=_in_top_k_shape,
            allowed_dtypes={"T": [dtypes.int32, dtypes.int64]})
ops.NoGradient("InTopKV2")


def in_top_k(predictions: Any, targets: Any, k: Any, name: Optional[str] = None) -> ops.Tensor:
    """Whether each target class is among the k highest predictions of its row (ties count in its favour)."""
    with ops.name_scope(name, "in_top_k"):
        targets = ops.convert_to_tensor(targets, name="targets")
        k = ops.convert_to_tensor(k, dtype=targets.dtype.base_dtype, name="k")
        return ops.apply_op("InTopKV2", [predictions, targets, k], name=name)
