"""Numpy kernels of the arithmetic sparse ops (add, maximum/minimum, reductions, softmax, sparse-dense
elementwise ops, sparse x dense matmul), following TF's CPU kernels' semantics and error texts."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.ops import sparse_checks as checks
from edgelite.ops.sparse_structure_kernels import lex_order


def _require(cond: bool, msg: str) -> None:
    if not cond:
        raise checks.invalid(msg)


def _s(a: np.ndarray) -> str:
    return checks.fmt_index(np.shape(a))


def row_positions(query: np.ndarray, table: np.ndarray) -> np.ndarray:
    """For each index row of query, its position among table's rows, or -1 if absent."""
    if table.shape[0] == 0 or query.shape[0] == 0:
        return np.full(query.shape[0], -1, np.int64)
    pos = {r.tobytes(): i for i, r in enumerate(np.ascontiguousarray(table, dtype=np.int64))}
    return np.array([pos.get(r.tobytes(), -1) for r in np.ascontiguousarray(query, dtype=np.int64)], np.int64)


def _check_binary_operands(a_ind: np.ndarray, a_val: np.ndarray, a_shape: np.ndarray, b_ind: np.ndarray,
                           b_val: np.ndarray, b_shape: np.ndarray) -> None:
    _require(a_ind.ndim == 2 and b_ind.ndim == 2, f"Input indices should be matrices but received shapes: "
                                                  f"{_s(a_ind)} and {_s(b_ind)}")
    _require(a_val.ndim == 1 and b_val.ndim == 1, f"Inputs a_values and b_values should be vectors but received "
                                                  f"shapes: {_s(a_val)} and {_s(b_val)}")
    _require(a_shape.ndim == 1 and b_shape.ndim == 1, f"Input shapes should be vectors but received shapes "
                                                      f"{_s(a_shape)} and {_s(b_shape)}")
    _require(a_ind.shape[1] == b_ind.shape[1], f"Input indices must have the same dimension, got {a_ind.shape[1]} "
                                               f"and {b_ind.shape[1]}")
    _require(a_shape.shape[0] == b_shape.shape[0],
             f"Operands do not have the same ranks; got shapes: {checks.fmt_index(a_shape)} and "
             f"{checks.fmt_index(b_shape)}")
    for d in range(a_shape.shape[0]):
        _require(a_shape[d] == b_shape[d], f"Operands' shapes do not match: got {a_shape[d]} and {b_shape[d]} for "
                                           f"dimension {d}")


def _merge(a_ind: np.ndarray, b_ind: np.ndarray) -> tuple:
    """Merge two sorted index sets: (order over the concatenation, is-from-b, pair-start mask, consumed mask)."""
    ind = np.concatenate([a_ind, b_ind]).astype(np.int64)
    tag = np.concatenate([np.zeros(a_ind.shape[0], np.int64), np.ones(b_ind.shape[0], np.int64)])
    order = np.lexsort((tag,) + tuple(ind.T[::-1])) if ind.shape[0] else np.zeros(0, np.int64)
    s_ind, s_tag = ind[order], tag[order]
    pair = np.zeros(order.size, bool)
    if order.size > 1:
        pair[:-1] = (s_ind[1:] == s_ind[:-1]).all(axis=1) & (s_tag[:-1] == 0) & (s_tag[1:] == 1)
    second = np.zeros(order.size, bool)
    second[1:] = pair[:-1]
    return ind, order, pair, second


def sparse_add_kernel(ctx: Any, a_ind: np.ndarray, a_val: np.ndarray, a_shape: np.ndarray, b_ind: np.ndarray,
                      b_val: np.ndarray, b_shape: np.ndarray, thresh: np.ndarray) -> tuple:
    """SparseAdd: union of two sorted SparseTensors; a summed pair is dropped if |sum| < thresh."""
    _check_binary_operands(a_ind, a_val, a_shape, b_ind, b_val, b_shape)
    _require(thresh.ndim == 0, f"The magnitude threshold must be a scalar: got shape {_s(thresh)}")
    ind, order, pair, second = _merge(a_ind, b_ind)
    vals = np.concatenate([a_val, b_val])[order]
    out_vals = vals.copy()
    out_vals[pair] = vals[pair] + vals[np.flatnonzero(pair) + 1]
    keep = ~second & (~pair | (np.abs(out_vals) >= thresh))
    return ind[order][keep], out_vals[keep], a_shape.astype(np.int64)


def sparse_add_grad_kernel(ctx: Any, grad: np.ndarray, a_ind: np.ndarray, b_ind: np.ndarray,
                           sum_ind: np.ndarray) -> tuple:
    """SparseAddGrad: each operand entry gets the gradient of the sum entry at its index (0 if dropped)."""
    out = []
    for ind in (a_ind, b_ind):
        pos = row_positions(ind, sum_ind)
        g = np.zeros(ind.shape[0], grad.dtype)
        g[pos >= 0] = grad[pos[pos >= 0]]
        out.append(g)
    return tuple(out)


