"""tf.keras.regularizers: Keras's L1/L2 penalties (l2 is l * sum(w^2), without the 1/2 of tf.nn.l2_loss)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.ops import math_ops

from ._lookup import by_name


class Regularizer:
    """Base class: a callable from a weight tensor to a scalar penalty."""

    def __call__(self, x: Any) -> Any:
        return math_ops.cast(0.0, x.dtype.base_dtype)

    def get_config(self) -> dict:
        """Constructor arguments."""
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Regularizer":
        """Instantiate from get_config()."""
        return cls(**config)


class L1L2(Regularizer):
    """l1 * sum(|w|) + l2 * sum(w^2)."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x: Any) -> Any:
        total = None
        if self.l1:
            total = self.l1 * math_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            term = self.l2 * math_ops.reduce_sum(math_ops.square(x))
            total = term if total is None else total + term
        return total if total is not None else super().__call__(x)

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """l1 * sum(|w|)."""

    def __init__(self, l1: float = 0.01, **kwargs: Any) -> None:
        super().__init__(l1=kwargs.pop("l", l1))

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(L1L2):
    """l2 * sum(w^2)."""

    def __init__(self, l2: float = 0.01, **kwargs: Any) -> None:
        super().__init__(l2=kwargs.pop("l", l2))

    def get_config(self) -> dict:
        return {"l2": self.l2}


def l1_l2(l1: float = 0.01, l2: float = 0.01) -> L1L2:
    """Both penalties, 0.01 each by default."""
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2

_BY_CLASS = {"L1L2": L1L2, "L1": L1, "L2": L2, "l1": L1, "l2": L2, "l1_l2": l1_l2}


def serialize(regularizer: Regularizer) -> dict:
    """{'class_name', 'config'} of a regularizer."""
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config: dict, custom_objects: Optional[dict] = None) -> Regularizer:
    """The regularizer a serialize() dict describes."""
    cls = (custom_objects or {}).get(config["class_name"]) or _BY_CLASS.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown regularizer: '{config['class_name']}'.")
    return cls(**config.get("config", {}))


def get(identifier: Any) -> Optional[Any]:
    """A regularizer from None, a name ('l2'), a config dict or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return by_name(_BY_CLASS, identifier, "regularizer")()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
