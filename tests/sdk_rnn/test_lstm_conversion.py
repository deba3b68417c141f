"""dynamic_rnn over plain LSTM cells converts to UNIDIRECTIONAL_SEQUENCE_LSTM: written as TF's converter
writes the fused op (tf_lstm_tflite.json), running in edgelite and LiteRT within 1e-5 of the SDK."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.lite import schema, schema_reader

TF_FUSED = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_lstm_tflite.json").read_text())
BATCH, TIME, DEPTH = 2, 5, 3
CELLS = {
    "basic_lstm": lambda: tf.nn.rnn_cell.BasicLSTMCell(4, forget_bias=0.7),
    "lstm_peephole_clip_projection": lambda: tf.nn.rnn_cell.LSTMCell(5, use_peepholes=True, cell_clip=0.5,
                                                                     num_proj=3, proj_clip=0.4),
}


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test starts from an empty default graph."""
    with tf.Graph().as_default() as g:
        yield g


def _convert(make_cell, use_last_h=False, bidirectional=False):
    x = tf.placeholder(tf.float32, [BATCH, TIME, DEPTH], name="x")
    if bidirectional:
        (out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(make_cell(), make_cell(), x, dtype=tf.float32)
        y = tf.concat([out_fw, out_bw], 2, name="y")
    else:
        out, state = tf.nn.dynamic_rnn(make_cell(), x, dtype=tf.float32)
        y = tf.identity(state.h if use_last_h else out, name="y")
    xv = np.random.default_rng(5).uniform(-1, 1, (BATCH, TIME, DEPTH)).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():  # weights large enough that the clips bite
            v.load(np.random.default_rng(len(v.name)).uniform(-1, 1, v.shape.as_list()), sess)
        want = sess.run(y, {x: xv})
        model = tf.lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
    return model, xv, want


def _run(interpreter, xv):
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], xv)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"])


def _fused_ops(model):
    m = schema_reader.read_model(model)
    graph = m["subgraphs"][0]
    names = {v: k for k, v in schema.BUILTIN_OPERATORS.items()}
    found = []
    for op in graph["operators"]:
        code = m["operator_codes"][op["opcode_index"]]
        name = names[schema_reader.builtin_code(code)]
        if name == "UNIDIRECTIONAL_SEQUENCE_LSTM":
            inputs = [int(i) for i in op["inputs"]]
            found.append({"version": code["version"], "num_inputs": len(inputs),
                          "options": op["builtin_options"][1],
                          "absent": [k for k, i in enumerate(inputs) if i < 0],
                          "variables": [k for k, i in enumerate(inputs)
                                        if i >= 0 and graph["tensors"][i]["is_variable"]]})
    return [names[schema_reader.builtin_code(m["operator_codes"][op["opcode_index"]])]
            for op in graph["operators"]], found


