"""sort and argsort along any axis, built on top_k as TensorFlow builds them (so ties keep index order)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.nn.topk_ops import top_k
from edgelite.ops import array_ops


def _descending(values: ops.Tensor, axis: int, return_argsort: bool) -> ops.Tensor:
    rank = values.shape.ndims
    if rank is None and axis != -1:
        raise ValueError(f"Sorting along axis {axis} needs a tensor of known rank, got shape {values.shape}.")
    last = axis == -1 or axis + 1 == rank
    perm = None
    if not last:
        axis = axis + rank if axis < 0 else axis
        perm = np.r_[np.arange(axis), [rank - 1], np.arange(axis + 1, rank - 1), [axis]].astype(np.int32)
        values = array_ops.transpose(values, perm)
    k = values.shape[-1] if values.shape.ndims is not None and values.shape[-1] is not None else \
        array_ops.shape(values)[-1]
    result = top_k(values, k)
    out = result.indices if return_argsort else result.values
    return out if perm is None else array_ops.transpose(out, perm)


def _ascending(values: ops.Tensor, axis: int, return_argsort: bool) -> ops.Tensor:
    """Descending order of a reversed copy: max - v for unsigned, -v - 1 for signed ints (no overflow), else -v."""
    dt = values.dtype.base_dtype
    if dt.is_unsigned:
        flip = lambda v: dt.max - v  # noqa: E731
    elif dt.is_integer:
        flip = lambda v: -v - 1  # noqa: E731
    else:
        flip = lambda v: -v  # noqa: E731
    out = _descending(flip(values), axis, return_argsort)
    return out if return_argsort else flip(out)


def _sort_or_argsort(values: Any, axis: Any, direction: str, return_argsort: bool) -> ops.Tensor:
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    axis_t = ops.convert_to_tensor(axis, name="axis")
    static = tensor_util.constant_value(axis_t)
    if static is None or axis_t.shape.ndims != 0:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis_t}.")
    values = ops.convert_to_tensor(values, name="values")
    fn = _ascending if direction == "ASCENDING" else _descending
    return fn(values, int(static), return_argsort)


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING", name: Optional[str] = None) -> ops.Tensor:
    """values sorted along axis."""
    with ops.name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values: Any, axis: Any = -1, direction: str = "ASCENDING", stable: bool = False,
            name: Optional[str] = None) -> ops.Tensor:
    """int32 indices that sort values along axis; always stable (equal values keep their order)."""
    del stable  # top_k already keeps equal values in index order
    with ops.name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


def approx_top_k(input: Any, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,  # noqa: A002
                 is_max_k: bool = True, reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: Optional[str] = None) -> list:
    """The raw ApproxTopK op (tf.approx_top_k): values and indices of the k largest (or smallest) entries."""
    attrs = {"k": int(k), "reduction_dimension": int(reduction_dimension), "recall_target": float(recall_target),
             "is_max_k": bool(is_max_k), "reduction_input_size_override": int(reduction_input_size_override),
             "aggregate_to_topk": bool(aggregate_to_topk)}
    return ops.apply_op("ApproxTopK", [input], attrs, name=name)
