"""Metrics over confusion counts at a list of score thresholds: *_at_thresholds, auc,
sensitivity_at_specificity and specificity_at_sensitivity."""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from edgelite.framework import dtypes, errors, ops, tensor_util
from edgelite.ops import array_ops, math_ops, state_ops
from edgelite.ops.logging_ops import Assert
from edgelite.ops import variable_scope as vs

from .metric_utils import add_collections, as_float, broadcast_weights, metric_variable, squeeze_inputs

Collections = Optional[Sequence[str]]
_ALL = ("tp", "fn", "tn", "fp")
_VAR_NAMES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}
_EPSILON = 1e-7


def _static_range_check(predictions: ops.Tensor) -> None:
    """TF's assert_greater_equal/assert_less_equal fail at graph construction when the values are constant."""
    value = tensor_util.constant_value(predictions)
    if value is None:
        return
    for ok, sign, bound in ((np.all(value >= 0), ">=", 0.0), (np.all(value <= 1), "<=", 1.0)):
        if not ok:
            raise errors.InvalidArgumentError(
                None, None, f"predictions must be in [0, 1]\nCondition x {sign} y did not hold element-wise:\n"
                f"x ({predictions.name}) = \n{value}\ny = \n{bound}")


def confusion_at_thresholds(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any = None,
                            includes: Sequence[str] = _ALL) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(variables, update ops) keyed by 'tp'/'fn'/'tn'/'fp': per-threshold counts of predictions > threshold
    against boolean labels."""
    for key in includes:
        if key not in _ALL:
            raise ValueError(f"Invalid key: {key}")
    predictions = ops.convert_to_tensor(predictions)
    _static_range_check(predictions)
    in_range = [Assert(math_ops.reduce_all(cmp(predictions, math_ops.cast(bound, predictions.dtype))),
                       ["predictions must be in [0, 1]", f"Condition x {sign} y did not hold element-wise:",
                        f"x ({predictions.name}) = ", predictions, f"y ({bound}) = ", bound])
                for cmp, sign, bound in ((math_ops.greater_equal, ">=", 0.0), (math_ops.less_equal, "<=", 1.0))]
    with ops.control_dependencies(in_range):
        predictions, labels, weights = squeeze_inputs(as_float(predictions), math_ops.cast(labels, dtypes.bool),
                                                      weights)
    n = len(thresholds)
    preds_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtypes.bool), [1, -1])
    num_predictions = preds_2d.shape.as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(preds_2d)[0]
    thresh_tiled = array_ops.tile(array_ops.expand_dims(ops.convert_to_tensor(list(thresholds), dtypes.float32), 1),
                                  array_ops.stack([1, num_predictions]))
    preds_tiled = array_ops.tile(array_ops.transpose(preds_2d), [n, 1])
    pred_is_pos = math_ops.greater(preds_tiled, thresh_tiled)
    label_is_pos = array_ops.tile(labels_2d, [n, 1])
    label_is_neg = math_ops.logical_not(label_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = broadcast_weights(as_float(weights), predictions)
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [n, 1])
        thresh_tiled.shape.assert_is_compatible_with(weights_tiled.shape)
    conditions = {"tp": lambda: math_ops.logical_and(label_is_pos, pred_is_pos),
                  "fn": lambda: math_ops.logical_and(label_is_pos, math_ops.logical_not(pred_is_pos)),
                  "tn": lambda: math_ops.logical_and(label_is_neg, math_ops.logical_not(pred_is_pos)),
                  "fp": lambda: math_ops.logical_and(label_is_neg, pred_is_pos)}
    values, updates = {}, {}
    for key in _ALL:
        if key not in includes:
            continue
        var = metric_variable([n], dtypes.float32, name=_VAR_NAMES[key])
        hits = as_float(conditions[key]())
        if weights_tiled is not None:
            hits = hits * weights_tiled
        updates[key] = state_ops.assign_add(var, math_ops.reduce_sum(hits, 1))
        values[key] = var
    return values, updates


def _count_at_thresholds(key: str) -> Any:
    """The {true,false}_{positives,negatives}_at_thresholds function for one confusion cell."""
    scope = _VAR_NAMES[key]

    def metric(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any = None,
               metrics_collections: Collections = None, updates_collections: Collections = None,
               name: Optional[str] = None) -> tuple:
        with vs.variable_scope(name, scope, (predictions, labels, weights)):
            values, updates = confusion_at_thresholds(labels, predictions, thresholds, weights, (key,))
            return add_collections(array_ops.identity(values[key]), updates[key], metrics_collections,
                                   updates_collections)

    metric.__name__ = f"{scope}_at_thresholds"
    metric.__doc__ = f"(counts, update_op): running (weighted) {scope.replace('_', ' ')} for each threshold."
    return metric


true_positives_at_thresholds = _count_at_thresholds("tp")
false_negatives_at_thresholds = _count_at_thresholds("fn")
true_negatives_at_thresholds = _count_at_thresholds("tn")
false_positives_at_thresholds = _count_at_thresholds("fp")


def _rate_at_thresholds(kind: str, labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any,
                        metrics_collections: Collections, updates_collections: Collections,
                        name: Optional[str]) -> tuple:
    """precision tp / (tp + fp + 1e-7) or recall tp / (tp + fn + 1e-7) per threshold."""
    other = "fp" if kind == "precision" else "fn"
    with vs.variable_scope(name, f"{kind}_at_thresholds", (predictions, labels, weights)):
        v, u = confusion_at_thresholds(labels, predictions, thresholds, weights, ("tp", other))

        def compute(tp: Any, miss: Any, nm: str) -> ops.Tensor:
            return math_ops.divide(tp, _EPSILON + tp + miss, name=f"{kind}_{nm}")

        return add_collections(compute(v["tp"], v[other], "value"), compute(u["tp"], u[other], "update_op"),
                               metrics_collections, updates_collections)


def precision_at_thresholds(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any = None,
                            metrics_collections: Collections = None, updates_collections: Collections = None,
                            name: Optional[str] = None) -> tuple:
    """(precision, update_op): tp / (tp + fp + 1e-7) per threshold."""
    return _rate_at_thresholds("precision", labels, predictions, thresholds, weights, metrics_collections,
                               updates_collections, name)


def recall_at_thresholds(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any = None,
                         metrics_collections: Collections = None, updates_collections: Collections = None,
                         name: Optional[str] = None) -> tuple:
    """(recall, update_op): tp / (tp + fn + 1e-7) per threshold."""
    return _rate_at_thresholds("recall", labels, predictions, thresholds, weights, metrics_collections,
                               updates_collections, name)


def _even_thresholds(num_thresholds: int) -> list:
    """num_thresholds thresholds evenly spaced over [0, 1], the ends pushed just outside it."""
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]


def _interpolate_pr_auc(tp: Any, fp: Any, fn: Any, n: int) -> ops.Tensor:
    """PR AUC integrating precision over recall between thresholds (Davis & Goadrich interpolation)."""
    dtp = tp[:n - 1] - tp[1:]
    p = tp + fp
    slope = math_ops.div_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0), name="prec_slope")
    intercept = tp[1:] - math_ops.multiply(slope, p[1:])
    ratio = array_ops.where(math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
                            math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0), name="recall_relative_ratio"),
                            array_ops.ones_like(p[1:]))
    increments = math_ops.div_no_nan(slope * (dtp + intercept * math_ops.log(ratio)),
                                     math_ops.maximum(tp[1:] + fn[1:], 0), name="pr_auc_increment")
    return math_ops.reduce_sum(increments, name="interpolate_pr_auc")


def auc(labels: Any, predictions: Any, weights: Any = None, num_thresholds: int = 200,
        metrics_collections: Collections = None, updates_collections: Collections = None, curve: str = "ROC",
        name: Optional[str] = None, summation_method: str = "trapezoidal", thresholds: Any = None) -> tuple:
    """(auc, update_op): area under the ROC or PR curve from confusion counts at num_thresholds thresholds."""
    with vs.variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
            thresholds = [0.0 - _EPSILON] + list(thresholds) + [1.0 + _EPSILON]
        else:
            thresholds = _even_thresholds(num_thresholds)
        v, u = confusion_at_thresholds(labels, predictions, thresholds, weights)
        n = num_thresholds

        def compute(tp: Any, fn: Any, tn: Any, fp: Any, nm: str) -> ops.Tensor:
            if curve == "PR" and summation_method == "careful_interpolation":
                return _interpolate_pr_auc(tp, fp, fn, n)
            eps = 1.0e-6
            rec = math_ops.divide(tp + eps, tp + fn + eps)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + eps), rec
            else:
                x, y = rec, math_ops.divide(tp + eps, tp + fp + eps)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                heights = (y[:n - 1] + y[1:]) / 2.0
            elif summation_method == "minoring":
                heights = math_ops.minimum(y[:n - 1], y[1:])
            elif summation_method == "majoring":
                heights = math_ops.maximum(y[:n - 1], y[1:])
            else:
                raise ValueError(f"Invalid summation_method: {summation_method} summation_method should be "
                                 "'trapezoidal', 'careful_interpolation', 'minoring', or 'majoring'.")
            return math_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights), name=nm)

        return add_collections(compute(v["tp"], v["fn"], v["tn"], v["fp"], "value"),
                               compute(u["tp"], u["fn"], u["tn"], u["fp"], "update_op"),
                               metrics_collections, updates_collections)


def _check_rate(value: float, what: str, verb: str) -> None:
    if value < 0 or value > 1:
        raise ValueError(f"`{what}` must be in the range [0, 1]. Currently, `{what}` {verb} {value}.")


def sensitivity_at_specificity(labels: Any, predictions: Any, specificity: float, weights: Any = None,
                               num_thresholds: int = 200, metrics_collections: Collections = None,
                               updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(sensitivity, update_op): the recall at the threshold whose specificity is closest to `specificity`."""
    _check_rate(specificity, "specificity", "got")
    with vs.variable_scope(name, "sensitivity_at_specificity", (predictions, labels, weights)):
        v, u = confusion_at_thresholds(labels, predictions, _even_thresholds(num_thresholds), weights)

        def compute(tp: Any, tn: Any, fp: Any, fn: Any, nm: str) -> ops.Tensor:
            specificities = math_ops.divide(tn, tn + fp + _EPSILON)
            idx = math_ops.cast(math_ops.argmin(math_ops.abs(specificities - specificity), 0), dtypes.int32)
            return math_ops.divide(tp[idx], tp[idx] + fn[idx] + _EPSILON, nm)

        return add_collections(compute(v["tp"], v["tn"], v["fp"], v["fn"], "value"),
                               compute(u["tp"], u["tn"], u["fp"], u["fn"], "update_op"),
                               metrics_collections, updates_collections)


