"""Streaming counts of true/false positives/negatives for boolean predictions, and precision/recall from them."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops, state_ops
from edgelite.ops import variable_scope as vs

from .metric_utils import add_collections, as_float, metric_variable, squeeze_inputs

Collections = Optional[Sequence[str]]


def _count_condition(values: ops.Tensor, weights: Any, metrics_collections: Collections,
                     updates_collections: Collections) -> tuple:
    """(count, update_op) of a running (weighted) count of true elements of a bool tensor."""
    if values.dtype != dtypes.bool:
        raise TypeError(f"Expected bool values for a counting metric, got {values.dtype.name}")
    count = metric_variable([], dtypes.float32, name="count")
    values = as_float(values)
    if weights is not None:
        weights = ops.convert_to_tensor(weights)
        if weights.shape.ndims not in (None, 0, values.shape.ndims) and values.shape.ndims is not None:
            raise ValueError(f"weights must have rank 0 or {values.shape.ndims} (the rank of the values), "
                             f"got shape {weights.shape}")
        values = math_ops.multiply(values, as_float(weights))
    value = array_ops.identity(count)
    update = state_ops.assign_add(count, math_ops.reduce_sum(values))
    return add_collections(value, update, metrics_collections, updates_collections)


def _condition_metric(default_name: str, condition: Callable) -> Callable:
    """A metric function counting where condition(labels, predictions) holds, with TF's signature."""

    def metric(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Collections = None,
               updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
        with vs.variable_scope(name, default_name, (predictions, labels, weights)):
            predictions, labels, weights = squeeze_inputs(math_ops.cast(predictions, dtypes.bool),
                                                          math_ops.cast(labels, dtypes.bool), weights)
            return _count_condition(condition(labels, predictions), weights, metrics_collections,
                                    updates_collections)

    metric.__name__ = default_name
    metric.__doc__ = f"(count, update_op): running (weighted) number of {default_name.replace('_', ' ')}."
    return metric


def _both(lv: bool, pv: bool) -> Callable:
    return lambda labels, preds: math_ops.logical_and(math_ops.equal(labels, lv), math_ops.equal(preds, pv))


true_positives = _condition_metric("true_positives", _both(True, True))
false_positives = _condition_metric("false_positives", _both(False, True))
true_negatives = _condition_metric("true_negatives", _both(False, False))
false_negatives = _condition_metric("false_negatives", _both(True, False))


def _ratio(hits: ops.Tensor, misses: ops.Tensor, name: str) -> ops.Tensor:
    """hits / (hits + misses), 0 when both are 0."""
    return array_ops.where(math_ops.greater(hits + misses, 0), math_ops.divide(hits, hits + misses), 0, name)


def _ratio_metric(kind: str, labels: Any, predictions: Any, weights: Any, metrics_collections: Collections,
                  updates_collections: Collections, name: Optional[str]) -> tuple:
    """precision (tp against false positives) or recall (tp against false negatives) over running counts."""
    with vs.variable_scope(name, kind, (predictions, labels, weights)):
        predictions, labels, weights = squeeze_inputs(math_ops.cast(predictions, dtypes.bool),
                                                      math_ops.cast(labels, dtypes.bool), weights)
        tp, tp_up = true_positives(labels, predictions, weights)
        other = false_positives if kind == "precision" else false_negatives
        miss, miss_up = other(labels, predictions, weights)
        return add_collections(_ratio(tp, miss, "value"), _ratio(tp_up, miss_up, "update_op"), metrics_collections,
                               updates_collections)


def precision(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Collections = None,
              updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(precision, update_op): tp / (tp + fp) over the stream of boolean predictions."""
    return _ratio_metric("precision", labels, predictions, weights, metrics_collections, updates_collections, name)


def recall(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Collections = None,
           updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(recall, update_op): tp / (tp + fn) over the stream of boolean predictions."""
    return _ratio_metric("recall", labels, predictions, weights, metrics_collections, updates_collections, name)
