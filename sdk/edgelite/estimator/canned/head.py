"""The heads of TF1's canned estimators: from logits and labels to predictions, the reduced training loss, the
eval metrics and the train_op, as tf.compat.v1.estimator's binary-logistic, multi-class softmax and mean-squared
regression heads do (loss reduction SUM by default)."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite import losses, metrics, nn, summary
from edgelite.framework import dtypes, ops

from edgelite.ops import array_ops, check_ops, control_flow_ops, lookup_ops, math_ops, string_convert_ops
from edgelite.train import training_util

from ..model_fn import EstimatorSpec, ModeKeys
from ..export import export_output

LOSS_MEAN = "average_loss"
DEFAULT_SERVING_KEY = "serving_default"
CLASSIFY_SERVING_KEY = "classification"
REGRESS_SERVING_KEY = "regression"
PREDICT_SERVING_KEY = "predict"

_LABEL_SHAPE_MESSAGE = ("labels shape must be [D0, D1, ... DN, {}]. Suggested Fix: check your n_classes argument to "
                        "the estimator and/or the shape of your label.")


def _labels_like_logits(labels: Any, logits: ops.Tensor, dimension: int) -> ops.Tensor:
    """labels as [D0.., dimension] (a trailing 1 added to [D0..]); TF's ValueError for missing or sparse labels
    or a static last dimension that differs."""
    if labels is None:
        raise ValueError("You must provide a labels Tensor. Given: None. Suggested troubleshooting steps: Check that "
                         "your data contain your label feature. Check that your input_fn properly parses and "
                         "returns labels.")
    with ops.name_scope(None, "labels", [labels, logits]) as scope:
        if hasattr(labels, "dense_shape"):
            raise ValueError(f"SparseTensor labels are not supported. labels must be a Tensor of shape "
                             f"[D0, D1, ..., DN, {dimension}], e.g. [batch_size, {dimension}]. Suggested Fix (1): "
                             f"Check the label feature in your data. Each example must contain {dimension} value(s). "
                             "If not, your choice of label was probably incorrect. Suggested Fix (2): In your "
                             "input_fn, use tf.sparse_tensor_to_dense() to turn labels into a Tensor.")
        labels = ops.convert_to_tensor(labels)
        if labels.shape.ndims is not None and logits.shape.ndims is not None \
                and labels.shape.ndims == logits.shape.ndims - 1:
            labels = array_ops.expand_dims(labels, -1)
        message = _LABEL_SHAPE_MESSAGE.format(dimension)
        rank_check = check_ops.assert_rank_at_least(labels, 2, message=message)
        last = labels.shape[-1].value if labels.shape.ndims else None
        if last is not None and last != dimension:
            raise ValueError(f"Mismatched label shape. Expected labels dimension={dimension}.  Received {last}. "
                             "Suggested Fix:If your classifier expects one-hot encoding label,check your n_classes "
                             "argument to the estimator and/or the shape of your label. Otherwise, check the shape "
                             "of your label.")
        expected = array_ops.concat([array_ops.shape(logits)[:-1], [dimension]], 0)
        shape_check = check_ops.assert_equal(expected, array_ops.shape(labels), message=message)
        with ops.control_dependencies([rank_check, shape_check]):
            return array_ops.identity(labels, name=scope)


def _weights(features: dict, weight_column: Any, logits: ops.Tensor) -> Any:
    """The weight column's values as [D0.., 1] floats (1.0 without a weight column)."""
    with ops.name_scope(None, "weights", list(features.values()) + [logits]) as scope:
        if weight_column is None:
            return 1.0
        from edgelite.feature_column import numeric_column
        from edgelite.feature_column.dense_columns import DenseColumn
        from edgelite.feature_column.feature_inputs import FeatureCache

        if isinstance(weight_column, str):
            weight_column = numeric_column(key=weight_column, shape=(1,))
        if not isinstance(weight_column, DenseColumn):
            raise TypeError("Weight column must be either a string or _DenseColumn. Given type: "
                            f"{type(weight_column)}.")
        weights = weight_column.get_dense_tensor(FeatureCache(features), None)
        if not (weights.dtype.is_floating or weights.dtype.is_integer):
            raise ValueError(f"Weight column should be castable to float. Given dtype: {weights.dtype}")
        weights = math_ops.cast(weights, dtypes.float32, name="weights")
        if weights.shape.ndims is not None and logits.shape.ndims is not None \
                and weights.shape.ndims == logits.shape.ndims - 1:
            return array_ops.expand_dims(weights, -1, name=scope)
        return array_ops.identity(weights, name=scope)


