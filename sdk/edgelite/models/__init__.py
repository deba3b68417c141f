"""Model recipes built with the edgelite SDK, each a function returning a `Recipe`.

A recipe holds a network, its data (real digits from scikit-learn, or clearly labelled synthetic stand-ins) and
a `TrainConfig`; `recipe.build_training()` and `recipe.build_inference()` return the graph pieces. `train()`
runs a recipe with per-epoch checkpoints that resume, and `export()` converts a checkpoint to .tflite.

    from edgelite import models
    recipe = models.get("ds_cnn")
    g = recipe.build_training()
"""
from __future__ import annotations

from typing import Any, Callable, Dict

from edgelite.models.autoencoder import fc_autoencoder
from edgelite.models.cnn import digits_cnn, small_cnn
from edgelite.models.ds_cnn import ds_cnn
from edgelite.models.lstm_kws import lstm_kws
from edgelite.models.mlp import mlp
from edgelite.models.mobilenet import mobilenet_v1, mobilenet_v2
from edgelite.models.recipe import Dataset, InferenceGraph, Recipe, TrainConfig, TrainingGraph
from edgelite.models.resnet import resnet8

RECIPES: Dict[str, Callable[..., Recipe]] = {
    "mlp": mlp,
    "digits_cnn": digits_cnn,
    "small_cnn": small_cnn,
    "ds_cnn": ds_cnn,
    "lstm_kws": lstm_kws,
    "resnet8": resnet8,
    "mobilenet_v1": mobilenet_v1,
    "mobilenet_v2": mobilenet_v2,
    "fc_autoencoder": fc_autoencoder,
}


def get(name: str, **params: Any) -> Recipe:
    """The recipe called `name`, built with `params` (KeyError naming the known recipes if there is none)."""
    if name not in RECIPES:
        raise KeyError(f"unknown recipe {name!r}; choose one of: {', '.join(RECIPES)}")
    return RECIPES[name](**params)


__all__ = ["RECIPES", "Dataset", "InferenceGraph", "Recipe", "TrainConfig", "TrainingGraph", "get", "digits_cnn",
           "ds_cnn", "fc_autoencoder", "lstm_kws", "mlp", "mobilenet_v1", "mobilenet_v2", "resnet8", "small_cnn"]
