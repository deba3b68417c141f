"""tf.keras.losses: per-sample loss functions, Loss classes (mean over the batch) and get() for string names.

The cross-entropies follow Keras's backend: a probability output made by a Softmax/Sigmoid op is traced back to
its logits (numerically stable), any other output is clipped to [epsilon, 1 - epsilon] before the log.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite import nn
from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops

from . import backend
from ._lookup import by_name


def _logits_of(output: Any, op_type: str) -> Optional[Any]:
    op = getattr(output, "op", None)
    if op is not None and op.type == op_type:
        return op.inputs[0]
    return None


def _prepare(y_true: Any, y_pred: Any) -> tuple:
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = math_ops.cast(ops.convert_to_tensor(y_true), y_pred.dtype)
    return y_true, y_pred


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0,
                             axis: int = -1) -> Any:
    """-sum(y_true * log(y_pred)) over `axis`, per sample; y_true one-hot."""
    y_true, y_pred = _prepare(y_true, y_pred)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    logits = y_pred if from_logits else _logits_of(y_pred, "Softmax")
    if logits is not None:
        return nn.softmax_cross_entropy_with_logits_v2(labels=y_true, logits=logits, axis=axis)
    probs = y_pred / math_ops.reduce_sum(y_pred, axis, keepdims=True)
    eps = backend.epsilon()
    probs = math_ops.clip_by_value(probs, eps, 1.0 - eps)
    return -math_ops.reduce_sum(y_true * math_ops.log(probs), axis)


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """-log(y_pred[y_true]) per sample; y_true integer class ids ([batch] or [batch, 1])."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    logits = y_pred if from_logits else _logits_of(y_pred, "Softmax")
    if logits is None:
        eps = backend.epsilon()
        logits = math_ops.log(math_ops.clip_by_value(y_pred, eps, 1.0 - eps))
    labels = math_ops.cast(y_true, dtypes.int64)
    rank = logits.shape.ndims
    if labels.shape.ndims is not None and rank is not None and labels.shape.ndims == rank:
        labels = array_ops.squeeze(labels, [-1])
    if rank is not None and rank > 2:
        classes = logits.shape.as_list()[-1]
        flat = nn.sparse_softmax_cross_entropy_with_logits(labels=array_ops.reshape(labels, [-1]),
                                                           logits=array_ops.reshape(logits, [-1, classes]))
        return array_ops.reshape(flat, array_ops.shape(logits)[:-1])
    return nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0,
                        axis: int = -1) -> Any:
    """Mean over `axis` of -(y log p + (1 - y) log(1 - p))."""
    y_true, y_pred = _prepare(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return math_ops.reduce_mean(binary_elementwise(y_true, y_pred, from_logits), axis)


def binary_elementwise(y_true: Any, y_pred: Any, from_logits: bool = False) -> Any:
    """-(y log p + (1 - y) log(1 - p)) per element; a Sigmoid output is traced back to its logits."""
    y_true, y_pred = _prepare(y_true, y_pred)
    logits = y_pred if from_logits else _logits_of(y_pred, "Sigmoid")
    if logits is not None:
        return nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=logits)
    eps = backend.epsilon()
    p = math_ops.clip_by_value(y_pred, eps, 1.0 - eps)
    return -(y_true * math_ops.log(p + eps) + (1.0 - y_true) * math_ops.log(1.0 - p + eps))


def mean_squared_error(y_true: Any, y_pred: Any) -> Any:
    """mean((y_pred - y_true)^2) over the last axis."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.squared_difference(y_pred, y_true), -1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Any:
    """mean(|y_pred - y_true|) over the last axis."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.abs(y_pred - y_true), -1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Any:
    """100 * mean(|y_true - y_pred| / max(|y_true|, epsilon)) over the last axis."""
    y_true, y_pred = _prepare(y_true, y_pred)
    diff = math_ops.abs((y_true - y_pred) / math_ops.maximum(math_ops.abs(y_true), backend.epsilon()))
    return 100.0 * math_ops.reduce_mean(diff, -1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Any:
    """mean((log(y_pred + 1) - log(y_true + 1))^2) over the last axis, both clipped at epsilon."""
    y_true, y_pred = _prepare(y_true, y_pred)
    eps = backend.epsilon()
    first = math_ops.log(math_ops.maximum(y_pred, eps) + 1.0)
    second = math_ops.log(math_ops.maximum(y_true, eps) + 1.0)
    return math_ops.reduce_mean(math_ops.squared_difference(first, second), -1)


def hinge(y_true: Any, y_pred: Any) -> Any:
    """mean(max(1 - y_true * y_pred, 0)) over the last axis; 0/1 labels are mapped to -1/1."""
    y_true, y_pred = _prepare(y_true, y_pred)
    y_true = _signed_labels(y_true)
    return math_ops.reduce_mean(math_ops.maximum(1.0 - y_true * y_pred, 0.0), -1)


def squared_hinge(y_true: Any, y_pred: Any) -> Any:
    """mean(max(1 - y_true * y_pred, 0)^2) over the last axis; 0/1 labels are mapped to -1/1."""
    y_true, y_pred = _prepare(y_true, y_pred)
    y_true = _signed_labels(y_true)
    return math_ops.reduce_mean(math_ops.square(math_ops.maximum(1.0 - y_true * y_pred, 0.0)), -1)


def _signed_labels(y_true: Any) -> Any:
    """Keras maps binary 0/1 hinge labels to -1/1 (labels already in {-1, 1} pass through)."""
    is_binary = math_ops.reduce_all(math_ops.logical_or(math_ops.equal(y_true, 0.0), math_ops.equal(y_true, 1.0)))
    return array_ops.where_v2(is_binary, 2.0 * y_true - 1.0, y_true)


def kl_divergence(y_true: Any, y_pred: Any) -> Any:
    """sum(y_true * log(y_true / y_pred)) over the last axis, both clipped to [epsilon, 1]."""
    y_true, y_pred = _prepare(y_true, y_pred)
    eps = backend.epsilon()
    y_true = math_ops.clip_by_value(y_true, eps, 1.0)
    y_pred = math_ops.clip_by_value(y_pred, eps, 1.0)
    return math_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), -1)


