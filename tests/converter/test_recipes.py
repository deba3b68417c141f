"""The SDK's model recipes (edgelite.models: DS-CNN, ResNet-8, MobileNet v1/v2, ...) with freshly initialized
weights (redrawn from a seeded generator at the initializers' scale) convert in every mode, run in LiteRT and edgelite, and give the same bits for integer models.

Untrained deep models have vanishing activations; the files must still load and run in both runtimes."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import conv_helpers as helpers
import edgelite as tf
from edgelite import models

RECIPES = ["ds_cnn", "resnet8", "mobilenet_v1", "mobilenet_v2"]
MODES = ["float", "dynamic", "int8", "int16x8", "legacy_uint8"]


class _Recipe:
    def __init__(self, name: str) -> None:
        inference = models.get(name).build_inference(1)
        with inference.graph.as_default():
            self.sess = tf.Session(graph=inference.graph)
            self.sess.run(tf.global_variables_initializer())
            # The initializers draw unseeded: redraw every random variable (the kernels; constant
            # ones such as biases and batch-norm terms stay) from a seeded Glorot-normal generator,
            # so that a failure reproduces run after run.
            rng = np.random.default_rng(zlib.crc32(name.encode()))
            for var in tf.global_variables():
                value = self.sess.run(var)
                if value.ndim >= 2 and float(np.std(value)) > 0.0:
                    receptive = int(np.prod(value.shape[:-2]))
                    fans = receptive * (value.shape[-2] + value.shape[-1])
                    var.load(rng.normal(0.0, np.sqrt(2.0 / fans), value.shape).astype(value.dtype), self.sess)
        self.inputs, self.outputs = [inference.x], [inference.outputs]
        self.shape = inference.x.shape.as_list()[1:]

    def sample(self, n: int = 1, rng_seed: int = 0) -> np.ndarray:
        return np.random.default_rng(rng_seed).random([n] + self.shape).astype(np.float32)

    def run(self, x: np.ndarray) -> np.ndarray:
        return self.sess.run(self.outputs[0], {self.inputs[0]: x})


@pytest.fixture(scope="module")
def recipes() -> dict:
    return {name: _Recipe(name) for name in RECIPES}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", RECIPES)
def test_recipe_round_trip(recipes, litert, name, mode):
    model = recipes[name]
    tflite = helpers.converter_for(model, mode, calibration=4).convert()
    xs = [model.sample(1, rng_seed=2)]
    ref, details = helpers.run_litert(litert, tflite, xs)
    ours, _ = helpers.run_edgelite(tflite, xs)
    expected = model.run(xs[0])
    if mode == "float":
        assert np.abs(ref[0] - expected).max() <= 1e-5 * max(1.0, np.abs(expected).max())
        assert np.abs(ours[0] - expected).max() <= 1e-5 * max(1.0, np.abs(expected).max())
    elif mode == "dynamic":
        np.testing.assert_allclose(ours[0], ref[0], rtol=0, atol=1e-5 * max(1.0, np.abs(ref[0]).max()))
    else:
        np.testing.assert_array_equal(ours[0], ref[0])
        assert np.abs(helpers.dequantize(ref[0], details[0]) - expected).max() <= 0.1
