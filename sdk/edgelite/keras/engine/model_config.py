"""Rebuilding models from their configs (the model_config of .h5 files, model_from_json)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..custom_objects import CustomObjectScope, lookup
from .input_layer import InputLayer


def layer_classes() -> Dict[str, type]:
    """The layer classes a config may name, by class name."""
    from .. import layers
    from .network import Model, Sequential
    table = {name: getattr(layers, name) for name in dir(layers)
             if isinstance(getattr(layers, name), type) and not name.startswith("_")}
    table.update(Sequential=Sequential, Model=Model, Functional=Model)
    return table


def layer_from_config(entry: dict, custom_objects: Optional[dict] = None) -> Any:
    """A layer (or nested model) from {'class_name', 'config'}."""
    name = entry["class_name"]
    cls = (custom_objects or {}).get(name) or lookup(name) or layer_classes().get(name)
    if cls is None:
        raise ValueError(f"Unknown layer: '{name}'. Please ensure you are using a `keras.utils.custom_object_scope` "
                         "and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    if name in ("Sequential", "Model", "Functional"):
        return model_from_config(entry, custom_objects)
    # the layer's own names (activation, initializers, ...) resolve against custom_objects too
    with CustomObjectScope(custom_objects or {}):
        return cls.from_config(dict(entry["config"]))


def model_from_config(config: dict, custom_objects: Optional[dict] = None) -> Any:
    """A Sequential or functional model from {'class_name', 'config'}."""
    from .network import Model, Sequential
    inner = config["config"]
    if config["class_name"] == "Sequential":
        entries = inner["layers"] if isinstance(inner, dict) else inner
        model = Sequential(name=inner.get("name") if isinstance(inner, dict) else None)
        for entry in entries:
            model.add(layer_from_config(entry, custom_objects))
        return model
    created: Dict[str, Any] = {}
    outputs: Dict[tuple, Any] = {}
    pending: List[dict] = list(inner["layers"])
    # Layers are created in config order; a layer is called once all tensors its inbound nodes need exist.
    for entry in pending:
        created[entry["name"]] = layer_from_config(entry, custom_objects)
    progress = True
    calls = {e["name"]: list(e.get("inbound_nodes", [])) for e in pending}
    for entry in pending:
        layer = created[entry["name"]]
        if isinstance(layer, InputLayer):
            outputs[(entry["name"], 0, 0)] = layer.output
    while progress and any(calls.values()):
        progress = False
        for entry in pending:
            nodes = calls[entry["name"]]
            while nodes:
                refs = nodes[0]
                keys = [(r[0], r[1], r[2]) for r in refs]
                if not all(k in outputs for k in keys):
                    break
                args = [outputs[k] for k in keys]
                layer = created[entry["name"]]
                node_index = len(layer._inbound_nodes)
                out = layer(args if len(args) > 1 or _takes_list(layer) else args[0], **(refs[0][3] if refs and
                                                                                          len(refs[0]) > 3 else {}))
                for i, t in enumerate(out if isinstance(out, (list, tuple)) else [out]):
                    outputs[(entry["name"], node_index, i)] = t
                nodes.pop(0)
                progress = True
    if any(calls.values()):
        raise ValueError("The model config has layers whose inputs are never produced: "
                         f"{[name for name, left in calls.items() if left]}")
    ins = [outputs[(r[0], r[1], r[2])] for r in inner["input_layers"]]
    outs = [outputs[(r[0], r[1], r[2])] for r in inner["output_layers"]]
    return Model(ins if len(ins) > 1 else ins[0], outs if len(outs) > 1 else outs[0], name=inner.get("name"))


def _takes_list(layer: Any) -> bool:
    from ..layers.merge import _Merge
    return isinstance(layer, _Merge)
