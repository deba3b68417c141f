"""tf.keras.metrics classes over confusion counts at thresholds: Precision, Recall, AUC and the four counts
(TruePositives, ...), with Keras's update rule (predictions > threshold against boolean labels; for evenly spaced
thresholds, Keras's bucketed counting with labels as weights) and its AUC summations."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.metrics.threshold_metrics import _interpolate_pr_auc
from edgelite.nn import top_k as _top_k
from edgelite.ops import array_ops, control_flow_ops, math_ops

from . import backend
from .metric_objects import Metric, _broadcast_weights, _snake, _squeeze_or_expand

_EPSILON = 1e-7
_NEG_INF = -1e10


def _threshold_list(thresholds: Any, default: float) -> List[float]:
    values = [default] if thresholds is None else list(np.ravel(thresholds)) if \
        isinstance(thresholds, (list, tuple, np.ndarray)) else [thresholds]
    for t in values:
        if t is None or not 0 <= t <= 1 and t != _NEG_INF:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {t}")
    return [float(t) for t in values]


def _evenly_spaced(thresholds: Sequence[float]) -> bool:
    """Keras counts in buckets when the thresholds are i/(n-1) for i = 0 .. n-1."""
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=np.float32) / (n - 1)
    return bool(np.allclose(np.asarray(thresholds, np.float32), even, atol=_EPSILON))


def _keep_top_k(x: Any, k: int) -> Any:
    """x with every entry outside the k largest of its last axis set to -1e10."""
    _, indices = _top_k(x, k, sorted=False)
    mask = math_ops.reduce_sum(array_ops.one_hot(indices, array_ops.shape(x)[-1], dtype=x.dtype), axis=-2)
    return x * mask + _NEG_INF * (1.0 - mask)


def confusion_updates(counts: Dict[str, Any], y_true: Any, y_pred: Any, thresholds: Sequence[float],
                      evenly: bool = False, top_k: Optional[int] = None, class_id: Optional[int] = None,
                      sample_weight: Any = None) -> Any:
    """The op adding a batch's (weighted) tp/fp/tn/fn counts per threshold to the variables in `counts`.
    Predictions outside [0, 1] are counted, not refused: TF's graph-mode Keras metrics accept them too."""
    y_true = math_ops.cast(y_true, dtypes.float32)
    y_pred = math_ops.cast(y_pred, dtypes.float32)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight)
    y_pred, y_true, sample_weight = _squeeze_or_expand(y_pred, y_true, sample_weight)
    y_pred.shape.assert_is_compatible_with(y_true.shape)
    if top_k is not None:
        y_pred = _keep_top_k(y_pred, top_k)
    if class_id is not None:
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
    weights = None if sample_weight is None else \
        array_ops.reshape(_broadcast_weights(math_ops.cast(sample_weight, dtypes.float32), y_pred), [-1])
    preds = array_ops.reshape(y_pred, [-1])
    labels = array_ops.reshape(y_true, [-1])
    n = len(thresholds)
    if evenly:
        deltas = _bucketed_counts(labels, preds, n, weights)
    else:
        deltas = _tiled_counts(labels, preds, thresholds, weights)
    return control_flow_ops.group(*[var.assign_add(deltas[key]) for key, var in counts.items()])


def _tiled_counts(labels: Any, preds: Any, thresholds: Sequence[float], weights: Any) -> Dict[str, Any]:
    """Counts from a [thresholds, predictions] comparison grid, labels taken as booleans."""
    n = len(thresholds)
    pred_is_pos = math_ops.greater(array_ops.tile(array_ops.reshape(preds, [1, -1]), [n, 1]),
                                   array_ops.reshape(ops.convert_to_tensor(list(thresholds), dtypes.float32),
                                                     [n, 1]))
    label_is_pos = array_ops.tile(array_ops.reshape(math_ops.cast(labels, dtypes.bool), [1, -1]), [n, 1])
    label_is_neg, pred_is_neg = math_ops.logical_not(label_is_pos), math_ops.logical_not(pred_is_pos)
    cells = {"tp": (label_is_pos, pred_is_pos), "fp": (label_is_neg, pred_is_pos),
             "tn": (label_is_neg, pred_is_neg), "fn": (label_is_pos, pred_is_neg)}
    out = {}
    for key, (a, b) in cells.items():
        hits = math_ops.cast(math_ops.logical_and(a, b), dtypes.float32)
        if weights is not None:
            hits = hits * array_ops.reshape(weights, [1, -1])
        out[key] = math_ops.reduce_sum(hits, 1)
    return out


