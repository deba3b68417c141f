"""tf.estimator.classifier_parse_example_spec / regressor_parse_example_spec: the tf.io.parse_example spec of the
feature columns plus the label (and weight) features, for input_fns reading tf.Example records."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.feature_column import make_parse_example_spec, numeric_column
from edgelite.feature_column.dense_columns import NumericColumn
from edgelite.framework import dtypes
from edgelite.io import FixedLenFeature


def _with_label_and_weight(spec: dict, label_key: str, label_spec: Any, weight_column: Any) -> dict:
    if label_key in spec:
        raise ValueError(f"label should not be used as feature. label_key: {label_key}, features: {spec.keys()}")
    spec[label_key] = label_spec
    if weight_column is None:
        return spec
    if isinstance(weight_column, str):
        weight_column = numeric_column(weight_column)
    if not isinstance(weight_column, NumericColumn):
        raise ValueError("weight_column should be an instance of tf.feature_column.numeric_column. Given type: "
                         f"{type(weight_column)} value: {weight_column}")
    if weight_column.key in spec:
        raise ValueError(f"weight_column should not be used as feature. weight_column: {weight_column.key}, "
                         f"features: {spec.keys()}")
    spec.update(weight_column.parse_example_spec)
    return spec


def classifier_parse_example_spec(feature_columns: Any, label_key: str, label_dtype: Any = dtypes.int64,
                                  label_default: Any = None, weight_column: Any = None) -> dict:
    """The columns' spec plus label_key as FixedLenFeature((1,), label_dtype) (and the weight column's)."""
    return _with_label_and_weight(make_parse_example_spec(feature_columns), label_key,
                                  FixedLenFeature((1,), label_dtype, label_default), weight_column)


def regressor_parse_example_spec(feature_columns: Any, label_key: str, label_dtype: Any = dtypes.float32,
                                 label_default: Any = None, label_dimension: int = 1,
                                 weight_column: Optional[Any] = None) -> dict:
    """The columns' spec plus label_key as FixedLenFeature((label_dimension,), label_dtype) (and the weight's)."""
    return _with_label_and_weight(make_parse_example_spec(feature_columns), label_key,
                                  FixedLenFeature((label_dimension,), label_dtype, label_default), weight_column)
