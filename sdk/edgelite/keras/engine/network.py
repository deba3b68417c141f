"""Functional keras.Model and keras.Sequential: layers traced from Keras input tensors to outputs."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import numpy as np

from edgelite.framework import dtypes, ops

from .. import backend, saving
from .base_layer import Layer, Node, as_list
from .input_layer import Input, InputLayer
from .summary import print_summary
from .training import TrainingMixin


def _trace(inputs: List[Any], outputs: List[Any]) -> tuple:
    """The nodes between `inputs` and `outputs` (each after the nodes producing its inputs) and the layers in
    Keras's order: by decreasing depth from the outputs, ties in depth-first discovery order."""
    stop = {id(t) for t in inputs}
    order: List[Node] = []
    found: List[Node] = []
    seen: set = set()

    def visit(tensor: Any) -> None:
        node = getattr(tensor, "_keras_history", None)
        if id(tensor) in stop:
            if id(node) not in seen:
                seen.add(id(node))
                found.append(node)
            return
        if node is None or isinstance(node.layer, InputLayer):
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor} at layer "
                             f"\"{node.layer.name if node else tensor.op.name}\". The following previous layers "
                             "were accessed without issue: " + str([n.layer.name for n in order]))
        if id(node) in seen:
            return
        for t in node.input_tensors:
            visit(t)
        seen.add(id(node))
        order.append(node)
        found.append(node)

    for out in outputs:
        visit(out)
    depth: Dict[int, int] = {}
    for node in reversed(found):
        here = depth.setdefault(id(node), 0)
        if node in order:
            for t in node.input_tensors:
                source = t._keras_history
                depth[id(source)] = max(depth.get(id(source), 0), here + 1)
    layer_depth: Dict[int, int] = {}
    discovery: List[Layer] = []
    for node in found:
        layer = node.layer
        if id(layer) not in layer_depth:
            discovery.append(layer)
        layer_depth[id(layer)] = max(layer_depth.get(id(layer), 0), depth[id(node)])
    layers = sorted(discovery, key=lambda la: (-layer_depth[id(la)], discovery.index(la)))
    return order, layers


