"""tf.compat.v1.keras.initializers: edgelite's init_ops classes under Keras's names, and get() for strings."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.ops import init_ops
from edgelite.ops.identity_initializer import Identity
from edgelite.ops.init_ops import (  # noqa: F401
    Constant, GlorotNormal, GlorotUniform, Initializer, Ones, Orthogonal, VarianceScaling, Zeros, he_normal,
    he_uniform, lecun_normal, lecun_uniform,
)

from ._lookup import by_name


class RandomUniform(init_ops.RandomUniform):
    """Uniform in [minval, maxval); Keras's defaults are -0.05 and 0.05."""

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: Optional[int] = None,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(minval=minval, maxval=maxval, seed=seed, dtype=dtype)


class RandomNormal(init_ops.RandomNormal):
    """Normal(mean, stddev); Keras's defaults are 0 and 0.05."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Optional[int] = None,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


class TruncatedNormal(init_ops.TruncatedNormal):
    """Normal(mean, stddev) redrawn beyond two deviations; Keras's defaults are 0 and 0.05."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Optional[int] = None,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)

constant = Constant
glorot_normal = GlorotNormal
glorot_uniform = GlorotUniform
identity = Identity
ones = Ones
orthogonal = Orthogonal
random_normal = normal = RandomNormal
random_uniform = uniform = RandomUniform
truncated_normal = TruncatedNormal
zeros = Zeros

_BY_NAME = {
    "constant": Constant, "glorot_normal": GlorotNormal, "glorot_uniform": GlorotUniform, "identity": Identity,
    "ones": Ones, "orthogonal": Orthogonal, "random_normal": RandomNormal, "random_uniform": RandomUniform,
    "normal": RandomNormal, "uniform": RandomUniform,
    "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling, "zeros": Zeros,
    "he_normal": he_normal, "he_uniform": he_uniform, "lecun_normal": lecun_normal, "lecun_uniform": lecun_uniform,
}
# Class names as they appear in saved model configs.
_BY_CLASS = {"Constant": Constant, "GlorotNormal": GlorotNormal, "GlorotUniform": GlorotUniform, "Identity": Identity,
             "Ones": Ones, "Orthogonal": Orthogonal, "RandomNormal": RandomNormal, "RandomUniform": RandomUniform,
             "TruncatedNormal": TruncatedNormal, "VarianceScaling": VarianceScaling, "Zeros": Zeros}


def get(identifier: Any) -> Optional[Any]:
    """An initializer from a name ('glorot_uniform'), a config dict, an instance or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return by_name({**_BY_NAME, **_BY_CLASS}, identifier, "initializer")()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def serialize(initializer: Any) -> dict:
    """{'class_name', 'config'} of an initializer."""
    return {"class_name": type(initializer).__name__, "config": initializer.get_config()}


def deserialize(config: dict, custom_objects: Optional[dict] = None) -> Any:
    """The initializer a serialize() dict describes."""
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _BY_CLASS.get(name)
    if cls is None:
        raise ValueError(f"Unknown initializer: '{name}'.")
    return cls.from_config(dict(config.get("config", {})))
