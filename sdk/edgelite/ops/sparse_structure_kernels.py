"""Numpy kernels of the sparse ops that move entries around: reorder, reshape, slice, split, concat,
fill_empty_rows. Each follows TF's CPU kernel: its output order and its error texts."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.ops import sparse_checks as checks


def lex_order(indices: np.ndarray) -> np.ndarray:
    """The stable permutation sorting index rows lexicographically (column 0 most significant)."""
    if indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


def _require(cond: bool, msg: str) -> None:
    if not cond:
        raise checks.invalid(msg)


def _shape_str(a: np.ndarray) -> str:
    return checks.fmt_index(np.shape(a))


def check_components(indices: np.ndarray, values: np.ndarray, shape: np.ndarray, what: str = "Input") -> None:
    """TF's common check of a SparseTensor's three parts: indices a matrix, values and shape vectors."""
    _require(indices.ndim == 2, f"{what} indices should be a matrix but received shape {_shape_str(indices)}")
    _require(values.ndim == 1, f"{what} values should be a vector but received shape {_shape_str(values)}")
    _require(shape.ndim == 1, f"{what} shape should be a vector but received shape {_shape_str(shape)}")


def reorder_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> tuple:
    """SparseReorder: entries in lexicographic index order."""
    check_components(indices, values, shape)
    _require(indices.shape[1] == shape.shape[0] and indices.shape[0] == values.shape[0],
             f"Dimension mismatch between indices {_shape_str(indices)}, values {_shape_str(values)} and shape "
             f"{_shape_str(shape)}")
    order = lex_order(indices)
    return indices[order], values[order]


def reshape_kernel(ctx: Any, indices: np.ndarray, shape: np.ndarray, new_shape: np.ndarray) -> tuple:
    """SparseReshape: the same entries under a new dense shape (one -1 is inferred)."""
    _require(indices.ndim == 2, f"Input indices should be a matrix but received shape {_shape_str(indices)}")
    _require(shape.ndim == 1, f"Input shape should be a vector but received shape {_shape_str(shape)}")
    _require(new_shape.ndim == 1, f"Target shape should be a vector but received shape {_shape_str(new_shape)}")
    dense = int(np.prod(shape, dtype=np.int64))
    target = new_shape.astype(np.int64).copy()
    unknown = -1
    product = 1
    for d, size in enumerate(target):
        if size == -1:
            _require(unknown == -1, f"only one output dimension may be -1, not both {unknown} and {d}")
            unknown = d
        else:
            _require(size >= 0, f"size {d} must be non-negative, not {size}")
            product *= int(size)
    if unknown != -1:
        _require(product > 0, "reshape cannot infer the missing input size for an empty tensor unless all "
                              "specified input sizes are non-zero")
        missing = dense // product
        _require(product * missing == dense,
                 f"Input to reshape is a SparseTensor with {dense} dense values, but the requested shape requires "
                 f"a multiple of {product}. input_shape={checks.fmt_index(shape)} output_shape="
                 f"{checks.fmt_index(np.where(target == -1, 1, target))}")
        target[unknown] = missing
    _require(int(np.prod(target, dtype=np.int64)) == dense,
             f"Input to reshape is a tensor with {dense} dense values, but the requested shape has "
             f"{int(np.prod(target, dtype=np.int64))}. input_shape={checks.fmt_index(shape)} output_shape="
             f"{checks.fmt_index(target)}")
    if indices.shape[0] == 0 or shape.size == 0:
        return np.zeros((indices.shape[0], target.size), np.int64), target
    linear = np.ravel_multi_index(tuple(indices.T), tuple(int(s) for s in shape), mode="wrap") \
        if dense else np.zeros(indices.shape[0], np.int64)
    if target.size == 0:
        return np.zeros((indices.shape[0], 0), np.int64), target
    out = np.stack(np.unravel_index(linear, tuple(int(s) for s in target)), axis=1).astype(np.int64)
    return out, target


def slice_bounds(shape: np.ndarray, start: np.ndarray, size: np.ndarray) -> tuple:
    """The clipped [lo, hi) of a slice per dimension and the output dense shape, as TF's SparseSlice computes it."""
    hi = np.minimum(start + size, shape)
    out_shape = np.maximum(hi - start, 0)
    return start, hi, out_shape


