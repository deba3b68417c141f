"""Sparse ops that rearrange entries (tf.sparse.reorder/reshape/slice/split/concat/fill_empty_rows/transpose/
expand_dims/eye/from_dense/retain/reset_shape): op registrations, gradients and wrappers."""
from __future__ import annotations

import numbers
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor, as_sparse
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import sparse_structure_kernels as k


def _dim(shape: tensor_shape.TensorShape, i: int) -> Optional[int]:
    return None if shape.ndims is None else shape[i].value


def _rank_of(op: ops.Operation, shape_input: int) -> Optional[int]:
    return _dim(op.inputs[shape_input].shape, 0)


register_op("SparseReorder", inputs=["input_indices: int64", "input_values: T", "input_shape: int64"],
            outputs=["output_indices: int64", "output_values: T"], kernel=k.reorder_kernel,
            shape_fn=lambda op: [op.inputs[0].shape, op.inputs[1].shape])
register_op("SparseReshape", inputs=["input_indices: int64", "input_shape: int64", "new_shape: int64"],
            outputs=["output_indices: int64", "output_shape: int64"], kernel=k.reshape_kernel,
            shape_fn=lambda op: [[_dim(op.inputs[0].shape, 0), _rank_of(op, 2)], op.inputs[2].shape])
register_op("SparseSlice",
            inputs=["indices: int64", "values: T", "shape: int64", "start: int64", "size: int64"],
            outputs=["output_indices: int64", "output_values: T", "output_shape: int64"], kernel=k.slice_kernel,
            shape_fn=lambda op: [[None, _rank_of(op, 2)], [None], [_rank_of(op, 2)]])
register_op("SparseSliceGrad",
            inputs=["backprop_val_grad: T", "input_indices: int64", "input_start: int64", "output_indices: int64"],
            outputs=["val_grad: T"], kernel=k.slice_grad_kernel,
            shape_fn=lambda op: [[_dim(op.inputs[1].shape, 0)]])
register_op("SparseSplit", inputs=["split_dim: int64", "indices: int64", "values: T", "shape: int64"],
            outputs=["output_indices: num_split * int64", "output_values: num_split * T",
                     "output_shape: num_split * int64"],
            attrs={"num_split": 1}, kernel=k.split_kernel,
            shape_fn=lambda op: ([[None, _rank_of(op, 3)]] * op.get_attr("num_split")
                                 + [[None]] * op.get_attr("num_split")
                                 + [[_rank_of(op, 3)]] * op.get_attr("num_split")))


def _concat_shape(op: ops.Operation) -> list:
    n = op.get_attr("N")
    rows = [_dim(t.shape, 0) for t in op.inputs[:n]]
    total = None if any(r is None for r in rows) else sum(rows)
    rank = next((_rank_of(op, 2 * n + i) for i in range(n) if _rank_of(op, 2 * n + i) is not None), None)
    return [[total, rank], [total], [rank]]


register_op("SparseConcat", inputs=["indices: N * int64", "values: N * T", "shapes: N * int64"],
            outputs=["output_indices: int64", "output_values: T", "output_shape: int64"],
            attrs={"concat_dim": 0}, kernel=k.concat_kernel, shape_fn=_concat_shape)
def _leading_dim(shape_tensor: ops.Tensor) -> Optional[int]:
    dims = tensor_util.constant_value_as_shape(shape_tensor)
    return None if dims.ndims is None or dims.ndims == 0 else dims[0].value


register_op("SparseFillEmptyRows",
            inputs=["indices: int64", "values: T", "dense_shape: int64", "default_value: T"],
            outputs=["output_indices: int64", "output_values: T", "empty_row_indicator: bool",
                     "reverse_index_map: int64"],
            kernel=k.fill_empty_rows_kernel,
            shape_fn=lambda op: [[None, _rank_of(op, 2)], [None], [_leading_dim(op.inputs[2])],
                                 [_dim(op.inputs[0].shape, 0)]])
register_op("SparseFillEmptyRowsGrad", inputs=["reverse_index_map: int64", "grad_values: T"],
            outputs=["d_values: T", "d_default_value: T"], kernel=k.fill_empty_rows_grad_kernel,
            shape_fn=lambda op: [op.inputs[0].shape, []])

for _t in ("SparseReshape", "SparseSplit", "SparseConcat", "SparseSliceGrad", "SparseFillEmptyRowsGrad"):
    ops.NoGradient(_t)


@ops.RegisterGradient("SparseReorder")
def _reorder_grad(op: ops.Operation, _ind_grad: Any, values_grad: ops.Tensor) -> list:
    entries = math_ops.range(array_ops.shape(op.inputs[0])[0])
    _, positions = ops.apply_op("SparseReorder", [op.inputs[0], entries, op.inputs[2]])
    return [None, array_ops.gather(values_grad, array_ops.invert_permutation(positions)), None]


