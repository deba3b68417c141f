"""Sequence categorical columns (TF1 surface): a categorical column whose ids keep a per-step axis. TF1's
linear_model uses them like their base column; indicator and embedding columns over them are refused, as
TensorFlow refuses them outside Keras SequenceFeatures."""
from __future__ import annotations

import collections
from typing import Any

from edgelite.framework import dtypes
from edgelite.ops import array_ops, math_ops
from edgelite.ops.sparse_structure_ops import sparse_reshape
from edgelite.feature_column import categorical_columns as cc
from edgelite.feature_column.feature_inputs import FeatureCache


def _with_step_axis(sparse: Any) -> Any:
    """ids [batch, steps, ...] as [batch, steps, rest] so a lookup does not combine across steps."""
    if sparse is None:
        return None
    shape = sparse.dense_shape
    target = array_ops.stack([shape[0], shape[1], math_ops.reduce_prod(shape[2:])])
    return sparse_reshape(sparse, math_ops.cast(target, dtypes.int64))


class SequenceCategoricalColumn(cc.CategoricalColumn,
                                collections.namedtuple("SequenceCategoricalColumn", ["categorical_column"])):
    """A categorical column over sequence features: the same ids, with the step axis kept."""

    @property
    def name(self) -> str:
        return self.categorical_column.name

    @property
    def num_buckets(self) -> int:
        return self.categorical_column.num_buckets

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    def transform_feature(self, cache: FeatureCache) -> cc.IdWeightPair:
        pair = self.categorical_column.get_sparse_tensors(cache)
        return cc.IdWeightPair(_with_step_axis(pair.id_tensor), _with_step_axis(pair.weight_tensor))

    def get_sparse_tensors(self, cache: FeatureCache) -> cc.IdWeightPair:
        return cache.get(self)


def refuse_sequence_input(kind: str, column: Any) -> None:
    """TF's ValueError for an indicator/embedding column over a sequence column used by input_layer/linear_model."""
    inner = column.categorical_column
    if isinstance(inner, SequenceCategoricalColumn):
        raise ValueError(f"In {kind}: {column.name}. categorical_column must not be of type "
                         "_SequenceCategoricalColumn. Suggested fix A: If you wish to use DenseFeatures, use a "
                         "non-sequence categorical_column_with_*. Suggested fix B: If you wish to create sequence "
                         f"input, use SequenceFeatures instead of DenseFeatures. Given (type {type(inner)}): {inner!r}")


def sequence_categorical_column_with_identity(key: str, num_buckets: int, default_value: Any = None) -> Any:
    """categorical_column_with_identity over a sequence feature."""
    return SequenceCategoricalColumn(cc.categorical_column_with_identity(key, num_buckets, default_value))


def sequence_categorical_column_with_hash_bucket(key: str, hash_bucket_size: int, dtype: Any = dtypes.string) -> Any:
    """categorical_column_with_hash_bucket over a sequence feature."""
    return SequenceCategoricalColumn(cc.categorical_column_with_hash_bucket(key, hash_bucket_size, dtype))


def sequence_categorical_column_with_vocabulary_list(key: str, vocabulary_list: Any, dtype: Any = None,
                                                     default_value: int = -1, num_oov_buckets: int = 0) -> Any:
    """categorical_column_with_vocabulary_list over a sequence feature."""
    return SequenceCategoricalColumn(cc.categorical_column_with_vocabulary_list(
        key, vocabulary_list, dtype, default_value, num_oov_buckets))


def sequence_categorical_column_with_vocabulary_file(key: str, vocabulary_file: str, vocabulary_size: Any = None,
                                                     num_oov_buckets: int = 0, default_value: Any = None,
                                                     dtype: Any = dtypes.string) -> Any:
    """categorical_column_with_vocabulary_file over a sequence feature."""
    return SequenceCategoricalColumn(cc.categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, num_oov_buckets, default_value, dtype))


