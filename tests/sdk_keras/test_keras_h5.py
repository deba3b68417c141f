"""Keras HDF5 files written by TensorFlow 2.21's tf.keras load into edgelite (architecture, weights, compile
arguments) and give TensorFlow's predictions; edgelite's own files convert with TFLiteConverter."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import keras_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
OUTPUTS = np.load(FIXTURES / "tf_h5_outputs.npz")


@pytest.mark.parametrize("name", sorted(keras_cases.SAVED_MODELS))
def test_load_model_of_tensorflow_file_predicts_as_tensorflow(name: str) -> None:
    _, x = keras_cases.SAVED_MODELS[name](tf)
    tf.reset_default_graph()
    model = tf.keras.models.load_model(str(FIXTURES / f"tf_{name}.h5"))
    np.testing.assert_allclose(model.predict(x), OUTPUTS[name], rtol=1e-5, atol=1e-6)


def test_load_model_restores_compile_arguments() -> None:
    model = tf.keras.models.load_model(str(FIXTURES / "tf_sequential.h5"))
    assert model.metrics_names == ["loss", "acc"]
    assert model.optimizer.get_config() == {"name": "Adam", "learning_rate": 0.002, "decay": 0.0, "beta_1": 0.9,
                                            "beta_2": 0.999, "epsilon": 1e-7, "amsgrad": False}
    assert [la.name for la in model.layers] == ["conv2d", "batch_normalization", "max_pooling2d", "flatten",
                                                "dropout", "dense"]


@pytest.mark.parametrize("name", sorted(keras_cases.SAVED_MODELS))
def test_load_weights_of_tensorflow_file_into_built_model(name: str) -> None:
    model, x = keras_cases.SAVED_MODELS[name](tf)
    model.load_weights(str(FIXTURES / f"tf_{name}.h5"))
    np.testing.assert_allclose(model.predict(x), OUTPUTS[name], rtol=1e-5, atol=1e-6)


def test_load_weights_layer_count_mismatch_is_a_value_error(tmp_path: Path) -> None:
    model, _ = keras_cases.SAVED_MODELS["sequential"](tf)
    small = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    small.save_weights(str(tmp_path / "small.h5"))
    with pytest.raises(ValueError, match="Layer count mismatch when loading weights from file. Model expected 3 "
                                         "layers, found 1 saved layers."):
        model.load_weights(str(tmp_path / "small.h5"))


def test_saved_file_converts_to_tflite_with_the_same_outputs(tmp_path: Path) -> None:
    model, x = keras_cases.SAVED_MODELS["sequential"](tf)
    expected = model.predict(x)
    path = str(tmp_path / "model.h5")
    model.save(path)
    flatbuffer = tf.lite.TFLiteConverter.from_keras_model_file(path).convert()
    interpreter = tf.lite.Interpreter(model_content=flatbuffer)
    interpreter.allocate_tensors()
    inp, out = interpreter.get_input_details()[0], interpreter.get_output_details()[0]
    got = []
    for row in x:
        interpreter.set_tensor(inp["index"], row[None])
        interpreter.invoke()
        got.append(interpreter.get_tensor(out["index"])[0])
    np.testing.assert_allclose(np.stack(got), expected, rtol=1e-4, atol=1e-5)


def test_metric_objects_and_new_optimizers_survive_save_and_load(tmp_path: Path) -> None:
    K = tf.keras
    K.backend.clear_session()
    tf.reset_default_graph()
    rng = np.random.RandomState(0)
    x, y = rng.rand(20, 3).astype(np.float32), (rng.rand(20) > 0.5).astype(np.float32)
    model = K.Sequential([K.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
    model.compile(K.optimizers.Nadam(0.01), "binary_crossentropy",
                  metrics=["accuracy", K.metrics.Precision(name="p"), K.metrics.AUC(num_thresholds=50)])
    model.fit(x, y, epochs=2, verbose=0)
    before = model.evaluate(x, y, verbose=0)
    state = model.optimizer.get_weights()
    model.save(str(tmp_path / "m.h5"))
    K.backend.clear_session()
    tf.reset_default_graph()
    loaded = K.models.load_model(str(tmp_path / "m.h5"))
    assert loaded.metrics_names == ["loss", "acc", "p", "auc"]
    assert type(loaded.optimizer).__name__ == "Nadam"
    np.testing.assert_allclose(loaded.evaluate(x, y, verbose=0), before, rtol=1e-6)
    for got, want in zip(loaded.optimizer.get_weights(), state):
        np.testing.assert_allclose(got, want, rtol=1e-6)
