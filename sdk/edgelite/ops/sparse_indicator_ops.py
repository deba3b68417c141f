"""Sparse ids to indicators and back: sparse_merge, sparse_to_indicator, sparse_mask (TF's composites)."""
from __future__ import annotations

import collections.abc
import numbers
from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue, as_sparse
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.sparse_structure_ops import sparse_reorder
from edgelite.ops.sparse_to_dense import sparse_tensor_to_dense


def _vocab_sizes(sp_ids: Any, vocab_size: Any) -> tuple:
    if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
        if not isinstance(vocab_size, (ops.Tensor, numbers.Integral)):
            raise TypeError(f"vocab_size has to be a Tensor or Python int. Found {type(vocab_size)}")
        return [sp_ids], [vocab_size]
    if not isinstance(sp_ids, collections.abc.Iterable):
        raise TypeError(f"sp_ids has to be a SparseTensor or list thereof. Found {type(sp_ids)}")
    if not isinstance(vocab_size, collections.abc.Iterable):
        raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(vocab_size)}")
    for dim in vocab_size:
        if not isinstance(dim, (ops.Tensor, numbers.Integral)):
            raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(dim)}")
    return list(sp_ids), list(vocab_size)


def sparse_merge(sp_ids: Any, sp_values: Any, vocab_size: Any, name: Optional[str] = None,
                 already_sorted: bool = False) -> SparseTensor:
    """sp_values re-indexed by ids: the last index coordinate becomes the id (one column per id tensor)."""
    sp_ids, vocab_size = _vocab_sizes(sp_ids, vocab_size)
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with ops.name_scope(name, "SparseMerge", [sp_ids, sp_values]):
        sp_ids = [as_sparse(s) for s in sp_ids]
        sp_values = as_sparse(sp_values)
        ids = [array_ops.expand_dims(s.values if s.dtype == dtypes.int64 else math_ops.cast(s.values, dtypes.int64),
                                     axis=1) for s in sp_ids]
        sizes = [math_ops.cast(x, dtypes.int64) for x in vocab_size]
        new_indices = array_ops.concat([sp_values.indices[:, :-1]] + ids, 1)
        new_shape = array_ops.concat([sp_values.dense_shape[:-1], array_ops.stack(sizes)], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        ordered = sparse_reorder(result)
        return SparseTensor(ordered.indices, ordered.values, new_shape)


def sparse_to_indicator(sp_input: Any, vocab_size: Any, name: Optional[str] = None) -> ops.Tensor:
    """Dense bool [..., vocab_size]: True where a row's ids (the sparse values) occur."""
    sp_input = as_sparse(sp_input)
    with ops.name_scope(name, "SparseToIndicator", [sp_input]) as scope:
        num_entries = array_ops.shape(sp_input.indices)[0]
        flags = array_ops.fill(array_ops.expand_dims(num_entries, 0), True)
        merged = sparse_merge(sp_input, SparseTensor(sp_input.indices, flags, sp_input.dense_shape), vocab_size,
                              scope)
        # Repeated ids make repeated indices, which validation would refuse; they all write True.
        return sparse_tensor_to_dense(merged, default_value=False, validate_indices=False, name=scope)


def sparse_mask(a: IndexedSlices, mask_indices: Any, name: Optional[str] = None) -> IndexedSlices:
    """The slices of a whose indices are not in mask_indices."""
    with ops.name_scope(name, "sparse_mask", [a, mask_indices]) as scope:
        out_indices, to_gather = ops.apply_op("ListDiff", [a.indices, mask_indices])
        return IndexedSlices(array_ops.gather(a.values, to_gather, name=scope), out_indices, a.dense_shape)