def _logits_checked(logits: Any, dimension: int) -> ops.Tensor:
    logits = ops.convert_to_tensor(logits)
    if logits.shape.ndims is not None:
        if logits.shape.ndims < 2:
            raise ValueError(f"logits shape must be [D0, D1, ... DN, logits_dimension], got {logits.shape}.")
        last = logits.shape[-1].value
        if last is not None and last != dimension:
            raise ValueError(f"logits shape must be [D0, D1, ... DN, logits_dimension={dimension}], "
                             f"got {logits.shape}.")
    return logits


def _assert_range(labels: ops.Tensor, n_classes: int) -> ops.Tensor:
    with ops.name_scope(None, "assert_range", [labels]):
        upper = check_ops.assert_less_equal(labels, ops.convert_to_tensor(n_classes - 1, dtype=labels.dtype),
                                            message="Labels must <= n_classes - 1")
        lower = check_ops.assert_non_negative(labels, message="Labels must >= 0")
        with ops.control_dependencies([upper, lower]):
            return array_ops.identity(labels)


def _tile_rows(row: Any, like: ops.Tensor) -> ops.Tensor:
    """`row` repeated once per example of `like` ([batch, len(row)])."""
    return array_ops.tile(array_ops.expand_dims(row, 0), array_ops.stack([array_ops.shape(like)[0], 1]))


def _class_strings(n_classes: int, vocabulary: Optional[list]) -> Any:
    if vocabulary:
        return ops.convert_to_tensor(list(vocabulary), dtype=dtypes.string)
    return string_convert_ops.as_string(math_ops.range(n_classes))


def _classes_of(class_ids: ops.Tensor, vocabulary: Optional[list]) -> ops.Tensor:
    if not vocabulary:
        return string_convert_ops.as_string(class_ids, name="str_classes")
    table = lookup_ops.StaticHashTable(
        lookup_ops.KeyValueTensorInitializer(list(range(len(vocabulary))), list(vocabulary), dtypes.int64,
                                             dtypes.string), "UNK", name="class_string_lookup")
    return table.lookup(class_ids)


def _vocabulary_ids(labels: ops.Tensor, vocabulary: list) -> ops.Tensor:
    if labels.dtype != dtypes.string:
        raise TypeError(f"Dtype of argument `keys` must be {dtypes.string}, received: {labels.dtype}")
    table = lookup_ops.StaticHashTable(
        lookup_ops.KeyValueTensorInitializer(list(vocabulary), list(range(len(vocabulary))), dtypes.string,
                                             dtypes.int64), -1, name="class_id_lookup")
    return table.lookup(labels)


def _mean(values: Any, weights: Any, name: str) -> tuple:
    with ops.name_scope(None, name, [values]) as scope:
        values = math_ops.cast(values, dtypes.float32)
        if not isinstance(weights, float):
            weights = weights * array_ops.ones_like(values)
        return metrics.mean(values, weights=None if isinstance(weights, float) else weights, name=scope)


def _metric_weights(weights: Any) -> Any:
    return None if isinstance(weights, float) else weights


