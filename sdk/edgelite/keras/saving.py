"""Keras HDF5 files: save_weights/load_weights and save_model/load_model in the layout tf.keras writes.

A weights group has attrs layer_names (every layer) and, per layer, a group whose attr weight_names lists
'<layer>/<weight>:0' and whose datasets sit at those names. A model file adds the JSON attrs model_config and
training_config and keeps the weights under /model_weights.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

import numpy as np

from . import backend, losses, metrics as metrics_mod, optimizers
from .version import KERAS_VERSION


def _h5py() -> Any:
    import h5py  # an optional dependency, needed only for .h5 files
    return h5py


def _text(value: Any) -> str:
    return value.decode("utf8") if isinstance(value, bytes) else str(value)


def _names_attr(names: List[str]) -> np.ndarray:
    return np.array([n.encode("utf8") for n in names]) if names else np.array([], dtype=np.float64)


def save_weights_to_group(group: Any, layers: List[Any]) -> None:
    """Writes every layer's weights under `group` (one subgroup per layer, in layer order)."""
    group.attrs["layer_names"] = _names_attr([layer.name for layer in layers])
    group.attrs["backend"] = "tensorflow"
    group.attrs["keras_version"] = KERAS_VERSION
    for layer in layers:
        sub = group.create_group(layer.name)
        weights = layer.weights
        names = [w.name for w in weights]
        sub.attrs["weight_names"] = _names_attr(names)
        for name, value in zip(names, backend.batch_get_value(weights)):
            sub.create_dataset(name, data=value)
    group.create_group("top_level_model_weights").attrs["weight_names"] = _names_attr([])


def _saved_layers(group: Any) -> Dict[str, List[np.ndarray]]:
    """layer name -> weight values, for the layers of a weights group that have weights, in file order."""
    out: Dict[str, List[np.ndarray]] = {}
    for raw in group.attrs["layer_names"]:
        name = _text(raw)
        sub = group[name]
        names = [_text(n) for n in sub.attrs.get("weight_names", [])]
        if names:
            out[name] = [np.asarray(sub[n]) for n in names]
    return out


def load_weights_from_group(group: Any, layers: List[Any], by_name: bool = False,
                            skip_mismatch: bool = False) -> None:
    """Assigns the saved values to the layers: in order of the layers with weights, or matched by name."""
    saved = _saved_layers(group)
    pairs = []
    if by_name:
        for layer in layers:
            values = saved.get(layer.name)
            if values is None:
                continue
            pairs += _layer_pairs(layer, values, skip_mismatch)
    else:
        with_weights = [layer for layer in layers if layer.weights]
        if len(with_weights) != len(saved):
            raise ValueError(f"Layer count mismatch when loading weights from file. Model expected "
                             f"{len(with_weights)} layers, found {len(saved)} saved layers.")
        for layer, values in zip(with_weights, saved.values()):
            pairs += _layer_pairs(layer, values, skip_mismatch)
    backend.batch_set_value(pairs)


def _layer_pairs(layer: Any, values: List[np.ndarray], skip_mismatch: bool) -> list:
    weights = layer.weights
    if len(weights) != len(values):
        if skip_mismatch:
            return []
        raise ValueError(f"Weight count mismatch for layer {layer.name}: the layer expects {len(weights)} weights, "
                         f"the file has {len(values)} weights.")
    pairs = []
    for var, value in zip(weights, values):
        if tuple(var.shape.as_list()) != value.shape:
            if skip_mismatch:
                return []
            raise ValueError(f"Shape mismatch in layer {layer.name} for weight {var.name}. Weight expects shape "
                             f"{tuple(var.shape.as_list())}. Received saved weight with shape {value.shape}")
        pairs.append((var, value))
    return pairs


def _check_overwrite(path: str, overwrite: bool) -> None:
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path} exists and overwrite=False")


def save_weights(model: Any, filepath: str, overwrite: bool = True) -> None:
    """model.save_weights(path) in Keras's HDF5 weights layout."""
    _check_overwrite(filepath, overwrite)
    with _h5py().File(filepath, "w") as f:
        save_weights_to_group(f, model.layers)


def load_weights(model: Any, filepath: str, by_name: bool = False, skip_mismatch: bool = False) -> None:
    """model.load_weights(path) from a weights file or a whole-model file."""
    with _h5py().File(filepath, "r") as f:
        group = f["model_weights"] if "layer_names" not in f.attrs and "model_weights" in f else f
        load_weights_from_group(group, model.layers, by_name=by_name, skip_mismatch=skip_mismatch)