@ops.RegisterGradient("SparseSlice")
def _slice_grad(op: ops.Operation, *grads: Any) -> list:
    val_grad = ops.apply_op("SparseSliceGrad", [grads[1], op.inputs[0], op.inputs[3], op.outputs[0]])
    return [None, val_grad, None, None, None]


@ops.RegisterGradient("SparseFillEmptyRows")
def _fill_empty_rows_grad(op: ops.Operation, *grads: Any) -> list:
    d_values, d_default = ops.apply_op("SparseFillEmptyRowsGrad", [op.outputs[3], grads[1]])
    return [None, d_values, None, d_default]


def sparse_reorder(sp_input: Any, name: Optional[str] = None) -> SparseTensor:
    """The same SparseTensor with entries in canonical row-major order."""
    sp_input = as_sparse(sp_input)
    ind, val = ops.apply_op("SparseReorder", [sp_input.indices, sp_input.values, sp_input.dense_shape],
                            name=name or "SparseReorder")
    if sp_input.shape.is_fully_defined():
        return SparseTensor(ind, val, sp_input.shape.as_list())
    out = SparseTensor(ind, val, array_ops.identity(sp_input.dense_shape))
    out.set_shape(sp_input.shape)
    return out


def sparse_reshape(sp_input: Any, shape: Any, name: Optional[str] = None) -> SparseTensor:
    """The same entries under a new dense shape (at most one -1, inferred)."""
    sp_input = as_sparse(sp_input)
    shape = math_ops.cast(shape, dtype=dtypes.int64)
    with ops.name_scope(name, "SparseReshape", [sp_input]) as scope:
        ind, out_shape = ops.apply_op("SparseReshape", [sp_input.indices, sp_input.dense_shape, shape], name=scope)
        static = tensor_util.constant_value(shape)
        if static is not None and sp_input.shape.is_fully_defined():
            dims = np.array(static, dtype=np.int64)
            n = int(np.prod(sp_input.shape.as_list(), dtype=np.int64))
            if (dims == -1).sum() == 1:
                known = int(np.prod(dims[dims != -1]))
                if known and n % known == 0:
                    dims[dims == -1] = n // known
            if int(np.prod(dims)) != n:
                raise ValueError(f"Cannot reshape a tensor with {n} elements to shape {[int(d) for d in np.ravel(static)]} "
                                 f"({int(np.prod(dims))} elements).")
            out_shape = [int(d) for d in dims]
        return SparseTensor(ind, sp_input.values, out_shape)


def sparse_slice(sp_input: Any, start: Any, size: Any, name: Optional[str] = None) -> SparseTensor:
    """The entries inside [start, start + size), re-based at zero."""
    sp_input = as_sparse(sp_input)
    start = ops.convert_to_tensor(start, dtypes.int64)
    size = ops.convert_to_tensor(size, dtypes.int64)
    with ops.name_scope(name, "SparseSlice", [sp_input]) as scope:
        ind, val, shape = ops.apply_op("SparseSlice", [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                                       start, size], name=scope)
        return SparseTensor(ind, val, shape)


class _KeywordRequired:
    def __repr__(self) -> str:
        return "KeywordRequired()"


def sparse_split(keyword_required: Any = _KeywordRequired(), sp_input: Any = None, num_split: Any = None,
                 axis: Any = None, name: Optional[str] = None, split_dim: Any = None) -> list:
    """num_split SparseTensors along axis; the first (dim % num_split) are one larger."""
    if not isinstance(keyword_required, _KeywordRequired):
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    # TF checks axis before looking at the deprecated split_dim, so split_dim alone is refused too.
    if axis is None:
        raise ValueError("axis is required")
    if split_dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'split_dim'")
    sp_input = as_sparse(sp_input)
    parts = ops.apply_op("SparseSplit", [ops.convert_to_tensor(axis, dtypes.int64), sp_input.indices,
                                         sp_input.values, sp_input.dense_shape],
                         {"num_split": int(num_split)}, name=name or "SparseSplit")
    n = int(num_split)
    return [SparseTensor(parts[i], parts[n + i], parts[2 * n + i]) for i in range(n)]


