"""16x8 quantization (int16 activations, int8 weights) of a fused LSTM, against what TF 2.21 does with the
same Keras LSTM (tf_lstm_16x8.json): TFLite has no 16x8 LSTM kernel, so with only the 16x8 op set TF raises;
with TFLITE_BUILTINS added TF writes a model TFLite cannot prepare (its state turned into a constant), where
edgelite leaves the LSTM float (nothing else to quantize: a float model), which runs in edgelite and LiteRT."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import lstm_int8_cases as cases
from .test_lstm_int8 import describe, session
from .test_lstm_variants import run_float

TF_16X8 = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_lstm_16x8.json").read_text())
NAME = TF_16X8["case"]


def _converter(sess, x, y, fallback: bool):
    converter = tf.lite.TFLiteConverter.from_session(sess, [x], [y])
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: ([s] for s in cases.samples(NAME))
    converter.target_spec.supported_ops = [tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
    if fallback:
        converter.target_spec.supported_ops.append(tf.lite.OpsSet.TFLITE_BUILTINS)
    return converter


def test_16x8_only_raises_tfs_error():
    with tf.Graph().as_default():
        sess, x, y, _ = session(NAME)
        with sess, pytest.raises(RuntimeError) as err:
            _converter(sess, x, y, fallback=False).convert()
    assert TF_16X8["int16x8_only"]["error_type"] == "RuntimeError"
    assert str(err.value) == TF_16X8["int16x8_only"]["message"]


def test_16x8_with_float_fallback_keeps_the_lstm_float():
    assert TF_16X8["with_float_fallback"]["tflite_prepare_error"]  # TF's own model does not prepare
    with tf.Graph().as_default():
        sess, x, y, want = session(NAME)
        with sess:
            model = _converter(sess, x, y, fallback=True).convert()
    ops = describe(model)
    assert [(o["op"], o["version"]) for o in ops] == [("UNIDIRECTIONAL_SEQUENCE_LSTM", 1)]
    assert all(t is None or t["type"] == 0 for t in ops[0]["inputs"] + ops[0]["outputs"])  # float32
    samples = cases.samples(NAME)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    for interpreter in (tf.lite.Interpreter(model_content=model), litert.Interpreter(model_content=model)):
        for got, w in zip(run_float(interpreter, samples), want):
            np.testing.assert_allclose(got, w, rtol=0, atol=1e-5)