@pytest.mark.parametrize("cell", sorted(CELLS))
@pytest.mark.parametrize("use_last_h", [False, True])
def test_lstm_loop_converts_to_the_fused_op(cell, use_last_h):
    model, xv, want = _convert(CELLS[cell], use_last_h)
    names, fused = _fused_ops(model)
    tf_model = TF_FUSED["models"]["keras_lstm_last" if use_last_h else "keras_lstm"]
    assert names == [o["op"] for o in tf_model]
    tf_op = TF_FUSED["models"]["keras_lstm"][0]
    assert fused[0]["version"] == tf_op["version"] and fused[0]["num_inputs"] == tf_op["num_inputs"]
    assert fused[0]["variables"] == tf_op["variable_inputs"]
    assert fused[0]["options"]["time_major"] == tf_op["options"]["timeMajor"]
    assert fused[0]["options"]["fused_activation_function"] == tf_op["options"]["fusedActivationFunction"]
    if cell == "basic_lstm":
        assert fused[0]["absent"] == tf_op["absent_inputs"]
    else:  # peepholes (9-11) and the projection weights (16) are present
        assert fused[0]["absent"] == [17, 20, 21, 22, 23]
    got = _run(tf.lite.Interpreter(model_content=model), xv)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    np.testing.assert_allclose(_run(litert.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-5)


def test_bidirectional_lstm_converts_to_two_fused_ops():
    model, xv, want = _convert(CELLS["basic_lstm"], bidirectional=True)
    names, fused = _fused_ops(model)
    assert sorted(names) == sorted(o["op"] for o in TF_FUSED["models"]["keras_bidirectional_lstm"])
    assert len(fused) == 2
    np.testing.assert_allclose(_run(tf.lite.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-5)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    np.testing.assert_allclose(_run(litert.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-5)


def test_state_persists_across_invocations_until_reset():
    model, xv, want = _convert(CELLS["basic_lstm"])
    interpreter = tf.lite.Interpreter(model_content=model)
    first = _run(interpreter, xv)
    interpreter.invoke()
    second = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    assert not np.allclose(first, second)
    interpreter.reset_all_variables()
    interpreter.invoke()
    np.testing.assert_allclose(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]), want,
                               rtol=1e-5, atol=1e-5)


def test_loop_with_a_fed_iteration_limit_runs_to_that_limit():
    """A maximum_iterations fed at run time travels into the WHILE (TF 2.21's form, while_cases.py): each
    limit gives the SDK's value, in edgelite and LiteRT."""
    x = tf.placeholder(tf.float32, [2], name="x")
    limit = tf.placeholder(tf.int32, [], name="limit")
    y = tf.while_loop(lambda v: tf.reduce_sum(v) < 100.0, lambda v: v * 2.0, [x], maximum_iterations=limit)
    xv = np.array([1.0, 2.0], np.float32)
    with tf.Session() as sess:
        model = tf.lite.TFLiteConverter.from_session(sess, [x, limit], [y]).convert()
        wants = {n: sess.run(y, {x: xv, limit: n}) for n in (0, 2, 7)}
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    for interpreter in (tf.lite.Interpreter(model_content=model), litert.Interpreter(model_content=model)):
        interpreter.allocate_tensors()
        index = {d["name"]: d["index"] for d in interpreter.get_input_details()}
        for n, want in wants.items():
            interpreter.set_tensor(index["x"], xv)
            interpreter.set_tensor(index["limit"], np.array(n, np.int32))
            interpreter.invoke()
            np.testing.assert_array_equal(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]), want)


def test_dynamic_range_gives_the_hybrid_lstm_tf_writes():
    x = tf.placeholder(tf.float32, [BATCH, TIME, 40], name="x")
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(40), x, dtype=tf.float32)
    xv = np.random.default_rng(1).uniform(-1, 1, (BATCH, TIME, 40)).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        want = sess.run(out, {x: xv})
        converter = tf.lite.TFLiteConverter.from_session(sess, [x], [out])
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        model = converter.convert()
    m = schema_reader.read_model(model)
    graph = m["subgraphs"][0]
    (op,) = graph["operators"]
    tf_op = TF_FUSED["models"]["keras_lstm40_dynamic_range"][0]
    assert m["operator_codes"][op["opcode_index"]]["version"] == tf_op["version"]
    assert op["builtin_options"][1]["asymmetric_quantize_inputs"] == tf_op["options"]["asymmetricQuantizeInputs"]
    types = [None if i < 0 else int(graph["tensors"][i]["type"]) for i in op["inputs"]]
    assert types == tf_op["input_types"]
    scales = [None if i < 0 or graph["tensors"][i].get("quantization") is None
              or graph["tensors"][i]["quantization"]["scale"] is None
              else len(graph["tensors"][i]["quantization"]["scale"]) for i in op["inputs"]]
    assert scales == tf_op["input_scales"]
    got = _run(tf.lite.Interpreter(model_content=model), xv)
    np.testing.assert_allclose(got, want, atol=5e-3)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    np.testing.assert_allclose(got, _run(litert.Interpreter(model_content=model), xv), atol=1e-6)


