"""TFLiteConverter.from_frozen_graph / from_saved_model on TensorFlow-written files: the op lists equal TF's
converter's (recorded in fixtures/models/models.json), float outputs match TF, int8 runs bit-exact in LiteRT's
reference kernels and edgelite."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.lite.schema import OPERATOR_NAMES
from edgelite.lite.schema_reader import builtin_code, read_model

import model_cases

MODELS = Path(__file__).resolve().parent / "fixtures" / "models"
ARRAYS = np.load(MODELS / "models.npz")
TF_OPS = json.loads((MODELS / "models.json").read_text())
SIZE = model_cases.MOBILENET_SIZE

SOURCES = {
    "digits_pb": ("digits", lambda: tf.lite.TFLiteConverter.from_frozen_graph(
        str(MODELS / "digits_frozen.pb"), ["input"], ["probs"], {"input": [1, 8, 8, 1]})),
    "digits_pbtxt": ("digits", lambda: tf.lite.TFLiteConverter.from_frozen_graph(
        str(MODELS / "digits_frozen.pbtxt"), ["input"], ["probs"], {"input": [1, 8, 8, 1]})),
    "digits_saved_model": ("digits", lambda: tf.lite.TFLiteConverter.from_saved_model(
        str(MODELS / "digits_saved_model"), input_shapes={"input": [1, 8, 8, 1]})),
    "mobilenet_saved_model": ("mobilenet", lambda: tf.lite.TFLiteConverter.from_saved_model(
        str(MODELS / "mobilenet_saved_model"), input_shapes={"input": [1, SIZE, SIZE, 3]})),
}
_CACHE: dict = {}


def _inputs(model: str) -> tuple:
    if model == "digits":
        return ARRAYS["digits_input"], ARRAYS["digits_calibration"]
    return model_cases.mobilenet_inputs()


def _convert(source: str, mode: str) -> bytes:
    if (source, mode) not in _CACHE:
        model, make = SOURCES[source]
        converter = make()
        model_cases.configure_mode(tf, converter, mode, _inputs(model)[1])
        _CACHE[(source, mode)] = converter.convert()
    return _CACHE[(source, mode)]


def _op_names(content: bytes) -> list:
    model = read_model(content)
    codes = model["operator_codes"]
    return [OPERATOR_NAMES[builtin_code(codes[op["opcode_index"]])] for op in model["subgraphs"][0]["operators"]]


def _run(interpreter, content: bytes, x: np.ndarray) -> np.ndarray:
    details = interpreter.get_input_details()[0]
    if details["dtype"] == np.int8:
        scale, zero = details["quantization"]
        x = np.clip(np.round(x / scale) + zero, -128, 127).astype(np.int8)
    interpreter.allocate_tensors()
    interpreter.set_tensor(details["index"], x)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"])


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("mode", model_cases.CONVERTER_MODES)
def test_op_list_equals_tensorflows_converter(source, mode):
    model = SOURCES[source][0]
    assert _op_names(_convert(source, mode)) == TF_OPS[model + "_ops"][mode]


@pytest.mark.parametrize("source", ["digits_pb", "digits_saved_model", "mobilenet_saved_model"])
def test_float_model_gives_tensorflows_outputs(source):
    model = SOURCES[source][0]
    content = _convert(source, "float")
    x = _inputs(model)[0][:1]
    out = _run(tf.lite.Interpreter(model_content=content), content, x)
    np.testing.assert_allclose(out, ARRAYS[model + "_probs"][:1], atol=1e-5)


@pytest.mark.parametrize("source", ["digits_saved_model", "mobilenet_saved_model"])
@pytest.mark.parametrize("mode", ["int8", "int8_float_io"])
def test_int8_bit_exact_with_litert_reference(source, mode, litert):
    model = SOURCES[source][0]
    content = _convert(source, mode)
    x = _inputs(model)[0][:1]
    ref = litert.Interpreter(model_content=content,
                             experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
    ours = _run(tf.lite.Interpreter(model_content=content), content, x)
    np.testing.assert_array_equal(ours, _run(ref, content, x))
    if mode == "int8_float_io":
        np.testing.assert_allclose(ours, ARRAYS[model + "_probs"][:1], atol=0.05)


def test_from_saved_model_arguments_and_errors():
    path = str(MODELS / "digits_saved_model")
    converter = tf.lite.TFLiteConverter.from_saved_model(path, input_arrays=["input"], output_arrays=["probs"],
                                                         tag_set={"serve"}, signature_key="serving_default")
    assert converter.get_input_arrays() == ["input"]
    with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags 'train' could not be found"):
        tf.lite.TFLiteConverter.from_saved_model(path, tag_set={"train"})
    with pytest.raises(ValueError, match=f"No 'classify' in the SavedModel's SignatureDefs. Possible values are "
                                         f"'serving_default'. \\(SavedModel: {path}\\)"):
        tf.lite.TFLiteConverter.from_saved_model(path, signature_key="classify")
    with pytest.raises(ValueError, match="Invalid tensors 'nope' were found."):
        tf.lite.TFLiteConverter.from_saved_model(path, output_arrays=["nope"])
