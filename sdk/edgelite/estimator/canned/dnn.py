"""tf.estimator.DNNClassifier and DNNRegressor (TF1): feed-forward networks over feature columns, variables
dnn/hiddenlayer_<i>/{kernel,bias} and dnn/logits/{kernel,bias}, trained by Adagrad (learning rate 0.05) on the
SUM-reduced loss by default."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite import layers, losses, nn, summary
from edgelite.framework import ops
from edgelite.feature_column import input_layer
from edgelite.ops import init_ops, math_ops, variable_scope

from ..estimator import Estimator
from ..model_fn import ModeKeys
from . import head as head_lib
from .optimizers import get_optimizer_instance

LEARNING_RATE = 0.05


def check_features(features: Any) -> None:
    """Canned estimators read named feature columns: the input must be a dict (TF's ValueError)."""
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: {type(features)}")


def add_layer_summary(value: ops.Tensor, tag: str) -> None:
    """The fraction of zeros and a histogram of a layer's output, under the layer's scope name."""
    summary.scalar(f"{tag}/fraction_of_zero_values", nn.zero_fraction(value))
    summary.histogram(f"{tag}/activation", value)


def _dense(net: ops.Tensor, units: int, activation: Optional[Callable]) -> ops.Tensor:
    """kernel (Glorot-uniform) and bias (zeros) in the current variable scope, as tf.layers.Dense names them."""
    width = net.shape[-1].value
    kernel = variable_scope.get_variable("kernel", [width, units], initializer=init_ops.glorot_uniform_initializer())
    bias = variable_scope.get_variable("bias", [units], initializer=init_ops.zeros_initializer())
    out = nn.bias_add(math_ops.matmul(net, kernel), bias)
    return activation(out) if activation is not None else out


def dnn_logits(features: dict, mode: str, units: int, hidden_units: Any, feature_columns: Any,
               activation_fn: Callable, dropout: Optional[float], batch_norm: bool,
               input_layer_partitioner: Any = None) -> ops.Tensor:
    """The network inside the caller's scope: input_from_feature_columns, hiddenlayer_<i>, logits."""
    training = mode == ModeKeys.TRAIN
    with variable_scope.variable_scope("input_from_feature_columns", values=tuple(features.values()),
                                       partitioner=input_layer_partitioner):
        net = input_layer(features, feature_columns)
    for layer_id, width in enumerate(hidden_units):
        with variable_scope.variable_scope(f"hiddenlayer_{layer_id}", values=(net,)) as scope:
            net = _dense(net, width, activation_fn)
            if dropout is not None and training:
                net = layers.dropout(net, rate=dropout, training=True)
            if batch_norm:
                net = layers.batch_normalization(net, momentum=0.999, training=training,
                                                 name=f"batchnorm_{layer_id}")
        add_layer_summary(net, scope.name)
    with variable_scope.variable_scope("logits", values=(net,)) as scope:
        logits = _dense(net, units, None)
    add_layer_summary(logits, scope.name)
    return logits


def dnn_model_fn(features: Any, labels: Any, mode: str, head: Any, hidden_units: Any, feature_columns: Any,
                 optimizer: Any = "Adagrad", activation_fn: Callable = nn.relu, dropout: Optional[float] = None,
                 input_layer_partitioner: Any = None, config: Any = None, batch_norm: bool = False) -> Any:
    """The EstimatorSpec of a DNN under the 'dnn' variable scope."""
    optimizer = get_optimizer_instance(optimizer, learning_rate=LEARNING_RATE)
    check_features(features)
    replicas = config.num_ps_replicas if config else 0
    # TF partitions over the parameter servers: with none, every variable is one part (checkpoint keys of the
    # optimizer slots carry that: dnn/hiddenlayer_0/kernel/t_0/Adagrad).
    partitioner = variable_scope.min_max_variable_partitioner(max_partitions=replicas)
    with variable_scope.variable_scope("dnn", values=tuple(features.values()), partitioner=partitioner):
        input_layer_partitioner = input_layer_partitioner or variable_scope.min_max_variable_partitioner(
            max_partitions=replicas, min_slice_size=64 << 20)
        logits = dnn_logits(features, mode, head.logits_dimension, hidden_units, feature_columns, activation_fn,
                            dropout, batch_norm, input_layer_partitioner)
        return head.create_estimator_spec(features=features, mode=mode, labels=labels, optimizer=optimizer,
                                          logits=logits)


class DNNClassifier(Estimator):
    """A feed-forward classifier: n_classes == 2 uses one logit and sigmoid cross-entropy, more use softmax."""

    def __init__(self, hidden_units: Any, feature_columns: Any, model_dir: Optional[str] = None,
                 n_classes: int = 2, weight_column: Any = None, label_vocabulary: Optional[list] = None,
                 optimizer: Any = "Adagrad", activation_fn: Callable = nn.relu, dropout: Optional[float] = None,
                 input_layer_partitioner: Any = None, config: Any = None, warm_start_from: Any = None,
                 loss_reduction: str = losses.Reduction.SUM, batch_norm: bool = False) -> None:
        head = head_lib.classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return dnn_model_fn(features, labels, mode, head, hidden_units, tuple(feature_columns or []), optimizer,
                                activation_fn, dropout, input_layer_partitioner, config, batch_norm)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNRegressor(Estimator):
    """A feed-forward regressor of label_dimension outputs trained on the squared error."""

    def __init__(self, hidden_units: Any, feature_columns: Any, model_dir: Optional[str] = None,
                 label_dimension: int = 1, weight_column: Any = None, optimizer: Any = "Adagrad",
                 activation_fn: Callable = nn.relu, dropout: Optional[float] = None, input_layer_partitioner: Any = None,
                 config: Any = None, warm_start_from: Any = None, loss_reduction: str = losses.Reduction.SUM,
                 batch_norm: bool = False) -> None:
        head = head_lib.RegressionHead(label_dimension, weight_column, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return dnn_model_fn(features, labels, mode, head, hidden_units, tuple(feature_columns or []), optimizer,
                                activation_fn, dropout, input_layer_partitioner, config, batch_norm)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
