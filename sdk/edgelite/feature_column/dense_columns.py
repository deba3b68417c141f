"""Dense columns: numeric values, bucketized values (also usable as ids), one-hot indicators and embeddings,
each giving the [batch, ...] float32 tensor input_layer concatenates."""
from __future__ import annotations

import collections
import math
from typing import Any, Callable, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.io.parsing_config import FixedLenFeature
from edgelite.nn.embedding_sparse_ops import safe_embedding_lookup_sparse
from edgelite.ops import array_ops, init_ops, math_ops, variable_scope
from edgelite.ops.bucketize_op import bucketize
from edgelite.ops.sparse_to_dense import sparse_tensor_to_dense
from edgelite.feature_column.categorical_columns import CategoricalColumn, IdWeightPair
from edgelite.feature_column.feature_inputs import FeatureCache


class DenseColumn:
    """Marker base: columns input_layer accepts."""


class NumericColumn(DenseColumn, collections.namedtuple("NumericColumn", ["key", "shape", "default_value", "dtype",
                                                                          "normalizer_fn"])):
    """A real-valued feature of a fixed shape, normalized then cast to float32."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

    @property
    def variable_shape(self) -> tuple:
        return self.shape

    def transform_feature(self, cache: FeatureCache) -> ops.Tensor:
        value = cache.get(self.key)
        if isinstance(value, SparseTensor):
            raise ValueError(f"The corresponding Tensor of numerical column must be a Tensor. SparseTensor is not "
                             f"supported. key: {self.key}")
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        return math_ops.cast(value, dtypes.float32)

    def get_dense_tensor(self, cache: FeatureCache, state: "ColumnState") -> ops.Tensor:
        return cache.get(self)


class BucketizedColumn(DenseColumn, CategoricalColumn,
                       collections.namedtuple("BucketizedColumn", ["source_column", "boundaries"])):
    """A numeric column's values as bucket indices: one-hot when dense, ids offset per element when sparse."""

    @property
    def name(self) -> str:
        return f"{self.source_column.name}_bucketized"

    @property
    def parse_example_spec(self) -> dict:
        return self.source_column.parse_example_spec

    @property
    def variable_shape(self) -> tuple:
        return tuple(self.source_column.shape) + (len(self.boundaries) + 1,)

    @property
    def num_buckets(self) -> int:
        return int(np.prod(self.source_column.shape)) * (len(self.boundaries) + 1)

    def transform_feature(self, cache: FeatureCache) -> ops.Tensor:
        return bucketize(cache.get(self.source_column), self.boundaries)

    def get_dense_tensor(self, cache: FeatureCache, state: "ColumnState") -> ops.Tensor:
        return array_ops.one_hot(cache.get(self), len(self.boundaries) + 1, on_value=1.0, off_value=0.0)

    def get_sparse_tensors(self, cache: FeatureCache) -> IdWeightPair:
        buckets = cache.get(self)
        batch = array_ops.shape(buckets)[0]
        width = int(np.prod(self.source_column.shape))
        rows = array_ops.reshape(array_ops.tile(array_ops.expand_dims(math_ops.range(batch), 1), [1, width]), [-1])
        cols = array_ops.tile(math_ops.range(width), [batch])
        ids = array_ops.reshape(buckets, [-1]) + (len(self.boundaries) + 1) * cols
        indices = math_ops.cast(array_ops.transpose(array_ops.stack([rows, cols])), dtypes.int64)
        shape = math_ops.cast(array_ops.stack([batch, width]), dtypes.int64)
        return IdWeightPair(SparseTensor(indices, math_ops.cast(ids, dtypes.int64), shape), None)


class IndicatorColumn(DenseColumn, collections.namedtuple("IndicatorColumn", ["categorical_column"])):
    """A multi-hot [batch, num_buckets] count (or weight sum) of a categorical column's ids."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_indicator"

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self) -> tuple:
        return (self.categorical_column.num_buckets,)

    def transform_feature(self, cache: FeatureCache) -> ops.Tensor:
        from edgelite.feature_column.sequence_columns import refuse_sequence_input

        refuse_sequence_input("indicator_column", self)
        pair = self.categorical_column.get_sparse_tensors(cache)
        depth = self.categorical_column.num_buckets
        if pair.weight_tensor is not None:
            ids = pair.id_tensor
            rows = array_ops.slice(ids.indices, [0, 0], [-1, 1])
            indices = array_ops.concat([rows, array_ops.expand_dims(ids.values, 1)], 1)
            shape = array_ops.stack([ids.dense_shape[0], ops.convert_to_tensor(depth, dtypes.int64)])
            return array_ops.scatter_nd(indices, pair.weight_tensor.values, shape)
        dense_ids = sparse_tensor_to_dense(pair.id_tensor, default_value=-1)
        one_hot = array_ops.one_hot(dense_ids, depth, on_value=1.0, off_value=0.0)
        return math_ops.reduce_sum(one_hot, axis=[-2])

    def get_dense_tensor(self, cache: FeatureCache, state: "ColumnState") -> ops.Tensor:
        return cache.get(self)


class ColumnState:
    """Where a layer wants a column's variables: trainable flag, collections, and the cols_to_vars record."""

    def __init__(self, trainable: bool, collections: Optional[list], cols_to_vars: Optional[dict]) -> None:
        self.trainable, self.collections, self.cols_to_vars = trainable, collections, cols_to_vars

    def get_variable(self, column: Any, name: str, shape: list, initializer: Any, trainable: bool = True) -> Any:
        var = variable_scope.get_variable(name, shape=shape, dtype=dtypes.float32, initializer=initializer,
                                          trainable=self.trainable and trainable, collections=self.collections)
        if self.cols_to_vars is not None:
            self.cols_to_vars.setdefault(column, []).append(var)
        return var