class _Head:
    """Shared spec building: predictions, then (train/eval) the loss, then the mode's ops."""

    logits_dimension = 1

    def __init__(self, weight_column: Any, loss_reduction: str, name: Optional[str]) -> None:
        if loss_reduction not in losses.Reduction.all() or loss_reduction == losses.Reduction.NONE:
            raise ValueError(f"Invalid loss_reduction: {loss_reduction}")
        self._weight_column = weight_column
        self._loss_reduction = loss_reduction
        self._name = name

    def _predictions(self, logits: ops.Tensor) -> dict:
        raise TypeError("a head subclass supplies its predictions")

    def _export_outputs(self, predictions: dict) -> dict:
        raise TypeError("a head subclass supplies its export outputs")

    def _unreduced_loss(self, features: dict, logits: ops.Tensor, labels: Any) -> tuple:
        raise TypeError("a head subclass supplies its loss")

    def _metrics(self, predictions: dict, labels: ops.Tensor, weights: Any, unreduced: ops.Tensor) -> dict:
        raise TypeError("a head subclass supplies its metrics")

    def create_loss(self, features: dict, mode: str, logits: Any, labels: Any) -> tuple:
        """(training_loss, unreduced_loss, weights, processed_labels)."""
        logits = ops.convert_to_tensor(logits)
        unreduced, processed = self._unreduced_loss(features, logits, labels)
        weights = _weights(features, self._weight_column, logits)
        training_loss = losses.compute_weighted_loss(unreduced, weights=weights, reduction=self._loss_reduction)
        return training_loss, unreduced, weights, processed

    def create_estimator_spec(self, features: dict, mode: str, logits: Any, labels: Any = None,
                              optimizer: Any = None, train_op_fn: Optional[Callable] = None,
                              regularization_losses: Optional[list] = None) -> EstimatorSpec:
        """The EstimatorSpec of `mode` for these logits (train_op = optimizer.minimize(loss, global_step))."""
        with ops.name_scope(self._name, "head"):
            logits = _logits_checked(logits, self.logits_dimension)
            with ops.name_scope(None, "predictions", [logits]):
                predictions = self._predictions(logits)
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions,
                                     export_outputs=self._export_outputs(predictions))
            training_loss, unreduced, weights, processed = self.create_loss(features, mode, logits, labels)
            regularization = math_ops.add_n(regularization_losses) if regularization_losses else None
            loss = math_ops.add_n([training_loss, regularization]) if regularization is not None else training_loss
            if mode == ModeKeys.EVAL:
                with ops.name_scope(None, "metrics", [logits]):
                    metric_ops = self._metrics(predictions, processed, weights, unreduced)
                    if regularization is not None:
                        metric_ops[self._key("regularization_loss")] = metrics.mean(
                            regularization, name="regularization_loss")
                return EstimatorSpec(mode, predictions=predictions, loss=loss, eval_metric_ops=metric_ops)
            train_op = self._train_op(loss, optimizer, train_op_fn)
        self._train_summaries(loss, training_loss, unreduced, weights, regularization)
        return EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train_op)

    @staticmethod
    def _train_op(loss: ops.Tensor, optimizer: Any, train_op_fn: Optional[Callable]) -> Any:
        if optimizer is not None:
            if train_op_fn is not None:
                raise ValueError("train_op_fn and optimizer cannot both be set.")
            train_op = optimizer.minimize(loss, global_step=training_util.get_global_step())
        elif train_op_fn is not None:
            train_op = train_op_fn(loss)
        else:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        update_ops = ops.get_collection(ops.GraphKeys.UPDATE_OPS)
        return control_flow_ops.group(train_op, *update_ops) if update_ops else train_op

    def _train_summaries(self, loss: ops.Tensor, training_loss: ops.Tensor, unreduced: ops.Tensor, weights: Any,
                         regularization: Any) -> None:
        with ops.name_scope(""):
            summary.scalar(self._key("loss"), loss)
            if self._loss_reduction == losses.Reduction.SUM:
                weight_sum = math_ops.reduce_sum(weights * array_ops.ones_like(unreduced))
                summary.scalar(self._key(LOSS_MEAN), training_loss / weight_sum)
            if regularization is not None:
                summary.scalar(self._key("regularization_loss"), regularization)

    def _key(self, key: str) -> str:
        return f"{key}/{self._name}" if self._name else key


