"""Graphs with tf.image resizes convert to RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR (float, int8, int16 with 16x8
quantization) and run in edgelite_runtime (and LiteRT when installed) with the SDK's numbers."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite import lite
from edgelite.lite import schema, schema_reader
from edgelite_runtime import Interpreter
from . import int16_resize_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _convert_and_run(build, x_value):
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, x_value.shape)
        y = build(x)
        want = sess.run(y, {x: x_value})
        model = lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
    return model, want


def _run(interpreter_cls, model, x_value, **kw):
    interp = interpreter_cls(model_content=model, **kw)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], x_value)
    interp.invoke()
    return interp.get_tensor(interp.get_output_details()[0]["index"])


@pytest.mark.parametrize("build,code", [
    (lambda x: tf.image.resize_bilinear(x, [9, 7]), "RESIZE_BILINEAR"),
    (lambda x: tf.image.resize_bilinear(x, [3, 4], align_corners=True), "RESIZE_BILINEAR"),
    (lambda x: tf.image.resize_bilinear(x, [11, 5], half_pixel_centers=True), "RESIZE_BILINEAR"),
    (lambda x: tf.image.resize_nearest_neighbor(x, [10, 3]), "RESIZE_NEAREST_NEIGHBOR"),
    (lambda x: tf.image.resize_nearest_neighbor(x, [4, 9], half_pixel_centers=True), "RESIZE_NEAREST_NEIGHBOR"),
    (lambda x: tf.nn.relu(tf.image.resize_images(x, [8, 8]) - 0.5), "RESIZE_BILINEAR"),
], ids=["bilinear", "bilinear_align", "bilinear_half_pixel", "nearest", "nearest_half_pixel", "resize_images"])
def test_resizes_convert_and_match_the_sdk(build, code):
    x_value = np.random.default_rng(1).random((2, 5, 6, 3)).astype(np.float32)
    model, want = _convert_and_run(build, x_value)
    assert code in _op_names(model)
    np.testing.assert_allclose(_run(Interpreter, model, x_value), want, rtol=1e-5, atol=1e-6)


def _op_names(model: bytes) -> list:
    m = schema_reader.read_model(model)
    return [schema.OPERATOR_NAMES[schema_reader.builtin_code(c)] for c in m["operator_codes"]]


def test_litert_agrees_when_installed():
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    x_value = np.random.default_rng(2).random((1, 7, 5, 2)).astype(np.float32)
    model, want = _convert_and_run(lambda x: tf.image.resize_bilinear(x, [4, 9], half_pixel_centers=True), x_value)
    np.testing.assert_allclose(_run(litert.Interpreter, model, x_value), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("resize", [
    lambda h: tf.image.resize_bilinear(h, [9, 7], half_pixel_centers=True),
    lambda h: tf.image.resize_nearest_neighbor(h, [10, 12]),
], ids=["bilinear", "nearest"])
def test_int8_resizes_keep_their_input_scale_and_match_litert(resize):
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    rng = np.random.default_rng(3)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [1, 5, 6, 3])
        w = tf.constant(rng.normal(0, 0.5, (3, 3, 3, 4)).astype(np.float32))
        y = resize(tf.nn.relu(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")))
        samples = [rng.random((1, 5, 6, 3)).astype(np.float32) for _ in range(16)]
        want = sess.run(y, {x: samples[0]})
        conv = lite.TFLiteConverter.from_session(sess, [x], [y])
        conv.optimizations = [lite.Optimize.DEFAULT]
        conv.representative_dataset = lambda: ([s] for s in samples)
        conv.target_spec.supported_ops = {lite.OpsSet.TFLITE_BUILTINS_INT8}
        model = conv.convert()
    m = schema_reader.read_model(model)
    sg = m["subgraphs"][0]
    resize_op = next(op for op in sg["operators"]
                     if schema.OPERATOR_NAMES[schema_reader.builtin_code(m["operator_codes"][op["opcode_index"]])]
                     .startswith("RESIZE"))
    q_in, q_out = (sg["tensors"][resize_op[k][0]]["quantization"] for k in ("inputs", "outputs"))
    assert list(q_in["scale"]) == list(q_out["scale"]) and list(q_in["zero_point"]) == list(q_out["zero_point"])
    # integer kernels are bit-exact with TFLite's reference kernels
    ours = _run(Interpreter, model, samples[0])
    theirs = _run(litert.Interpreter, model, samples[0],
                  experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_allclose(ours, want, atol=3 * float(q_out["scale"][0]) + 1e-6)


@pytest.mark.parametrize("build,code", [
    (lambda tf, b, s: tf.image.non_max_suppression(b, s, 6, 0.5, 0.2), "NON_MAX_SUPPRESSION_V4"),
    (lambda tf, b, s: tf.image.non_max_suppression_with_scores(b, s, 6, 0.5, 0.2, soft_nms_sigma=0.3),
     "NON_MAX_SUPPRESSION_V5"),
], ids=["v3_as_v4", "v5_soft"])
def test_nms_converts_and_selects_as_the_sdk(build, code):
    rng = np.random.default_rng(4)
    boxes = np.sort(rng.random((30, 4)), axis=1)[:, [0, 1, 2, 3]].astype(np.float32)
    scores = rng.random(30).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        b = tf.placeholder(tf.float32, [30, 4])
        s = tf.placeholder(tf.float32, [30])
        outs = build(tf, b, s)
        outs = list(outs) if isinstance(outs, tuple) else [outs]
        want = sess.run(outs, {b: boxes, s: scores})
        model = lite.TFLiteConverter.from_session(sess, [b, s], outs).convert()
    assert code in _op_names(model)
    runners = [lambda m: Interpreter(model_content=m)]
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    runners.append(lambda m: litert.Interpreter(model_content=m,
                                                experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF))
    for make in runners:
        interp = make(model)
        interp.allocate_tensors()
        for d, v in zip(interp.get_input_details(), (boxes, scores)):
            interp.set_tensor(d["index"], v)
        interp.invoke()
        got = [interp.get_tensor(d["index"]) for d in interp.get_output_details()]
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-6)


def _ops_and_quantization(model: bytes) -> list:
    """(op name, output type, output scales, output zero points) per operator (an absent zero-point vector is
    zeros, as TFLite reads it)."""
    m = schema_reader.read_model(model)
    sg = m["subgraphs"][0]
    out = []
    for op in sg["operators"]:
        t = sg["tensors"][op["outputs"][0]]
        q = t["quantization"] or {}
        scales = [float(s) for s in q.get("scale") or []]
        zeros = [int(z) for z in q.get("zero_point") or []] or [0] * len(scales)
        out.append((schema.OPERATOR_NAMES[schema_reader.builtin_code(m["operator_codes"][op["opcode_index"]])],
                    t["type"], scales, zeros))
    return out


@pytest.mark.parametrize("kind", int16_resize_cases.KINDS)
def test_int16_resizes_as_tensorflow_converts_them(kind):
    """16x8 quantization: TF 2.21 keeps RESIZE_* in int16 at its input's scale; edgelite writes the same ops, types,
    scales and zero points for the same graph and calibration data, and runs both models as LiteRT's reference
    kernels do."""
    tf_model = (FIXTURES / f"int16_resize_{kind}.tflite").read_bytes()
    w, samples = int16_resize_cases.weights_and_samples()
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [1, 5, 6, 3])
        y = int16_resize_cases.build(tf, kind, x, w)
        want = sess.run(y, {x: samples[0]})
        conv = lite.TFLiteConverter.from_session(sess, [x], [y])
        conv.optimizations = [lite.Optimize.DEFAULT]
        conv.representative_dataset = lambda: ([s] for s in samples)
        conv.target_spec.supported_ops = {lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8}
        model = conv.convert()
    ours, theirs = _ops_and_quantization(model), _ops_and_quantization(tf_model)
    assert [o[:2] for o in ours] == [o[:2] for o in theirs]
    resize = next(k for k, o in enumerate(ours) if o[0].startswith("RESIZE"))
    assert ours[resize][1] == schema.TENSOR_TYPES["INT16"]
    np.testing.assert_allclose(ours[resize][2], theirs[resize][2], rtol=1e-6)
    assert ours[resize][3] == theirs[resize][3] == [0]
    assert ours[resize][2] == ours[resize - 1][2]  # the resize keeps its input's scale
    # int8 weights, not the int16 activations, bound the error against float
    np.testing.assert_allclose(_run(Interpreter, model, samples[0]), want, atol=0.02 * np.abs(want).max())
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    for m in (model, tf_model):
        ref = _run(litert.Interpreter, m, samples[0], experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
        np.testing.assert_array_equal(_run(Interpreter, m, samples[0]), ref)
