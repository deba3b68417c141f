"""Keras Layer for graph mode: unique per-graph names, weights made under the layer's name scope, call history.

Keras layers differ from tf.compat.v1.layers in naming (a name is fixed at construction: 'dense', 'dense_1', ...,
and variables are named by the name scope, 'dense/kernel:0'), in string activations/initializers, in the
learning-phase default of `training`, and in recording each call so Model can trace inputs to outputs.
The concrete layers reuse the build/call of edgelite.layers through multiple inheritance.
"""
from __future__ import annotations

import inspect
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.layers import base as tf_base
from edgelite.layers.input_spec import assert_input_compatibility
from edgelite.ops import variables

from .. import backend, initializers

# Constructor keywords every Keras layer accepts besides its own (input shape hints and weights).
_KERAS_KWARGS = ("input_shape", "batch_input_shape", "batch_size", "input_dim", "weights", "dynamic")


class Node:
    """One call of a layer: the Keras tensors it took and the ones it returned."""

    def __init__(self, layer: "Layer", inputs: Any, outputs: Any, kwargs: dict) -> None:
        self.layer, self.inputs, self.outputs, self.kwargs = layer, inputs, outputs, kwargs

    @property
    def input_tensors(self) -> list:
        """The call's inputs as a list."""
        return list(self.inputs) if isinstance(self.inputs, (list, tuple)) else [self.inputs]

    @property
    def output_tensors(self) -> list:
        """The call's outputs as a list."""
        return list(self.outputs) if isinstance(self.outputs, (list, tuple)) else [self.outputs]


