"""feature_column.HostTransform: the host's ids equal TensorFlow 2.21's (fixtures/host_ids.json), and a
feature-column model converted to .tflite from HostTransform.input_layer, fed transform()'s arrays, gives the
output of the SDK session that ran input_layer on the raw features."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite import lite
from edgelite.lite import schema, schema_reader
from edgelite_runtime import Interpreter
from tests.sdk_fc import fc_cases, host_transform_cases as cases

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "host_ids.json").read_text())


def _fc(vocab_path: str):
    return fc_cases._ColumnsModule(tf, vocab_path)


def test_ids_and_weights_equal_tensorflows(vocab_path) -> None:
    columns = [tf.feature_column.indicator_column(c) for c in cases.categorical(_fc(vocab_path))]
    host = tf.feature_column.HostTransform(columns).transform(cases.RAW)
    assert sorted(host) == sorted(RECORDED)
    for name, want in RECORDED.items():
        assert host[name].dtype == np.dtype(want["dtype"]), name
        np.testing.assert_array_equal(host[name], np.asarray(want["values"], want["dtype"]), err_msg=name)


def test_widths_pad_ids_and_refuse_overflow(vocab_path) -> None:
    ht = tf.feature_column.HostTransform([tf.feature_column.indicator_column(cases.categorical(_fc(vocab_path))[0])])
    padded = ht.transform(cases.RAW, widths={"city_ids": 4})["city_ids"]
    np.testing.assert_array_equal(padded[:, :2], np.asarray(RECORDED["city_ids"]["values"]))
    assert (padded[:, 2:] == -1).all()
    with pytest.raises(ValueError, match="more than its width 1"):
        ht.transform(cases.RAW, widths={"city_ids": 1})


def _converted_output(model: bytes, host: dict, interpreter_cls=Interpreter) -> np.ndarray:
    interp = interpreter_cls(model_content=model)
    interp.allocate_tensors()
    for d in interp.get_input_details():
        interp.set_tensor(d["index"], host[d["name"]])
    interp.invoke()
    return interp.get_tensor(interp.get_output_details()[0]["index"])


def _ops(model: bytes) -> set:
    m = schema_reader.read_model(model)
    return {schema.OPERATOR_NAMES[schema_reader.builtin_code(c)] for c in m["operator_codes"]}


def _split_and_convert(ht, build_head, ckpt: str) -> tuple:
    """The host arrays, the export graph's session output for them, and its .tflite (variables from ckpt)."""
    host = ht.transform(cases.RAW)
    with tf.Graph().as_default(), tf.Session() as sess:
        inputs = ht.placeholders(host)
        out = build_head(inputs)
        tf.train.Saver().restore(sess, ckpt)  # the variable names are the training graph's
        sdk = sess.run(out, {inputs[k]: v for k, v in host.items()})
        names = sorted(inputs)
        model = lite.TFLiteConverter.from_session(sess, [inputs[k] for k in names], [out]).convert()
    return host, sdk, model


def _trained(build, ckpt: str) -> np.ndarray:
    """build(features) on the raw features with random variable values, saved to ckpt; its session output."""
    rng = np.random.default_rng(7)
    with tf.Graph().as_default(), tf.Session() as sess:
        out = build({k: tf.constant(v) for k, v in cases.RAW.items()})
        sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():
            v.load(rng.uniform(-1, 1, v.shape.as_list()).astype(np.float32), sess)
        want = sess.run(out)
        tf.train.Saver().save(sess, ckpt)
    return want


@pytest.mark.parametrize("make_columns", [cases.model_columns, cases.shared_columns], ids=["mixed", "shared"])
def test_input_layer_model_fed_by_host_equals_session(make_columns, vocab_path, tmp_path) -> None:
    columns = make_columns(_fc(vocab_path))
    ckpt = str(tmp_path / "model")
    want = _trained(lambda f: tf.layers.dense(tf.feature_column.input_layer(f, columns), 3, name="head"), ckpt)
    ht = tf.feature_column.HostTransform(columns)
    host, sdk, model = _split_and_convert(
        ht, lambda inputs: tf.layers.dense(ht.input_layer(inputs), 3, name="head"), ckpt)
    np.testing.assert_allclose(sdk, want, rtol=1e-6, atol=1e-6)
    assert "GATHER" in _ops(model)
    np.testing.assert_allclose(_converted_output(model, host), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_linear_model_fed_by_host_equals_session(combiner, vocab_path, tmp_path) -> None:
    columns = cases.linear_columns(_fc(vocab_path))
    ckpt = str(tmp_path / "model")
    want = _trained(lambda f: tf.feature_column.linear_model(f, columns, units=2, sparse_combiner=combiner), ckpt)
    ht = tf.feature_column.HostTransform(columns)
    host, sdk, model = _split_and_convert(
        ht, lambda inputs: ht.linear_model(inputs, units=2, sparse_combiner=combiner), ckpt)
    np.testing.assert_allclose(sdk, want, rtol=1e-6, atol=1e-6)
    assert {"GATHER", "BUCKETIZE", "ADD_N"} <= _ops(model)
    np.testing.assert_allclose(_converted_output(model, host), want, rtol=1e-5, atol=1e-6)
    litert = pytest.importorskip("ai_edge_litert.interpreter", reason="LiteRT is an optional cross-check")
    np.testing.assert_allclose(_converted_output(model, host, litert.Interpreter), want, rtol=1e-5, atol=1e-6)


def test_input_layer_refuses_categorical_columns(vocab_path) -> None:
    ht = tf.feature_column.HostTransform(cases.categorical(_fc(vocab_path))[:1])
    with pytest.raises(ValueError, match="Items of feature_columns must be a _DenseColumn"):
        ht.input_layer(ht.placeholders(ht.transform(cases.RAW)))
