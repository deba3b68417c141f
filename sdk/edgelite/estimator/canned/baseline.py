"""tf.estimator.BaselineClassifier / BaselineRegressor (TF1): a model of one bias per output (baseline/bias),
ignoring the features except for the batch size; FTRL at learning rate 0.3 by default."""
from __future__ import annotations

from typing import Any, Optional

from edgelite import losses
from edgelite.framework import ops
from edgelite.ops import array_ops, check_ops, init_ops, math_ops, variable_scope
from edgelite.train import training_util

from ..estimator import Estimator
from . import head as head_lib
from .optimizers import get_optimizer_instance

LEARNING_RATE = 0.3


def _weight_key(weight_column: Any) -> Optional[str]:
    from edgelite.feature_column.dense_columns import NumericColumn

    if weight_column is None or isinstance(weight_column, str):
        return weight_column
    if not isinstance(weight_column, NumericColumn):
        raise TypeError(f"Weight column must be either a string or _NumericColumn. Given type: {type(weight_column)}.")
    return weight_column.key


def baseline_logits(features: dict, units: int, weight_column: Any) -> ops.Tensor:
    """The 'baseline/bias' row repeated over the batch (every non-weight feature must share the batch size)."""
    weight_key = _weight_key(weight_column)
    checks, batch = [], None
    for key, feature in features.items():
        if key == weight_key:
            continue
        first = array_ops.shape(feature)[0]
        if batch is None:
            batch = first
        else:
            checks.append(check_ops.assert_equal(batch, first))
    with ops.control_dependencies(checks):
        with variable_scope.variable_scope("baseline"):
            bias = variable_scope.get_variable("bias", shape=[units], initializer=init_ops.zeros_initializer())
            return math_ops.multiply(bias, array_ops.ones(array_ops.stack([batch, units])))


def baseline_model_fn(features: dict, labels: Any, mode: str, head: Any, optimizer: Any,
                      weight_column: Any) -> Any:
    """The EstimatorSpec of the bias-only model."""
    logits = baseline_logits(features, head.logits_dimension, weight_column)

    def _train_op_fn(loss: ops.Tensor) -> Any:
        opt = get_optimizer_instance(optimizer, learning_rate=LEARNING_RATE)
        return opt.minimize(loss, global_step=training_util.get_global_step())

    return head.create_estimator_spec(features=features, mode=mode, logits=logits, labels=labels,
                                      train_op_fn=_train_op_fn)


class BaselineClassifier(Estimator):
    """Predicts the class distribution of the training labels, whatever the features."""

    def __init__(self, model_dir: Optional[str] = None, n_classes: int = 2, weight_column: Any = None,
                 label_vocabulary: Optional[list] = None, optimizer: Any = "Ftrl", config: Any = None,
                 loss_reduction: str = losses.Reduction.SUM) -> None:
        head = head_lib.classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return baseline_model_fn(features, labels, mode, head, optimizer, weight_column)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config)


class BaselineRegressor(Estimator):
    """Predicts the mean of the training labels, whatever the features."""

    def __init__(self, model_dir: Optional[str] = None, label_dimension: int = 1, weight_column: Any = None,
                 optimizer: Any = "Ftrl", config: Any = None, loss_reduction: str = losses.Reduction.SUM) -> None:
        head = head_lib.RegressionHead(label_dimension, weight_column, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return baseline_model_fn(features, labels, mode, head, optimizer, weight_column)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config)
