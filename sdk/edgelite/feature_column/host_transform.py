"""Feature columns split for a converted model: the categorical transforms on the host, the rest on the device.

TFLite has no builtins for string hashing, vocabulary lookups, crosses or the sparse lookups of indicator and
embedding columns. HostTransform computes each categorical column's ids on the host, exactly as input_layer
does (same kernels: Fingerprint64 buckets, FingerprintCat64 crosses, vocabulary positions and OOV buckets), and
hands them over as dense [batch, width] int64 arrays padded with -1 (plus float32 weights for weighted columns).
Its input_layer and linear_model build, from those arrays, what feature_column.input_layer / linear_model give,
through the same layer code (layers.dense_layer / linear_layer: the same variable names, so a training checkpoint
restores) with only ops the converter turns into TFLite builtins (GATHER, ONE_HOT, sums and products; numeric
and bucketized columns as before).
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from edgelite.client.session import Session
from edgelite.framework import dtypes, ops
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops, math_ops, variable_scope
from edgelite.feature_column.categorical_columns import CategoricalColumn
from edgelite.feature_column.dense_columns import (
    BucketizedColumn, ColumnState, EmbeddingColumn, IndicatorColumn, NumericColumn, SharedEmbeddingColumn,
)
from edgelite.feature_column.feature_inputs import FeatureCache
from edgelite.feature_column.layers import (
    _normalize, _with_global, dense_columns_only, dense_layer, linear_columns, linear_layer,
)

_TINY = np.float32(1e-30)  # divides empty rows' zero sums by something other than zero


def _categorical(column: Any) -> Optional[Any]:
    """The categorical column whose ids the host computes for column (an indicator/embedding column's, or a
    linear_model categorical column itself); None for numeric and bucketized columns, which the model computes."""
    if isinstance(column, (IndicatorColumn, EmbeddingColumn, SharedEmbeddingColumn)):
        return column.categorical_column
    if isinstance(column, (NumericColumn, BucketizedColumn)):
        return None
    if isinstance(column, CategoricalColumn):
        return column
    raise ValueError(f"HostTransform takes numeric, bucketized, categorical, indicator and (shared) embedding "
                     f"columns. Given: {column}")


def _densify(value: Any, fill: Any, dtype: Any, width: Optional[int], name: str) -> np.ndarray:
    """A 2-D SparseTensorValue as a dense [rows, width] array with fill where it has no entry."""
    if len(value.dense_shape) != 2:
        raise ValueError(f"HostTransform needs 2-D ids for {name}; got dense_shape {list(value.dense_shape)}")
    rows, cols = (int(d) for d in value.dense_shape)
    if width is not None:
        if cols > width:
            raise ValueError(f"{name} has {cols} ids in a row, more than its width {width}")
        cols = width
    out = np.full((rows, cols), fill, dtype)
    out[value.indices[:, 0], value.indices[:, 1]] = value.values
    return out


class HostTransform:
    """input_layer / linear_model(features, feature_columns) cut in two: transform() on the host, input_layer()
    or linear_model() in the model.

    transform(raw features) returns, by input name, what the converted model is fed: `<column>_ids` (int64
    [batch, width], -1 = no id) for every categorical column, `<column>_weights` (float32) for weighted ones, and
    the raw features of numeric and bucketized columns, unchanged."""

    def __init__(self, feature_columns: Any) -> None:
        self.columns = _normalize(feature_columns)
        self._categorical: Dict[str, Any] = {}
        self._numeric: Dict[str, Any] = {}
        for column in self.columns:
            cat = _categorical(column)
            if cat is None:
                source = column.source_column if isinstance(column, BucketizedColumn) else column
                self._numeric[source.key] = source
            else:
                self._categorical[cat.name] = cat

    def transform(self, features: Dict[str, Any], widths: Optional[Dict[str, int]] = None) -> Dict[str, np.ndarray]:
        """The model's inputs for raw features (numpy arrays or SparseTensorValues by key); widths pads the id
        arrays of the named inputs to a fixed width (a converted model's fixed input shape)."""
        widths = widths or {}
        fetches: Dict[str, Any] = {}
        with ops.Graph().as_default():
            cache = FeatureCache({k: _constant(v) for k, v in features.items()})
            for name, cat in self._categorical.items():
                pair = cat.get_sparse_tensors(cache)
                fetches[f"{name}_ids"] = pair.id_tensor
                if pair.weight_tensor is not None:
                    fetches[f"{name}_weights"] = pair.weight_tensor
            with Session() as sess:
                values = sess.run(fetches)
        # numeric features go as they are: the model applies normalizer_fn, the cast and the buckets itself
        out = {key: np.asarray(features[key]) for key in self._numeric}
        for name, value in values.items():
            if name.endswith("_ids"):
                out[name] = _densify(value, -1, np.int64, widths.get(name), name)
            else:
                out[name] = _densify(value, 0.0, np.float32, widths.get(name[:-len("_weights")] + "_ids"), name)
        return out

    def placeholders(self, example: Dict[str, np.ndarray]) -> Dict[str, ops.Tensor]:
        """A placeholder per model input, named after it, with the dtype and shape of example (transform's output)."""
        return {name: array_ops.placeholder(dtypes.as_dtype(value.dtype), value.shape, name=name)
                for name, value in example.items()}

    def input_layer(self, inputs: Dict[str, Any], weight_collections: Optional[list] = None,
                    trainable: bool = True) -> ops.Tensor:
        """feature_column.input_layer's [batch, n] output computed from transform()'s arrays, in the model."""
        columns = dense_columns_only(self.columns)
        state = ColumnState(trainable, _with_global(weight_collections), None)
        numeric = FeatureCache({k: inputs[k] for k in self._numeric})
        return dense_layer(columns, list(inputs.values()), self._dense_of(inputs, numeric), state)

    def linear_model(self, inputs: Dict[str, Any], units: int = 1, sparse_combiner: str = "sum",
                     weight_collections: Optional[list] = None, trainable: bool = True) -> ops.Tensor:
        """feature_column.linear_model's [batch, units] output computed from transform()'s arrays, in the model."""
        columns = linear_columns(self.columns, sparse_combiner)
        numeric = FeatureCache({k: inputs[k] for k in self._numeric})

        def categorical_sum(column: Any, weights: Any) -> ops.Tensor:
            if isinstance(column, BucketizedColumn):
                ids, id_weights = _bucket_ids(column, numeric), None
            else:
                ids, id_weights = self._ids(column, inputs)
            return _embedding(weights, ids, id_weights, sparse_combiner, None)

        state = ColumnState(trainable, _with_global(weight_collections), None)
        return linear_layer(columns, list(inputs.values()), self._dense_of(inputs, numeric), categorical_sum, units,
                            state)

    def _ids(self, column: Any, inputs: Dict[str, Any]) -> tuple:
        """The model's id input of a categorical column and its weight input (None unless weighted)."""
        weights = inputs.get(f"{column.name}_weights")
        return (ops.convert_to_tensor(inputs[f"{column.name}_ids"]),
                None if weights is None else ops.convert_to_tensor(weights))

    def _dense_of(self, inputs: Dict[str, Any], numeric: FeatureCache) -> Any:
        """dense_of for the layers: numeric and bucketized columns from the numeric inputs as usual, indicator and
        embedding columns from the id inputs."""
        def dense_of(column: Any, state: ColumnState) -> ops.Tensor:
            cat = _categorical(column)
            if cat is None:
                return column.get_dense_tensor(numeric, state)
            ids, weights = self._ids(cat, inputs)
            if isinstance(column, IndicatorColumn):
                return _multi_hot(ids, weights, cat.num_buckets)
            return _embedding(column.table(state), ids, weights, column.combiner, column.max_norm)
        return dense_of


def _bucket_ids(column: BucketizedColumn, numeric: FeatureCache) -> ops.Tensor:
    """A bucketized column's ids as linear_model looks them up: element k's bucket + k * (buckets per element)."""
    per_element = len(column.boundaries) + 1
    width = column.num_buckets // per_element
    buckets = array_ops.reshape(math_ops.cast(numeric.get(column), dtypes.int64), [-1, width])
    return buckets + per_element * math_ops.range(width, dtype=dtypes.int64)


def _constant(value: Any) -> Any:
    if hasattr(value, "indices") and hasattr(value, "dense_shape"):
        return SparseTensor(np.asarray(value.indices, np.int64), np.asarray(value.values),
                            np.asarray(value.dense_shape, np.int64))
    return ops.convert_to_tensor(np.asarray(value))


def _multi_hot(ids: ops.Tensor, weights: Any, depth: int) -> ops.Tensor:
    """indicator_column: per row, the count (or weight sum) of each id; -1 ids one-hot to zeros."""
    hot = array_ops.one_hot(ids, depth, on_value=1.0, off_value=0.0)
    if weights is not None:
        hot = hot * array_ops.expand_dims(ops.convert_to_tensor(weights), -1)
    return math_ops.reduce_sum(hot, axis=[1])


def _embedding(table: Any, ids: ops.Tensor, weights: Any, combiner: str, max_norm: Any) -> ops.Tensor:
    """safe_embedding_lookup_sparse on padded dense ids: ids < 0 (and, unless summing, weights <= 0) dropped,
    rows without ids zero, each looked-up vector clipped to max_norm."""
    valid = math_ops.greater_equal(ids, 0)
    w = array_ops.ones_like(ids, dtype=dtypes.float32) if weights is None else ops.convert_to_tensor(weights)
    if weights is not None and combiner != "sum":
        valid = math_ops.logical_and(valid, math_ops.greater(w, 0.0))
    w = w * math_ops.cast(valid, dtypes.float32)
    vectors = array_ops.gather(table, math_ops.maximum(ids, 0))
    if max_norm is not None:
        norm = math_ops.sqrt(math_ops.reduce_sum(vectors * vectors, axis=[-1], keepdims=True))
        vectors = vectors * max_norm / math_ops.maximum(norm, max_norm)
    total = math_ops.reduce_sum(vectors * array_ops.expand_dims(w, -1), axis=[1])
    if combiner == "mean":
        return total / math_ops.maximum(math_ops.reduce_sum(w, axis=[1], keepdims=True), _TINY)
    if combiner == "sqrtn":
        return total / math_ops.maximum(math_ops.sqrt(math_ops.reduce_sum(w * w, axis=[1], keepdims=True)), _TINY)
    return total
