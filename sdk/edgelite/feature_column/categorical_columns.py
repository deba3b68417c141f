"""Categorical columns: features turned into sparse int64 bucket ids (identity, hash bucket, vocabulary list
or file, weighted, crossed), each id computed as TensorFlow computes it (FarmHash Fingerprint64 buckets)."""
from __future__ import annotations

import collections
from typing import Any, Optional, Sequence

from edgelite.framework import dtypes, ops
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.io.parsing_config import VarLenFeature
from edgelite.ops import array_ops, math_ops
from edgelite.ops.sparse_cross_ops import sparse_cross_hashed
from edgelite.ops.string_convert_ops import as_string, string_to_hash_bucket_fast
from edgelite.feature_column.feature_inputs import FeatureCache, to_sparse_input

IdWeightPair = collections.namedtuple("IdWeightPair", ["id_tensor", "weight_tensor"])


class CategoricalColumn:
    """Shared behaviour: the sparse ids come from transform_feature, without weights."""

    def get_sparse_tensors(self, cache: FeatureCache) -> IdWeightPair:
        return IdWeightPair(cache.get(self), None)

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: VarLenFeature(self.dtype)}


def _sparse_input(cache: FeatureCache, key: str, column_dtype: Any, need: str) -> SparseTensor:
    """The feature as a SparseTensor of valid entries, checked against the column's kind of dtype."""
    sparse = to_sparse_input(cache.get(key))
    dtype = sparse.dtype
    if need == "integer" and not dtype.is_integer:
        raise ValueError(f"Invalid input, not integer. key: {key} dtype: {dtype}")
    if need == "compatible" and (dtype == dtypes.string) != (column_dtype == dtypes.string):
        raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {key}, column dtype: "
                         f"{column_dtype}, tensor dtype: {dtype}")
    return sparse


def _with_values(sparse: SparseTensor, values: Any) -> SparseTensor:
    return SparseTensor(sparse.indices, values, sparse.dense_shape)


class IdentityCategoricalColumn(
        CategoricalColumn, collections.namedtuple("IdentityCategoricalColumn", ["key", "number_buckets",
                                                                                  "default_value"])):
    """Integer features used as ids directly; out-of-range ids become default_value when one is given."""

    dtype = dtypes.int64

    @property
    def name(self) -> str:
        return self.key

    @property
    def num_buckets(self) -> int:
        return self.number_buckets

    def transform_feature(self, cache: FeatureCache) -> SparseTensor:
        sparse = _sparse_input(cache, self.key, self.dtype, "integer")
        values = math_ops.cast(sparse.values, dtypes.int64)
        if self.default_value is not None:
            out_of_range = math_ops.logical_or(math_ops.less(values, 0),
                                               math_ops.greater_equal(values, self.number_buckets))
            values = array_ops.where(out_of_range, array_ops.fill(array_ops.shape(values),
                                                                  ops.convert_to_tensor(self.default_value,
                                                                                        dtypes.int64)), values)
        return _with_values(sparse, values)


def _as_strings(values: Any) -> Any:
    return values if values.dtype == dtypes.string else as_string(values)


