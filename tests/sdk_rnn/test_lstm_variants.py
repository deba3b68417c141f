"""LSTMCell with peepholes, projection and clips: TF 2.21's converter writes the TF1 graph as a WHILE loop and
crashes quantizing it to full integer (tf_lstm_variants.json); edgelite fuses it into one
UNIDIRECTIONAL_SEQUENCE_LSTM, whose int8 form equals what TF's quantizer writes for that fused op (every
type, scale and zero point but one documented cell-state scale), runs bit-exact with LiteRT's reference
kernels and gives TF's quantized model's outputs."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import lstm_variant_cases as cases
from .test_lstm_int8 import _litert_reference, describe, run_all

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TF_VARIANTS = json.loads((FIXTURES / "tf_lstm_variants.json").read_text())["cases"]
TF_MODELS = np.load(FIXTURES / "tf_lstm_variants.npz")
NAMES = sorted(cases.CASES)
CELL_STATE = 19
# The smallest cell-state scale TFLite's integer kernel evaluates (2^0 / 32768): TF's MLIR quantizer takes
# 2^ceil(log2 max|c|) / 32768 also below it (cell_clip 0.5 -> 2^-1), a model whose cell tanh LiteRT leaves
# unwritten; edgelite keeps the older quantizer's floor of 2^0.
MIN_CELL_SCALE = 2.0 ** -15


def lstm_count(name: str) -> int:
    """Loops in a case's TF1 graph: one per direction (the stacked layers share one loop)."""
    return 2 if cases.CASES[name].get("bidirectional") else 1


@functools.lru_cache(maxsize=None)
def convert(name: str) -> tuple:
    """(float model, int8 model, SDK outputs per sample) of a case, converted once."""
    samples = cases.samples(name)
    with tf.Graph().as_default():
        x, y = cases.build(tf, name)
        with tf.Session() as sess:
            cases.load_weights(tf, sess)
            want = [sess.run(y, {x: s}) for s in samples]
            float_model = tf.lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
            return float_model, int8_model(sess, x, y, samples), want


def int8_model(sess, x, y, samples: list) -> bytes:
    """Full-integer conversion with int8 input and output, calibrated on `samples`."""
    converter = tf.lite.TFLiteConverter.from_session(sess, [x], [y])
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: ([s] for s in samples)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    return converter.convert()


def run_float(interpreter, samples: list) -> list:
    """Each float sample from a zero state: the outputs."""
    interpreter.allocate_tensors()
    inp, out = interpreter.get_input_details()[0], interpreter.get_output_details()[0]
    results = []
    for s in samples:
        interpreter.reset_all_variables()
        interpreter.set_tensor(inp["index"], s)
        interpreter.invoke()
        results.append(interpreter.get_tensor(out["index"]).copy())
    return results