def sparse_concat(axis: Any, sp_inputs: list, name: Optional[str] = None, expand_nonconcat_dim: bool = False,
                  concat_dim: Any = None, expand_nonconcat_dims: Any = None) -> SparseTensor:
    """SparseTensors side by side along axis (with expand_nonconcat_dim, other dims grow to the largest)."""
    if concat_dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'concat_dim'")
        axis = concat_dim
    if expand_nonconcat_dims is not None:
        # TF's deprecated-argument lookup sees the False default of the old name as given too.
        raise ValueError("Cannot specify both 'expand_nonconcat_dim' and 'expand_nonconcat_dims'.")
    if not isinstance(sp_inputs, (list, tuple)):
        raise TypeError("Inputs must be a list or tuple.")
    sp_inputs = [as_sparse(sp) for sp in sp_inputs]
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    axis = int(axis)
    shapes = [sp.dense_shape for sp in sp_inputs]
    if expand_nonconcat_dim:
        max_shape = math_ops.reduce_max(array_ops.concat([array_ops.reshape(s, [1, -1]) for s in shapes], 0), 0)
        shapes = [array_ops.concat([max_shape[:axis], s[-1:] if axis == -1 else s[axis:axis + 1],
                                    [] if axis == -1 else max_shape[axis + 1:]], 0) for s in shapes]
    ind, val, shape = ops.apply_op("SparseConcat", [[sp.indices for sp in sp_inputs],
                                                    [sp.values for sp in sp_inputs], shapes],
                                   {"concat_dim": axis}, name=name or "SparseConcat")
    out = SparseTensor(ind, val, shape)
    statics = [sp.shape for sp in sp_inputs]
    if all(s.ndims is not None for s in statics):
        rank = statics[0].ndims
        ax = axis % rank if rank else 0
        dims = []
        for d in range(rank):
            col = [s[d].value for s in statics]
            if d == ax:
                dims.append(None if None in col else sum(col))
            elif expand_nonconcat_dim:
                dims.append(None if None in col else max(col))
            else:
                merged = tensor_shape.Dimension(None)
                for s in statics:
                    merged = merged.merge_with(s[d])
                dims.append(merged.value)
        out.set_shape(dims)
    return out


def sparse_fill_empty_rows(sp_input: Any, default_value: Any, name: Optional[str] = None) -> tuple:
    """(SparseTensor with a default entry at [r, 0, ...] in each empty row r, bool [rows] empty-row indicator)."""
    sp_input = as_sparse(sp_input)
    with ops.name_scope(name, "SparseFillEmptyRows", [sp_input]):
        default_value = ops.convert_to_tensor(default_value, dtype=sp_input.values.dtype)
        ind, val, empty, _ = ops.apply_op("SparseFillEmptyRows", [sp_input.indices, sp_input.values,
                                                                  sp_input.dense_shape, default_value])
        return SparseTensor(ind, val, sp_input.dense_shape), empty


def sparse_transpose(sp_input: Any, perm: Any = None, name: Optional[str] = None) -> SparseTensor:
    """Dimensions permuted by perm (reversed if None), entries reordered."""
    with ops.name_scope(name, "SparseTranspose", [sp_input]):
        sp_input = as_sparse(sp_input)
        if perm is None:
            if sp_input.shape.ndims is not None:
                rank = sp_input.shape.ndims
                perm = (rank - 1) - np.arange(0, rank, 1)
            else:
                rank = array_ops.rank(sp_input.indices[0])
                perm = (rank - 1) - math_ops.range(0, rank, 1)
        indices = array_ops.transpose(array_ops.gather(array_ops.transpose(sp_input.indices), perm))
        perm_value = tensor_util.constant_value(ops.convert_to_tensor(perm))
        if perm_value is not None and sp_input.shape.is_fully_defined():
            old = sp_input.shape.as_list()
            dense_shape: Any = [old[int(p)] for p in perm_value]
        else:
            dense_shape = array_ops.gather(sp_input.dense_shape, perm)
        return sparse_reorder(SparseTensor(indices, sp_input.values, dense_shape))


def sparse_expand_dims(sp_input: Any, axis: Any = None, name: Optional[str] = None) -> SparseTensor:
    """A size-1 dimension inserted at axis (-1 = last)."""
    sp_input = as_sparse(sp_input)
    rank = sp_input.dense_shape.shape[0].value
    if rank is None:
        rank = array_ops.shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    with ops.name_scope(name, "expand_dims", [sp_input]):
        if isinstance(axis, numbers.Integral):
            axis = ops.convert_to_tensor(axis, name="axis", dtype=dtypes.int32)
        elif not isinstance(axis, ops.Tensor):
            raise TypeError("axis must be an int or a tensor")
        static_axis = tensor_util.constant_value(axis)
        axis = array_ops.where_v2(axis >= 0, axis, axis + rank + 1)
        column_size = array_ops.shape(sp_input.indices)[0]
        new_index = array_ops.zeros(array_ops.stack([column_size, 1]), dtype=dtypes.int64)
        before = array_ops.slice(sp_input.indices, array_ops.stack([0, 0]), array_ops.stack([-1, axis]))
        after = array_ops.slice(sp_input.indices, array_ops.stack([0, axis]), [-1, -1])
        indices = array_ops.concat([before, new_index, after], axis=1)
        shape = array_ops.concat([sp_input.dense_shape[:axis],
                                  ops.convert_to_tensor([1], name="new_shape", dtype=dtypes.int64),
                                  sp_input.dense_shape[axis:]], axis=0)
        out = SparseTensor(indices, sp_input.values, shape)
        if isinstance(rank, int) and static_axis is not None:
            # TF's shape inference sees the slice lengths but not the values around the new dimension.
            a = int(static_axis) if static_axis >= 0 else int(static_axis) + rank + 1
            out.set_shape([None] * a + [1] + [None] * (rank - a))
        return out