class HashedCategoricalColumn(
        CategoricalColumn, collections.namedtuple("HashedCategoricalColumn", ["key", "hash_bucket_size", "dtype"])):
    """Ids as Fingerprint64(value as string) mod hash_bucket_size (TF's StringToHashBucketFast)."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def num_buckets(self) -> int:
        return self.hash_bucket_size

    def transform_feature(self, cache: FeatureCache) -> SparseTensor:
        sparse = _sparse_input(cache, self.key, self.dtype, "compatible")
        return _with_values(sparse, string_to_hash_bucket_fast(_as_strings(sparse.values), self.hash_bucket_size,
                                                               name="lookup"))


class VocabularyColumn(
        CategoricalColumn, collections.namedtuple("VocabularyColumn", ["key", "vocabulary", "dtype", "default_value",
                                                                       "num_oov_buckets", "vocabulary_file"])):
    """Ids as positions in a vocabulary; unknown values go to vocab_size + hash bucket (num_oov_buckets > 0) or to
    default_value (-1, which lookups drop)."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def num_buckets(self) -> int:
        return len(self.vocabulary) + self.num_oov_buckets

    def transform_feature(self, cache: FeatureCache) -> SparseTensor:
        sparse = _sparse_input(cache, self.key, self.dtype, "compatible")
        values = sparse.values
        if values.dtype.is_integer:
            values = math_ops.cast(values, dtypes.int64)
        with ops.name_scope(None, f"{self.key}_lookup", [values]):
            vocab = ops.convert_to_tensor(list(self.vocabulary), dtype=values.dtype)
            matches = math_ops.equal(array_ops.expand_dims(values, -1), vocab)
            found = math_ops.reduce_any(matches, axis=-1)
            positions = math_ops.argmax(math_ops.cast(matches, dtypes.int32), axis=-1, output_type=dtypes.int64)
            if self.num_oov_buckets > 0:
                missing = string_to_hash_bucket_fast(_as_strings(values), self.num_oov_buckets) + len(self.vocabulary)
            else:
                missing = array_ops.fill(array_ops.shape(values, out_type=dtypes.int64),
                                         ops.convert_to_tensor(self.default_value, dtypes.int64))
            return _with_values(sparse, array_ops.where(found, positions, missing))


class WeightedCategoricalColumn(
        CategoricalColumn, collections.namedtuple("WeightedCategoricalColumn", ["categorical_column",
                                                                                "weight_feature_key", "dtype"])):
    """A categorical column whose ids carry the float weights of another feature."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def num_buckets(self) -> int:
        return self.categorical_column.num_buckets

    @property
    def parse_example_spec(self) -> dict:
        spec = dict(self.categorical_column.parse_example_spec)
        if self.weight_feature_key in spec:
            raise ValueError(f"Parse config {spec[self.weight_feature_key]} already exists for "
                             f"{self.weight_feature_key}.")
        spec[self.weight_feature_key] = VarLenFeature(self.dtype)
        return spec

    def transform_feature(self, cache: FeatureCache) -> IdWeightPair:
        weights = to_sparse_input(cache.get(self.weight_feature_key), 0.0)
        if not weights.dtype.is_floating:
            weights = _with_values(weights, math_ops.cast(weights.values, dtypes.float32))
        return IdWeightPair(self.categorical_column.get_sparse_tensors(cache).id_tensor, weights)

    def get_sparse_tensors(self, cache: FeatureCache) -> IdWeightPair:
        return cache.get(self)


def _column_name(key: Any) -> str:
    return key if isinstance(key, str) else key.name


class CrossedColumn(
        CategoricalColumn, collections.namedtuple("CrossedColumn", ["keys", "hash_bucket_size", "hash_key"])):
    """Hashed crosses of string features and categorical columns (TF's SparseCrossHashed, FingerprintCat64)."""

    @property
    def name(self) -> str:
        return "_X_".join(sorted(_column_name(k) for k in self.keys))

    @property
    def num_buckets(self) -> int:
        return self.hash_bucket_size

    @property
    def parse_example_spec(self) -> dict:
        spec: dict = {}
        for key in self.keys:
            spec.update({key: VarLenFeature(dtypes.string)} if isinstance(key, str) else key.parse_example_spec)
        return spec

    def transform_feature(self, cache: FeatureCache) -> SparseTensor:
        inputs = []
        for key in self.keys:
            if isinstance(key, str):
                inputs.append(cache.get(key))
                continue
            pair = key.get_sparse_tensors(cache)
            if pair.weight_tensor is not None:
                raise ValueError("crossed_column does not support weight_tensor, but the given column populates "
                                 f"weight_tensor. Given column: {key.name}")
            inputs.append(pair.id_tensor)
        return sparse_cross_hashed(inputs, num_buckets=self.hash_bucket_size, hash_key=self.hash_key)


def _check_key(key: Any) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")


def _check_string_or_int(key: str, dtype: Any) -> Any:
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype == dtypes.string):
        raise ValueError(f"dtype must be string or integer. dtype: {dtype}, column_name: {key}")
    return dtype