def poisson(y_true: Any, y_pred: Any) -> Any:
    """mean(y_pred - y_true * log(y_pred + epsilon)) over the last axis."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return math_ops.reduce_mean(y_pred - y_true * math_ops.log(y_pred + backend.epsilon()), -1)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Any:
    """mean over the last axis of 0.5 e^2 where |e| <= delta, delta (|e| - delta / 2) beyond."""
    y_true, y_pred = _prepare(y_true, y_pred)
    error = y_pred - y_true
    abs_error = math_ops.abs(error)
    quadratic = 0.5 * math_ops.square(error)
    linear = delta * abs_error - 0.5 * delta * delta
    return math_ops.reduce_mean(array_ops.where_v2(abs_error <= delta, quadratic, linear), -1)


def log_cosh(y_true: Any, y_pred: Any) -> Any:
    """mean(log(cosh(y_pred - y_true))) over the last axis, computed as x + softplus(-2x) - log 2."""
    y_true, y_pred = _prepare(y_true, y_pred)
    x = y_pred - y_true
    return math_ops.reduce_mean(x + nn.softplus(-2.0 * x) - math_ops.cast(0.6931471805599453, x.dtype), -1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Any:
    """max(0, max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1) per sample."""
    y_true, y_pred = _prepare(y_true, y_pred)
    pos = math_ops.reduce_sum(y_true * y_pred, -1)
    neg = math_ops.reduce_max((1.0 - y_true) * y_pred, -1)
    return math_ops.maximum(neg - pos + 1.0, 0.0)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """-sum(normalize(y_true) * normalize(y_pred)) along axis (a loss: -1 for identical directions)."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return -math_ops.reduce_sum(nn.l2_normalize(y_true, axis=axis) * nn.l2_normalize(y_pred, axis=axis), axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh
cosine = cosine_proximity = cosine_similarity


def per_sample_weights(sample_weight: Any, losses: Any) -> Any:
    """Sample weights [batch] shaped to broadcast over losses of any rank ([batch, 1, ...])."""
    weights = math_ops.cast(sample_weight, losses.dtype)
    rank = losses.shape.ndims
    if rank is not None and rank > 1 and weights.shape.ndims == 1:
        weights = array_ops.reshape(weights, [-1] + [1] * (rank - 1))
    return weights


class Loss:
    """A loss object: __call__(y_true, y_pred, sample_weight) is the weighted mean of the per-sample losses."""

    def __init__(self, reduction: str = "auto", name: Optional[str] = None) -> None:
        if reduction not in ("auto", "sum_over_batch_size", "sum", "none"):
            raise ValueError(f"Invalid Reduction Key: {reduction}. Expected keys are \"('auto', 'none', 'sum', "
                             "'sum_over_batch_size')\"")
        self.reduction = reduction
        self.name = name

    def call(self, y_true: Any, y_pred: Any) -> Any:
        """Per-sample losses."""
        raise TypeError(f"{type(self).__name__} must define call() to be used as a loss")

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        with ops.name_scope(self.name or type(self).__name__.lower()):
            losses = self.call(y_true, y_pred)
            if sample_weight is not None:
                losses = losses * per_sample_weights(sample_weight, losses)
            if self.reduction == "none":
                return losses
            total = math_ops.reduce_sum(losses)
            if self.reduction == "sum":
                return total
            count = math_ops.cast(array_ops.size(losses), losses.dtype)
            return math_ops.div_no_nan(total, count)

    def get_config(self) -> dict:
        """reduction and name."""
        return {"reduction": self.reduction, "name": self.name}


