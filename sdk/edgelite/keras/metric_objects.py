"""tf.keras.metrics classes in graph mode: state in variables (outside every collection, initialised by the Keras
session), update_state() an op that adds one batch, result() a tensor, reset_states() zeroing the variables in the
Keras (or default) session; calling a metric updates it and returns the result after the update, which is how
compile(metrics=[...]) uses it."""
from __future__ import annotations

import re
from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, control_flow_ops, math_ops, variables

from . import backend


def _snake(name: str) -> str:
    """A class name as Keras's default metric name: 'CategoricalAccuracy' -> 'categorical_accuracy'."""
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)).lower()


def _squeeze_or_expand(y_pred: Any, y_true: Any = None, sample_weight: Any = None) -> tuple:
    """Keras's rank alignment: drop a trailing 1 of whichever of y_pred/y_true has one dimension more, then bring
    the weights to y_pred's rank (squeeze or expand their last axis)."""
    rank_pred = y_pred.shape.ndims
    if y_true is not None and rank_pred is not None and y_true.shape.ndims is not None:
        rank_true = y_true.shape.ndims
        if rank_pred - rank_true == 1 and y_pred.shape[-1].is_compatible_with(1):
            y_pred = array_ops.squeeze(y_pred, [-1])
        elif rank_true - rank_pred == 1 and y_true.shape[-1].is_compatible_with(1):
            y_true = array_ops.squeeze(y_true, [-1])
    rank_pred = y_pred.shape.ndims
    if sample_weight is not None and sample_weight.shape.ndims and rank_pred is not None:
        if rank_pred - sample_weight.shape.ndims == 1:
            sample_weight = array_ops.expand_dims(sample_weight, -1)
        elif sample_weight.shape.ndims - rank_pred == 1:
            sample_weight = array_ops.squeeze(sample_weight, [-1])
    return y_pred, y_true, sample_weight


def _broadcast_weights(weights: Any, values: Any) -> Any:
    """weights broadcast to the shape of values (a scalar, or the same rank with each dimension 1 or equal);
    ValueError otherwise."""
    ws, vs = weights.shape, values.shape
    if ws.ndims is not None and vs.ndims is not None and ws.ndims:
        if ws.ndims != vs.ndims or any(w is not None and v is not None and w not in (1, v)
                                       for w, v in zip(ws.as_list(), vs.as_list())):
            raise ValueError(f"weights can not be broadcast to values. values.rank={vs.ndims}. weights.rank="
                             f"{ws.ndims}. values.shape={vs}. weights.shape={ws}.")
    return weights * array_ops.ones_like(values)