def as_list(value: Any) -> list:
    """A list from a single item, a tuple or a list (None -> [])."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def shape_tuple(shape: Any) -> tuple:
    """A TensorShape as Keras shows it: (None, 5)."""
    return tuple(tensor_shape.as_shape(shape).as_list())


class Layer(tf_base.Layer):
    """Base class of tf.keras layers (graph mode)."""

    # Layers that pass a mask through unchanged set this; layers that make or consume masks override compute_mask
    supports_masking = False

    def __init__(self, trainable: bool = True, name: Optional[str] = None, dtype: Any = None, **kwargs: Any) -> None:
        keras_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in _KERAS_KWARGS}
        activity_regularizer = kwargs.pop("activity_regularizer", None)
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r}")
        tf_base.Layer.__init__(self, trainable=trainable, name=name, dtype=dtype,
                               activity_regularizer=activity_regularizer)
        self._keras_setup(name, keras_kwargs)

    def _keras_setup(self, name: Optional[str], keras_kwargs: Dict[str, Any]) -> None:
        """Fixes the layer's unique name and the input-shape hints (Keras does this at construction)."""
        if name is None:
            name = backend.unique_object_name(tf_base.to_snake_case(type(self).__name__), zero_based=True)
        elif not isinstance(name, str):
            raise TypeError(f"The `name` argument must be a string, got {name!r}")
        self._name = name
        self._base_name = name
        self._inbound_nodes: List[Node] = []
        self._initial_weights = [np.asarray(w) for w in keras_kwargs.get("weights") or []]
        batch_input_shape = keras_kwargs.get("batch_input_shape")
        if batch_input_shape is None:
            input_shape = keras_kwargs.get("input_shape")
            if input_shape is None and keras_kwargs.get("input_dim") is not None:
                input_shape = (keras_kwargs["input_dim"],)
            if input_shape is not None:
                batch_input_shape = (keras_kwargs.get("batch_size"),) + tuple(input_shape)
        self._batch_input_shape = None if batch_input_shape is None else tuple(batch_input_shape)
        parameters = inspect.signature(self.call).parameters
        self._expects_training_arg = "training" in parameters
        self._expects_mask_arg = "mask" in parameters

    @classmethod
    def _keras_init(cls, base_init: Any, self: "Layer", *args: Any, **kwargs: Any) -> None:
        """Runs an edgelite.layers __init__ with the Keras-only keywords held back, then the Keras setup."""
        keras_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in _KERAS_KWARGS}
        name = kwargs.get("name")
        base_init(self, *args, **kwargs)
        self._keras_setup(name, keras_kwargs)

    # ---- properties ----------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The layer's unique name."""
        return self._name

    @property
    def input(self) -> Any:
        """The input tensor(s) of the layer's first call."""
        return self._node_attr("inputs", "input")

    @property
    def output(self) -> Any:
        """The output tensor(s) of the layer's first call."""
        return self._node_attr("outputs", "output")

    @property
    def input_shape(self) -> Any:
        """Shape of the first call's input, as a tuple (None for unknown dimensions)."""
        inputs = self.input
        if isinstance(inputs, (list, tuple)):
            return [shape_tuple(t.shape) for t in inputs]
        return shape_tuple(inputs.shape)

    @property
    def output_shape(self) -> Any:
        """Shape of the first call's output, as a tuple."""
        outputs = self.output
        if isinstance(outputs, (list, tuple)):
            return [shape_tuple(t.shape) for t in outputs]
        return shape_tuple(outputs.shape)

    def _node_attr(self, attr: str, what: str) -> Any:
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no {what} to return.")
        return getattr(self._inbound_nodes[0], attr)

    # ---- weights ----------------------------------------------------------------------------------------
    def add_weight(self, name: str, shape: Sequence[Any] = (), dtype: Any = None, initializer: Any = None,
                   regularizer: Any = None, trainable: Optional[bool] = None, constraint: Any = None,
                   **kwargs: Any) -> variables.Variable:
        """A variable named '<name scope>/<name>' initialised by `initializer` (glorot_uniform for floats)."""
        dtype = dtypes.as_dtype(dtype or self._dtype or backend.floatx())
        init = initializers.get(initializer)
        if self._initial_weights:
            # weights=[...] given to the constructor become the initial values, in add_weight order
            init = initializers.Constant(np.asarray(self._initial_weights.pop(0)))
        elif init is None:
            init = initializers.GlorotUniform() if dtype.is_floating else initializers.Zeros()
        trainable = True if trainable is None else trainable
        shape = [int(d) for d in tensor_shape.as_shape(shape).as_list()]
        var = variables.Variable(lambda: init(shape, dtype=dtype), name=name, dtype=dtype,
                                 trainable=trainable and self.trainable, constraint=constraint)
        backend.track_variable(var)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(var)
        if regularizer is not None:
            with ops.name_scope(name + "/Regularizer"):
                self.add_loss(regularizer(var))
        return var

    def add_loss(self, loss: Any, inputs: Any = None) -> None:
        """Records a loss tensor (Keras keeps layer losses on the layer, not in a graph collection)."""
        if loss is not None:
            self._losses.append(loss)

    def get_weights(self) -> List[np.ndarray]:
        """Current values of the layer's weights, trainable first."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights: Sequence[Any]) -> None:
        """Assigns numpy values to the weights, in the order of `weights`; ValueError on count/shape mismatch."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer \"{self.name}\" with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(params)} weights. Provided "
                             f"weights: {str(weights)[:50]}...")
        pairs = []
        for param, value in zip(params, weights):
            value = np.asarray(value)
            expected = tuple(param.shape.as_list())
            if expected != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {expected} is not compatible with provided weight "
                                 f"shape {value.shape}.")
            pairs.append((param, value))
        backend.batch_set_value(pairs)

    def count_params(self) -> int:
        """Number of scalars in the layer's weights (ValueError before it is built)."""
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer {self.name}, but the layer isn't built. "
                             "You can build it manually via: `" + self.name + ".build(batch_input_shape)`.")
        return int(sum(int(np.prod(w.shape.as_list(), dtype=np.int64)) for w in self.weights))

    def get_config(self) -> dict:
        """name, trainable, dtype (and batch_input_shape when given): the base of every layer's config."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": (self._dtype or dtypes.as_dtype(backend.floatx())).name}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = list(self._batch_input_shape)
        return config

    @classmethod
    def from_config(cls, config: dict) -> "Layer":
        """The layer a get_config() dict describes."""
        return cls(**config)

    # ---- calling ----------------------------------------------------------------------------------------
    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        inputs = _to_tensors(inputs)
        if self.input_spec is not None:
            assert_input_compatibility(self.input_spec, inputs, self.name)
        if self._dtype is None:
            first = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
            self._dtype = first.dtype.base_dtype if first.dtype.is_floating else dtypes.as_dtype(backend.floatx())
        if self._expects_training_arg and kwargs.get("training") is None:
            kwargs["training"] = backend.learning_phase()
        mask_aware = self.supports_masking or type(self).compute_mask is not Layer.compute_mask
        framework_mask = False
        previous_mask = kwargs.get("mask")
        if previous_mask is None and mask_aware:
            previous_mask = _masks_of(inputs)
            if previous_mask is not None and self._expects_mask_arg:
                kwargs["mask"], framework_mask = previous_mask, True
        n_updates = len(self._updates)
        with ops.name_scope(self.name):
            if not self.built:
                shapes = [t.shape for t in inputs] if isinstance(inputs, (list, tuple)) else inputs.shape
                self.build(shapes)
                self.built = True
            outputs = self.call(inputs, *args, **kwargs)
            if self.activity_regularizer is not None:
                self._activity_loss(outputs)
            if mask_aware:
                _set_masks(outputs, self.compute_mask(inputs, previous_mask))
        self._call_count += 1
        self._call_updates = self._updates[n_updates:]
        node = Node(self, inputs, outputs, {k: v for k, v in kwargs.items()
                                            if k != "training" and not (k == "mask" and framework_mask)})
        self._inbound_nodes.append(node)
        for t in as_list(outputs):
            t._keras_history = node
        return outputs

    apply = __call__

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """The outputs' mask (a bool [batch, steps] tensor or None): the input's for layers that support masking."""
        return mask if self.supports_masking else None

    def compute_output_shape(self, input_shape: Any) -> Any:
        """The output shape for an input shape, found by calling the layer on a throw-away placeholder."""
        graph = ops.Graph()
        with graph.as_default():
            probe = type(self).from_config(self.get_config())
            if isinstance(input_shape, list) and input_shape and isinstance(input_shape[0], (list, tuple)):
                xs = [backend.placeholder(shape=s, dtype=self._dtype) for s in input_shape]
            else:
                xs = backend.placeholder(shape=input_shape, dtype=self._dtype)
            out = probe(xs)
        return tensor_shape.as_shape(out.shape) if not isinstance(out, list) else [o.shape for o in out]


def _masks_of(inputs: Any) -> Any:
    """The `_keras_mask` of the input (or a list for several inputs), None when no input carries one."""
    if isinstance(inputs, (list, tuple)):
        masks = [getattr(t, "_keras_mask", None) for t in inputs]
        return None if all(m is None for m in masks) else masks
    return getattr(inputs, "_keras_mask", None)


def _set_masks(outputs: Any, masks: Any) -> None:
    """Attaches each output's mask, as Keras marks its tensors for the next layer."""
    outputs = as_list(outputs)
    masks = masks if isinstance(masks, (list, tuple)) else [masks] * len(outputs)
    for output, mask in zip(outputs, masks):
        output._keras_mask = mask


def _to_tensors(inputs: Any) -> Any:
    if isinstance(inputs, (list, tuple)):
        return [ops.convert_to_tensor(t) for t in inputs]
    return ops.convert_to_tensor(inputs)