def specificity_at_sensitivity(labels: Any, predictions: Any, sensitivity: float, weights: Any = None,
                               num_thresholds: int = 200, metrics_collections: Collections = None,
                               updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(specificity, update_op): the specificity at the last threshold whose sensitivity is closest to
    `sensitivity`."""
    _check_rate(sensitivity, "sensitivity", "is")
    with vs.variable_scope(name, "specificity_at_sensitivity", (predictions, labels, weights)):
        v, u = confusion_at_thresholds(labels, predictions, _even_thresholds(num_thresholds), weights)

        def compute(tp: Any, tn: Any, fp: Any, fn: Any, nm: str) -> ops.Tensor:
            gap = math_ops.abs(math_ops.divide(tp, tp + fn + _EPSILON) - sensitivity)
            at_min = math_ops.cast(math_ops.equal(gap, math_ops.reduce_min(gap)), dtypes.int64)
            idx = math_ops.cast(math_ops.argmax(math_ops.cumsum(at_min), 0), dtypes.int32)
            return math_ops.divide(tn[idx], tn[idx] + fp[idx] + _EPSILON, nm)

        return add_collections(compute(v["tp"], v["tn"], v["fp"], v["fn"], "value"),
                               compute(u["tp"], u["tn"], u["fp"], u["fn"], "update_op"),
                               metrics_collections, updates_collections)
