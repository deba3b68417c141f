"""A bucketized feature column converts to TFLite's BUCKETIZE: edgelite's runtime and LiteRT give the ids and the
one-hot input_layer output the session computes."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite import lite


def _run(interpreter_cls, model: bytes, x: np.ndarray) -> list:
    it = interpreter_cls(model_content=model)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


@pytest.fixture(scope="module")
def converted():
    x_value = np.array([[-3.0], [-1.0], [0.2], [0.5], [2.0], [9.5]], np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [6, 1], name="x")
        column = tf.feature_column.bucketized_column(tf.feature_column.numeric_column("x"), [-1.0, 0.5, 2.0])
        ids = tf.identity(tf.feature_column.input_layer({"x": x}, [column]), name="one_hot")
        with tf.Session() as sess:
            bucket = sess.graph.get_tensor_by_name("input_layer/x_bucketized/Bucketize:0")
            expected = sess.run([bucket, ids], {x: x_value})
            model = lite.TFLiteConverter.from_session(sess, [x], [bucket, ids]).convert()
    return model, x_value, expected


def test_bucketize_runs_in_edgelite_runtime(converted) -> None:
    model, x_value, expected = converted
    got = _run(lite.Interpreter, model, x_value)
    assert got[0].dtype == np.int32
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def test_bucketize_runs_in_litert(converted) -> None:
    litert = pytest.importorskip("ai_edge_litert.interpreter", reason="LiteRT is an optional cross-check")
    model, x_value, expected = converted
    got = _run(litert.Interpreter, model, x_value)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
