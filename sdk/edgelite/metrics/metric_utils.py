"""Pieces every tf.compat.v1.metrics function shares: local metric variables, squeezing and broadcasting of
labels/predictions/weights, and registration of value/update tensors in the caller's collections."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops, variables

_METRIC_COLLECTIONS = [ops.GraphKeys.LOCAL_VARIABLES, ops.GraphKeys.METRIC_VARIABLES]


def metric_variable(shape: Sequence[int], dtype: Any, validate_shape: bool = True,
                    name: Optional[str] = None) -> variables.Variable:
    """A zero-initialised, non-trainable variable in the LOCAL_VARIABLES and METRIC_VARIABLES collections."""
    return variables.Variable(lambda: array_ops.zeros(shape, dtype), trainable=False,
                              collections=list(_METRIC_COLLECTIONS), validate_shape=validate_shape, name=name)


def remove_squeezable_dimensions(labels: ops.Tensor, predictions: ops.Tensor) -> Tuple[ops.Tensor, ops.Tensor]:
    """Drops a trailing size-1 dim of whichever of labels/predictions has exactly one dim more."""
    lr, pr = labels.shape.ndims, predictions.shape.ndims
    if lr is not None and pr is not None:
        if pr - lr == 1 and predictions.shape[-1].is_compatible_with(1):
            predictions = array_ops.squeeze(predictions, [-1])
        elif lr - pr == 1 and labels.shape[-1].is_compatible_with(1):
            labels = array_ops.squeeze(labels, [-1])
    return labels, predictions


def squeeze_inputs(predictions: Any, labels: Any = None, weights: Any = None) -> Tuple[Any, Any, Any]:
    """(predictions, labels, weights) with squeezable dims removed and weights brought to predictions' rank
    where they differ by one (TF's _remove_squeezable_dimensions)."""
    predictions = ops.convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = remove_squeezable_dimensions(ops.convert_to_tensor(labels), predictions)
        predictions.shape.assert_is_compatible_with(labels.shape)
    if weights is None:
        return predictions, labels, None
    weights = ops.convert_to_tensor(weights)
    wr, pr = weights.shape.ndims, predictions.shape.ndims
    if wr == 0 or wr is None or pr is None:
        return predictions, labels, weights
    if wr - pr == 1:
        weights = array_ops.squeeze(weights, [-1])
    elif pr - wr == 1:
        weights = array_ops.expand_dims(weights, -1)
    return predictions, labels, weights


def check_broadcastable(weights: ops.Tensor, values: ops.Tensor) -> None:
    """ValueError (TF's text) when static weights cannot broadcast to values: scalar, or same rank with each dim
    1 or equal."""
    ws, vs = weights.shape, values.shape
    if ws.ndims is None or vs.ndims is None or ws.ndims == 0:
        return
    if ws.ndims != vs.ndims:
        raise ValueError(f"weights can not be broadcast to values. values.rank={vs.ndims}. "
                         f"weights.rank={ws.ndims}. values.shape={vs}. weights.shape={ws}. "
                         f"Received weights={weights}, values={values}")
    if not (ws.is_fully_defined() and vs.is_fully_defined()):
        return
    for i, (w, v) in enumerate(zip(ws.as_list(), vs.as_list())):
        if w != 1 and w != v:
            raise ValueError(f"weights can not be broadcast to values. Mismatch at dim {i}. "
                             f"values.shape={np.array(vs.as_list())}, weights.shape={np.array(ws.as_list())}. "
                             f"Received weights={weights}, values={values}")


def broadcast_weights(weights: ops.Tensor, values: ops.Tensor) -> ops.Tensor:
    """weights expanded to values' shape (weights * ones_like(values)) after the broadcastability check."""
    with ops.name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = ops.convert_to_tensor(values, name="values")
        weights = ops.convert_to_tensor(weights, name="weights")
        if weights.shape.is_fully_defined() and values.shape.is_fully_defined() \
                and weights.shape.is_compatible_with(values.shape):
            return weights
        check_broadcastable(weights, values)
        return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)


def add_collections(value: Any, update: Any, metrics_collections: Optional[Sequence[str]],
                    updates_collections: Optional[Sequence[str]]) -> Tuple[Any, Any]:
    """Adds the value and update tensors to the named collections and returns them."""
    if metrics_collections:
        ops.add_to_collections(metrics_collections, value)
    if updates_collections:
        ops.add_to_collections(updates_collections, update)
    return value, update


def safe_div(numerator: Any, denominator: Any, name: str) -> ops.Tensor:
    """numerator / denominator, 0 where the denominator is 0."""
    return math_ops.div_no_nan(ops.convert_to_tensor(numerator), ops.convert_to_tensor(denominator), name=name)


def as_float(x: Any) -> ops.Tensor:
    """x cast to float32."""
    return math_ops.cast(x, dtypes.float32)
