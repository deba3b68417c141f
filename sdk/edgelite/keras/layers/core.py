"""Keras core layers: Dense, Dropout, Flatten, Activation, Reshape (Dense/Dropout/Flatten reuse edgelite.layers)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.layers import core as tf_core
from edgelite.ops import array_ops, math_ops

from .. import activations, initializers, regularizers
from ..engine.base_layer import Layer


def _name_of(fn: Any) -> Any:
    """The config entry of an activation/initializer/regularizer: a name, a serialized dict or None."""
    if fn is None:
        return None
    if hasattr(fn, "get_config"):
        return {"class_name": type(fn).__name__, "config": fn.get_config()}
    return activations.serialize(fn)


def kernel_bias_config(layer: Any) -> dict:
    """The activation, use_bias and kernel/bias initializer/regularizer entries of Dense and Conv configs."""
    return dict(activation=_name_of(layer.activation), use_bias=layer.use_bias,
                kernel_initializer=_name_of(layer.kernel_initializer),
                bias_initializer=_name_of(layer.bias_initializer), kernel_regularizer=_name_of(layer.kernel_regularizer),
                bias_regularizer=_name_of(layer.bias_regularizer),
                activity_regularizer=_name_of(layer.activity_regularizer), kernel_constraint=None,
                bias_constraint=None)


class Dense(Layer, tf_core.Dense):
    """activation(inputs @ kernel + bias); kernel 'glorot_uniform', bias 'zeros' by default."""

    supports_masking = True

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        Layer._keras_init(tf_core.Dense.__init__, self, units, activation=activations.get(activation),
                          use_bias=use_bias, kernel_initializer=initializers.get(kernel_initializer),
                          bias_initializer=initializers.get(bias_initializer),
                          kernel_regularizer=regularizers.get(kernel_regularizer),
                          bias_regularizer=regularizers.get(bias_regularizer),
                          activity_regularizer=regularizers.get(activity_regularizer),
                          kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, **kwargs)

    def build(self, input_shape: Any) -> None:
        """Keras's check of the last input dimension, then the kernel and bias."""
        dims = input_shape.as_list() if input_shape.ndims is not None else None
        if dims is None or dims[-1] is None:
            shown = "<unknown>" if dims is None else "(" + ", ".join("?" if d is None else str(d) for d in dims) + ")"
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {shown}")
        tf_core.Dense.build(self, input_shape)

    def get_config(self) -> dict:
        return dict(super().get_config(), units=self.units, **kernel_bias_config(self))


class Dropout(Layer, tf_core.Dropout):
    """Drops a `rate` fraction of the inputs (scaling the rest) while the learning phase is 1."""

    supports_masking = True

    def __init__(self, rate: float, noise_shape: Any = None, seed: Optional[int] = None, **kwargs: Any) -> None:
        Layer._keras_init(tf_core.Dropout.__init__, self, rate, noise_shape=noise_shape, seed=seed, **kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)


class Flatten(Layer, tf_core.Flatten):
    """[batch, d1, ..., dn] -> [batch, d1 * ... * dn]."""

    def __init__(self, data_format: Optional[str] = None, **kwargs: Any) -> None:
        Layer._keras_init(tf_core.Flatten.__init__, self, data_format=data_format, **kwargs)

    def get_config(self) -> dict:
        return dict(super().get_config(), data_format=self.data_format)


class Activation(Layer):
    """Applies an activation function (a name such as 'relu', or a callable)."""

    supports_masking = True

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs: Any) -> Any:
        """activation(inputs)."""
        return self.activation(inputs)

    def get_config(self) -> dict:
        return dict(super().get_config(), activation=_name_of(self.activation))


class Reshape(Layer):
    """Reshapes each sample to `target_shape` (one entry may be -1); the batch axis is kept."""

    def __init__(self, target_shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def _resolved(self, input_shape: Any) -> Optional[tuple]:
        """The target with its -1 filled in, when the sample size is known; ValueError when it cannot fit."""
        dims = input_shape.as_list()[1:]
        if any(d is None for d in dims):
            return None
        total = int(np.prod(dims, dtype=np.int64))
        known = int(np.prod([d for d in self.target_shape if d != -1], dtype=np.int64))
        unknown = [i for i, d in enumerate(self.target_shape) if d == -1]
        if len(unknown) > 1:
            raise ValueError(f"There must be at most one unknown dimension in output_shape. Received: "
                             f"output_shape={self.target_shape}.")
        out = list(self.target_shape)
        if unknown:
            if known == 0 or total % known:
                raise ValueError(f"total size of new array must be unchanged, input_shape = {list(dims)}, "
                                 f"output_shape = {list(self.target_shape)}")
            out[unknown[0]] = total // known
        elif known != total:
            raise ValueError(f"total size of new array must be unchanged, input_shape = {list(dims)}, "
                             f"output_shape = {list(self.target_shape)}")
        return tuple(out)

    def call(self, inputs: Any) -> Any:
        """One Reshape op to [batch, *target_shape]."""
        target = self._resolved(inputs.shape)
        if target is not None:
            return array_ops.reshape(inputs, (-1,) + target)
        batch = array_ops.shape(inputs)[:1]
        return array_ops.reshape(inputs, array_ops.concat([batch, list(self.target_shape)], 0))

    def get_config(self) -> dict:
        return dict(super().get_config(), target_shape=list(self.target_shape))


class Masking(Layer):
    """Marks the time steps whose features all equal mask_value (0.0) as skipped: they are zeroed and the output
    carries a mask for the recurrent and pooling layers after it."""

    supports_masking = True

    def __init__(self, mask_value: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def _kept(self, inputs: Any, keepdims: bool) -> Any:
        return math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=keepdims)

    def call(self, inputs: Any) -> Any:
        """inputs with the masked steps set to zero."""
        return inputs * math_ops.cast(self._kept(inputs, True), inputs.dtype)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """True for the steps with at least one feature different from mask_value."""
        return self._kept(inputs, False)

    def get_config(self) -> dict:
        return dict(super().get_config(), mask_value=self.mask_value)