class _ClassificationHead(_Head):
    """Label ids (through label_vocabulary when given) and the classification predictions shared by both heads."""

    def __init__(self, n_classes: int, weight_column: Any, label_vocabulary: Optional[list], loss_reduction: str,
                 name: Optional[str]) -> None:
        super().__init__(weight_column, loss_reduction, name)
        if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
            raise ValueError(f"label_vocabulary should be a list or a tuple. Given type: {type(label_vocabulary)}")
        self._n_classes = n_classes
        self._label_vocabulary = label_vocabulary

    def _class_predictions(self, logits: ops.Tensor, scores_logits: ops.Tensor) -> dict:
        probabilities = nn.softmax(scores_logits, name="probabilities")
        class_ids = array_ops.expand_dims(math_ops.argmax(scores_logits, axis=-1, name="class_ids"), -1)
        return {"logits": logits, "probabilities": probabilities, "class_ids": class_ids,
                "classes": _classes_of(class_ids, self._label_vocabulary),
                "all_class_ids": _tile_rows(math_ops.range(self._n_classes), logits),
                "all_classes": _tile_rows(_class_strings(self._n_classes, self._label_vocabulary), logits)}

    def _export_outputs(self, predictions: dict) -> dict:
        scores = predictions["probabilities"]
        classes = _tile_rows(_class_strings(self._n_classes, self._label_vocabulary), scores)
        classification = export_output.ClassificationOutput(scores=scores, classes=classes)
        return {DEFAULT_SERVING_KEY: classification, CLASSIFY_SERVING_KEY: classification,
                PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}


class BinaryLogisticHead(_ClassificationHead):
    """n_classes == 2: one logit, sigmoid cross-entropy; metrics include auc, precision, recall."""

    def __init__(self, weight_column: Any = None, label_vocabulary: Optional[list] = None,
                 loss_reduction: str = losses.Reduction.SUM, name: Optional[str] = None) -> None:
        super().__init__(2, weight_column, label_vocabulary, loss_reduction, name)

    def _predictions(self, logits: ops.Tensor) -> dict:
        two_class = array_ops.concat([array_ops.zeros_like(logits), logits], -1, name="two_class_logits")
        predictions = self._class_predictions(logits, two_class)
        predictions["logistic"] = math_ops.sigmoid(logits, name="logistic")
        return predictions

    def _unreduced_loss(self, features: dict, logits: ops.Tensor, labels: Any) -> tuple:
        labels = _labels_like_logits(labels, logits, 1)
        if self._label_vocabulary is not None:
            labels = _vocabulary_ids(labels, self._label_vocabulary)
        labels = _assert_range(math_ops.cast(labels, dtypes.float32), 2)
        return nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), labels

    def _metrics(self, predictions: dict, labels: ops.Tensor, weights: Any, unreduced: ops.Tensor) -> dict:
        w = _metric_weights(weights)
        class_ids, logistic = predictions["class_ids"], predictions["logistic"]
        labels_mean = _mean(labels, weights, "label/mean")
        with ops.name_scope(None, "accuracy_baseline", list(labels_mean)):
            baseline = (math_ops.maximum(labels_mean[0], 1.0 - labels_mean[0], name="value"),
                        math_ops.maximum(labels_mean[1], 1.0 - labels_mean[1], name="update_op"))
        return {
            self._key(LOSS_MEAN): metrics.mean(unreduced, weights=w, name=LOSS_MEAN),
            self._key("accuracy"): metrics.accuracy(labels, class_ids, weights=w, name="accuracy"),
            self._key("precision"): metrics.precision(labels, class_ids, weights=w, name="precision"),
            self._key("recall"): metrics.recall(labels, class_ids, weights=w, name="recall"),
            self._key("prediction/mean"): _mean(logistic, weights, "prediction/mean"),
            self._key("label/mean"): labels_mean,
            self._key("accuracy_baseline"): baseline,
            self._key("auc"): metrics.auc(labels, logistic, weights=w, name="auc"),
            self._key("auc_precision_recall"): metrics.auc(labels, logistic, weights=w, curve="PR",
                                                           name="auc_precision_recall"),
        }


