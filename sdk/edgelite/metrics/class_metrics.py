"""Multi-class streaming metrics over class ids: mean_iou (a running confusion matrix) and
mean_per_class_accuracy."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, linalg_ops, math_ops, state_ops
from edgelite.ops.histogram_ops import confusion_matrix
from edgelite.ops import variable_scope as vs

from .metric_utils import add_collections, as_float, metric_variable

Collections = Optional[Sequence[str]]


def _flat(x: Optional[ops.Tensor]) -> Optional[ops.Tensor]:
    """x reshaped to a vector when its rank is above one."""
    if x is not None and x.shape.ndims is not None and x.shape.ndims > 1:
        return array_ops.reshape(x, [-1])
    return x


def mean_iou(labels: Any, predictions: Any, num_classes: int, weights: Any = None,
             metrics_collections: Collections = None, updates_collections: Collections = None,
             name: Optional[str] = None) -> tuple:
    """(mean_iou, update_op): mean over classes of TP / (TP + FP + FN) from a running confusion matrix; the
    update op returns the updated matrix."""
    with vs.variable_scope(name, "mean_iou", (predictions, labels, weights)):
        labels, predictions = ops.convert_to_tensor(labels), ops.convert_to_tensor(predictions)
        predictions.shape.assert_is_compatible_with(labels.shape)
        total_cm = metric_variable([num_classes, num_classes], dtypes.float64, name="total_confusion_matrix")
        predictions = _flat(math_ops.cast(predictions, dtypes.int64))
        labels = _flat(math_ops.cast(labels, dtypes.int64))
        weights = _flat(None if weights is None else ops.convert_to_tensor(weights))
        batch_cm = confusion_matrix(labels, predictions, num_classes, weights=weights, dtype=dtypes.float64)
        update = state_ops.assign_add(total_cm, batch_cm)
        sum_over_row = as_float(math_ops.reduce_sum(total_cm, 0))
        sum_over_col = as_float(math_ops.reduce_sum(total_cm, 1))
        diag = as_float(linalg_ops.matrix_diag_part(total_cm))
        denominator = sum_over_row + sum_over_col - diag
        num_valid = math_ops.reduce_sum(as_float(math_ops.not_equal(denominator, 0)))
        denominator = array_ops.where(math_ops.greater(denominator, 0), denominator,
                                      array_ops.ones_like(denominator))
        iou = math_ops.divide(diag, denominator)
        value = array_ops.where(math_ops.greater(num_valid, 0),
                                math_ops.reduce_sum(iou, name="mean_iou") / num_valid, 0)
        return add_collections(value, update, metrics_collections, updates_collections)


def mean_per_class_accuracy(labels: Any, predictions: Any, num_classes: int, weights: Any = None,
                            metrics_collections: Collections = None, updates_collections: Collections = None,
                            name: Optional[str] = None) -> tuple:
    """(mean_accuracy, update_op): mean over classes of the running per-class accuracy; the update op returns the
    per-class accuracies."""
    with vs.variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = _flat(math_ops.cast(labels, dtypes.int64))
        predictions = _flat(ops.convert_to_tensor(predictions))
        weights = _flat(None if weights is None else ops.convert_to_tensor(weights))
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones = array_ops.ones(array_ops.reshape(array_ops.size(labels), [1]), dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = as_float(math_ops.equal(predictions, labels))
        if weights is not None:
            weights = as_float(weights)
            ones = math_ops.multiply(ones, weights)
            is_correct = math_ops.multiply(is_correct, weights)
        update_total = state_ops.scatter_add(total, labels, ones)
        update_count = state_ops.scatter_add(count, labels, is_correct)
        per_class = math_ops.div_no_nan(count, math_ops.maximum(total, 0))
        value = math_ops.reduce_mean(per_class, name="mean_accuracy")
        update = math_ops.div_no_nan(update_count, math_ops.maximum(update_total, 0), name="update_op")
        return add_collections(value, update, metrics_collections, updates_collections)
