"""SparseTensorsMap ops: SparseTensors parked in a per-session map under int64 handles, so that the queue-based
batchers can pass them through a queue of dense components (TF's AddSparseToTensorsMap,
AddManySparseToTensorsMap and TakeManySparseFromTensorsMap)."""
from __future__ import annotations

import itertools
import threading
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue, as_sparse

from .sparse_rows import split_rows, stack_rows


class _SparseMap:
    """Handles -> SparseTensorValues of one map in one session (filled and drained by different threads)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.Lock()
        self.items: dict = {}
        self.counter = itertools.count(1)

    def add(self, values: list) -> np.ndarray:
        with self.lock:
            handles = [next(self.counter) for _ in values]
            self.items.update(zip(handles, values))
        return np.asarray(handles, np.int64)

    def take(self, handles: np.ndarray) -> list:
        with self.lock:
            missing = [int(h) for h in handles.ravel() if int(h) not in self.items]
            if missing:
                raise errors.InvalidArgumentError(None, None, f"Unable to find SparseTensor: {missing[0]} in map: "
                                                              f"{self.name}")
            return [self.items.pop(int(h)) for h in handles.ravel()]


def _map(ctx: Any) -> _SparseMap:
    name = ctx.attrs.get("shared_name") or ctx.op.name
    key = ("sparse_tensors_map", ctx.attrs.get("container") or "", name)
    state = ctx.state.op_state
    m = state.get(key)
    if m is None:
        m = state.setdefault(key, _SparseMap(name))
    return m


def _add_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> np.ndarray:
    value = SparseTensorValue(indices.astype(np.int64), values, shape.astype(np.int64))
    return _map(ctx).add([value])[0]


def _add_many_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> np.ndarray:
    if shape.shape[0] < 2:
        raise errors.InvalidArgumentError(None, None, "Rank of input SparseTensor should be > 1, but saw rank: "
                                                      f"{shape.shape[0]}")
    return _map(ctx).add(split_rows(SparseTensorValue(indices, values, shape), "AddManySparseToTensorsMap"))


def _take_many_kernel(ctx: Any, handles: np.ndarray) -> tuple:
    if handles.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "sparse_handles should be a vector but received shape "
                                                      f"[{','.join(map(str, handles.shape))}]")
    out = stack_rows(_map(ctx).take(handles))
    return out.indices, np.asarray(out.values, dtype=dtypes.as_dtype(ctx.attrs["dtype"]).as_numpy_dtype), \
        out.dense_shape


_MAP_ATTRS = {"container": "", "shared_name": ""}
register_op("AddSparseToTensorsMap", inputs=["sparse_indices: int64", "sparse_values: T", "sparse_shape: int64"],
            outputs=["sparse_handle: int64"], attrs=dict(_MAP_ATTRS), kernel=_add_kernel,
            shape_fn=lambda op: [[]], stateful=True)
register_op("AddManySparseToTensorsMap", inputs=["sparse_indices: int64", "sparse_values: T",
                                                 "sparse_shape: int64"],
            outputs=["sparse_handles: int64"], attrs=dict(_MAP_ATTRS), kernel=_add_many_kernel,
            shape_fn=lambda op: [[None]], stateful=True)
register_op("TakeManySparseFromTensorsMap", inputs=["sparse_handles: int64"],
            outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
            attrs=dict(_MAP_ATTRS), kernel=_take_many_kernel,
            shape_fn=lambda op: [[None, None], [None], [None]], stateful=True)
for _t in ("AddSparseToTensorsMap", "AddManySparseToTensorsMap", "TakeManySparseFromTensorsMap"):
    ops.NoGradient(_t)


def add_sparse_to_tensors_map(sp_input: Any, many: bool, shared_name: Optional[str] = None,
                              name: Optional[str] = None) -> ops.Tensor:
    """An int64 handle (many=False) or a vector of row handles (many=True) of sp_input parked in the session."""
    sp_input = as_sparse(sp_input)
    op_type = "AddManySparseToTensorsMap" if many else "AddSparseToTensorsMap"
    return ops.apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape],
                        {"shared_name": shared_name or ""}, name=name or op_type)


def take_many_sparse_from_tensors_map(sparse_map_op: ops.Operation, sparse_handles: Any, dtype: Any,
                                      rank: Optional[int] = None, name: Optional[str] = None) -> SparseTensor:
    """The minibatch SparseTensor of the parked SparseTensors whose handles are given (taken out of the map)."""
    shared = sparse_map_op.get_attr("shared_name") or sparse_map_op.name
    ind, val, shape = ops.apply_op("TakeManySparseFromTensorsMap", [sparse_handles],
                                   {"dtype": dtypes.as_dtype(dtype), "shared_name": shared},
                                   name=name or "TakeManySparseFromTensorsMap")
    ind.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(ind, val, shape)