class Model(TrainingMixin, Layer):
    """A graph of layers from `inputs` (Input tensors) to `outputs`, trainable with compile/fit."""

    def __init__(self, inputs: Any = None, outputs: Any = None, name: Optional[str] = None,
                 trainable: bool = True, **kwargs: Any) -> None:
        object.__setattr__(self, "_tracked", [])
        Layer.__init__(self, name=name, trainable=trainable)
        self._output_names: Optional[List[str]] = None
        self.inputs: List[Any] = []
        self.outputs: List[Any] = []
        self._nodes: List[Node] = []
        self._model_layers: List[Layer] = []
        self._is_compiled = False
        self.stop_training = False
        self.optimizer = None
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r}")
        if inputs is not None or outputs is not None:
            if inputs is None or outputs is None:
                raise ValueError("Model(inputs, outputs) needs both `inputs` and `outputs`")
            self._init_graph(inputs, outputs)

    def _init_graph(self, inputs: Any, outputs: Any) -> None:
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs = as_list(inputs)
        self.outputs = as_list(outputs)
        for i, x in enumerate(self.inputs):
            node = getattr(x, "_keras_history", None)
            if node is None or not isinstance(node.layer, InputLayer):
                # a plain placeholder becomes the tensor of an InputLayer, as Keras wraps it
                InputLayer(input_tensor=x, name=x.op.name)
        self._nodes, self._model_layers = _trace(self.inputs, self.outputs)
        self.built = True

    def __setattr__(self, name: str, value: Any) -> None:
        # A subclassed model owns the layers assigned to its attributes (singly or in lists), in that order.
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if isinstance(item, Layer) and item is not self and item not in self.__dict__.get("_tracked", []):
                self.__dict__.setdefault("_tracked", []).append(item)
        object.__setattr__(self, name, value)

    @property
    def _is_subclassed(self) -> bool:
        return type(self).call is not Model.call and not isinstance(self, Sequential)

    def _build_from_data(self, x: Any) -> None:
        """A subclassed model is built by calling it on Input placeholders shaped like the first data batch."""
        if not self._is_subclassed:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                             "calling the model on a batch of data.")
        arrays = [np.asarray(a) for a in (x if isinstance(x, (list, tuple)) else [x])]
        inputs = [Input(batch_shape=(None,) + a.shape[1:], dtype=backend.floatx() if a.dtype.kind == "f"
                        else a.dtype.name) for a in arrays]
        outputs = self(inputs if len(inputs) > 1 else inputs[0])
        self.inputs, self.outputs = inputs, as_list(outputs)
        self._output_names = [f"output_{i + 1}" for i in range(len(self.outputs))]

    # ---- structure ------------------------------------------------------------------------------------
    @property
    def layers(self) -> List[Layer]:
        """The model's layers, inputs first, in call order (a subclassed model: its layer attributes)."""
        if self._is_subclassed:
            return list(self._tracked)
        return list(self._model_layers)

    def get_layer(self, name: Optional[str] = None, index: Optional[int] = None) -> Layer:
        """A layer by name or by index in `layers`."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[la.name for la in self.layers]}.")

    @property
    def input_names(self) -> List[str]:
        """Names of the input layers."""
        return [x._keras_history.layer.name for x in self.inputs]

    @property
    def output_names(self) -> List[str]:
        """Names of the layers producing the outputs ('output_1', ... for a subclassed model)."""
        if self._output_names is not None:
            return list(self._output_names)
        return [x._keras_history.layer.name for x in self.outputs]

    @property
    def input(self) -> Any:
        """The input tensor (a list when there are several)."""
        self._require_built()
        return self.inputs[0] if len(self.inputs) == 1 else list(self.inputs)

    @property
    def output(self) -> Any:
        """The output tensor (a list when there are several)."""
        self._require_built()
        return self.outputs[0] if len(self.outputs) == 1 else list(self.outputs)

    @property
    def input_shape(self) -> Any:
        """Shape of the input(s) as tuples."""
        shapes = [tuple(x.shape.as_list()) for x in as_list(self.input)]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self) -> Any:
        """Shape of the output(s) as tuples."""
        shapes = [tuple(x.shape.as_list()) for x in as_list(self.output)]
        return shapes[0] if len(shapes) == 1 else shapes

    def _require_built(self) -> None:
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                             "calling the model on a batch of data.")

    # ---- weights -----------------------------------------------------------------------------------------
    @property
    def trainable_weights(self) -> list:
        """Trainable weights of every layer, in layer order (none when the model is frozen)."""
        if not self.trainable:
            return []
        return _unique(w for layer in self.layers for w in layer.trainable_weights)

    @property
    def non_trainable_weights(self) -> list:
        """Non-trainable weights of every layer (all of them when the model is frozen)."""
        if not self.trainable:
            return _unique(w for layer in self.layers for w in layer.weights)
        return _unique(w for layer in self.layers for w in layer.non_trainable_weights)

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def weights(self) -> list:
        """Every layer's weights, layer by layer (the order of get_weights, set_weights and weight files)."""
        self._require_weights()
        return _unique(w for layer in self.layers for w in layer.weights)

    variables = weights

    def _require_weights(self) -> None:
        if not self.built:
            raise ValueError(f"Weights for model '{self.name}' have not yet been created. Weights are created when "
                             "the model is first called on inputs or `build()` is called with an `input_shape`.")

    @property
    def losses(self) -> list:
        """Losses (weight regularization) of every layer."""
        return [loss for layer in self.layers for loss in layer.losses]

    @property
    def updates(self) -> list:
        """Update ops (batch-norm moving averages) of every layer."""
        return [u for layer in self.layers for u in layer.updates]

    def get_weights(self) -> List[np.ndarray]:
        """Values of `weights`."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights: List[Any]) -> None:
        """Assigns values to `weights`, in order."""
        Layer.set_weights(self, weights)

    def count_params(self) -> int:
        """Number of scalars in all weights."""
        self._require_built()
        return int(sum(int(np.prod(w.shape.as_list(), dtype=np.int64)) for w in self.weights))

    def save_weights(self, filepath: str, overwrite: bool = True, save_format: Any = None) -> None:
        """Writes the weights to an HDF5 file in Keras's layout."""
        saving.save_weights(self, filepath, overwrite=overwrite)

    def load_weights(self, filepath: str, by_name: bool = False, skip_mismatch: bool = False) -> None:
        """Reads weights saved by save_weights or save (layer order, or matched by layer name)."""
        self._require_weights()
        saving.load_weights(self, filepath, by_name=by_name, skip_mismatch=skip_mismatch)

    def save(self, filepath: str, overwrite: bool = True, include_optimizer: bool = True,
             save_format: Any = None, **kwargs: Any) -> None:
        """Architecture, compile arguments and weights in one HDF5 file (load with keras.models.load_model)."""
        self._require_built()
        saving.save_model(self, filepath, overwrite=overwrite, include_optimizer=include_optimizer)

    def to_json(self, **kwargs: Any) -> str:
        """The model config as JSON (rebuild with keras.models.model_from_json)."""
        from .. import version
        return json.dumps({"class_name": "Sequential" if isinstance(self, Sequential) else "Functional",
                           "config": self.get_config(), "keras_version": version.KERAS_VERSION,
                           "backend": "tensorflow"}, **kwargs)

    def summary(self, line_length: Optional[int] = None, positions: Optional[list] = None,
                print_fn: Any = None) -> None:
        """Prints the layer table: names, output shapes, parameter counts."""
        self._require_built()
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn)

    # ---- calling -----------------------------------------------------------------------------------------
    def call(self, inputs: Any, training: Any = None) -> Any:
        """Re-applies the model's layers to new input tensors."""
        values: Dict[int, Any] = {id(x): t for x, t in zip(self.inputs, as_list(inputs))}
        for node in self._nodes:
            args = [values[id(t)] for t in node.input_tensors]
            kwargs = dict(node.kwargs)
            if training is not None and node.layer._expects_training_arg:
                kwargs["training"] = training
            out = node.layer(args if isinstance(node.inputs, (list, tuple)) else args[0], **kwargs)
            for orig, new in zip(node.output_tensors, as_list(out)):
                values[id(orig)] = new
        outs = [values[id(t)] for t in self.outputs]
        return outs[0] if len(outs) == 1 else outs

    def get_config(self) -> dict:
        """The functional graph: layers with their configs and inbound connections."""
        layers = []
        for layer in self.layers:
            inbound = []
            for node in layer._inbound_nodes:
                if node in self._nodes:
                    inbound.append([[t._keras_history.layer.name, _node_index(t), _tensor_index(t), {}]
                                    for t in node.input_tensors])
            layers.append({"class_name": type(layer).__name__, "config": layer.get_config(), "name": layer.name,
                           "inbound_nodes": inbound})
        return {"name": self.name, "layers": layers,
                "input_layers": [[x._keras_history.layer.name, 0, 0] for x in self.inputs],
                "output_layers": [[x._keras_history.layer.name, _node_index(x), _tensor_index(x)]
                                  for x in self.outputs]}