def _bucketed_counts(labels: Any, preds: Any, n: int, weights: Any) -> Dict[str, Any]:
    """Counts for thresholds i/(n-1): each prediction falls in bucket ceil(p (n-1)) - 1 and counts as positive
    for every threshold up to its bucket; labels (and 1 - labels) act as weights."""
    if weights is None:
        weights = array_ops.ones_like(preds)
    true_w, false_w = labels * weights, (1.0 - labels) * weights
    buckets = math_ops.cast(math_ops.maximum(math_ops.ceil(preds * (n - 1)) - 1.0, 0.0), dtypes.int32)

    def at_or_above(w: Any) -> Any:
        return math_ops.cumsum(math_ops.unsorted_segment_sum(w, buckets, n), reverse=True)

    tp, fp = at_or_above(true_w), at_or_above(false_w)
    return {"tp": tp, "fp": fp, "tn": math_ops.reduce_sum(false_w) - fp, "fn": math_ops.reduce_sum(true_w) - tp}


class _ThresholdCounts(Metric):
    """Variables for some of tp/fp/tn/fn per threshold, updated by confusion_updates. Without a name, each gets
    a unique one per graph ('precision', 'precision_1', ...), as Keras names these metrics."""

    def __init__(self, name: Optional[str] = None, dtype: Any = None) -> None:
        super().__init__(name=name or backend.unique_object_name(_snake(type(self).__name__), zero_based=True),
                         dtype=dtype)

    _cells: Sequence[str] = ()
    _names = {"tp": "true_positives", "fp": "false_positives", "tn": "true_negatives", "fn": "false_negatives"}

    def _make_counts(self, thresholds: List[float], evenly: bool) -> None:
        self.thresholds, self._evenly = thresholds, evenly
        self._counts = {key: self.add_weight(self._names[key], (len(thresholds),)) for key in self._cells}

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        """Adds one batch's counts."""
        return confusion_updates(self._counts, y_true, y_pred, self.thresholds, self._evenly,
                                 getattr(self, "top_k", None), getattr(self, "class_id", None), sample_weight)

    def _scalar_if_one(self, value: Any) -> Any:
        return value[0] if len(self.thresholds) == 1 else value


def _count_metric(class_name: str, cell: str) -> type:
    """TruePositives / FalsePositives / TrueNegatives / FalseNegatives: the (weighted) count per threshold."""
    def __init__(self: Any, thresholds: Any = None, name: Optional[str] = None, dtype: Any = None) -> None:
        _ThresholdCounts.__init__(self, name=name, dtype=dtype)
        values = _threshold_list(thresholds, 0.5)
        self._make_counts(values, _evenly_spaced(values))

    def result(self: Any) -> Any:
        return self._scalar_if_one(self._read(self._counts[cell]))

    return type(class_name, (_ThresholdCounts,), {"__init__": __init__, "result": result, "_cells": (cell,),
                                                   "__doc__": f"The {_ThresholdCounts._names[cell]} count per "
                                                              "threshold (0.5)."})


TruePositives = _count_metric("TruePositives", "tp")
FalsePositives = _count_metric("FalsePositives", "fp")
TrueNegatives = _count_metric("TrueNegatives", "tn")
FalseNegatives = _count_metric("FalseNegatives", "fn")


