"""The converter's documented errors: their types and texts (tf.compat.v1.lite.TFLiteConverter's)."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite import lite


def _graph(shape=(None, 4), body=None):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, shape, name="x")
        w = tf.get_variable("w", [4, 3], initializer=tf.ones_initializer())
        y = body(x) if body else tf.nn.relu(tf.matmul(x, w), name="y")
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
    return g, sess, x, y


def _dataset():
    yield [np.ones((1, 4), np.float32)]


def test_none_beyond_the_first_dimension():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, None, 16, 3], name="Placeholder_1")
        y = x + x
        sess = tf.Session(graph=g)
    converter = lite.TFLiteConverter.from_session(sess, [x], [y])
    converter.experimental_new_converter = False  # the default converter keeps the dimension as -1
    with pytest.raises(ValueError) as err:
        converter.convert()
    assert str(err.value) == ("None is only supported in the 1st dimension. Tensor 'Placeholder_1' has invalid "
                              "shape '[1, None, 16, 3]'.")


def test_unknown_input_shape():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, None, name="x")
        y = x * 2.0
        sess = tf.Session(graph=g)
    with pytest.raises(ValueError, match=r"^Provide an input shape for input array 'x'\.$"):
        lite.TFLiteConverter.from_session(sess, [x], [y]).convert()


def test_unsupported_op_lists_the_ops_unless_custom_ops_are_allowed(litert):
    _, sess, x, y = _graph(body=lambda x: tf.nn.softplus(tf.nn.relu(x), name="soft"))
    conv = lite.TFLiteConverter.from_session(sess, [x], [y])
    with pytest.raises(ValueError) as err:
        conv.convert()
    text = str(err.value)
    assert "not supported by the standard TensorFlow Lite runtime" in text
    assert "builtin operators you are using: RELU." in text and "Softplus (used by soft)" in text
    conv.allow_custom_ops = True
    model = conv.convert()
    ops = litert.Interpreter(model_content=model)._get_ops_details()
    assert [o["op_name"] for o in ops] == ["RELU", "Softplus"]
    with pytest.raises(RuntimeError, match="unresolved custom op: Softplus"):
        litert.Interpreter(model_content=model).allocate_tensors()


def test_int8_only_refuses_ops_left_in_float(litert):
    _, sess, x, y = _graph(body=lambda x: tf.exp(tf.nn.relu(x), name="e"))
    conv = lite.TFLiteConverter.from_session(sess, [x], [y])
    conv.optimizations = [lite.Optimize.DEFAULT]
    conv.representative_dataset = _dataset
    conv.target_spec.supported_ops = {lite.OpsSet.TFLITE_BUILTINS_INT8}
    with pytest.raises(ValueError, match=r"Quantization not yet supported for op\(s\): EXP\."):
        conv.convert()
    conv.target_spec.supported_ops = {lite.OpsSet.TFLITE_BUILTINS}
    ops = [o["op_name"] for o in litert.Interpreter(model_content=conv.convert())._get_ops_details()]
    assert ops == ["QUANTIZE", "RELU", "DEQUANTIZE", "EXP"]


def test_full_integer_needs_a_representative_dataset():
    _, sess, x, y = _graph()
    conv = lite.TFLiteConverter.from_session(sess, [x], [y])
    conv.optimizations = [lite.Optimize.DEFAULT]
    conv.target_spec.supported_ops = {lite.OpsSet.TFLITE_BUILTINS_INT8}
    with pytest.raises(ValueError, match=r"^For full integer quantization, a `representative_dataset` must be "
                                         r"specified\.$"):
        conv.convert()
    conv.target_spec.supported_types = [tf.float16]
    with pytest.raises(ValueError, match="should be left uninitizalized or set to"):
        conv.convert()


def test_io_types_need_integer_quantization():
    _, sess, x, y = _graph()
    conv = lite.TFLiteConverter.from_session(sess, [x], [y])
    conv.inference_output_type = tf.int8
    with pytest.raises(ValueError, match=r"^The inference_input_type and inference_output_type must be tf\.float32\.$"):
        conv.convert()
    conv.inference_output_type = None
    conv.inference_input_type = tf.uint8
    with pytest.raises(ValueError, match="The `quantized_input_stats` flag must be defined when either "
                                         "`inference_type` flag or `inference_input_type` flag is set to tf.int8 or "
                                         "tf.uint8. Currently, `inference_type=tf.float32` and "
                                         "`inference_input_type=tf.uint8`."):
        conv.convert()
    conv.inference_input_type = tf.int16
    conv.optimizations = [lite.Optimize.DEFAULT]
    conv.representative_dataset = _dataset
    with pytest.raises(ValueError, match=r"must be in \['tf.float32', 'tf.int8', 'tf.uint8'\]\."):
        conv.convert()


def test_legacy_quantization_errors():
    _, sess, x, y = _graph()
    conv = lite.TFLiteConverter.from_session(sess, [x], [y])
    conv.inference_type = tf.int8
    with pytest.raises(ValueError, match="inference_type=tf.int8 without optimizations needs a quantization-aware"):
        conv.convert()
    conv.inference_type = tf.int16
    with pytest.raises(ValueError, match=r"inference_type must be tf.float32 or tf.uint8, got tf.int16"):
        conv.convert()
    conv.inference_type = tf.uint8
    with pytest.raises(ValueError, match="`quantized_input_stats` flag must be defined"):
        conv.convert()
    conv.quantized_input_stats = {"other": (0.0, 1.0)}
    with pytest.raises(ValueError, match=r"^Quantization input stats are not available for input tensors 'x'\.$"):
        conv.convert()
    conv.quantized_input_stats = {"x": (128.0, 127.0)}
    with pytest.raises(ValueError, match="lacking min/max data, which is necessary for quantization"):
        conv.convert()
    conv.default_ranges_stats = (0.0, 6.0)
    assert conv.convert()[4:8] == b"TFL3"


def test_graphs_that_are_not_frozen():
    g, sess, x, y = _graph()
    with pytest.raises(ValueError, match="The graph is not frozen: variable 'w' has no value"):
        lite.TFLiteConverter(g, [x], [y]).convert()
    fresh = tf.Session(graph=g)
    with pytest.raises(ValueError, match="Variable 'w' is not initialized in the session"):
        lite.TFLiteConverter.from_session(fresh, [x], [y]).convert()


def test_bad_arguments(tmp_path):
    g, sess, x, y = _graph()
    with pytest.raises(ValueError, match="If input_tensors and output_tensors are None, both input_arrays_with_shape "
                                         "and output_arrays must be defined."):
        lite.TFLiteConverter(g, None, None)
    with pytest.raises(ValueError, match=r"^Invalid tensors 'nope,gone' were found\.$"):
        lite.TFLiteConverter(g, None, None, input_arrays_with_shape=[("nope", [1, 4]), ("gone", [1])],
                             output_arrays=["y"])
    with pytest.raises(ValueError, match="graph_def must be an edgelite Graph or a GraphDef"):
        lite.TFLiteConverter(42, [x], [y])
    conv = lite.TFLiteConverter.from_session(sess, [x], [y])
    conv.output_format = "PNG"
    with pytest.raises(ValueError, match="output_format must be TFLITE or GRAPHVIZ_DOT"):
        conv.convert()
    with pytest.raises(IOError, match=r"^File '.*missing\.pb' does not exist\.$"):
        lite.TFLiteConverter.from_frozen_graph(str(tmp_path / "missing.pb"), ["x"], ["y"])
    junk = tmp_path / "junk.pb"
    junk.write_bytes(b"\xff\xfe not a graph")
    with pytest.raises(IOError, match=r"^Unable to parse input file '.*junk\.pb'\.$"):
        lite.TFLiteConverter.from_frozen_graph(str(junk), ["x"], ["y"])
    unfrozen = tmp_path / "unfrozen.pb"
    unfrozen.write_bytes(g.as_graph_def().SerializeToString())
    with pytest.raises(ValueError, match=r"^Please freeze the graph using freeze_graph\.py\.$"):
        lite.TFLiteConverter.from_frozen_graph(str(unfrozen), ["x"], ["y"])


def test_needed_placeholder_that_is_not_an_input():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 4], name="x")
        scale = tf.placeholder(tf.float32, [], name="scale")
        y = x * scale
        sess = tf.Session(graph=g)
    with pytest.raises(ValueError, match="Placeholder 'scale' is needed to compute the outputs but is not one of the "
                                         "model inputs"):
        lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