class Metric:
    """Base of the metric classes: add_weight, update_state, result, reset_states, __call__, get_config."""

    def __init__(self, name: Optional[str] = None, dtype: Any = None, **kwargs: Any) -> None:
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]}")
        self.name = name or _snake(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._variables: List[Any] = []
        self.stateful = True

    @property
    def dtype(self) -> str:
        """The metric's float dtype name ('float32')."""
        return self._dtype.name

    def add_weight(self, name: str, shape: Sequence[int] = (), dtype: Any = None) -> Any:
        """A zero-initialised state variable kept out of every collection (as Keras's metric weights are)."""
        dtype = dtypes.as_dtype(dtype or self._dtype)
        with ops.control_dependencies(None):
            var = variables.Variable(np.zeros(tuple(shape), dtype.as_numpy_dtype), name=name, trainable=False,
                                     collections=[])
        backend.track_variable(var)
        self._variables.append(var)
        return var

    @property
    def variables(self) -> list:
        """The state variables."""
        return list(self._variables)

    weights = variables

    def update_state(self, *args: Any, **kwargs: Any) -> Any:
        """The op adding one batch to the state (subclasses)."""
        raise TypeError(f"{type(self).__name__} must define update_state()")

    def result(self) -> Any:
        """The metric value from the state (subclasses)."""
        raise TypeError(f"{type(self).__name__} must define result()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """update_state(...) then the result read after it."""
        update = self.update_state(*args, **kwargs)
        with ops.control_dependencies([update]):
            return array_ops.identity(self.result())

    @staticmethod
    def _read(var: Any) -> Any:
        """A fresh read of var made where it is called, so that control dependencies in force order it after
        updates (the variable's cached snapshot may be read before them)."""
        return var.read_value()

    def reset_states(self) -> None:
        """Zeroes the state in the Keras session (the default session inside `with sess.as_default()`)."""
        backend.batch_set_value([(v, np.zeros(v.shape.as_list(), v.dtype.base_dtype.as_numpy_dtype))
                                 for v in self._variables])

    reset_state = reset_states

    def get_config(self) -> dict:
        """name and dtype."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict) -> "Metric":
        """The metric a get_config() dict describes."""
        return cls(**config)


class Reduce(Metric):
    """Weighted sum or mean of values: `total` and (for means) `count` variables."""

    def __init__(self, reduction: str, name: Optional[str] = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.reduction = reduction
        self.total = self.add_weight("total")
        if reduction != "sum":
            self.count = self.add_weight("count")

    def update_state(self, values: Any, sample_weight: Any = None) -> Any:
        """Adds sum(values * sample_weight) to total and sum(sample_weight) (or the number of values) to count."""
        values = math_ops.cast(values, self._dtype)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            values, _, sample_weight = _squeeze_or_expand(values, None, sample_weight)
            try:
                sample_weight = _broadcast_weights(sample_weight, values)
            except ValueError:
                # weights of lower rank: reduce the values to the weights' rank first, as Keras does
                axes = list(range(sample_weight.shape.ndims, values.shape.ndims))
                values = (math_ops.reduce_sum if self.reduction == "sum" else math_ops.reduce_mean)(values, axes)
            values = values * sample_weight
        add_total = self.total.assign_add(math_ops.reduce_sum(values))
        if self.reduction == "sum":
            return control_flow_ops.group(add_total)
        if sample_weight is None:
            count = math_ops.cast(array_ops.size(values), self._dtype)
        else:
            count = math_ops.reduce_sum(sample_weight)
        with ops.control_dependencies([add_total]):
            return control_flow_ops.group(self.count.assign_add(count))

    def result(self) -> Any:
        if self.reduction == "sum":
            return self._read(self.total)
        return math_ops.div_no_nan(self._read(self.total), self._read(self.count))


class Sum(Reduce):
    """The (weighted) sum of all values seen."""

    def __init__(self, name: str = "sum", dtype: Any = None) -> None:
        super().__init__("sum", name=name, dtype=dtype)


class Mean(Reduce):
    """The (weighted) mean of all values seen."""

    def __init__(self, name: str = "mean", dtype: Any = None) -> None:
        super().__init__("weighted_mean", name=name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """The running mean of fn(y_true, y_pred, **kwargs) per sample."""

    def __init__(self, fn: Callable, name: Optional[str] = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        """Adds the batch's per-sample values of the wrapped function."""
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true, _ = _squeeze_or_expand(y_pred, y_true)
        return super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight=sample_weight)

    def get_config(self) -> dict:
        return dict(super().get_config(), **self._fn_kwargs)


def _accuracy(y_true: Any, y_pred: Any) -> Any:
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    if y_true.dtype != y_pred.dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), dtypes.as_dtype(backend.floatx()))


# default names that are not the class name in snake case
_DEFAULT_NAMES = {"LogCoshError": "logcosh", "KLDivergence": "kullback_leibler_divergence"}


def _wrapper(class_name: str, fn_name: str, doc: str, order: Sequence[str] = ("name", "dtype"),
             **defaults: Any) -> type:
    """A MeanMetricWrapper subclass around metrics.<fn_name>, its arguments in Keras's positional `order`
    (name, dtype and the function's keywords such as threshold or k, with their `defaults`)."""
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        from . import metrics as fns
        if len(args) > len(order):
            raise TypeError(f"{class_name}() takes at most {len(order)} positional arguments")
        options = dict(defaults, name=_DEFAULT_NAMES.get(class_name) or _snake(class_name), dtype=None)
        options.update(zip(order, args))
        options.update(kwargs)
        fn = _accuracy if fn_name == "accuracy" else getattr(fns, fn_name)
        name, dtype = options.pop("name"), options.pop("dtype")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **options)

    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})


