"""tf.estimator.LinearClassifier and LinearRegressor (TF1): a linear model over feature columns, variables
linear/linear_model/<column>/weights and linear/linear_model/bias_weights, trained by FTRL (learning rate 0.2 for
the default 'Ftrl'; min(0.2, 1/sqrt(#columns)) when optimizer=None) on the SUM-reduced loss by default."""
from __future__ import annotations

import math
from typing import Any, Optional

from edgelite import losses, nn, summary
from edgelite.feature_column import linear_model
from edgelite.ops import array_ops, math_ops, variable_scope
from edgelite.train.ftrl import FtrlOptimizer

from ..estimator import Estimator
from . import head as head_lib
from .dnn import check_features
from .optimizers import get_optimizer_instance

LEARNING_RATE = 0.2


def default_optimizer(feature_columns: Any) -> FtrlOptimizer:
    """FTRL with min(0.2, 1/sqrt(number of columns)), TF's choice when no optimizer is given."""
    return FtrlOptimizer(learning_rate=min(LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns))))


def _expanded(variables: Any) -> list:
    """Partitioned variables as their parts."""
    out = []
    for v in variables:
        out.extend(v._get_variable_list() if hasattr(v, "_get_variable_list") else [v])
    return out


def linear_logits(features: dict, units: int, feature_columns: Any, sparse_combiner: str) -> Any:
    """linear_model's output plus the 'bias' and 'fraction_of_zero_weights' summaries."""
    cols_to_vars: dict = {}
    logits = linear_model(features, feature_columns, units=units, sparse_combiner=sparse_combiner,
                          cols_to_vars=cols_to_vars)
    bias = _expanded(cols_to_vars.pop("bias"))
    if units > 1:
        summary.histogram("bias", bias)
    else:
        summary.scalar("bias", bias[0][0])
    weights = _expanded(v for group in cols_to_vars.values() for v in group)
    zeros = math_ops.add_n([nn.zero_fraction(w) * math_ops.cast(array_ops.size(w), "float32") for w in weights])
    total = math_ops.add_n([math_ops.cast(array_ops.size(w), "float32") for w in weights])
    summary.scalar("fraction_of_zero_weights", zeros / total)
    return logits


def linear_model_fn(features: Any, labels: Any, mode: str, head: Any, feature_columns: Any, optimizer: Any,
                    partitioner: Any = None, config: Any = None, sparse_combiner: str = "sum") -> Any:
    """The EstimatorSpec of a linear model under the 'linear' variable scope."""
    check_features(features)
    replicas = config.num_ps_replicas if config else 0
    partitioner = partitioner or variable_scope.min_max_variable_partitioner(max_partitions=replicas,
                                                                             min_slice_size=64 << 20)
    with variable_scope.variable_scope("linear", values=tuple(features.values()), partitioner=partitioner):
        logits = linear_logits(features, head.logits_dimension, feature_columns, sparse_combiner)
        optimizer = get_optimizer_instance(optimizer or default_optimizer(feature_columns),
                                           learning_rate=LEARNING_RATE)
        return head.create_estimator_spec(features=features, mode=mode, labels=labels, optimizer=optimizer,
                                          logits=logits)


class LinearClassifier(Estimator):
    """Logistic (n_classes == 2) or softmax regression over feature columns."""

    def __init__(self, feature_columns: Any, model_dir: Optional[str] = None, n_classes: int = 2,
                 weight_column: Any = None, label_vocabulary: Optional[list] = None, optimizer: Any = "Ftrl",
                 config: Any = None, partitioner: Any = None, warm_start_from: Any = None,
                 loss_reduction: str = losses.Reduction.SUM, sparse_combiner: str = "sum") -> None:
        head = head_lib.classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        columns = tuple(feature_columns or [])

        def _model_fn(features, labels, mode, config):
            return linear_model_fn(features, labels, mode, head, columns, optimizer, partitioner, config,
                                   sparse_combiner)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class LinearRegressor(Estimator):
    """Least-squares linear regression of label_dimension outputs over feature columns."""

    def __init__(self, feature_columns: Any, model_dir: Optional[str] = None, label_dimension: int = 1,
                 weight_column: Any = None, optimizer: Any = "Ftrl", config: Any = None, partitioner: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = losses.Reduction.SUM,
                 sparse_combiner: str = "sum") -> None:
        head = head_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        columns = tuple(feature_columns or [])

        def _model_fn(features, labels, mode, config):
            return linear_model_fn(features, labels, mode, head, columns, optimizer, partitioner, config,
                                   sparse_combiner)

        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
