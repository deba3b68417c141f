"""Keras layer wrappers: TimeDistributed (a layer applied to every time step) and Bidirectional (a recurrent
layer run forwards and backwards, outputs merged)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import tensor_shape
from edgelite.ops import array_ops, math_ops

from ..engine.base_layer import Layer


class _Wrapper(Layer):
    """A layer owning other layers: its weights, losses and updates are theirs."""

    def _inner(self) -> list:
        return []

    @property
    def trainable_weights(self) -> list:
        if not self.trainable:
            return []
        return [w for layer in self._inner() for w in layer.trainable_weights]

    @property
    def non_trainable_weights(self) -> list:
        if not self.trainable:
            return [w for layer in self._inner() for w in layer.weights]
        return [w for layer in self._inner() for w in layer.non_trainable_weights]

    @property
    def losses(self) -> list:
        return [loss for layer in self._inner() for loss in layer.losses]

    @property
    def updates(self) -> list:
        return [u for layer in self._inner() for u in layer.updates]


class TimeDistributed(_Wrapper):
    """Applies `layer` to each slice [:, t] of a [batch, time, ...] input (one call on [batch * time, ...]);
    the wrapped layer's weights are named after the wrapper ('time_distributed/kernel:0'). A time mask passes
    through unchanged (the wrapped layer sees no mask)."""

    supports_masking = True

    def __init__(self, layer: Layer, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a `tf.keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def _inner(self) -> list:
        return [self.layer]

    def build(self, input_shape: Any) -> None:
        """Builds the wrapped layer for one time step, inside this layer's name scope."""
        shape = tensor_shape.as_shape(input_shape)
        if shape.ndims is None or shape.ndims < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, "
                             f"received: {tuple(shape.as_list()) if shape.ndims is not None else shape}")
        if self.layer._dtype is None:
            self.layer._dtype = self._dtype
        self.layer.build(tensor_shape.TensorShape([None] + shape.as_list()[2:]))
        self.layer.built = True
        self.built = True

    def call(self, inputs: Any, training: Any = None) -> Any:
        """Merges batch and time, applies the layer, splits them again."""
        dims = inputs.shape.as_list()
        inner = dims[2:]
        if any(d is None for d in inner):
            raise ValueError(f"TimeDistributed needs the per-step shape known, got {tuple(dims)}")
        flat = array_ops.reshape(inputs, [-1] + inner)
        kwargs = {"training": training} if self.layer._expects_training_arg and training is not None else {}
        out = self.layer.call(flat, **kwargs)
        out_inner = out.shape.as_list()[1:]
        steps = dims[1] if dims[1] is not None else array_ops.shape(inputs)[1]
        if dims[1] is not None:
            return array_ops.reshape(out, [-1, steps] + out_inner)
        return array_ops.reshape(out, array_ops.concat([[-1], [steps], out_inner], 0))

    def get_config(self) -> dict:
        return dict(super().get_config(), layer={"class_name": type(self.layer).__name__,
                                                 "config": self.layer.get_config()})

    @classmethod
    def from_config(cls, config: dict) -> "TimeDistributed":
        from ..engine.model_config import layer_from_config
        config = dict(config)
        return cls(layer_from_config(config.pop("layer")), **config)


class Bidirectional(_Wrapper):
    """Runs a recurrent layer forwards ('forward_<name>') and a copy backwards ('backward_<name>') and merges
    their outputs: 'concat' (default), 'sum', 'mul', 'ave', or None for the pair."""

    _MODES = ("sum", "mul", "ave", "concat", None)

    def __init__(self, layer: Layer, merge_mode: Optional[str] = "concat", weights: Any = None,
                 backward_layer: Optional[Layer] = None, **kwargs: Any) -> None:
        if merge_mode not in self._MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             "{\"sum\", \"mul\", \"ave\", \"concat\", None}")
        if getattr(layer, "return_state", False):
            raise ValueError("Bidirectional here does not support return_state=True")
        super().__init__(**kwargs)
        config = layer.get_config()
        if backward_layer is None:
            backward_layer = type(layer).from_config(dict(config, go_backwards=not layer.go_backwards))
        self.forward_layer, self.backward_layer = layer, backward_layer
        for inner in (layer, backward_layer):
            # as in Keras: masked steps of returned sequences are zeros in both directions
            if hasattr(inner, "zero_output_for_mask"):
                inner.zero_output_for_mask = inner.return_sequences
        name = layer.name
        self.forward_layer._name = "forward_" + name
        self.backward_layer._name = "backward_" + name
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences

    def _inner(self) -> list:
        return [self.forward_layer, self.backward_layer]

    def build(self, input_shape: Any) -> None:
        """The two layers are built on their first call."""
        self.built = True

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """The input mask for sequence outputs (one per direction when not merged); none for last outputs."""
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        return [output_mask, output_mask] if self.merge_mode is None else output_mask

    def call(self, inputs: Any, training: Any = None, mask: Any = None, initial_state: Any = None) -> Any:
        """Both directions (each honouring the mask), the backward sequence re-reversed to time order, then
        merged."""
        extra = {} if mask is None else {"mask": mask}
        forward = self.forward_layer(inputs, initial_state=initial_state, **extra)
        backward = self.backward_layer(inputs, initial_state=initial_state, **extra)
        if self.return_sequences:
            backward = array_ops.reverse(backward, [1])
        if self.merge_mode == "concat":
            return array_ops.concat([forward, backward], -1)
        if self.merge_mode == "sum":
            return math_ops.add(forward, backward)
        if self.merge_mode == "mul":
            return math_ops.multiply(forward, backward)
        if self.merge_mode == "ave":
            return (forward + backward) / 2.0
        return [forward, backward]

    def get_config(self) -> dict:
        config = self.forward_layer.get_config()
        config["name"] = config["name"][len("forward_"):]
        return dict(super().get_config(), merge_mode=self.merge_mode,
                    layer={"class_name": type(self.forward_layer).__name__, "config": config})

    @classmethod
    def from_config(cls, config: dict) -> "Bidirectional":
        from ..engine.model_config import layer_from_config
        config = dict(config)
        backward = config.pop("backward_layer", None)
        return cls(layer_from_config(config.pop("layer")),
                   backward_layer=layer_from_config(backward) if backward else None, **config)