Accuracy = _wrapper("Accuracy", "accuracy", "How often y_pred equals y_true.")
BinaryAccuracy = _wrapper("BinaryAccuracy", "binary_accuracy",
                          "How often y_true equals y_pred > threshold (0.5).", ("name", "dtype", "threshold"),
                          threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", "categorical_accuracy",
                               "How often argmax(y_pred) is argmax of the one-hot y_true.")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", "sparse_categorical_accuracy",
                                     "How often argmax(y_pred) is the integer label.")
TopKCategoricalAccuracy = _wrapper("TopKCategoricalAccuracy", "top_k_categorical_accuracy",
                                   "How often the one-hot target is among the k (5) largest predictions.",
                                   ("k", "name", "dtype"), k=5)
SparseTopKCategoricalAccuracy = _wrapper("SparseTopKCategoricalAccuracy", "sparse_top_k_categorical_accuracy",
                                         "How often the integer label is among the k (5) largest predictions.",
                                         ("k", "name", "dtype"), k=5)
MeanSquaredError = _wrapper("MeanSquaredError", "mean_squared_error", "Mean of (y_true - y_pred)^2.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", "mean_absolute_error", "Mean of |y_true - y_pred|.")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", "mean_absolute_percentage_error",
                                       "Mean of 100 |y_true - y_pred| / |y_true|.")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", "mean_squared_logarithmic_error",
                                       "Mean of (log(y_true + 1) - log(y_pred + 1))^2.")
Hinge = _wrapper("Hinge", "hinge", "Mean of max(1 - y_true y_pred, 0) (labels -1/1, or 0/1 turned into -1/1).")
SquaredHinge = _wrapper("SquaredHinge", "squared_hinge", "Mean of max(1 - y_true y_pred, 0)^2.")
CategoricalHinge = _wrapper("CategoricalHinge", "categorical_hinge",
                            "Mean of max(0, max of the wrong scores - the true score + 1).")
KLDivergence = _wrapper("KLDivergence", "kl_divergence", "Mean Kullback-Leibler divergence of y_pred from y_true.")
Poisson = _wrapper("Poisson", "poisson", "Mean of y_pred - y_true log(y_pred).")
LogCoshError = _wrapper("LogCoshError", "log_cosh", "Mean of log(cosh(y_pred - y_true)).")
CosineSimilarity = _wrapper("CosineSimilarity", "cosine_similarity",
                            "Mean cosine of the angle between y_true and y_pred along `axis` (-1).",
                            ("name", "dtype", "axis"), axis=-1)
BinaryCrossentropy = _wrapper("BinaryCrossentropy", "binary_crossentropy", "Mean binary cross-entropy.",
                              ("name", "dtype", "from_logits", "label_smoothing"), from_logits=False,
                              label_smoothing=0.0)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", "categorical_crossentropy",
                                   "Mean cross-entropy of one-hot targets.",
                                   ("name", "dtype", "from_logits", "label_smoothing", "axis"), from_logits=False,
                                   label_smoothing=0.0, axis=-1)
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", "sparse_categorical_crossentropy",
                                         "Mean cross-entropy of integer targets.",
                                         ("name", "dtype", "from_logits", "axis"), from_logits=False, axis=-1)


class RootMeanSquaredError(Mean):
    """sqrt of the mean squared difference over all elements seen."""

    def __init__(self, name: str = "root_mean_squared_error", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        """Adds the batch's squared differences."""
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true, _ = _squeeze_or_expand(y_pred, y_true)
        return super().update_state(math_ops.squared_difference(y_pred, y_true), sample_weight=sample_weight)

    def result(self) -> Any:
        return math_ops.sqrt(math_ops.div_no_nan(self._read(self.total), self._read(self.count)))
