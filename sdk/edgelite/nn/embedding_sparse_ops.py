"""tf.nn.embedding_lookup_sparse and safe_embedding_lookup_sparse: per-row combined embeddings of sparse ids."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import segment_ops
from edgelite.ops.sparse_structure_ops import sparse_fill_empty_rows, sparse_reshape, sparse_retain
from edgelite.ops.unique_ops import unique

from .embedding_ops import embedding_lookup

_COMBINERS = ("mean", "sqrtn", "sum")


def _weighted(embeddings: ops.Tensor, idx: ops.Tensor, weights: ops.Tensor, segment_ids: ops.Tensor,
              combiner: str, name: str) -> ops.Tensor:
    """Rows gathered back to one per id, scaled by weights and combined per segment."""
    embeddings = array_ops.gather(embeddings, idx)
    original = embeddings.dtype
    if embeddings.dtype in (dtypes.float16, dtypes.bfloat16):
        embeddings = math_ops.cast(embeddings, dtypes.float32)
    if weights.dtype != embeddings.dtype:
        weights = math_ops.cast(weights, embeddings.dtype)
    ones = array_ops.ones(array_ops.expand_dims(array_ops.rank(embeddings) - 1, 0), dtype=dtypes.int32)
    static = weights.shape
    weights = array_ops.reshape(weights, array_ops.concat([array_ops.shape(weights), ones], 0))
    if embeddings.shape.ndims is not None:
        weights.set_shape(static.concatenate([1] * (embeddings.shape.ndims - 1)))
    embeddings *= weights
    if combiner == "sum":
        out = math_ops.segment_sum(embeddings, segment_ids, name=name)
    else:
        total = math_ops.segment_sum(embeddings, segment_ids)
        if combiner == "mean":
            out = math_ops.div_no_nan(total, math_ops.segment_sum(weights, segment_ids), name=name)
        else:
            norm = math_ops.sqrt(math_ops.segment_sum(math_ops.pow(weights, 2), segment_ids))
            out = math_ops.div_no_nan(total, norm, name=name)
    return out if out.dtype == original else math_ops.cast(out, original)


def embedding_lookup_sparse(params: Any, sp_ids: Any, sp_weights: Any, partition_strategy: str = "mod",
                            name: Optional[str] = None, combiner: Optional[str] = None, max_norm: Any = None,
                            allow_fast_lookup: bool = False) -> ops.Tensor:
    """One embedding per row of sp_ids: the rows of params at its ids, combined by sum, mean or sqrtn
    (weighted by sp_weights if given)."""
    combiner = "mean" if combiner is None else combiner
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if hasattr(params, "_get_variable_list"):
        params = list(params)
    if not isinstance(params, list):
        params = [params]
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f"sp_weights must be either None or SparseTensor, got {type(sp_weights)}")
        sp_ids.values.shape.assert_is_compatible_with(sp_weights.values.shape)
        sp_ids.indices.shape.assert_is_compatible_with(sp_weights.indices.shape)
        sp_ids.dense_shape.shape.assert_is_compatible_with(sp_weights.dense_shape.shape)
    with ops.name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as scope:
        segment_ids = math_ops.cast(sp_ids.indices[:, 0], dtypes.int32)
        ids, idx = unique(sp_ids.values)
        embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy, max_norm=max_norm)
        if sp_weights is not None:
            return _weighted(embeddings, idx, sp_weights.values, segment_ids, combiner, scope)
        fn = {"sum": segment_ops.sparse_segment_sum, "mean": segment_ops.sparse_segment_mean,
              "sqrtn": segment_ops.sparse_segment_sqrt_n}[combiner]
        return fn(embeddings, idx, segment_ids, name=scope)


def _prune(sparse_ids: SparseTensor, sparse_weights: Optional[SparseTensor], valid: ops.Tensor) -> tuple:
    sparse_ids = sparse_retain(sparse_ids, valid)
    if sparse_weights is not None:
        sparse_weights = sparse_retain(sparse_weights, valid)
    return sparse_ids, sparse_weights


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: Any, sparse_weights: Any = None,
                                 combiner: str = "mean", default_id: Any = None, name: Optional[str] = None,
                                 partition_strategy: str = "div", max_norm: Any = None,
                                 allow_fast_lookup: bool = False) -> ops.Tensor:
    """embedding_lookup_sparse for ids of any rank that drops negative ids (and, unless summing, non-positive
    weights) and gives empty rows the default_id's embedding (zeros if None)."""
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if hasattr(embedding_weights, "_get_variable_list"):
        embedding_weights = list(embedding_weights)
    if not isinstance(embedding_weights, (list, tuple)):
        embedding_weights = [embedding_weights]
    if not embedding_weights:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [ops.convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with ops.name_scope(name, "embedding_lookup", embedding_weights + [sparse_ids, sparse_weights]) as scope:
        original_shape = sparse_ids.dense_shape
        static_shape = sparse_ids.shape
        rank_dim = tensor_shape.dimension_value(sparse_ids.dense_shape.shape[0])
        rank = array_ops.size(original_shape) if rank_dim is None else rank_dim
        sparse_ids = sparse_reshape(sparse_ids, array_ops.stack([
            math_ops.reduce_prod(array_ops.slice(original_shape, [0], array_ops.reshape(rank - 1, [1]))),
            array_ops.gather(original_shape, rank - 1)]))
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
        valid = math_ops.greater_equal(sparse_ids.values, 0)
        if sparse_weights is not None:
            valid = math_ops.logical_and(valid, array_ops.ones_like(sparse_weights.values, dtype=dtypes.bool))
        sparse_ids, sparse_weights = _prune(sparse_ids, sparse_weights, valid)
        if combiner != "sum" and sparse_weights is not None:
            sparse_ids, sparse_weights = _prune(sparse_ids, sparse_weights,
                                                math_ops.greater(sparse_weights.values, 0))
        sparse_ids, is_row_empty = sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                                         partition_strategy=partition_strategy,
                                         name=None if default_id is None else scope, max_norm=max_norm)
        if default_id is None:
            is_row_empty = array_ops.tile(array_ops.reshape(is_row_empty, [-1, 1]),
                                          array_ops.stack([1, array_ops.shape(result)[1]]))
            result = array_ops.where(is_row_empty, array_ops.zeros_like(result), result, name=scope)
        final = array_ops.reshape(result, array_ops.concat([
            array_ops.slice(math_ops.cast(original_shape, dtypes.int32), [0], array_ops.reshape(rank - 1, [1])),
            array_ops.slice(array_ops.shape(result), [1], [-1])], 0))
        lead = None if rank_dim is None else rank_dim - 1
        final.set_shape(tensor_shape.unknown_shape(lead).concatenate(result.shape[1:]))
        if static_shape.ndims is not None:
            # TF's shape inference evaluates the constant target shape of the reshape above.
            final.set_shape(static_shape[:-1].concatenate(result.shape[1:]))
        return final