class MultiClassHead(_ClassificationHead):
    """n_classes > 2: n_classes logits, sparse softmax cross-entropy; metrics accuracy and average_loss."""

    def __init__(self, n_classes: int, weight_column: Any = None, label_vocabulary: Optional[list] = None,
                 loss_reduction: str = losses.Reduction.SUM, name: Optional[str] = None) -> None:
        if n_classes is None:
            raise ValueError("n_classes cannot be None")
        if n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        super().__init__(n_classes, weight_column, label_vocabulary, loss_reduction, name)
        self.logits_dimension = n_classes

    def _predictions(self, logits: ops.Tensor) -> dict:
        return self._class_predictions(logits, logits)

    def _unreduced_loss(self, features: dict, logits: ops.Tensor, labels: Any) -> tuple:
        labels = _labels_like_logits(labels, logits, 1)
        if self._label_vocabulary is None:
            if not labels.dtype.is_integer:
                raise ValueError(f"Labels dtype should be integer. Instead got {labels.dtype}.")
        else:
            if labels.dtype != dtypes.string:
                raise ValueError(f"Labels dtype should be string if there is a vocabulary. Instead got {labels.dtype}")
            labels = _vocabulary_ids(labels, self._label_vocabulary)
        label_ids = _assert_range(labels, self._n_classes)
        loss = losses.sparse_softmax_cross_entropy(labels=label_ids, logits=logits, reduction=losses.Reduction.NONE)
        return array_ops.expand_dims(loss, -1), label_ids

    def _metrics(self, predictions: dict, labels: ops.Tensor, weights: Any, unreduced: ops.Tensor) -> dict:
        w = _metric_weights(weights)
        return {self._key(LOSS_MEAN): metrics.mean(unreduced, weights=w, name=LOSS_MEAN),
                self._key("accuracy"): metrics.accuracy(labels, predictions["class_ids"], weights=w,
                                                        name="accuracy")}


class RegressionHead(_Head):
    """label_dimension outputs, mean squared error; metrics average_loss, prediction/mean, label/mean."""

    def __init__(self, label_dimension: int = 1, weight_column: Any = None,
                 loss_reduction: str = losses.Reduction.SUM, name: Optional[str] = None) -> None:
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        super().__init__(weight_column, loss_reduction, name)
        self.logits_dimension = label_dimension

    def _predictions(self, logits: ops.Tensor) -> dict:
        return {"predictions": logits}

    def _export_outputs(self, predictions: dict) -> dict:
        regression = export_output.RegressionOutput(predictions["predictions"])
        return {DEFAULT_SERVING_KEY: regression, REGRESS_SERVING_KEY: regression,
                PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _unreduced_loss(self, features: dict, logits: ops.Tensor, labels: Any) -> tuple:
        labels = math_ops.cast(_labels_like_logits(labels, logits, self.logits_dimension), dtypes.float32)
        return losses.mean_squared_error(labels, logits, reduction=losses.Reduction.NONE), labels

    def _metrics(self, predictions: dict, labels: ops.Tensor, weights: Any, unreduced: ops.Tensor) -> dict:
        w = _metric_weights(weights)
        return {self._key(LOSS_MEAN): metrics.mean(unreduced, weights=w),
                self._key("prediction/mean"): _mean(predictions["predictions"], weights, "prediction/mean"),
                self._key("label/mean"): metrics.mean(labels, weights=w)}


def classification_head(n_classes: int, weight_column: Any, label_vocabulary: Optional[list],
                        loss_reduction: str) -> _ClassificationHead:
    """The binary head for n_classes == 2, the multi-class head otherwise."""
    if n_classes == 2:
        return BinaryLogisticHead(weight_column, label_vocabulary, loss_reduction)
    return MultiClassHead(n_classes, weight_column, label_vocabulary, loss_reduction)
