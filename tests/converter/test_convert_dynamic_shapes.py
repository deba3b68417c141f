"""Inputs with an unknown dimension beyond the batch (dynamic_shape cases): converted as TensorFlow 2.21 converts
them (tf_dynshape.json: operators per subgraph, input/output shape signatures), and after resize_tensor_input to
each recorded size run in edgelite and LiteRT within 1e-5 of the SDK, which matches TF's session; TF's own
converted models (tf_dynshape.npz) run in LiteRT give the same outputs. With experimental_new_converter=False the
converter refuses such inputs with TF's message."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.lite import schema, schema_reader

import dynshape_cases as cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TF_CASES = json.loads((FIXTURES / "tf_dynshape.json").read_text())["cases"]
TF_ARRAYS = np.load(FIXTURES / "tf_dynshape.npz")
OP_NAMES = {v: k for k, v in schema.BUILTIN_OPERATORS.items()}
# The converter's documented difference (docs/rnn.md): a dynamic_rnn over a plain LSTM cell is written as the
# fused op (the backward one of a bidirectional pair between REVERSE_V2s), where TF 2.21 leaves the rnn_cell loop
# as a WHILE.
FUSED = {"lstm": [["UNIDIRECTIONAL_SEQUENCE_LSTM"]],
         "bidirectional": [["UNIDIRECTIONAL_SEQUENCE_LSTM", "REVERSE_V2", "UNIDIRECTIONAL_SEQUENCE_LSTM", "REVERSE_V2",
                            "CONCATENATION"]]}


def _build(name: str) -> tuple:
    """(session, input placeholders, output) of a case with its fixed weights."""
    build, shape, _sizes = cases.CASES[name]
    g = tf.Graph()
    with g.as_default():
        inputs = [tf.placeholder(tf.float32, shape, name="x")]
        if name in cases.LENGTHS:
            inputs.append(tf.placeholder(tf.int32, [shape[0]], name="lengths"))
        y = tf.identity(build(tf, *inputs), name="y")
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
        for var in tf.global_variables():
            var.load(cases.weight(var.op.name, var.shape.as_list()), sess)
    return sess, inputs, y


@functools.lru_cache(maxsize=None)
def convert(name: str) -> tuple:
    """(model, SDK output per size) of a case, converted with the default converter."""
    sess, inputs, y = _build(name)
    outputs = [sess.run(y, dict(zip(inputs, cases.feeds(name, size)))) for size in cases.CASES[name][2]]
    return tf.lite.TFLiteConverter.from_session(sess, inputs, [y]).convert(), outputs


def describe(model: bytes) -> dict:
    """Operator names per subgraph; shape signatures of the main graph's inputs and outputs."""
    m = schema_reader.read_model(model)
    main = m["subgraphs"][0]

    def signature(index: int) -> list:
        t = main["tensors"][index]
        return [int(d) for d in (t.get("shape_signature") if t.get("shape_signature") is not None else t["shape"])]

    return {"subgraphs": [[OP_NAMES[schema_reader.builtin_code(m["operator_codes"][op["opcode_index"]])]
                           for op in g["operators"]] for g in m["subgraphs"]],
            "input_signatures": [signature(i) for i in main["inputs"]],
            "output_signatures": [signature(i) for i in main["outputs"]]}


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_written_as_tf_writes_it(name):
    model, outputs = convert(name)
    ours, theirs = describe(model), TF_CASES[name]
    assert ours["input_signatures"][0] == theirs["input_signatures"][0]
    assert ours["output_signatures"] == theirs["output_signatures"]
    expected = FUSED.get(name, theirs["subgraphs"])
    assert [sorted(ops) for ops in ours["subgraphs"]] == [sorted(ops) for ops in expected]
    for k, got in enumerate(outputs):
        np.testing.assert_allclose(got, TF_ARRAYS[f"{name}/{k}"], rtol=0, atol=1e-5)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_runs_after_resizing_in_edgelite_and_litert(name, litert):
    model, outputs = convert(name)
    tf_model = TF_ARRAYS[f"{name}/tflite"].tobytes()
    for size, want in zip(cases.CASES[name][2], outputs):
        got = cases.run(tf.lite.Interpreter(model_content=model), name, size)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
        for reference in (model, tf_model):
            got = cases.run(litert.Interpreter(model_content=reference), name, size)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("name", ["elementwise", "gru"])
def test_old_converter_refuses_with_tf_message(name):
    sess, inputs, y = _build(name)
    converter = tf.lite.TFLiteConverter.from_session(sess, inputs, [y])
    converter.experimental_new_converter = False
    with pytest.raises(ValueError) as err:
        converter.convert()
    assert f"ValueError: {err.value}" == TF_CASES[name]["old_converter_error"]


def test_loop_over_unknown_batch_and_time_is_refused():
    # TF 2.21 fails here too ("Lowering tensor list ops is failed"): the reserved TensorArray's element
    # shape [batch, units] is unknown, so no FILL can make it
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, None, 3], name="x")
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(cases.UNITS), x, dtype=tf.float32)
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
    with pytest.raises(ValueError, match=r"TensorListReserve 'rnn/TensorArrayV2' reserves elements of unknown "
                                         r"shape \[-1, 5\] for a run-time length"):
        tf.lite.TFLiteConverter.from_session(sess, [x], [out]).convert()


@pytest.mark.parametrize("name", ["conv", "dense", "lstm", "tensordot"])
def test_full_integer_model_runs_after_resizing(name, litert):
    # calibrated on the case's inputs at all its sizes (the LSTM: the fused int8 kernel with its 16-bit cell);
    # edgelite's int8 kernels agree with LiteRT's bit for bit
    sess, inputs, y = _build(name)
    converter = tf.lite.TFLiteConverter.from_session(sess, inputs, [y])
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: ([cases.feed(name, size)] for size in cases.CASES[name][2])
    model = converter.convert()
    assert describe(model)["input_signatures"][0] == TF_CASES[name]["input_signatures"][0]
    for size in cases.CASES[name][2]:
        got = cases.run(tf.lite.Interpreter(model_content=model), name, size)
        np.testing.assert_array_equal(got, cases.run(litert.Interpreter(model_content=model), name, size))
        want = sess.run(y, {inputs[0]: cases.feed(name, size)})
        np.testing.assert_allclose(got, want, rtol=0, atol=0.05)
