"""tf.contrib.estimator (TF 1.15): add_metrics (the core extender) and forward_features, which copies input
features into an Estimator's predictions so batch-prediction outputs can be joined back to their inputs by key."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.estimator.estimator import Estimator
from edgelite.estimator.export.export_output import PredictOutput
from edgelite.estimator.extenders import add_metrics  # noqa: F401
from edgelite.framework import ops
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops.sparse_to_dense import sparse_tensor_to_dense


def _checked_keys(keys: Any) -> Optional[list]:
    if keys is None:
        return None
    if isinstance(keys, str):
        return [keys]
    if not isinstance(keys, (list, tuple)):
        raise TypeError(f"keys should be either a string or a list of strings. Given: {type(keys)}")
    for key in keys:
        if not isinstance(key, str):
            raise TypeError(f"All items in the given keys list should be a string. There exist an item with type: "
                            f"{type(key)}")
    return list(keys)


def _check_keys(keys: list, features: dict, predictions: Any) -> None:
    if not isinstance(predictions, dict):
        raise ValueError(f"Predictions should be a dict to be able to forward features. Given: {type(predictions)}")
    for key in keys:
        if key not in features:
            raise ValueError(f'keys should be exist in features. Key "{key}" is not in features dict. features dict '
                             f"has following keys: {features.keys()}. Please check arguments of forward_features.")
        if key in predictions:
            raise ValueError(f"Cannot forward feature key ({key}). Since it does exist in predictions. Existing "
                             f"prediction keys: {predictions.keys()}. Please check arguments of forward_features.")


def _forwarded(key: str, feature: Any, sparse_default_values: Optional[dict]) -> ops.Tensor:
    if not isinstance(feature, SparseTensor):
        feature = ops.convert_to_tensor(feature)
    if sparse_default_values and key in sparse_default_values:
        if not isinstance(feature, SparseTensor):
            raise ValueError(f"Feature ({key}) is expected to be a `SparseTensor`.")
        feature = sparse_tensor_to_dense(feature, default_value=sparse_default_values[key])
    if not isinstance(feature, ops.Tensor):
        raise ValueError(f"Feature ({key}) should be a Tensor. Please use `keys` argument of forward_features to "
                         f"filter unwanted features, or add key to argument `sparse_default_values`. Type of "
                         f"features[{key}] is {type(feature)}.")
    return feature


def forward_features(estimator: Estimator, keys: Any = None, sparse_default_values: Optional[dict] = None) -> Estimator:
    """A new Estimator (same model_dir and config) whose predictions, and PredictOutput export outputs, also hold
    the features named by keys (all of them when None); SparseTensor features listed in sparse_default_values
    are densified with that default."""
    keys = _checked_keys(keys)

    def new_model_fn(features, labels, mode, config):
        spec = estimator.model_fn(features, labels, mode, config)
        predictions = spec.predictions
        if predictions is None:
            return spec
        chosen = list(features.keys()) if keys is None else keys
        _check_keys(chosen, features, predictions)
        for key in chosen:
            predictions[key] = _forwarded(key, features[key], sparse_default_values)
        spec = spec._replace(predictions=predictions)
        for export_key in ("predict", "serving_default"):
            output = (spec.export_outputs or {}).get(export_key)
            if isinstance(output, PredictOutput):
                for key in chosen:
                    output.outputs[key] = predictions[key]
        return spec

    return Estimator(model_fn=new_model_fn, model_dir=estimator.model_dir, config=estimator.config)
