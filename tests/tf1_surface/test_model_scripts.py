"""Constructs of public TF1 estimator / serving / input-pipeline scripts against TensorFlow's recorded results
(model_script_cases), and tf.contrib.lookup's `mapping` spelling of the core vocabulary tables."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.ops import lookup_index_tables
from edgelite.tools import freeze_graph

from . import model_script_cases
from .test_surface_fixtures import _expected

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "model_script_fixtures.json").read_text())
LIB = types.SimpleNamespace(lookup=lookup_index_tables, freeze_graph=freeze_graph)


@pytest.mark.parametrize("case", model_script_cases.CASES, ids=lambda c: c.__name__)
def test_matches_tensorflow(case):
    if case is model_script_cases.pandas_columns_to_dataset:
        pytest.importorskip("pandas")
    with tf.Graph().as_default():
        got = case(tf, LIB)
    want = FIXTURES[case.__name__]
    assert sorted(got) == sorted(want)
    if case is model_script_cases.stripped_export_attrs:
        # Every attr TensorFlow keeps must be there; edgelite may also keep type attrs TF's OpDefs default.
        assert set(want["attrs"]) <= set(got["attrs"])
        for node, keys in want["attrs"].items():
            assert set(keys) <= set(got["attrs"][node]), node
        return
    for key, entry in want.items():
        expected = _expected(entry)
        if isinstance(expected, np.ndarray):
            assert np.asarray(got[key]).dtype == expected.dtype, key
            np.testing.assert_allclose(np.asarray(got[key]), expected, rtol=1e-6, err_msg=key) \
                if expected.dtype != object else np.testing.assert_array_equal(got[key], expected, err_msg=key)
        else:
            assert got[key] == expected, key


def test_contrib_lookup_takes_mapping():
    """TF 1.15's contrib.lookup named the vocabulary `mapping` and refused None with its own message."""
    with tf.Graph().as_default():
        table = tf.contrib.lookup.index_to_string_table_from_tensor(mapping=["a", "b"], default_value="?")
        ids = tf.contrib.lookup.index_table_from_tensor(mapping=["a", "b"], default_value=7)
        words = table.lookup(tf.constant([1, 4], tf.int64))
        found = ids.lookup(tf.constant(["b", "z"]))
        with tf.Session() as sess:
            table.init.run(session=sess)
            ids.init.run(session=sess)
            assert sess.run(words).tolist() == [b"b", b"?"]
            assert sess.run(found).tolist() == [1, 7]
    with pytest.raises(ValueError, match="mapping must be specified."):
        tf.contrib.lookup.index_table_from_tensor(None)


def test_contrib_framework_global_step_is_core():
    """cifar10_train.py's tf.contrib.framework.get_or_create_global_step: TF 1.15 re-exported tf.train's helpers."""
    for name in ("get_global_step", "get_or_create_global_step", "create_global_step", "assert_global_step"):
        assert getattr(tf.contrib.framework, name) is getattr(tf.train, name)
    with tf.Graph().as_default():
        step = tf.contrib.framework.get_or_create_global_step()
        assert step.op.name == "global_step" and tf.contrib.framework.get_global_step() is step