@pytest.mark.parametrize("name,make_cell", [("basic_lstm", lambda: tf.nn.rnn_cell.BasicLSTMCell(4)),
                                            ("basic_rnn", lambda: tf.nn.rnn_cell.BasicRNNCell(4))])
def test_static_rnn_unrolls_into_tf_ops(name, make_cell):
    x = tf.placeholder(tf.float32, [2, 5, 3], name="x")
    outs, _ = tf.nn.static_rnn(make_cell(), tf.unstack(x, axis=1), dtype=tf.float32)
    y = tf.identity(tf.stack(outs, 1), name="y")
    xv = np.random.default_rng(2).uniform(-1, 1, (2, 5, 3)).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        want = sess.run(y, {x: xv})
        model = tf.lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
    names, _ = _fused_ops(model)
    # the same operators as TF (the zero initial state folded away at step 0), possibly in another order
    assert sorted(names) == sorted(TF_FUSED["static_rnn"][name])
    np.testing.assert_allclose(_run(tf.lite.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-6)


def test_classifier_with_unknown_batch_converts():
    x = tf.placeholder(tf.float32, [None, TIME, DEPTH], name="x")
    _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32)
    logits = tf.matmul(state.h, tf.Variable(np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)))
    xv = np.random.default_rng(3).uniform(-1, 1, (1, TIME, DEPTH)).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        want = sess.run(logits, {x: xv})
        model = tf.lite.TFLiteConverter.from_session(sess, [x], [logits]).convert()
    names, _ = _fused_ops(model)
    assert names == ["UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "FULLY_CONNECTED"]
    np.testing.assert_allclose(_run(tf.lite.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-6)


def test_stacked_lstms_convert_to_one_fused_op_per_layer():
    from . import lstm_model
    x = tf.placeholder(tf.float32, [None, lstm_model.TIME, lstm_model.DEPTH], name="x")
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(6), tf.nn.rnn_cell.LSTMCell(5, num_proj=4)])
    _, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    y = tf.concat([state[0].h, state[1].h], 1)
    xv = lstm_model.inputs()[:1]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        want = sess.run(y, {x: xv})
        model = tf.lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
    names, fused = _fused_ops(model)
    assert sorted(names) == ["CONCATENATION", "STRIDED_SLICE", "STRIDED_SLICE", "UNIDIRECTIONAL_SEQUENCE_LSTM",
                             "UNIDIRECTIONAL_SEQUENCE_LSTM"]
    assert [f["options"]["time_major"] for f in fused] == [False, False]
    np.testing.assert_allclose(_run(tf.lite.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-6)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    np.testing.assert_allclose(_run(litert.Interpreter(model_content=model), xv), want, rtol=1e-5, atol=1e-6)


def test_static_bidirectional_with_lengths_converts():
    x = tf.placeholder(tf.float32, [2, 4, 3], name="x")
    lengths = tf.placeholder(tf.int32, [2], name="lengths")
    outs, _, _ = tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), tf.nn.rnn_cell.GRUCell(2),
                                                tf.unstack(x, axis=1), sequence_length=lengths, dtype=tf.float32)
    y = tf.stack(outs, 1)
    feeds = {"x": np.random.default_rng(4).uniform(-1, 1, (2, 4, 3)).astype(np.float32),
             "lengths": np.array([4, 2], np.int32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        want = sess.run(y, {x: feeds["x"], lengths: feeds["lengths"]})
        model = tf.lite.TFLiteConverter.from_session(sess, [x, lengths], [y]).convert()
    names, _ = _fused_ops(model)
    assert {"REVERSE_SEQUENCE", "SELECT"} <= set(names)
    interpreters = [tf.lite.Interpreter(model_content=model)]
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    interpreters.append(litert.Interpreter(model_content=model))
    for interpreter in interpreters:
        interpreter.allocate_tensors()
        for d in interpreter.get_input_details():
            interpreter.set_tensor(d["index"], feeds[d["name"]])
        interpreter.invoke()
        got = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
