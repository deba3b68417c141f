"""tf.estimator.DNNLinearCombinedClassifier / Regressor (TF1's wide & deep): the sum of a linear model's logits
(under 'linear', FTRL at min(0.005, 1/sqrt(#linear columns))) and a DNN's (under 'dnn', Adagrad at 0.001), each
part trained by its own optimizer on its own variables, then the global step incremented once."""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

from edgelite import losses, nn
from edgelite.framework import ops
from edgelite.ops import control_flow_ops, state_ops, variable_scope
from edgelite.train import training_util

from ..estimator import Estimator
from . import head as head_lib
from .dnn import add_layer_summary, check_features, dnn_logits
from .linear import linear_logits
from .optimizers import get_optimizer_instance

DNN_LEARNING_RATE = 0.001
LINEAR_LEARNING_RATE = 0.005


def _linear_learning_rate(num_linear_feature_columns: int) -> float:
    return min(LINEAR_LEARNING_RATE, 1.0 / math.sqrt(num_linear_feature_columns))


def dnn_linear_combined_model_fn(features: Any, labels: Any, mode: str, head: Any, linear_feature_columns: Any,
                                 linear_optimizer: Any, dnn_feature_columns: Any, dnn_optimizer: Any,
                                 dnn_hidden_units: Any, dnn_activation_fn: Callable, dnn_dropout: Optional[float],
                                 input_layer_partitioner: Any, config: Any, batch_norm: bool,
                                 linear_sparse_combiner: str) -> Any:
    """The EstimatorSpec of the summed linear and DNN logits."""
    check_features(features)
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    replicas = config.num_ps_replicas if config else 0
    input_layer_partitioner = input_layer_partitioner or variable_scope.min_max_variable_partitioner(
        max_partitions=replicas, min_slice_size=64 << 20)
    parts = []  # (logits, optimizer, scope name)
    if dnn_feature_columns:
        dnn_optimizer = get_optimizer_instance(dnn_optimizer, learning_rate=DNN_LEARNING_RATE)
        if not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
        with variable_scope.variable_scope("dnn", values=tuple(features.values()),
                                           partitioner=variable_scope.min_max_variable_partitioner(
                                               max_partitions=replicas)) as scope:
            logits = dnn_logits(features, mode, head.logits_dimension, dnn_hidden_units, dnn_feature_columns,
                                dnn_activation_fn, dnn_dropout, batch_norm, input_layer_partitioner)
            parts.append((logits, dnn_optimizer, scope.name))
    if linear_feature_columns:
        linear_optimizer = get_optimizer_instance(linear_optimizer,
                                                  learning_rate=_linear_learning_rate(len(linear_feature_columns)))
        with variable_scope.variable_scope("linear", values=tuple(features.values()),
                                           partitioner=input_layer_partitioner) as scope:
            logits = linear_logits(features, head.logits_dimension, linear_feature_columns, linear_sparse_combiner)
            add_layer_summary(logits, scope.name)
            parts.append((logits, linear_optimizer, scope.name))
    logits = parts[0][0] if len(parts) == 1 else parts[0][0] + parts[1][0]

    def _train_op_fn(loss: ops.Tensor) -> Any:
        train_ops = [optimizer.minimize(loss, var_list=ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES,
                                                                          scope=scope_name))
                     for _, optimizer, scope_name in parts]
        with ops.control_dependencies([control_flow_ops.group(*train_ops)]):
            return state_ops.assign_add(training_util.get_global_step(), 1).op

    return head.create_estimator_spec(features=features, mode=mode, labels=labels, train_op_fn=_train_op_fn,
                                      logits=logits)


def _columns(linear_feature_columns: Any, dnn_feature_columns: Any) -> tuple:
    linear, dnn = list(linear_feature_columns or []), list(dnn_feature_columns or [])
    if not linear + dnn:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    return linear, dnn


class DNNLinearCombinedClassifier(Estimator):
    """Wide & deep classifier: linear logits over linear_feature_columns plus DNN logits over dnn_feature_columns."""

    def __init__(self, model_dir: Optional[str] = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None, dnn_optimizer: Any = "Adagrad",
                 dnn_hidden_units: Any = None, dnn_activation_fn: Callable = nn.relu,
                 dnn_dropout: Optional[float] = None, n_classes: int = 2, weight_column: Any = None,
                 label_vocabulary: Optional[list] = None, input_layer_partitioner: Any = None, config: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = losses.Reduction.SUM, batch_norm: bool = False,
                 linear_sparse_combiner: str = "sum") -> None:
        linear, dnn = _columns(linear_feature_columns, dnn_feature_columns)
        head = head_lib.classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return dnn_linear_combined_model_fn(features, labels, mode, head, linear, linear_optimizer, dnn,
                                                dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                                                input_layer_partitioner, config, batch_norm, linear_sparse_combiner)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNLinearCombinedRegressor(Estimator):
    """Wide & deep regressor of label_dimension outputs."""

    def __init__(self, model_dir: Optional[str] = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None, dnn_optimizer: Any = "Adagrad",
                 dnn_hidden_units: Any = None, dnn_activation_fn: Callable = nn.relu,
                 dnn_dropout: Optional[float] = None, label_dimension: int = 1, weight_column: Any = None,
                 input_layer_partitioner: Any = None, config: Any = None, warm_start_from: Any = None,
                 loss_reduction: str = losses.Reduction.SUM, batch_norm: bool = False,
                 linear_sparse_combiner: str = "sum") -> None:
        linear, dnn = _columns(linear_feature_columns, dnn_feature_columns)
        head = head_lib.RegressionHead(label_dimension, weight_column, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return dnn_linear_combined_model_fn(features, labels, mode, head, linear, linear_optimizer, dnn,
                                                dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                                                input_layer_partitioner, config, batch_norm, linear_sparse_combiner)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