class _Rate(_ThresholdCounts):
    def __init__(self, thresholds: Any = None, top_k: Optional[int] = None, class_id: Optional[int] = None,
                 name: Optional[str] = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.top_k, self.class_id = top_k, class_id
        values = _threshold_list(thresholds, 0.5 if top_k is None else _NEG_INF)
        self._make_counts(values, _evenly_spaced(values))

    def result(self) -> Any:
        tp, other = self._read(self._counts["tp"]), self._read(self._counts[self._cells[1]])
        return self._scalar_if_one(math_ops.div_no_nan(tp, tp + other))

    def get_config(self) -> dict:
        return dict(super().get_config(), thresholds=self.thresholds if len(self.thresholds) > 1 else
                    self.thresholds[0], top_k=self.top_k, class_id=self.class_id)


class Precision(_Rate):
    """tp / (tp + fp) at each threshold (0.5), optionally among the top_k predictions or for one class_id."""

    _cells = ("tp", "fp")


class Recall(_Rate):
    """tp / (tp + fn) at each threshold (0.5), optionally among the top_k predictions or for one class_id."""

    _cells = ("tp", "fn")


# the spellings Keras accepts for each curve and summation method
_CURVES = {"ROC": "ROC", "roc": "ROC", "PR": "PR", "pr": "PR", "PR_GAIN": "PR_GAIN", "pr_gain": "PR_GAIN",
           "PRGAIN": "PR_GAIN", "prgain": "PR_GAIN"}
_SUMMATIONS = {"interpolation": "interpolation", "Interpolation": "interpolation", "minoring": "minoring",
               "Minoring": "minoring", "majoring": "majoring", "Majoring": "majoring"}


class AUC(_ThresholdCounts):
    """Area under the ROC, PR or PR-gain curve from counts at num_thresholds (200) evenly spaced thresholds, summed by
    'interpolation' (trapezoids; for PR, Davis & Goadrich's interpolation), 'minoring' or 'majoring'."""

    _cells = ("tp", "tn", "fp", "fn")

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC", summation_method: str = "interpolation",
                 name: Optional[str] = None, dtype: Any = None, thresholds: Any = None, multi_label: bool = False,
                 num_labels: Optional[int] = None, label_weights: Any = None, from_logits: bool = False) -> None:
        if multi_label or label_weights is not None:
            raise ValueError("multi_label=True and label_weights are not available in this AUC: it computes one "
                             "curve over the flattened labels and predictions")
        if curve not in _CURVES:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PR_GAIN"]')
        if summation_method not in _SUMMATIONS:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". Expected values are '
                             '["interpolation", "majoring", "minoring"]')
        curve, summation_method = _CURVES[curve], _SUMMATIONS[summation_method]
        super().__init__(name=name, dtype=dtype)
        self.curve, self.summation_method, self._from_logits = curve, summation_method, from_logits
        if thresholds is not None:
            inner = sorted(_threshold_list(thresholds, 0.5))
            self.num_thresholds = len(inner) + 2
            evenly = _evenly_spaced([0.0] + inner + [1.0])
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            evenly = True
        self._make_counts([0.0 - _EPSILON] + inner + [1.0 + _EPSILON], evenly)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        """Adds one batch's counts (predictions through a sigmoid first with from_logits)."""
        if self._from_logits:
            y_pred = math_ops.sigmoid(y_pred)
        return super().update_state(y_true, y_pred, sample_weight)

    def result(self) -> Any:
        c, n = {key: self._read(var) for key, var in self._counts.items()}, self.num_thresholds
        if self.curve == "PR" and self.summation_method == "interpolation":
            return _interpolate_pr_auc(c["tp"], c["fp"], c["fn"], n)
        recall = math_ops.div_no_nan(c["tp"], c["tp"] + c["fn"])
        if self.curve == "ROC":
            x, y = math_ops.div_no_nan(c["fp"], c["fp"] + c["tn"]), recall
        elif self.curve == "PR":
            x, y = recall, math_ops.div_no_nan(c["tp"], c["tp"] + c["fp"])
        else:
            x, y = self._gains(c)
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(y[:n - 1], y[1:])
        else:
            heights = math_ops.maximum(y[:n - 1], y[1:])
        return math_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights))

    @staticmethod
    def _gains(c: Dict[str, Any]) -> tuple:
        """(recall gain, precision gain): 1 - (P/N) fn/tp and 1 - (P/N) fp/tp, 0 and 1 where tp is 0, the recall
        gain clipped at 0."""
        scale = math_ops.div_no_nan(c["tp"] + c["fn"], c["fp"] + c["tn"])
        no_tp = math_ops.equal(c["tp"], 0.0)
        recall_gain = 1.0 - scale * math_ops.div_no_nan(c["fn"], c["tp"])
        precision_gain = 1.0 - scale * math_ops.div_no_nan(c["fp"], c["tp"])
        recall_gain = array_ops.where(no_tp, array_ops.zeros_like(recall_gain), recall_gain)
        precision_gain = array_ops.where(no_tp, array_ops.ones_like(precision_gain), precision_gain)
        return math_ops.maximum(recall_gain, array_ops.zeros_like(recall_gain)), precision_gain

    def get_config(self) -> dict:
        config = dict(super().get_config(), num_thresholds=self.num_thresholds, curve=self.curve,
                      summation_method=self.summation_method, multi_label=False, num_labels=None,
                      label_weights=None, from_logits=self._from_logits)
        if not self._evenly:
            config["thresholds"] = self.thresholds[1:-1]
        return config