def sparse_eye(num_rows: Any, num_columns: Any = None, dtype: Any = dtypes.float32,
               name: Optional[str] = None) -> SparseTensor:
    """A sparse [num_rows, num_columns] matrix with ones on the main diagonal."""
    with ops.name_scope(name, "eye", [num_rows, num_columns]):
        num_rows = math_ops.cast(ops.convert_to_tensor(num_rows, name="num_rows"), dtypes.int64)
        num_columns = num_rows if num_columns is None else \
            math_ops.cast(ops.convert_to_tensor(num_columns, name="num_columns"), dtypes.int64)
        diag_size = math_ops.minimum(num_rows, num_columns)
        diag_range = math_ops.range(diag_size, dtype=dtypes.int64)
        return SparseTensor(array_ops.stack([diag_range, diag_range], axis=1),
                            array_ops.ones(array_ops.reshape(diag_size, [1]), dtype=dtype),
                            array_ops.stack([num_rows, num_columns]))


def from_dense(tensor: Any, name: Optional[str] = None) -> SparseTensor:
    """The SparseTensor of a dense tensor's nonzero (non-empty for strings) entries."""
    with ops.name_scope(name, "dense_to_sparse"):
        tensor = ops.convert_to_tensor(tensor)
        indices = array_ops.where_v2(math_ops.not_equal(tensor, array_ops.zeros_like(tensor)))
        values = array_ops.gather_nd(tensor, indices)
        shape = array_ops.shape(tensor, out_type=dtypes.int64)
        return SparseTensor(indices, values, shape)


def sparse_retain(sp_input: Any, to_retain: Any) -> SparseTensor:
    """The entries whose to_retain flag (bool [N]) is True."""
    sp_input = as_sparse(sp_input)
    to_retain = ops.convert_to_tensor(to_retain)
    retain_shape = to_retain.shape
    retain_shape.assert_has_rank(1)
    if sp_input.values.shape.ndims is not None:
        sp_input.values.shape[0].assert_is_compatible_with(retain_shape[0])
    where_true = array_ops.reshape(array_ops.where_v2(to_retain), [-1])
    return SparseTensor(array_ops.gather(sp_input.indices, where_true),
                        array_ops.gather(sp_input.values, where_true),
                        array_ops.identity(sp_input.dense_shape))


def sparse_reset_shape(sp_input: Any, new_shape: Any = None) -> SparseTensor:
    """The same entries with dense shape new_shape, or the tightest shape holding them if None."""
    sp_input = as_sparse(sp_input)
    in_indices = array_ops.identity(sp_input.indices)
    in_values = array_ops.identity(sp_input.values)
    in_shape = array_ops.identity(sp_input.dense_shape)
    if new_shape is None:
        low = math_ops.reduce_max(in_indices, axis=0)
        out_shape: Any = math_ops.maximum(array_ops.constant(0, dtype=dtypes.int64),
                                          math_ops.add(low, array_ops.ones_like(in_shape)))
        return SparseTensor(in_indices, in_values, out_shape)
    out_shape = ops.convert_to_tensor(new_shape)
    out_shape.shape.assert_has_rank(1)
    out_shape = math_ops.cast(out_shape, dtypes.int64)
    if out_shape.shape.ndims is not None:
        out_shape.shape[0].assert_is_compatible_with(in_shape.shape[0])
    const = tensor_util.constant_value(out_shape)
    if const is not None and sp_input.shape.is_fully_defined():
        in_const = np.array(sp_input.shape.as_list())
        if not np.all(in_const <= const):
            # TF's message names the two shapes the other way round; kept so callers see the same text.
            raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                             f"({in_const}), sp_input.shape ({const}).")
        out_shape = const
    return SparseTensor(in_indices, in_values, out_shape)