def _node_index(t: Any) -> int:
    node = t._keras_history
    return node.layer._inbound_nodes.index(node)


def _tensor_index(t: Any) -> int:
    return [id(o) for o in t._keras_history.output_tensors].index(id(t))


def _unique(items: Any) -> list:
    out, seen = [], set()
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


class Sequential(Model):
    """A linear stack of layers; built at once when the first layer knows its input shape, else on first use."""

    def __init__(self, layers: Optional[List[Layer]] = None, name: Optional[str] = None) -> None:
        super().__init__(name=name)
        self._stack: List[Layer] = []
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self) -> List[Layer]:
        """The stacked layers (the implicit InputLayer is not listed)."""
        return [la for la in self._stack if not isinstance(la, InputLayer)]

    def add(self, layer: Layer) -> None:
        """Appends a layer, calling it on the current output when the model is built."""
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer} of type {type(layer)}.")
        if any(la.name == layer.name for la in self._stack):
            raise ValueError(f"All layers added to a Sequential model should have unique names. Name \"{layer.name}\" "
                             "is already the name of a layer in this model. Update the `name` argument to pass a "
                             "unique name.")
        self._stack.append(layer)
        if isinstance(layer, InputLayer):
            self._init_graph(layer.output, layer.output)
            return
        if self.outputs:
            self._set_graph(layer(self.outputs[0]))
        elif layer._batch_input_shape is not None and len(self._stack) == 1:
            x = Input(batch_shape=layer._batch_input_shape, dtype=layer._dtype, name=layer.name + "_input")
            self.inputs = [x]
            self._set_graph(layer(x))

    def _set_graph(self, output: Any) -> None:
        if isinstance(output, (list, tuple)):
            raise ValueError("All layers in a Sequential model should have a single output tensor. For multi-output "
                             "layers, use the functional API.")
        self._init_graph(self.inputs[0], output)

    def pop(self) -> None:
        """Removes the last layer (the model is rebuilt on the remaining ones)."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._stack.pop()
        if self.built:
            remaining = self.layers
            self._init_graph(self.inputs[0], remaining[-1]._inbound_nodes[-1].outputs if remaining else self.inputs[0])

    def build(self, input_shape: Any = None) -> None:
        """Builds the stack on an Input of `input_shape` (batch dimension included)."""
        if self.built:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        first = self._stack[0]
        dtype = first._dtype or dtypes.as_dtype(backend.floatx())
        x = Input(batch_shape=tuple(input_shape), dtype=dtype, name=first.name + "_input")
        out = x
        for layer in self._stack:
            out = layer(out)
        self._init_graph(x, out)

    def _build_from_data(self, x: Any) -> None:
        """Deferred build from the first batch fed to fit/evaluate/predict."""
        arr = np.asarray(x[0] if isinstance(x, (list, tuple)) else x)
        if arr.ndim == 1:
            arr = arr[:, None]
        dtype = backend.floatx() if arr.dtype.kind == "f" else arr.dtype
        self._stack[0]._dtype = dtypes.as_dtype(dtype)
        self.build((None,) + arr.shape[1:])

    def call(self, inputs: Any, training: Any = None) -> Any:
        """Applies the layers in order."""
        if not self.built:
            out = inputs
            for layer in self._stack:
                out = layer(out)
            return out
        return Model.call(self, inputs, training=training)

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not self.built:
            x = ops.convert_to_tensor(inputs)
            self.build(tuple(x.shape.as_list()))
        return Model.__call__(self, inputs, *args, **kwargs)

    def get_config(self) -> dict:
        """The layer configs in order."""
        layers = [{"class_name": type(la).__name__, "config": la.get_config()} for la in self.layers]
        if self.built:
            layers.insert(0, {"class_name": "InputLayer", "config": self.inputs[0]._keras_history.layer.get_config()})
        return {"name": self.name, "layers": layers}
