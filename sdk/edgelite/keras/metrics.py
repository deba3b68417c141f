"""tf.keras.metrics: per-sample metric functions (the accuracies and the loss functions), the stateful metric
classes (Mean, Accuracy, Precision, AUC, ...) and get()."""
from __future__ import annotations

from typing import Any, Callable

from edgelite.framework import dtypes, ops
from edgelite.nn import in_top_k
from edgelite.ops import array_ops, math_ops

from . import backend
from .losses import (  # noqa: F401
    KLD, MAE, MAPE, MSE, MSLE, binary_crossentropy, categorical_crossentropy, hinge, kl_divergence, kld,
    kullback_leibler_divergence, mae, mape, mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
    categorical_hinge, log_cosh, logcosh, mean_squared_logarithmic_error, mse, msle, poisson,
    sparse_categorical_crossentropy, squared_hinge,
)
from ._lookup import by_name
from .losses import cosine_similarity as losses_cosine_similarity
from .metric_objects import (  # noqa: F401
    Accuracy, BinaryAccuracy, BinaryCrossentropy, CategoricalAccuracy, CategoricalCrossentropy, CategoricalHinge,
    CosineSimilarity, Hinge, KLDivergence, LogCoshError, Mean, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanMetricWrapper, MeanSquaredError, MeanSquaredLogarithmicError, Metric, Poisson, RootMeanSquaredError,
    SparseCategoricalAccuracy, SparseCategoricalCrossentropy, SparseTopKCategoricalAccuracy, SquaredHinge, Sum,
    TopKCategoricalAccuracy,
)
from .metric_thresholds import (  # noqa: F401
    AUC, FalseNegatives, FalsePositives, Precision, Recall, TrueNegatives, TruePositives,
)


def _floatx(x: Any) -> Any:
    return math_ops.cast(x, dtypes.as_dtype(backend.floatx()))


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """sum(normalize(y_true) * normalize(y_pred)) along axis: the metric (1 for identical directions), the
    negative of the loss of the same name."""
    return -losses_cosine_similarity(y_true, y_pred, axis=axis)


cosine = cosine_proximity = cosine_similarity


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Any:
    """mean(y_true == (y_pred > threshold)) over the last axis."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = math_ops.cast(y_true, y_pred.dtype)
    predicted = math_ops.cast(math_ops.greater(y_pred, threshold), y_pred.dtype)
    return math_ops.reduce_mean(_floatx(math_ops.equal(y_true, predicted)), -1)


def categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where argmax(y_true) == argmax(y_pred), per sample."""
    return _floatx(math_ops.equal(math_ops.argmax(y_true, -1), math_ops.argmax(y_pred, -1)))


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """1.0 where the integer label equals argmax(y_pred), per sample."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if y_true.shape.ndims is not None and y_pred.shape.ndims is not None and \
            y_true.shape.ndims == y_pred.shape.ndims:
        y_true = array_ops.squeeze(y_true, [-1])
    predicted = math_ops.argmax(y_pred, -1)
    if y_true.dtype != predicted.dtype:
        predicted = math_ops.cast(predicted, y_true.dtype)
    return _floatx(math_ops.equal(y_true, predicted))


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """1.0 where the true class is among the k largest predictions, per sample."""
    return _floatx(in_top_k(y_pred, math_ops.argmax(y_true, -1), k))


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """1.0 where the integer label is among the k largest predictions, per sample."""
    y_true = ops.convert_to_tensor(y_true)
    if y_true.shape.ndims == 2:
        y_true = array_ops.squeeze(y_true, [-1])
    return _floatx(in_top_k(y_pred, math_ops.cast(y_true, dtypes.int32), k))


_BY_NAME = {f.__name__: f for f in (
    binary_accuracy, categorical_accuracy, sparse_categorical_accuracy, top_k_categorical_accuracy,
    sparse_top_k_categorical_accuracy, binary_crossentropy, categorical_crossentropy,
    sparse_categorical_crossentropy, mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
    mean_squared_logarithmic_error, hinge, squared_hinge, kl_divergence, poisson, categorical_hinge, log_cosh,
    cosine_similarity)}
_BY_NAME.update(mse=mse, mae=mae, mape=mape, msle=msle, kld=kld, MSE=mse, MAE=mae, MAPE=mape, MSLE=msle, KLD=kld,
                kullback_leibler_divergence=kld, cosine=cosine_similarity, cosine_proximity=cosine_similarity,
                logcosh=log_cosh)


def get(identifier: Any) -> Callable:
    """A metric function from its name, a Metric object or a callable."""
    if isinstance(identifier, str):
        return by_name(_BY_NAME, identifier, "metric function")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


def serialize(metric: Any) -> Any:
    """The name of a metric function, or {'class_name', 'config'} of a metric object (as .h5 files keep them)."""
    if isinstance(metric, Metric):
        return {"class_name": type(metric).__name__, "config": metric.get_config()}
    return metric.__name__


_CLASSES = {cls.__name__: cls for cls in (
    Mean, Sum, Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy, TopKCategoricalAccuracy,
    SparseTopKCategoricalAccuracy, MeanSquaredError, MeanAbsoluteError, RootMeanSquaredError, Precision, Recall,
    AUC, TruePositives, FalsePositives, TrueNegatives, FalseNegatives, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, Hinge, SquaredHinge, CategoricalHinge, KLDivergence, Poisson, LogCoshError,
    CosineSimilarity, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy)}


def deserialize(config: Any, custom_objects: Any = None) -> Any:
    """The metric function named `config`, or the metric object a serialize() dict describes."""
    custom = custom_objects or {}
    if isinstance(config, dict):
        name = config.get("class_name")
        cls = custom.get(name) or _CLASSES.get(name)
        if cls is None:
            raise ValueError(f"Unknown metric function: '{name}'. Please ensure you are using a "
                             "`keras.utils.custom_object_scope` and that this object is included in the scope.")
        return cls.from_config(dict(config.get("config", {})))
    return custom.get(config) or get(config)