def _training_config(model: Any) -> Optional[dict]:
    if not getattr(model, "_is_compiled", False) or isinstance(model.optimizer, optimizers.TFOptimizer):
        return None
    args = model._compile_args

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if value is None or isinstance(value, (str, int, float)):
            return value
        if isinstance(value, metrics_mod.Metric):
            return metrics_mod.serialize(value)
        return losses.serialize(value)

    return {"loss": plain(args["loss"]), "metrics": plain(args["metrics"]), "loss_weights": args["loss_weights"],
            "sample_weight_mode": None, "weighted_metrics": None,
            "optimizer_config": optimizers.serialize(model.optimizer)}


def save_model(model: Any, filepath: str, overwrite: bool = True, include_optimizer: bool = True,
               save_format: Optional[str] = None, **kwargs: Any) -> None:
    """Architecture (model_config), compile arguments (training_config) and weights in one HDF5 file."""
    _check_overwrite(filepath, overwrite)
    from .engine.network import Sequential
    if model._is_subclassed:
        raise NotImplementedError("Saving the model to HDF5 format requires the model to be a Functional model or "
                                  "a Sequential model. It does not work for subclassed models, because such models "
                                  "are defined via the body of a Python method, which isn't safely serializable. "
                                  "Consider saving to the Tensorflow SavedModel format (by setting save_format=\"tf\") "
                                  "or using `save_weights`.")
    class_name = "Sequential" if isinstance(model, Sequential) else "Functional"
    with _h5py().File(filepath, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = KERAS_VERSION
        f.attrs["model_config"] = json.dumps({"class_name": class_name, "config": model.get_config()})
        training = _training_config(model) if include_optimizer else None
        if training is not None:
            f.attrs["training_config"] = json.dumps(training)
        save_weights_to_group(f.create_group("model_weights"), model.layers)
        if training is not None and model.optimizer.weights:
            weights = model.optimizer.weights
            group = f.create_group("optimizer_weights")
            group.attrs["weight_names"] = _names_attr([w.name for w in weights])
            for w, value in zip(weights, backend.batch_get_value(weights)):
                group.create_dataset(w.name, data=value)


def load_model(filepath: str, custom_objects: Optional[dict] = None, compile: bool = True,  # noqa: A002
               **kwargs: Any) -> Any:
    """The model of a Keras HDF5 file (tf.keras's or edgelite's), weights loaded, compiled if it was."""
    from .engine.model_config import model_from_config
    with _h5py().File(filepath, "r") as f:
        if "model_config" not in f.attrs:
            raise ValueError(f"No model config found in the file at {filepath}.")
        config = json.loads(_text(f.attrs["model_config"]))
        model = model_from_config(config, custom_objects=custom_objects)
        load_weights_from_group(f["model_weights"], model.layers)
        training = f.attrs.get("training_config")
        saved_state = None
        if "optimizer_weights" in f:
            group = f["optimizer_weights"]
            saved_state = [np.asarray(group[_text(n)]) for n in group.attrs["weight_names"]]
    if compile and training is not None:
        training = json.loads(_text(training))
        model.compile(optimizer=optimizers.deserialize(training["optimizer_config"], custom_objects),
                      loss=_deserialize_losses(training["loss"], custom_objects),
                      metrics=_deserialize_metrics(training.get("metrics"), custom_objects),
                      loss_weights=training.get("loss_weights"))
        if saved_state:
            model._train_function()
            try:
                model.optimizer.set_weights(saved_state)
            except ValueError as exc:
                # Keras also goes on with a fresh optimizer state when the saved one does not fit
                print("WARNING: Error in loading the saved optimizer state. As a result, your model is starting "
                      f"with a freshly initialized optimizer. ({exc})")
    return model


def _deserialize_losses(value: Any, custom_objects: Optional[dict]) -> Any:
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _deserialize_losses(v, custom_objects) for k, v in value.items()}
    if isinstance(value, list):
        return [_deserialize_losses(v, custom_objects) for v in value]
    return losses.deserialize(value, custom_objects)


def _deserialize_metrics(value: Any, custom_objects: Optional[dict]) -> Any:
    if value is None:
        return None
    if isinstance(value, dict):
        return {k: _deserialize_metrics(v, custom_objects) for k, v in value.items()}
    return [v if v in ("accuracy", "acc") else metrics_mod.deserialize(v, custom_objects) for v in value]