def slice_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray, start: np.ndarray,
                 size: np.ndarray) -> tuple:
    """SparseSlice: the entries inside [start, start + size), shifted to start at zero, in input order."""
    check_components(indices, values, shape)
    _require(start.ndim == 1, f"Input start should be a vector but received shape {_shape_str(start)}")
    _require(size.ndim == 1, f"Input size should be a vector but received shape {_shape_str(size)}")
    rank = shape.shape[0]
    _require(start.shape[0] == rank, f"Expected start to be a vector of length {rank} but got length "
                                     f"{start.shape[0]}")
    _require(size.shape[0] == rank, f"Expected size to be a vector of length {rank} but got length {size.shape[0]}")
    lo, hi, out_shape = slice_bounds(shape, start, size)
    keep = ((indices >= lo[None, :]) & (indices < hi[None, :])).all(axis=1)
    return (indices[keep] - lo[None, :]).astype(np.int64), values[keep], out_shape.astype(np.int64)


def slice_grad_kernel(ctx: Any, grad: np.ndarray, in_indices: np.ndarray, start: np.ndarray,
                      out_indices: np.ndarray) -> np.ndarray:
    """SparseSliceGrad: the output values' gradient routed back to the input entries that were kept."""
    out = np.zeros(in_indices.shape[0], dtype=grad.dtype)
    if out_indices.shape[0] == 0:
        return out
    shifted = in_indices - start[None, :]
    pos = {row.tobytes(): i for i, row in enumerate(np.ascontiguousarray(out_indices, dtype=np.int64))}
    rows = np.ascontiguousarray(shifted, dtype=np.int64)
    src = np.array([pos.get(r.tobytes(), -1) for r in rows], dtype=np.int64)
    hit = src >= 0
    out[hit] = grad[src[hit]]
    return out


def split_kernel(ctx: Any, split_dim: np.ndarray, indices: np.ndarray, values: np.ndarray,
                 shape: np.ndarray) -> tuple:
    """SparseSplit: num_split pieces along split_dim, the first dim % num_split pieces one larger."""
    num_split = ctx.attrs["num_split"]
    check_components(indices, values, shape)
    rank = shape.shape[0]
    axis = int(split_dim)
    _require(-rank <= axis < rank, f"Input split_dim should be between -{rank} and {rank}, got {axis}")
    axis %= rank
    dim = int(shape[axis])
    _require(1 <= num_split <= dim, f"Input num_split should be between 1 and the splitting dimension size ({dim}), "
                                    f"got {num_split}")
    base, extra = divmod(dim, num_split)
    starts = np.array([i * base + min(i, extra) for i in range(num_split + 1)])
    piece = np.searchsorted(starts, indices[:, axis], side="right") - 1
    out_i, out_v, out_s = [], [], []
    for k in range(num_split):
        keep = piece == k
        ind = indices[keep].copy()
        ind[:, axis] -= starts[k]
        s = shape.astype(np.int64).copy()
        s[axis] = starts[k + 1] - starts[k]
        out_i.append(ind)
        out_v.append(values[keep])
        out_s.append(s)
    return tuple(out_i + out_v + out_s)


