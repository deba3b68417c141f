"""A TensorFlow SavedModel whose variables are resource variables (fixtures/resource, written by TF 2.21): edgelite
loads it, gives TF's outputs, keeps training it with TF's ResourceApplyAdam op, and freezes/converts it as TF does."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import edgelite as tf

import model_cases

RESOURCE = Path(__file__).resolve().parent / "fixtures" / "resource"
RECORD = json.loads((RESOURCE / "resource.json").read_text())
FEED = {"x:0": model_cases.RESOURCE_INPUT, "labels:0": model_cases.RESOURCE_LABELS}


def test_load_run_and_keep_training():
    with tf.Graph().as_default() as g, tf.Session() as sess:
        tf.saved_model.loader.load(sess, ["serve"], str(RESOURCE / "mlp"))
        assert {op.type for op in g.get_operations()} >= {"VarHandleOp", "ReadVariableOp", "ResourceApplyAdam"}
        np.testing.assert_allclose(sess.run("probs:0", FEED), RECORD["probs"], rtol=1e-5, atol=1e-6)
        sess.run("train", FEED)
        np.testing.assert_allclose(sess.run("probs:0", FEED), RECORD["probs_after_one_more_step"], rtol=1e-4,
                                   atol=1e-6)


def test_freeze_matches_tensorflow_and_converts():
    with tf.Graph().as_default() as g, tf.Session() as sess:
        tf.saved_model.loader.load(sess, ["serve"], str(RESOURCE / "mlp"))
        frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["probs"])
    assert [[n.name, n.op, list(n.input)] for n in frozen.node] == RECORD["frozen"]
    content = tf.lite.TFLiteConverter.from_saved_model(str(RESOURCE / "mlp")).convert()
    interpreter = tf.lite.Interpreter(model_content=content)
    index = interpreter.get_input_details()[0]["index"]
    interpreter.resize_tensor_input(index, [3, 4])
    interpreter.allocate_tensors()
    interpreter.set_tensor(index, model_cases.RESOURCE_INPUT)
    interpreter.invoke()
    out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    np.testing.assert_allclose(out, RECORD["probs"], rtol=1e-5, atol=1e-6)