class _EmbeddingOfCategorical(DenseColumn):
    """What embedding columns share: their input is the categorical column's ids, their output `dimension` wide."""

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self) -> tuple:
        return (self.dimension,)

    def transform_feature(self, cache: FeatureCache) -> IdWeightPair:
        return self.categorical_column.get_sparse_tensors(cache)


class EmbeddingColumn(_EmbeddingOfCategorical, collections.namedtuple("EmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from", "tensor_name_in_ckpt",
        "max_norm", "trainable"])):
    """A [num_buckets, dimension] table looked up with the categorical ids and combined per example."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_embedding"

    def table(self, state: ColumnState) -> Any:
        """The [num_buckets, dimension] embedding variable (warm-started from ckpt_to_load_from if given)."""
        weights = state.get_variable(self, "embedding_weights",
                                     [self.categorical_column.num_buckets, self.dimension], self.initializer,
                                     self.trainable)
        if self.ckpt_to_load_from is not None:
            from edgelite.train.checkpoint_utils import init_from_checkpoint

            init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: weights})
        return weights

    def get_dense_tensor(self, cache: FeatureCache, state: ColumnState) -> ops.Tensor:
        from edgelite.feature_column.sequence_columns import refuse_sequence_input

        refuse_sequence_input("embedding_column", self)
        pair = cache.get(self)
        return safe_embedding_lookup_sparse(self.table(state), pair.id_tensor, pair.weight_tensor,
                                            combiner=self.combiner, name=f"{self.name}_weights",
                                            max_norm=self.max_norm)


class SharedEmbeddingColumn(_EmbeddingOfCategorical, collections.namedtuple("SharedEmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer", "shared_embedding_collection_name",
        "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm", "trainable"])):
    """An embedding whose table is shared by several columns: made once, then found in the graph collection
    named shared_embedding_collection_name."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def scope_name(self) -> str:
        return self.shared_embedding_collection_name

    def table(self, state: ColumnState) -> Any:
        """The shared [num_buckets, dimension] variable: made by the first column, then read from the collection."""
        shape = [self.categorical_column.num_buckets, self.dimension]
        shared = ops.get_collection(self.shared_embedding_collection_name)
        if len(shared) > 1:
            raise ValueError(f"Collection {self.shared_embedding_collection_name} can only contain one variable. "
                             f"Suggested fix A: Choose a unique name for this collection. Suggested fix B: Do not "
                             f"add any variables to this collection. The feature_column library already adds a "
                             f"variable under the hood.")
        if shared:
            weights = shared[0]
            if weights.get_shape().as_list() != shape:
                raise ValueError(f"Shared embedding collection {self.shared_embedding_collection_name} contains "
                                 f"variable {weights} of unexpected shape {weights.get_shape()}. Expected shape is "
                                 f"{tuple(shape)}. Suggested fix A: Choose a unique name for this collection. "
                                 f"Suggested fix B: Do not add any variables to this collection. The feature_column "
                                 f"library already adds a variable under the hood.")
        else:
            weights = state.get_variable(self, "embedding_weights", shape, self.initializer, self.trainable)
            ops.add_to_collection(self.shared_embedding_collection_name, weights)
            if self.ckpt_to_load_from is not None:
                from edgelite.train.checkpoint_utils import init_from_checkpoint

                init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: weights})
        return weights

    def get_dense_tensor(self, cache: FeatureCache, state: ColumnState) -> ops.Tensor:
        pair = cache.get(self)
        return safe_embedding_lookup_sparse(self.table(state), pair.id_tensor, pair.weight_tensor,
                                            combiner=self.combiner, name=f"{self.name}_weights",
                                            max_norm=self.max_norm)