@pytest.mark.parametrize("name", NAMES)
def test_tf_writes_a_while_loop_and_cannot_quantize_it(name):
    """What TF 2.21 does with the same TF1 graph, and the SDK computing what TF's session computes."""
    case = TF_VARIANTS[name]
    for mode in ("tf1_float", "tf1_dynamic_range"):
        assert [o["op"] for o in case[mode][0]["operators"]].count("WHILE") == lstm_count(name)
        assert not any("LSTM" in o["op"] for g in case[mode] for o in g["operators"])
    assert all(status != 0 for status in case["tf1_full_integer_exit_status"].values())
    _, _, want = convert(name)
    for got, theirs in zip(want, case["session_outputs"]):
        np.testing.assert_allclose(got, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_fused_float_runs_like_the_sdk(name):
    model, _, want = convert(name)
    ops = [o["op"] for o in describe(model)]
    assert ops.count("UNIDIRECTIONAL_SEQUENCE_LSTM") == lstm_count(name) * cases.CASES[name].get("layers", 1)
    assert "WHILE" not in ops
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    for interpreter in (tf.lite.Interpreter(model_content=model), litert.Interpreter(model_content=model)):
        for got, w in zip(run_float(interpreter, cases.samples(name)), want):
            np.testing.assert_allclose(got, w, rtol=0, atol=1e-5)


@pytest.mark.parametrize("name", NAMES)
def test_int8_lstm_equals_tfs_quantizer(name):
    _, model, _ = convert(name)
    ours, theirs = describe(model), TF_VARIANTS[name]["quantized_fused"]
    assert [(o["op"], o["version"]) for o in ours] == [(o["op"], o["version"]) for o in theirs]
    for a, b in zip(ours, theirs):
        for key in ("inputs", "outputs", "intermediates"):
            assert len(a[key]) == len(b[key])
            for s, t in zip(a[key], b[key]):
                assert (s is None) == (t is None)
                if s is None:
                    continue
                assert (s["type"], s["shape"], s["variable"]) == (t["type"], t["shape"], t["variable"])
                assert (s["scale"] is None) == (t["scale"] is None)
                if s["scale"] is not None:
                    want = t["scale"]
                    if a["op"] == "UNIDIRECTIONAL_SEQUENCE_LSTM" and key == "inputs" and s is a[key][CELL_STATE]:
                        want = [max(want[0], MIN_CELL_SCALE)]
                    np.testing.assert_allclose(s["scale"], want, rtol=1e-5)
                    assert s["zero_point"] == t["zero_point"]
    lstm = [o for o in theirs if o["op"] == "UNIDIRECTIONAL_SEQUENCE_LSTM"][0]["options"]
    assert lstm["cellClip"] == pytest.approx(cases.CASES[name].get("cell_clip", 0.0))
    assert lstm["projClip"] == pytest.approx(cases.CASES[name].get("proj_clip", 0.0))


@pytest.mark.parametrize("name", NAMES)
def test_int8_lstm_runs_bit_exact_with_tfs_model(name):
    """edgelite's int8 model in edgelite and in LiteRT's reference kernels, and TF's quantized model in
    both, give the same int8 outputs."""
    _, model, _ = convert(name)
    samples = cases.samples(name)
    got = run_all(tf.lite.Interpreter(model_content=model), samples)
    theirs = TF_MODELS[f"{name}/model"].tobytes()
    runs = [run_all(_litert_reference(model), samples)]
    if describe(theirs)[0]["inputs"][CELL_STATE]["scale"][0] >= MIN_CELL_SCALE:
        runs += [run_all(tf.lite.Interpreter(model_content=theirs), samples), run_all(_litert_reference(theirs),
                                                                                      samples)]
    else:
        with pytest.raises(RuntimeError, match=r"cell state scale 2\^-16 is outside"):
            tf.lite.Interpreter(model_content=theirs).allocate_tensors()
    for outputs in runs:
        for a, b in zip(got, outputs):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["peepholes", "cell_clip"])
def test_int8_lstm_is_close_to_float(name):
    """Within 3 output steps of the float SDK (measured at most 2.2). With a projection TFLite's integer
    kernel quantizes the hidden value with its zero point negated and gives the peephole term to the first
    n_output cells only, so those models (TF's as well as edgelite's) stray further: up to 43 output
    steps here (peepholes_projection_clips)."""
    _, model, want = convert(name)
    got = run_all(tf.lite.Interpreter(model_content=model), cases.samples(name))
    scale, zero = tf.lite.Interpreter(model_content=model).get_output_details()[0]["quantization"]
    error = max(float(np.abs((a.astype(np.float32) - zero) * scale - w).max()) for a, w in zip(got, want))
    assert error <= 3 * scale


@pytest.mark.parametrize("name", ["peepholes_projection_clips", "projection_clip"])
def test_time_major_int8_lstm_runs_bit_exact(name):
    """A time-major loop stays a time-major fused op (several batch rows per step): the kernel's batch-wide
    peephole and projection paths, bit-exact with LiteRT's reference kernels."""
    samples = [np.ascontiguousarray(s.transpose(1, 0, 2)) for s in cases.samples(name)]
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [cases.TIME, cases.BATCH, cases.DEPTH], name="x")
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(cases.UNITS, **cases.CASES[name]), x, dtype=tf.float32,
                                   time_major=True)
        with tf.Session() as sess:
            cases.load_weights(tf, sess)
            model = int8_model(sess, x, tf.identity(out, name="y"), samples)
    (lstm,) = [o for o in describe(model) if o["op"] == "UNIDIRECTIONAL_SEQUENCE_LSTM"]
    assert lstm["inputs"][0]["shape"] == [cases.TIME, cases.BATCH, cases.DEPTH]
    got = run_all(tf.lite.Interpreter(model_content=model), samples)
    for a, b in zip(got, run_all(_litert_reference(model), samples)):
        np.testing.assert_array_equal(a, b)