def categorical_column_with_identity(key: str, num_buckets: int, default_value: Optional[int] = None) -> Any:
    """Integer feature values used as ids in [0, num_buckets)."""
    _check_key(key)
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and (default_value < 0 or default_value >= num_buckets):
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), column_name {key}")
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


def categorical_column_with_hash_bucket(key: str, hash_bucket_size: int, dtype: Any = dtypes.string) -> Any:
    """Feature values hashed into hash_bucket_size buckets."""
    _check_key(key)
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. column_name: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    return HashedCategoricalColumn(key, int(hash_bucket_size), _check_string_or_int(key, dtype))


def _vocabulary_column(key: str, vocabulary: tuple, dtype: Any, default_value: int, num_oov_buckets: int,
                       vocabulary_file: Optional[str]) -> Any:
    if num_oov_buckets:
        if default_value != -1:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    return VocabularyColumn(key, vocabulary, dtype, int(default_value), int(num_oov_buckets), vocabulary_file)


def categorical_column_with_vocabulary_list(key: str, vocabulary_list: Sequence[Any], dtype: Any = None,
                                            default_value: int = -1, num_oov_buckets: int = 0) -> Any:
    """Ids as positions in an in-memory vocabulary."""
    _check_key(key)
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: {key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: {key}")
    inferred = dtypes.string if isinstance(vocabulary_list[0], (str, bytes)) else dtypes.int64
    dtype = _check_string_or_int(key, inferred if dtype is None else dtype)
    if (dtype == dtypes.string) != (inferred == dtypes.string):
        raise ValueError(f"dtype {dtype} and vocabulary dtype {inferred} do not match, column_name: {key}")
    return _vocabulary_column(key, tuple(vocabulary_list), dtype, default_value, num_oov_buckets, None)


def categorical_column_with_vocabulary_file(key: str, vocabulary_file: str, vocabulary_size: Optional[int] = None,
                                            num_oov_buckets: int = 0, default_value: Optional[int] = None,
                                            dtype: Any = dtypes.string) -> Any:
    """Ids as line numbers in a vocabulary file (its first vocabulary_size lines)."""
    _check_key(key)
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    dtype = _check_string_or_int(key, dtype)
    with open(vocabulary_file, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f]
    if vocabulary_size is None:
        vocabulary_size = len(lines)
    elif vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    elif vocabulary_size > len(lines):
        raise ValueError(f"Invalid vocabulary_size in {key}: {vocabulary_size}, expected <= {len(lines)}")
    words = lines[:vocabulary_size]
    vocab = tuple(words) if dtype == dtypes.string else tuple(int(w) for w in words)
    return _vocabulary_column(key, vocab, dtype, -1 if default_value is None else default_value,
                              num_oov_buckets, vocabulary_file)


def weighted_categorical_column(categorical_column: Any, weight_feature_key: str, dtype: Any = dtypes.float32) -> Any:
    """categorical_column with per-id weights read from weight_feature_key."""
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


def crossed_column(keys: Sequence[Any], hash_bucket_size: int, hash_key: Optional[int] = None) -> Any:
    """Hashed crosses of the given string keys and categorical columns."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, CategoricalColumn)):
            raise ValueError(f"Unsupported key type. All keys must be either string, or categorical column except "
                             f"HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                             f"crossing will increase probability of collision. Instead, use the feature name as a "
                             f"string. Given: {key}")
    return CrossedColumn(tuple(keys), int(hash_bucket_size), hash_key)