def sparse_dense_add_kernel(ctx: Any, a_ind: np.ndarray, a_val: np.ndarray, a_shape: np.ndarray,
                            b: np.ndarray) -> np.ndarray:
    """SparseTensorDenseAdd: the dense operand plus the sparse entries (same shapes, no broadcasting)."""
    _require(a_ind.ndim == 2, f"Input a_indices should be a matrix but received shape: {_s(a_ind)}")
    _require(a_val.ndim == 1 and a_shape.ndim == 1, f"Inputs a_values and a_shape should be vectors but received "
                                                    f"shapes: {_s(a_val)} and {_s(a_shape)}")
    _require(a_shape.shape[0] == b.ndim, f"Dimension mismatch: sparse rank {a_shape.shape[0]} vs dense rank "
                                         f"{b.ndim}")
    for d in range(b.ndim):
        _require(a_shape[d] == b.shape[d], f"Dimension {d} does not equal (no broadcasting is supported): sparse "
                                           f"side {a_shape[d]} vs dense side {b.shape[d]}")
    out = np.array(b, copy=True)
    if a_ind.shape[0]:
        bad = checks.first_true(checks.out_of_bounds(a_ind, a_shape))
        _require(bad is None, f"Index {bad} of sparse tensor is out of bounds")
        np.add.at(out, tuple(a_ind.T), a_val)
    return out


def sparse_extremum_kernel(fn: Any) -> Any:
    """SparseSparseMaximum/Minimum: union of the entries, a missing side counting as an implicit zero."""
    def kernel(ctx: Any, a_ind: np.ndarray, a_val: np.ndarray, a_shape: np.ndarray, b_ind: np.ndarray,
               b_val: np.ndarray, b_shape: np.ndarray) -> tuple:
        _check_binary_operands(a_ind, a_val, a_shape, b_ind, b_val, b_shape)
        ind, order, pair, second = _merge(a_ind, b_ind)
        vals = np.concatenate([a_val, b_val])[order]
        out_vals = fn(vals, np.zeros_like(vals))
        out_vals[pair] = fn(vals[pair], vals[np.flatnonzero(pair) + 1])
        return ind[order][~second], out_vals[~second]
    return kernel


def normalize_axes(axes: np.ndarray, rank: int) -> np.ndarray:
    """Reduction axes in [0, rank), InvalidArgumentError like TF's sparse reductions otherwise."""
    axes = np.ravel(axes).astype(np.int64)
    for a in axes:
        _require(-rank <= a < rank, f"Invalid reduction dimension {a}, for input with {rank} dimensions.")
    return np.unique(axes % rank) if rank else axes


def _groups(indices: np.ndarray, shape: np.ndarray, axes: np.ndarray, keep_dims: bool) -> tuple:
    """Group entries by their kept coordinates: (output index rows of the groups, group id per entry, out shape)."""
    rank = shape.shape[0]
    kept = np.array([d for d in range(rank) if d not in set(axes.tolist())], np.int64)
    key = indices[:, kept]
    if key.shape[0]:
        uniq, inverse = np.unique(key, axis=0, return_inverse=True)
    else:
        uniq, inverse = key, np.zeros(0, np.int64)
    inverse = np.ravel(inverse)
    if keep_dims:
        rows = np.zeros((uniq.shape[0], rank), np.int64)
        rows[:, kept] = uniq
        out_shape = np.where(np.isin(np.arange(rank), axes), 1, shape).astype(np.int64)
    else:
        rows = uniq.astype(np.int64)
        out_shape = shape[kept].astype(np.int64)
    return rows, inverse, out_shape


def _reduce(values: np.ndarray, inverse: np.ndarray, n_groups: int, op: str) -> np.ndarray:
    if op == "sum":
        out = np.zeros(n_groups, values.dtype)
        np.add.at(out, inverse, values)
        return out
    out = np.full(n_groups, _lowest(values.dtype), values.dtype)
    np.maximum.at(out, inverse, values)
    return out


def _lowest(dtype: np.dtype) -> Any:
    return -np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min


def sparse_reduce_kernel(op: str, sparse_out: bool) -> Any:
    """SparseReduceSum/Max(+Sparse): reduce the stored values over axes (a group's implicit zeros ignored)."""
    def kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray, axes: np.ndarray) -> Any:
        rank = shape.shape[0]
        axes = normalize_axes(axes, rank)
        rows, inverse, out_shape = _groups(indices.astype(np.int64), shape, axes, ctx.attrs["keep_dims"])
        reduced = _reduce(values, inverse, rows.shape[0], op)
        if sparse_out:
            return rows, reduced, out_shape
        out = np.zeros(tuple(out_shape), values.dtype)
        if rows.shape[0]:
            out[tuple(rows.T)] = reduced if rows.shape[1] else reduced[0]
        return out
    return kernel