def concat_kernel(ctx: Any, indices: list, values: list, shapes: list) -> tuple:
    """SparseConcat: inputs side by side along concat_dim, the result in lexicographic order."""
    n = len(indices)
    for i in range(n):
        check_components(indices[i], values[i], shapes[i])
    rank = shapes[0].shape[0]
    axis = ctx.attrs["concat_dim"]
    _require(-rank <= axis < rank, f"Concat dimension must be in range [{-rank}, {rank}), got {axis}")
    axis %= rank
    for i in range(1, n):
        _require(shapes[i].shape[0] == rank, f"Ranks of all input tensors must match: expected {rank} but got "
                                             f"{shapes[i].shape[0]} at position {i}")
        for d in range(rank):
            _require(d == axis or shapes[i][d] == shapes[0][d],
                     f"Input shapes must match: expected {shapes[0][d]} for dimension {d} but got {shapes[i][d]} at "
                     f"position {i}")
    offsets = np.cumsum([0] + [int(s[axis]) for s in shapes])
    moved = []
    for i in range(n):
        ind = indices[i].astype(np.int64).copy()
        ind[:, axis] += offsets[i]
        moved.append(ind)
    out_ind = np.concatenate(moved, axis=0) if moved else np.zeros((0, rank), np.int64)
    out_val = np.concatenate(values, axis=0)
    # TF sorts each input by concat_dim first, concatenates, then restores standard order; a stable
    # lexicographic sort of the concatenation gives the same result for valid (sorted, unique) inputs.
    order = lex_order(out_ind)
    out_shape = shapes[0].astype(np.int64).copy()
    out_shape[axis] = offsets[-1]
    return out_ind[order], out_val[order], out_shape


def fill_empty_rows_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, dense_shape: np.ndarray,
                           default: np.ndarray) -> tuple:
    """SparseFillEmptyRows: a default entry [r, 0, ...] for every row r without entries; rows in order."""
    _require(dense_shape.ndim == 1, f"dense_shape must be a vector, saw: {_shape_str(dense_shape)}")
    _require(indices.ndim == 2, f"indices must be a matrix, saw: {_shape_str(indices)}")
    _require(values.ndim == 1, f"values must be a vector, saw: {_shape_str(values)}")
    _require(default.ndim == 0, f"default_value must be a scalar, saw: {_shape_str(default)}")
    n = indices.shape[0]
    _require(values.shape[0] == n, f"The length of `values` ({values.shape[0]}) must match the first dimension "
                                   f"of `indices` ({n}).")
    _require(indices.shape[1] == dense_shape.shape[0],
             f"The length of `dense_shape` ({dense_shape.shape[0]}) must match the second dimension of `indices` "
             f"({indices.shape[1]}).")
    rank = dense_shape.shape[0]
    dense_rows = int(dense_shape[0]) if rank else 0
    if dense_rows == 0:
        _require(n == 0, f"Received SparseTensor with dense_shape[0] = 0 but indices.shape[0] = {n}")
        return (np.zeros((0, rank), np.int64), values[:0], np.zeros(0, bool), np.zeros(0, np.int64))
    rows = indices[:, 0].astype(np.int64)
    neg = checks.first_true(rows < 0)
    _require(neg is None, f"indices({neg}, 0) is invalid: {rows[neg] if neg is not None else 0} < 0")
    big = checks.first_true(rows >= dense_rows)
    _require(big is None, f"indices({big}, 0) is invalid: {rows[big] if big is not None else 0} >= {dense_rows}")
    counts = np.bincount(rows, minlength=dense_rows)
    empty = counts == 0
    filled = np.where(empty, 1, counts)
    offsets = np.concatenate([[0], np.cumsum(filled)[:-1]])
    # Entries keep their input order within a row (a stable sort by row alone).
    by_row = np.argsort(rows, kind="stable")
    rank_in_row = np.empty(n, np.int64)
    rank_in_row[by_row] = np.arange(n) - np.concatenate([[0], np.cumsum(counts)[:-1]])[rows[by_row]]
    reverse_map = offsets[rows] + rank_in_row
    total = int(filled.sum())
    out_ind = np.zeros((total, rank), np.int64)
    out_val = np.empty(total, dtype=values.dtype)
    out_ind[reverse_map] = indices
    out_val[reverse_map] = values
    empty_rows = np.flatnonzero(empty)
    out_ind[offsets[empty_rows], 0] = empty_rows
    out_val[offsets[empty_rows]] = default
    return out_ind, out_val, empty, reverse_map


def fill_empty_rows_grad_kernel(ctx: Any, reverse_map: np.ndarray, grad: np.ndarray) -> tuple:
    """SparseFillEmptyRowsGrad: input values get their output's gradient, the default the rest."""
    d_values = grad[reverse_map]
    return d_values, np.asarray(grad.sum() - d_values.sum(), dtype=grad.dtype)
