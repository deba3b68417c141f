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


@pytest.fixture(scope="module")
def trained(vocab_path, tmp_path_factory):
    """The SDK's output for the raw features and a checkpoint of the model's variables."""
    ckpt = str(tmp_path_factory.mktemp("ckpt") / "model")
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.set_random_seed(7)
        feats = {k: tf.constant(v) for k, v in cases.RAW.items()}
        net = tf.feature_column.input_layer(feats, cases.model_columns(_fc(vocab_path)))
        out = tf.layers.dense(net, 3, name="head")
        sess.run(tf.global_variables_initializer())
        want = sess.run(out)
        tf.train.Saver().save(sess, ckpt)
    return want, ckpt


def test_converted_model_fed_by_host_equals_session(vocab_path, trained) -> None:
    want, ckpt = trained
    ht = tf.feature_column.HostTransform(cases.model_columns(_fc(vocab_path)))
    host = ht.transform(cases.RAW)
    with tf.Graph().as_default(), tf.Session() as sess:
        inputs = ht.placeholders(host)
        out = tf.layers.dense(ht.input_layer(inputs), 3, name="head")
        tf.train.Saver().restore(sess, ckpt)  # the same variable names as input_layer's
        np.testing.assert_allclose(sess.run(out, {inputs[k]: v for k, v in host.items()}), want, rtol=1e-6,
                                   atol=1e-6)
        names = sorted(inputs)
        model = lite.TFLiteConverter.from_session(sess, [inputs[k] for k in names], [out]).convert()
    m = schema_reader.read_model(model)
    assert {"GATHER", "ONE_HOT", "BUCKETIZE"} <= {schema.OPERATOR_NAMES[schema_reader.builtin_code(c)]
                                                  for c in m["operator_codes"]}
    interp = Interpreter(model_content=model)
    interp.allocate_tensors()
    for d in interp.get_input_details():
        interp.set_tensor(d["index"], host[d["name"]])
    interp.invoke()
    np.testing.assert_allclose(interp.get_tensor(interp.get_output_details()[0]["index"]), want, rtol=1e-5,
                               atol=1e-6)


def test_refuses_columns_it_cannot_split(vocab_path) -> None:
    with pytest.raises(ValueError, match="HostTransform takes numeric, bucketized, indicator"):
        tf.feature_column.HostTransform([cases.categorical(_fc(vocab_path))[0]])
