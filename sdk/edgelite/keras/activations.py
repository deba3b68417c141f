"""tf.keras.activations: Keras's activation functions on edgelite's nn ops, and get() for string names."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite import nn
from edgelite.ops import array_ops, math_ops

from ._lookup import by_name


def relu(x: Any, alpha: float = 0.0, max_value: Optional[float] = None, threshold: float = 0.0) -> Any:
    """max(x, 0); with alpha a leaky slope below threshold, with max_value a cap."""
    if alpha == 0.0 and max_value is None and threshold == 0.0:
        return nn.relu(x)
    if alpha == 0.0 and max_value == 6.0 and threshold == 0.0:
        return nn.relu6(x)
    negative = math_ops.multiply(alpha, x - threshold) if alpha != 0.0 else None
    out = x * math_ops.cast(math_ops.greater(x, threshold), x.dtype) if threshold != 0.0 else nn.relu(x)
    if max_value is not None:
        out = math_ops.minimum(out, math_ops.cast(max_value, x.dtype))
    if negative is not None:
        out = out + negative * math_ops.cast(math_ops.less(x, threshold), x.dtype)
    return out


def softmax(x: Any, axis: int = -1) -> Any:
    """exp(x) / sum(exp(x)) along `axis`; ValueError for a 1-D input, as Keras."""
    if x.shape.ndims == 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return nn.softmax(x, axis=axis)


def sigmoid(x: Any) -> Any:
    """1 / (1 + exp(-x))."""
    return math_ops.sigmoid(x)


def tanh(x: Any) -> Any:
    """Hyperbolic tangent."""
    return math_ops.tanh(x)


def linear(x: Any) -> Any:
    """The identity (what a layer without activation applies)."""
    return x


def elu(x: Any, alpha: float = 1.0) -> Any:
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    out = nn.elu(x)
    if alpha == 1.0:
        return out
    return array_ops.where_v2(math_ops.greater(x, 0.0), out, alpha * out)


def selu(x: Any) -> Any:
    """Scaled ELU with the self-normalising constants."""
    return nn.selu(x)


def softplus(x: Any) -> Any:
    """log(exp(x) + 1)."""
    return nn.softplus(x)


def softsign(x: Any) -> Any:
    """x / (|x| + 1)."""
    return nn.softsign(x)


def exponential(x: Any) -> Any:
    """exp(x)."""
    return math_ops.exp(x)


def hard_sigmoid(x: Any) -> Any:
    """clip(0.2 * x + 0.5, 0, 1), Keras's piecewise-linear sigmoid."""
    return math_ops.clip_by_value(x * 0.2 + 0.5, 0.0, 1.0)


def mish(x: Any) -> Any:
    """x * tanh(softplus(x))."""
    return x * math_ops.tanh(nn.softplus(x))


def swish(x: Any) -> Any:
    """x * sigmoid(x)."""
    return x * math_ops.sigmoid(x)


_BY_NAME = {f.__name__: f for f in (relu, softmax, sigmoid, tanh, linear, elu, selu, softplus, softsign,
                                     exponential, hard_sigmoid, swish, mish)}


def get(identifier: Any) -> Callable:
    """The activation for a name, a callable, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        return by_name(_BY_NAME, identifier, "activation function")
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation: Callable) -> str:
    """The name of an activation function (what model configs store): a built-in's name, or a custom function's
    __name__ (loading it back needs that name registered, see keras.utils.custom_object_scope)."""
    name = getattr(activation, "__name__", None)
    if name is None:
        raise ValueError(f"Unknown activation function {activation}")
    return name


def deserialize(name: str, custom_objects: Optional[dict] = None) -> Callable:
    """The activation function named `name` (custom_objects first)."""
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    return get(name)
