"""Streaming means: mean, mean_tensor, accuracy and the error/distance metrics built on mean."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops, state_ops
from edgelite.ops import variable_scope as vs

from .metric_utils import add_collections, as_float, broadcast_weights, metric_variable, squeeze_inputs
from .metric_utils import remove_squeezable_dimensions

Collections = Optional[Sequence[str]]


def mean(values: Any, weights: Any = None, metrics_collections: Collections = None,
         updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(mean_value, update_op): running (weighted) mean of values across update_op runs."""
    with vs.variable_scope(name, "mean", (values, weights)):
        values = as_float(values)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = as_float(array_ops.size(values))
        else:
            values, _, weights = squeeze_inputs(values, None, weights)
            weights = broadcast_weights(as_float(weights), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total = state_ops.assign_add(total, math_ops.reduce_sum(values))
        with ops.control_dependencies([values]):
            update_count = state_ops.assign_add(count, num_values)
        value = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        update = math_ops.div_no_nan(update_total, math_ops.maximum(update_count, 0), name="update_op")
        return add_collections(value, update, metrics_collections, updates_collections)


def mean_tensor(values: Any, weights: Any = None, metrics_collections: Collections = None,
                updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(mean, update_op): running elementwise mean of a fixed-shape tensor."""
    with vs.variable_scope(name, "mean", (values, weights)):
        values = as_float(values)
        total = metric_variable(values.shape, dtypes.float32, name="total_tensor")
        count = metric_variable(values.shape, dtypes.float32, name="count_tensor")
        num_values = array_ops.ones_like(values)
        if weights is not None:
            values, _, weights = squeeze_inputs(values, None, weights)
            weights = broadcast_weights(as_float(weights), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total = state_ops.assign_add(total, values)
        with ops.control_dependencies([values]):
            update_count = state_ops.assign_add(count, num_values)

        def compute(t: Any, c: Any, nm: str) -> ops.Tensor:
            return math_ops.div_no_nan(t, math_ops.maximum(c, 0), name=nm)

        return add_collections(compute(total, count, "value"), compute(update_total, update_count, "update_op"),
                               metrics_collections, updates_collections)


def accuracy(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Collections = None,
             updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(accuracy, update_op): running fraction of predictions equal to labels."""
    predictions, labels, weights = squeeze_inputs(predictions, labels, weights)
    if labels.dtype != predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = as_float(math_ops.equal(predictions, labels))
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_absolute_error(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Collections = None,
                        updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """Running mean of |predictions - labels|."""
    predictions, labels, weights = squeeze_inputs(predictions, labels, weights)
    errors = math_ops.abs(predictions - labels)
    return mean(errors, weights, metrics_collections, updates_collections, name or "mean_absolute_error")


def mean_squared_error(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Collections = None,
                       updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """Running mean of (labels - predictions)^2."""
    predictions, labels, weights = squeeze_inputs(predictions, labels, weights)
    errors = math_ops.squared_difference(labels, predictions)
    return mean(errors, weights, metrics_collections, updates_collections, name or "mean_squared_error")


def root_mean_squared_error(labels: Any, predictions: Any, weights: Any = None,
                            metrics_collections: Collections = None, updates_collections: Collections = None,
                            name: Optional[str] = None) -> tuple:
    """Square root of the running mean squared error."""
    predictions, labels, weights = squeeze_inputs(predictions, labels, weights)
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None,
                                         name or "root_mean_squared_error")
    return add_collections(math_ops.sqrt(mse), math_ops.sqrt(update_mse), metrics_collections,
                           updates_collections)


def mean_relative_error(labels: Any, predictions: Any, normalizer: Any, weights: Any = None,
                        metrics_collections: Collections = None, updates_collections: Collections = None,
                        name: Optional[str] = None) -> tuple:
    """Running mean of |labels - predictions| / normalizer (0 where the normalizer is 0)."""
    predictions, labels, weights = squeeze_inputs(predictions, labels, weights)
    predictions, normalizer = remove_squeezable_dimensions(predictions, ops.convert_to_tensor(normalizer))
    predictions.shape.assert_is_compatible_with(normalizer.shape)
    relative = array_ops.where(math_ops.equal(normalizer, 0.0), array_ops.zeros_like(labels),
                               math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(relative, weights, metrics_collections, updates_collections, name or "mean_relative_error")


def mean_cosine_distance(labels: Any, predictions: Any, dim: int, weights: Any = None,
                         metrics_collections: Collections = None, updates_collections: Collections = None,
                         name: Optional[str] = None) -> tuple:
    """1 - running mean of sum(labels * predictions, dim) (inputs are expected to be unit vectors)."""
    predictions, labels, weights = squeeze_inputs(predictions, labels, weights)
    radial = math_ops.reduce_sum(math_ops.multiply(predictions, labels), axis=[dim], keepdims=True)
    value, update = mean(radial, weights, None, None, name or "mean_cosine_distance")
    return add_collections(math_ops.subtract(1.0, value), math_ops.subtract(1.0, update), metrics_collections,
                           updates_collections)


def percentage_below(values: Any, threshold: Any, weights: Any = None, metrics_collections: Collections = None,
                     updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """Running fraction of values below threshold."""
    is_below = as_float(math_ops.less(values, threshold))
    return mean(is_below, weights, metrics_collections, updates_collections, name or "percentage_below_threshold")