def _default_value(key: str, shape: tuple, default_value: Any, dtype: Any) -> Any:
    if default_value is None:
        return None
    array = np.asarray(default_value)
    if array.dtype.kind not in "iufb":
        raise TypeError(f"default_value must be compatible with dtype. default_value: {default_value}, dtype: "
                        f"{dtype}, key: {key}")
    if array.ndim == 0:
        array = np.full(shape, array)
    if array.shape != tuple(shape):
        raise ValueError(f"The shape of default_value must be equal to given shape. default_value: "
                         f"{default_value}, shape: {shape}, key: {key}")
    return array.astype(dtype.as_numpy_dtype).tolist() if array.ndim > 1 else tuple(
        array.astype(dtype.as_numpy_dtype).tolist())


def numeric_column(key: str, shape: Any = (1,), default_value: Any = None, dtype: Any = dtypes.float32,
                   normalizer_fn: Optional[Callable] = None) -> NumericColumn:
    """A real-valued feature of the given per-example shape."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    if any(d < 1 for d in shape):
        raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return NumericColumn(key, shape, _default_value(key, shape, default_value, dtype), dtype, normalizer_fn)


def bucketized_column(source_column: Any, boundaries: Sequence[float]) -> BucketizedColumn:
    """source_column's values replaced by the index of the boundary interval they fall in."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: {source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must be a sorted list.")
    if any(boundaries[i] >= boundaries[i + 1] for i in range(len(boundaries) - 1)):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(float(b) for b in boundaries))


def indicator_column(categorical_column: Any) -> IndicatorColumn:
    """A multi-hot view of a categorical column."""
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: {categorical_column}")
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column: Any, dimension: int, combiner: str = "mean", initializer: Any = None,
                     ckpt_to_load_from: Optional[str] = None, tensor_name_in_ckpt: Optional[str] = None,
                     max_norm: Optional[float] = None, trainable: bool = True,
                     use_safe_embedding_lookup: bool = True) -> EmbeddingColumn:
    """A learned dimension-wide embedding of a categorical column (truncated normal, stddev 1/sqrt(dimension))."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    initializer = _embedding_initializer(initializer, ckpt_to_load_from, tensor_name_in_ckpt, dimension,
                                         f"Embedding of column_name: {categorical_column.name}")
    return EmbeddingColumn(categorical_column, int(dimension), combiner, initializer, ckpt_to_load_from,
                           tensor_name_in_ckpt, max_norm, trainable)


def _embedding_initializer(initializer: Any, ckpt_to_load_from: Any, tensor_name_in_ckpt: Any, dimension: int,
                           what: str) -> Any:
    """The checked initializer: a callable, or truncated normal with stddev 1/sqrt(dimension)."""
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. {what}")
    if initializer is None:
        initializer = init_ops.TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
    return initializer


def _base_type(column: Any) -> type:
    return type(getattr(column, "categorical_column", column))


def shared_embedding_columns(categorical_columns: Sequence[Any], dimension: int, combiner: str = "mean",
                             initializer: Any = None, shared_embedding_collection_name: Optional[str] = None,
                             ckpt_to_load_from: Optional[str] = None, tensor_name_in_ckpt: Optional[str] = None,
                             max_norm: Optional[float] = None, trainable: bool = True,
                             use_safe_embedding_lookup: bool = True) -> list:
    """One embedding column per categorical column, all looking up the same [num_buckets, dimension] table."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    initializer = _embedding_initializer(initializer, ckpt_to_load_from, tensor_name_in_ckpt, dimension,
                                         "Embedding of column_name: shared_embedding_columns")
    columns = list(categorical_columns)
    for column in columns:
        if not isinstance(column, CategoricalColumn):
            raise ValueError(f"All categorical_columns must be subclasses of _CategoricalColumn. Given: {column}, "
                             f"of type: {type(column)}")
    first = columns[0]
    for column in columns[1:]:
        if _base_type(column) is not _base_type(first):
            raise ValueError(f"To use shared_embedding_column, all categorical_columns must have the same type, or "
                             f"be weighted_categorical_column or sequence column of the same type. Given column: "
                             f"{first} of type: {type(first)} does not match given column: {column} of type: "
                             f"{type(column)}")
        if column.num_buckets != first.num_buckets:
            raise ValueError(f"To use shared_embedding_column, all categorical_columns must have the same number "
                             f"of buckets. ven column: {first} with buckets: {first.num_buckets} does  not match "
                             f"column: {column} with buckets: {column.num_buckets}")
    if not shared_embedding_collection_name:
        shared_embedding_collection_name = "_".join(sorted(c.name for c in columns)) + "_shared_embedding"
    return [SharedEmbeddingColumn(c, int(dimension), combiner, initializer, shared_embedding_collection_name,
                                  ckpt_to_load_from, tensor_name_in_ckpt, max_norm, trainable) for c in columns]
