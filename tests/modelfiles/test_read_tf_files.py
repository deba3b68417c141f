"""TensorFlow-written model files (fixtures/models, written by TF 2.21: frozen .pb/.pbtxt, .meta + checkpoint,
SavedModel of a trained digits CNN and a MobileNet-v1 0.25) import into edgelite, run with TF's outputs,
re-save, and reject bad input with one clear error."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.framework.graph_def import GraphDef
from edgelite.framework.text_format import parse

import model_cases

MODELS = Path(__file__).resolve().parent / "fixtures" / "models"
ARRAYS = np.load(MODELS / "models.npz")


def _input(model: str) -> np.ndarray:
    return ARRAYS["digits_input"] if model == "digits" else model_cases.mobilenet_inputs()[0]


def _check(model: str, probs: np.ndarray) -> None:
    np.testing.assert_allclose(probs, ARRAYS[model + "_probs"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("model,ext", [("digits", "pb"), ("digits", "pbtxt"), ("mobilenet", "pb")])
def test_frozen_graph_imports_and_runs(model, ext):
    data = (MODELS / f"{model}_frozen.{ext}").read_bytes()
    gd = GraphDef.FromString(data) if ext == "pb" else parse(data.decode(), GraphDef)
    with tf.Graph().as_default():
        probs, = tf.import_graph_def(gd, return_elements=["probs:0"], name="tf")
        with tf.Session() as sess:
            _check(model, sess.run(probs, {"tf/input:0": _input(model)}))


def _load_and_check(model: str, sess, export_dir: Path) -> tuple:
    meta = tf.saved_model.loader.load(sess, [tf.saved_model.SERVING], str(export_dir))
    sig = meta.signature_def["serving_default"]
    x = tf.saved_model.get_tensor_from_tensor_info(sig.inputs["input"])
    probs = tf.saved_model.get_tensor_from_tensor_info(sig.outputs["probs"])
    _check(model, sess.run(probs, {x: _input(model)}))
    return x, probs


@pytest.mark.parametrize("model", ["digits", "mobilenet"])
def test_saved_model_loads_and_runs(model):
    with tf.Graph().as_default(), tf.Session() as sess:
        _load_and_check(model, sess, MODELS / f"{model}_saved_model")


def test_tensorflows_saved_model_resaves(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        x, probs = _load_and_check("digits", sess, MODELS / "digits_saved_model")
        tf.saved_model.simple_save(sess, str(tmp_path / "again"), {"input": x}, {"probs": probs})
    with tf.Graph().as_default(), tf.Session() as sess:
        _load_and_check("digits", sess, tmp_path / "again")


def test_meta_graph_and_checkpoint_restore_and_keep_training():
    with tf.Graph().as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(str(MODELS / "digits_ckpt" / "model.meta"))
        saver.restore(sess, str(MODELS / "digits_ckpt" / "model"))
        _check("digits", sess.run("probs:0", {"input:0": _input("digits")}))
        # TF's Adam training op (ApplyAdam, gradient ops, ShapeN) runs in edgelite too.
        labels = ARRAYS["digits_probs"].argmax(1)
        feed = {"input:0": _input("digits"), "labels:0": labels}
        loss = tf.get_default_graph().get_tensor_by_name("sparse_softmax_cross_entropy_loss/value:0")
        before = sess.run(loss, feed)
        for _ in range(5):
            sess.run("train", feed)
        assert sess.run(loss, feed) < before


def test_unknown_ops_are_listed_in_one_error(tmp_path):
    gd = GraphDef.FromString((MODELS / "digits_frozen.pb").read_bytes())
    renamed = {"conv1/relu": "FancyRelu", "pool1": "FancyPool", "conv2/relu": "FancyRelu"}
    for node in gd.node:
        node.op = renamed.get(node.name, node.op)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="2 op types not registered 'FancyPool', 'FancyRelu' in binary.*"
                                             "'pool1' \\(FancyPool\\), 'conv1/relu' \\(FancyRelu\\)"):
            tf.import_graph_def(gd)
        assert not tf.get_default_graph().get_operations()
    path = tmp_path / "fancy.pb"
    path.write_bytes(gd.SerializeToString())
    with pytest.raises(ValueError, match=f"Cannot import '{path}': 2 op types not registered"):
        tf.lite.TFLiteConverter.from_frozen_graph(str(path), ["input"], ["probs"])


def test_truncated_files_name_the_file(tmp_path):
    data = (MODELS / "digits_frozen.pb").read_bytes()
    path = tmp_path / "cut.pb"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(IOError, match=f"Unable to parse input file '{path}'"):
        tf.lite.TFLiteConverter.from_frozen_graph(str(path), ["input"], ["probs"])
    broken = tmp_path / "sm"
    shutil.copytree(MODELS / "digits_saved_model", broken)
    pb = broken / "saved_model.pb"
    pb.write_bytes(pb.read_bytes()[:1000])
    with pytest.raises(IOError, match=f"Cannot parse file {pb}"):
        tf.lite.TFLiteConverter.from_saved_model(str(broken))
