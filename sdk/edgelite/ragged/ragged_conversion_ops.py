"""The kernels turning a RaggedTensor into a dense Tensor (RaggedTensorToTensor) or a SparseTensor
(RaggedTensorToSparse), both working from the row_splits of every ragged dimension."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.framework import errors, tensor_util
from edgelite.framework.op_def_registry import register_op


def _invalid(msg: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, msg)


def _check_splits(splits: list, nvals: int) -> None:
    """Each level's splits start at 0, never decrease and end at the next level's size (TF's kernel checks)."""
    sizes = [len(s) - 1 for s in splits[1:]] + [nvals]
    for s, size in zip(splits, sizes):
        if len(s) == 0:
            raise _invalid("ragged splits may not be empty.")
        if s[0] != 0:
            raise _invalid(f"First value of ragged splits must be 0; got {s[0]}")
        if (np.diff(s) < 0).any():
            raise _invalid("Ragged splits must be sorted in ascending order")
        if s[-1] != size:
            raise _invalid(f"Final value of ragged splits must match the length the corresponding ragged values: "
                           f"{s[-1]} != {size}")


def coordinates(splits: list) -> tuple:
    """For every flat value, its row in the outermost dimension and its position along each ragged dimension;
    plus the bounding length of each ragged dimension."""
    n = int(splits[-1][-1]) if len(splits[-1]) else 0
    owner = np.arange(n, dtype=np.int64)
    positions = []
    widths = []
    for s in reversed(splits):
        s = np.asarray(s, np.int64)
        lengths = np.diff(s)
        rowids = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        positions.append(owner - s[rowids[owner]] if owner.size else owner)
        owner = rowids[owner] if owner.size else owner
        widths.append(int(lengths.max()) if lengths.size else 0)
    return owner, positions[::-1], widths[::-1]


def _to_tensor_kernel(ctx: Any, shape: np.ndarray, values: np.ndarray, default: np.ndarray, splits: list) -> np.ndarray:
    _check_splits(splits, values.shape[0])
    rows, positions, widths = coordinates(splits)
    bound = [len(splits[0]) - 1] + widths + list(values.shape[1:])
    shape = np.asarray(shape)
    if shape.ndim:
        if shape.size != len(bound):
            raise _invalid(f"rt_input.shape and shape={shape.tolist()} are incompatible: rt_input.rank = "
                           f"{len(bound)} but shape.rank = {shape.size}")
        for i, d in enumerate(shape[len(splits) + 1:].tolist()):
            if d >= 0 and d != values.shape[1 + i]:
                raise _invalid(f"rt_input.shape and shape={shape.tolist()} are incompatible: rt_input.shape"
                               f"[{len(splits) + 1 + i}] = {values.shape[1 + i]} but shape"
                               f"[{len(splits) + 1 + i}] = {d}")
        bound = [b if d < 0 else int(d) for b, d in zip(bound, shape.tolist())]
    inner = tuple(bound[len(splits) + 1:])
    try:
        fill = np.broadcast_to(default, inner)
    except ValueError:
        raise _invalid(f"default_value.shape={list(default.shape)} and rt_input.flat_values.shape="
                       f"{list(values.shape)} are incompatible: default_value.rank = {default.ndim} must be less "
                       f"than rt_input.flat_values.rank = {values.ndim}") from None
    out = np.empty(bound, values.dtype)
    out[...] = fill
    keep = rows < bound[0]
    for p, w in zip(positions, bound[1:len(splits) + 1]):
        keep &= p < w
    idx = (rows[keep],) + tuple(p[keep] for p in positions)
    out[idx] = values[keep]
    return out


def _to_tensor_shape(op: Any) -> list:
    rank = len(op.inputs) - 3 + op.inputs[1].shape.ndims if op.inputs[1].shape.ndims is not None else None
    if rank is None:
        return [None]
    given = tensor_util.constant_value(op.inputs[0])
    dims = [None] * rank
    if given is not None and np.ndim(given) == 1 and len(given) == rank:
        dims = [None if d < 0 else int(d) for d in given.tolist()]
    return [dims]


register_op("RaggedTensorToTensor",
            inputs=["shape: Tshape", "values: T", "default_value: T",
                    "row_partition_tensors: num_row_partition_tensors * Tindex"],
            outputs=["result: T"], attrs={"row_partition_types": []},
            kernel=_to_tensor_kernel, shape_fn=_to_tensor_shape)


def _to_sparse_kernel(ctx: Any, splits: list, values: np.ndarray) -> tuple:
    _check_splits(splits, values.shape[0])
    rows, positions, widths = coordinates(splits)
    outer = np.stack([rows] + positions, axis=1) if rows.size else np.zeros((0, len(splits) + 1), np.int64)
    inner_shape = values.shape[1:]
    inner = np.indices(inner_shape).reshape(len(inner_shape), -1).T if inner_shape else np.zeros((1, 0), np.int64)
    indices = np.concatenate([np.repeat(outer, len(inner), axis=0), np.tile(inner, (len(outer), 1))], axis=1)
    dense_shape = np.array([len(splits[0]) - 1] + widths + list(inner_shape), np.int64)
    return indices.astype(np.int64), values.reshape(-1), dense_shape


def _to_sparse_shape(op: Any) -> list:
    vals = op.inputs[-1].shape
    rank = None if vals.ndims is None else len(op.inputs) - 1 + vals.ndims
    return [[None, rank], [None], [rank]]


register_op("RaggedTensorToSparse", inputs=["rt_nested_splits: RAGGED_RANK * Tsplits", "rt_dense_values: T"],
            outputs=["sparse_indices: int64", "sparse_values: T", "sparse_dense_shape: int64"],
            kernel=_to_sparse_kernel, shape_fn=_to_sparse_shape)

