"""TFLiteConverter.from_keras_model_file on .h5 files saved by tf-keras (fixtures/keras): the converted models
give Keras's predictions, their op lists equal TensorFlow's converter's in every quantization mode, and int8
runs bit-exact in LiteRT's reference kernels and edgelite."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.lite.schema import OPERATOR_NAMES
from edgelite.lite.schema_reader import builtin_code, read_model

import model_cases

pytest.importorskip("h5py", reason="h5py (the keras extra) reads Keras .h5 files")

KERAS = Path(__file__).resolve().parent / "fixtures" / "keras"
RECORD = json.loads((KERAS / "keras.json").read_text())
PREDICTIONS = np.load(KERAS / "keras.npz")
INPUTS = dict(zip(("cnn", "conv1d"), model_cases.keras_inputs()))
MODES = model_cases.CONVERTER_MODES + ("dynamic", "float16")
_CACHE: dict = {}


def _convert(name: str, mode: str) -> bytes:
    if (name, mode) not in _CACHE:
        converter = tf.lite.TFLiteConverter.from_keras_model_file(str(KERAS / f"{name}.h5"))
        if mode in ("dynamic", "float16"):
            converter.optimizations = [tf.lite.Optimize.DEFAULT]
            if mode == "float16":
                converter.target_spec.supported_types = [tf.float16]
        else:
            model_cases.configure_mode(tf, converter, mode, INPUTS[name])
        _CACHE[(name, mode)] = converter.convert()
    return _CACHE[(name, mode)]


def _run(interpreter, x: np.ndarray) -> np.ndarray:
    details = interpreter.get_input_details()[0]
    interpreter.resize_tensor_input(details["index"], list(x.shape))
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()[0]
    if details["dtype"] == np.int8:
        scale, zero = details["quantization"]
        x = np.clip(np.round(x / scale) + zero, -128, 127).astype(np.int8)
    interpreter.set_tensor(details["index"], x)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"])


@pytest.mark.parametrize("name", ["cnn", "conv1d"])
@pytest.mark.parametrize("mode", MODES)
def test_op_list_equals_tensorflows_converter(name, mode):
    model = read_model(_convert(name, mode))
    codes = model["operator_codes"]
    ops = [OPERATOR_NAMES[builtin_code(codes[op["opcode_index"]])] for op in model["subgraphs"][0]["operators"]]
    assert ops == RECORD[name + "_ops"][mode]


@pytest.mark.parametrize("name", ["cnn", "conv1d"])
@pytest.mark.parametrize("mode,atol", [("float", 1e-5), ("float16", 5e-3), ("dynamic", 0.05)])
def test_predictions_match_keras(name, mode, atol):
    out = _run(tf.lite.Interpreter(model_content=_convert(name, mode)), INPUTS[name])
    np.testing.assert_allclose(out, PREDICTIONS[name + "_predictions"], atol=atol)


@pytest.mark.parametrize("name", ["cnn", "conv1d"])
@pytest.mark.parametrize("mode", ["int8", "int8_float_io"])
def test_int8_bit_exact_with_litert_reference(name, mode, litert):
    content = _convert(name, mode)
    x = INPUTS[name][:4]
    ref = litert.Interpreter(model_content=content, experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
    ours = _run(tf.lite.Interpreter(model_content=content), x)
    np.testing.assert_array_equal(ours, _run(ref, x))
    if mode == "int8_float_io":
        np.testing.assert_allclose(ours, PREDICTIONS[name + "_predictions"][:4], atol=0.08)


def test_bad_keras_files(tmp_path):
    import h5py
    with pytest.raises(IOError, match="does not exist"):
        tf.lite.TFLiteConverter.from_keras_model_file(str(tmp_path / "missing.h5"))
    (tmp_path / "junk.h5").write_bytes(b"not an hdf5 file")
    with pytest.raises(IOError, match=f"Unable to open Keras model file '{tmp_path / 'junk.h5'}'"):
        tf.lite.TFLiteConverter.from_keras_model_file(str(tmp_path / "junk.h5"))
    odd = tmp_path / "odd.h5"
    with h5py.File(KERAS / "cnn.h5", "r") as src, h5py.File(odd, "w") as dst:
        for key in src:
            src.copy(key, dst)
        config = json.loads(src.attrs["model_config"])
        for layer in config["config"]["layers"]:
            if layer["class_name"] in ("Flatten", "Add"):
                layer["class_name"] = "Fancy" + layer["class_name"]
        dst.attrs["model_config"] = json.dumps(config)
    with pytest.raises(ValueError, match=f"'{odd}': Keras layer types not supported: FancyAdd, FancyFlatten."):
        tf.lite.TFLiteConverter.from_keras_model_file(str(odd))


@pytest.mark.parametrize("mode", ["float", "dynamic"])
def test_lstm_becomes_the_fused_op_and_matches_keras(mode):
    """TF1's converter cannot take a Keras LSTM from .h5 (its loop needs Flex ops); edgelite writes the fused
    UNIDIRECTIONAL_SEQUENCE_LSTM + STRIDED_SLICE that TF's Keras converter writes for LSTM(return_sequences=False)
    (tests/sdk_rnn/fixtures/tf_lstm_tflite.json) and gives Keras's predictions, one zero-state sequence at a time."""
    converter = tf.lite.TFLiteConverter.from_keras_model_file(str(KERAS / "lstm.h5"))
    if mode == "dynamic":
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
    content = converter.convert()
    model = read_model(content)
    codes = model["operator_codes"]
    ops = [OPERATOR_NAMES[builtin_code(codes[op["opcode_index"]])] for op in model["subgraphs"][0]["operators"]]
    tf_lstm = json.loads((Path(__file__).resolve().parents[1] / "sdk_rnn" / "fixtures" / "tf_lstm_tflite.json")
                         .read_text())["models"]["keras_lstm_last"]
    assert ops == [op["op"] for op in tf_lstm] + ["FULLY_CONNECTED", "SOFTMAX"]
    interpreter = tf.lite.Interpreter(model_content=content)
    interpreter.allocate_tensors()
    index = interpreter.get_input_details()[0]["index"]
    x = model_cases.keras_lstm_inputs()
    outs = []
    for i in range(len(x)):
        interpreter.reset_all_variables()
        interpreter.set_tensor(index, x[i:i + 1])
        interpreter.invoke()
        outs.append(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]))
    np.testing.assert_allclose(np.concatenate(outs), PREDICTIONS["lstm_predictions"], atol=1e-6)