def test_training_graph_imports_in_a_fresh_process(tmp_path):
    """A freeze script's process imports a training GraphDef (optimizer updates, Saver ops) before it has built
    any optimizer or Saver itself: import_graph_def must know those op types anyway, as TF does."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2])
        loss = tf.reduce_sum(tf.layers.dense(x, 1))
        tf.train.AdamOptimizer().minimize(loss)
        tf.train.Saver()
        with tf.Session() as sess:
            (tmp_path / "train.pb").write_bytes(sess.graph_def.SerializeToString())
    code = ("import sys, edgelite as tf\n"
            "gd = tf.GraphDef(); gd.ParseFromString(open(sys.argv[1], 'rb').read())\n"
            "tf.import_graph_def(gd, name='')\n"
            "print(sorted({op.type for op in tf.get_default_graph().get_operations()} & {'ApplyAdam', 'SaveV2'}))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "train.pb")], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == "['ApplyAdam', 'SaveV2']"


def test_session_graph_def_is_the_graph_def():
    with tf.Graph().as_default() as g:
        tf.constant(1.0, name="c")
        with tf.Session() as sess:
            assert [n.name for n in sess.graph_def.node] == [n.name for n in g.as_graph_def().node] == ["c"]


def _keyed_model_fn(features, labels, mode):
    """A linear regressor over feature 'x' whose PREDICT spec also exports a PredictOutput."""
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[1.0], [2.0]]))
    pred = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"pred": pred}, export_outputs={
            "predict": tf.estimator.export.PredictOutput({"pred": pred})})
    loss = tf.reduce_mean(tf.square(pred - labels))
    train = tf.train.GradientDescentOptimizer(0.0).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)


def test_contrib_forward_features(tmp_path):
    """The babyweight trainer's tf.contrib.estimator.forward_features(estimator, KEY_COLUMN): each prediction
    carries its input's key next to the model's own outputs; TF 1.15's errors for bad keys."""
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32)
    keys = np.array([b"a", b"b", b"c"], dtype=object)
    base = tf.estimator.Estimator(_keyed_model_fn, model_dir=str(tmp_path))
    base.train(tf.estimator.inputs.numpy_input_fn({"x": x, "key": keys}, np.zeros((3, 1), np.float32),
                                                  shuffle=False), steps=1)
    keyed = tf.contrib.estimator.forward_features(base, "key")
    got = list(keyed.predict(tf.estimator.inputs.numpy_input_fn({"x": x, "key": keys}, shuffle=False)))
    assert [(p["key"], float(p["pred"][0])) for p in got] == [(b"a", 1.0), (b"b", 2.0), (b"c", 3.0)]
    with pytest.raises(TypeError, match="keys should be either a string or a list of strings"):
        tf.contrib.estimator.forward_features(base, 3)
    clash = tf.contrib.estimator.forward_features(base, ["x", "missing"])
    with pytest.raises(ValueError, match='Key "missing" is not in features dict'):
        list(clash.predict(tf.estimator.inputs.numpy_input_fn({"x": x}, shuffle=False)))
    assert tf.contrib.estimator.add_metrics is tf.estimator.add_metrics


def test_contrib_data_is_experimental():
    """TF 1.15's contrib.data names of the fused transformations were the data.experimental functions."""
    for name in ("map_and_batch", "parallel_interleave", "shuffle_and_repeat"):
        assert getattr(tf.contrib.data, name) is getattr(tf.data.experimental, name)


def test_contrib_predictor_from_saved_model(tmp_path):
    """tf.contrib.predictor.from_saved_model over a simple_save export: the serving_default signature's inputs
    fed from a dict, outputs returned as a dict (values by the model's formula), and TF 1.15's refusals."""
    weights = np.array([[1.0, -1.0], [0.5, 2.0]], np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.matmul(x, tf.constant(weights), name="y")
        tf.saved_model.simple_save(sess, str(tmp_path / "m"), inputs={"x": x}, outputs={"y": y})
    predict = tf.contrib.predictor.from_saved_model(str(tmp_path / "m"))
    data = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    out = predict({"x": data})
    assert sorted(out) == ["y"] and sorted(predict.feed_tensors) == ["x"]
    np.testing.assert_allclose(out["y"], data @ weights)
    with pytest.raises(ValueError, match="Got unexpected keys in input_dict"):
        predict({"z": data})
    with pytest.raises(ValueError, match='Got signature_def_key "nope". Available signatures are'):
        tf.contrib.predictor.from_saved_model(str(tmp_path / "m"), signature_def_key="nope")
    with pytest.raises(ValueError, match="input_names and output_names must both be specified"):
        tf.contrib.predictor.from_saved_model(str(tmp_path / "m"), input_names={"x": "x:0"})