class LossFunctionWrapper(Loss):
    """A Loss around a per-sample function and its keyword arguments."""

    def __init__(self, fn: Callable, reduction: str = "auto", name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(reduction=reduction, name=name)
        self.fn, self._fn_kwargs = fn, kwargs

    def call(self, y_true: Any, y_pred: Any) -> Any:
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), **self._fn_kwargs)


def _loss_class(fn: Callable, default_name: str, doc: str, **defaults: Any) -> type:
    def __init__(self: Any, reduction: str = "auto", name: str = default_name, **kwargs: Any) -> None:
        options = dict(defaults)
        for key, value in kwargs.items():
            if key not in options:
                raise TypeError(f"__init__() got an unexpected keyword argument '{key}'")
            options[key] = value
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **options)
    return type(default_name.title().replace("_", ""), (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc})


CategoricalCrossentropy = _loss_class(categorical_crossentropy, "categorical_crossentropy",
                                      "Cross-entropy of one-hot labels.", from_logits=False, label_smoothing=0.0,
                                      axis=-1)
SparseCategoricalCrossentropy = _loss_class(sparse_categorical_crossentropy, "sparse_categorical_crossentropy",
                                            "Cross-entropy of integer labels.", from_logits=False, axis=-1)
BinaryCrossentropy = _loss_class(binary_crossentropy, "binary_crossentropy", "Cross-entropy of 0/1 labels.",
                                 from_logits=False, label_smoothing=0.0, axis=-1)
MeanSquaredError = _loss_class(mean_squared_error, "mean_squared_error", "Mean of squared errors.")
MeanAbsoluteError = _loss_class(mean_absolute_error, "mean_absolute_error", "Mean of absolute errors.")
MeanAbsolutePercentageError = _loss_class(mean_absolute_percentage_error, "mean_absolute_percentage_error",
                                          "Mean absolute percentage error.")
MeanSquaredLogarithmicError = _loss_class(mean_squared_logarithmic_error, "mean_squared_logarithmic_error",
                                          "Mean squared logarithmic error.")
Hinge = _loss_class(hinge, "hinge", "Hinge loss.")
SquaredHinge = _loss_class(squared_hinge, "squared_hinge", "Squared hinge loss.")
KLDivergence = _loss_class(kl_divergence, "kl_divergence", "Kullback-Leibler divergence.")
Poisson = _loss_class(poisson, "poisson", "Poisson loss.")
Huber = _loss_class(huber, "huber_loss", "Huber loss.", delta=1.0)
LogCosh = _loss_class(log_cosh, "log_cosh", "Logarithm of the hyperbolic cosine of the error.")
CategoricalHinge = _loss_class(categorical_hinge, "categorical_hinge", "Categorical hinge loss.")
CosineSimilarity = _loss_class(cosine_similarity, "cosine_similarity", "Negative cosine similarity.", axis=-1)

_BY_NAME = {
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "binary_crossentropy": binary_crossentropy, "mean_squared_error": mean_squared_error, "mse": mse, "MSE": mse,
    "mean_absolute_error": mean_absolute_error, "mae": mae, "MAE": mae,
    "mean_absolute_percentage_error": mape, "mape": mape, "MAPE": mape,
    "mean_squared_logarithmic_error": msle, "msle": msle, "MSLE": msle, "hinge": hinge,
    "squared_hinge": squared_hinge, "kl_divergence": kld, "kld": kld, "KLD": kld,
    "kullback_leibler_divergence": kld, "poisson": poisson, "log_cosh": log_cosh, "logcosh": log_cosh,
    "categorical_hinge": categorical_hinge, "cosine_similarity": cosine_similarity,
}
_CLASSES = {cls.__name__: cls for cls in (
    CategoricalCrossentropy, SparseCategoricalCrossentropy, BinaryCrossentropy, MeanSquaredError, MeanAbsoluteError,
    MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Hinge, SquaredHinge, KLDivergence, Poisson, Huber,
    LogCosh, CategoricalHinge, CosineSimilarity)}


def get(identifier: Any) -> Optional[Callable]:
    """A loss function from a name ('mse', 'categorical_crossentropy'), a config dict or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier in _CLASSES:
            return _CLASSES[identifier]()
        return by_name(_BY_NAME, identifier, "loss function")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")


def serialize(loss: Any) -> Any:
    """The name of a loss function, or {'class_name', 'config'} of a Loss object."""
    if isinstance(loss, Loss):
        return {"class_name": type(loss).__name__, "config": loss.get_config()}
    return loss.__name__


def deserialize(config: Any, custom_objects: Optional[dict] = None) -> Callable:
    """The loss a serialize() value describes."""
    if isinstance(config, str):
        return (custom_objects or {}).get(config) or get(config)
    cls = (custom_objects or {}).get(config["class_name"]) or _CLASSES.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown loss function: '{config['class_name']}'.")
    return cls(**config.get("config", {}))