def sparse_softmax_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """SparseSoftmax: softmax of the stored values of each innermost row (entries in sorted order)."""
    _require(indices.ndim == 2, f"Input should be a matrix but received shape {_s(indices)}")
    _require(values.ndim == 1, f"Input should be a vector but received shape {_s(values)}")
    _require(shape.ndim == 1, f"Input should be a vector but received shape {_s(shape)}")
    _require(shape.shape[0] >= 2, f"Input should have rank >= 2, but received shape: "
                                   f"{' '.join(str(int(d)) for d in shape)}")
    _require(indices.shape[0] == values.shape[0],
             f"Number of nnz elements in indices and values do not match: {indices.shape[0]} vs. "
             f"{values.shape[0]}")
    if values.size == 0:
        return values.copy()
    order = lex_order(indices)
    s_ind, s_val = indices[order], values[order]
    _, group = np.unique(s_ind[:, :-1], axis=0, return_inverse=True)
    group = np.ravel(group)
    n = int(group.max()) + 1
    peak = np.full(n, -np.inf, dtype=values.dtype)
    np.maximum.at(peak, group, s_val)
    e = np.exp(s_val - peak[group])
    total = np.zeros(n, values.dtype)
    np.add.at(total, group, e)
    # TF writes the softmax of the reordered entries position by position.
    return (e / total[group]).astype(values.dtype)


def dense_at_sparse(indices: np.ndarray, shape: np.ndarray, dense: np.ndarray, op_name: str) -> np.ndarray:
    """The dense operand broadcast to the sparse shape, read at each sparse index (TF's one-way broadcast)."""
    rank = shape.shape[0]
    _require(dense.ndim <= rank, f"{op_name}: dense rank {dense.ndim} exceeds sparse rank {rank}")
    dshape = (1,) * (rank - dense.ndim) + dense.shape
    for d, (ds, ss) in enumerate(zip(dshape, shape)):
        _require(ds == 1 or ds == ss,
                 f"SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: "
                 f"[{','.join(str(int(x)) for x in shape)}] vs. [{','.join(str(x) for x in dense.shape)}]")
    d = dense.reshape(dshape)
    idx = tuple(np.where(np.array(dshape)[None, :] == 1, 0, indices).T)
    return d[idx]


def sparse_dense_cwise_kernel(fn: Any, op_name: str) -> Any:
    """SparseDenseCwiseMul/Div/Add: values op dense-at-index."""
    def kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray, dense: np.ndarray) -> Any:
        return fn(values, dense_at_sparse(indices, shape, dense, op_name)).astype(values.dtype)
    return kernel


def sparse_dense_matmul_kernel(ctx: Any, a_ind: np.ndarray, a_val: np.ndarray, a_shape: np.ndarray,
                               b: np.ndarray) -> np.ndarray:
    """SparseTensorDenseMatMul: op(A) @ op(B) with A sparse [m, k]; duplicate entries add up."""
    adj_a, adj_b = ctx.attrs["adjoint_a"], ctx.attrs["adjoint_b"]
    _require(a_shape.ndim == 1 and a_shape.shape[0] == 2, "Tensor 'a_shape' is not a vector")
    _require(b.ndim == 2, "Tensor 'b' is not a matrix")
    _require(a_ind.ndim == 2, "Tensor 'a_indices' is not a matrix")
    _require(a_ind.shape[0] == a_val.shape[0], "Number of rows of a_indices does not match number of entries in "
                                               "a_values")
    m, k = (int(a_shape[1]), int(a_shape[0])) if adj_a else (int(a_shape[0]), int(a_shape[1]))
    bm = b.conj().T if adj_b else b
    _require(k == bm.shape[0], f"Cannot multiply A and B because inner dimension does not match: {k} vs. "
                               f"{bm.shape[0]}.  Did you forget a transpose?  Dimensions of A: "
                               f"[{int(a_shape[0])}, {int(a_shape[1])}).  Dimensions of B: {_s(b)}")
    out = np.zeros((m, bm.shape[1]), dtype=b.dtype)
    if a_ind.shape[0] == 0:
        return out
    rows, cols = (a_ind[:, 1], a_ind[:, 0]) if adj_a else (a_ind[:, 0], a_ind[:, 1])
    vals = np.conj(a_val) if adj_a else a_val
    bad_k = checks.first_true((cols < 0) | (cols >= k))
    _require(bad_k is None, f"k ({cols[bad_k] if bad_k is not None else 0}) from index[{bad_k},"
                            f"{0 if adj_a else 1}] out of bounds (>={k})")
    bad_m = checks.first_true((rows < 0) | (rows >= m))
    _require(bad_m is None, f"m ({rows[bad_m] if bad_m is not None else 0}) from index[{bad_m},"
                            f"{1 if adj_a else 0}] out of bounds (>={m})")
    np.add.at(out, rows, vals[:, None] * bm[cols])
    return out
