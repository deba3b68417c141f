"""tf.saved_model (TF1 API): what edgelite writes equals what TensorFlow writes for the same graph, loads back,
and TensorFlow's own SavedModel loads into edgelite (fixtures/saved_model, written by TF 2.21)."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.saved_model.loader import parse_saved_model
from edgelite.train import checkpoint_utils

import model_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "saved_model"
TF_RECORD = json.loads((FIXTURES / "saved_model.json").read_text())
TF_SERVING = FIXTURES / "serving"


def _export(export_dir: Path) -> None:
    with tf.Graph().as_default():
        x, y, p = model_cases.serving_graph(tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.saved_model.simple_save(sess, str(export_dir), {"x": x}, {"y": y, "p": p})


def _run_serving(export_dir: Path, import_scope=None) -> list:
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.SERVING], str(export_dir), import_scope=import_scope)
        sig = meta.signature_def[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        x = tf.saved_model.get_tensor_from_tensor_info(sig.inputs["x"], import_scope=import_scope)
        outs = [tf.saved_model.get_tensor_from_tensor_info(sig.outputs[k], import_scope=import_scope)
                for k in ("y", "p")]
        return sess.run(outs, {x: model_cases.SERVING_INPUT})


def test_simple_save_writes_tensorflows_layout_and_signatures(tmp_path):
    _export(tmp_path / "m")
    assert sorted(os.listdir(tmp_path / "m")) == sorted(os.listdir(TF_SERVING))
    assert sorted(os.listdir(tmp_path / "m" / "variables")) == sorted(os.listdir(TF_SERVING / "variables"))
    ours, theirs = parse_saved_model(str(tmp_path / "m")), parse_saved_model(str(TF_SERVING))
    assert ours.saved_model_schema_version == theirs.saved_model_schema_version == 1
    (mine,), (tfs,) = ours.meta_graphs, theirs.meta_graphs
    assert list(mine.meta_info_def.tags) == list(tfs.meta_info_def.tags) == ["serve"]
    assert mine.signature_def.keys() == tfs.signature_def.keys()
    for key in tfs.signature_def.keys():
        assert mine.signature_def[key].SerializeToString() == tfs.signature_def[key].SerializeToString()
    assert mine.saver_def.sharded and mine.saver_def.version == tfs.saver_def.version
    prefix = str(TF_SERVING / "variables" / "variables")
    for name, _shape in checkpoint_utils.list_variables(prefix):
        np.testing.assert_array_equal(checkpoint_utils.load_variable(str(tmp_path / "m/variables/variables"), name),
                                      checkpoint_utils.load_variable(prefix, name))


@pytest.mark.parametrize("source", ["edgelite", "tensorflow"])
def test_loader_runs_the_serving_signature(tmp_path, source):
    export_dir = TF_SERVING if source == "tensorflow" else tmp_path / "m"
    if source == "edgelite":
        _export(export_dir)
    for scope in (None, "imported"):
        y, p = _run_serving(export_dir, scope)
        np.testing.assert_allclose(y, TF_RECORD["y"], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(p, TF_RECORD["p"], rtol=1e-6, atol=1e-7)


def test_signature_builders_match_tensorflow_bytes_and_validity():
    sm = tf.saved_model
    with tf.Graph().as_default():
        x, y, p = model_cases.serving_graph(tf)
        examples = tf.placeholder(tf.string, [None], name="string_input")
        sigs = model_cases.signature_cases(tf, x, y, p)
        for key, sig in sigs.items():
            assert sig.SerializeToString(deterministic=True).hex() == TF_RECORD["signature_bytes"][key], key
            assert sm.is_valid_signature(sig) == TF_RECORD["is_valid"][key], key
        assert not sm.is_valid_signature(None)
        with pytest.raises(ValueError, match="Prediction `inputs` cannot be None or empty."):
            sm.predict_signature_def({}, {"y": y})
        with pytest.raises(ValueError, match="Regression input tensors must be of type string"):
            sm.regression_signature_def(x, y)
        with pytest.raises(ValueError, match="Classification scores must be a float Tensor."):
            sm.classification_signature_def(examples, None, examples)


def test_builder_with_two_meta_graphs_text_format_and_main_op(tmp_path):
    export_dir = tmp_path / "b"
    with tf.Graph().as_default():
        x, y, _p = model_cases.serving_graph(tf)
        counter = tf.Variable(0.0, name="counter", trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES])
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            builder = tf.saved_model.builder.SavedModelBuilder(str(export_dir))
            sig = {"serving_default": tf.saved_model.predict_signature_def({"x": x}, {"y": y})}
            builder.add_meta_graph_and_variables(sess, [tf.saved_model.SERVING], signature_def_map=sig,
                                                 main_op=tf.saved_model.main_op.main_op())
            with pytest.raises(AssertionError, match="already been saved"):
                builder.add_meta_graph_and_variables(sess, ["again"])
        builder.add_meta_graph([tf.saved_model.TRAINING, "extra"])
        path = builder.save(as_text=True)
    assert os.path.basename(path) == b"saved_model.pbtxt"
    assert tf.saved_model.maybe_saved_model_directory(str(export_dir))
    assert tf.saved_model.contains_saved_model(str(export_dir))
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.load(sess, ["extra", "train"], str(export_dir))
        assert sorted(meta.meta_info_def.tags) == ["extra", "train"]
        assert sess.run("counter:0") == 0.0
        out = sess.run("y:0", {"x:0": model_cases.SERVING_INPUT})
    np.testing.assert_allclose(out, TF_RECORD["y"], rtol=1e-6, atol=1e-7)


def test_builder_and_loader_errors(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "f").write_text("x")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        tf.saved_model.Builder(str(tmp_path / "full"))
    with pytest.raises(AssertionError, match="add_meta_graph_and_variables\\(\\)` first"):
        tf.saved_model.Builder(str(tmp_path / "empty")).add_meta_graph(["serve"])
    with tf.Graph().as_default(), tf.Session() as sess:
        with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags 'gpu' could not be found in "
                                               "SavedModel, with available tags '\\[\\{'serve'\\}\\]'"):
            tf.saved_model.loader.load(sess, ["gpu"], str(TF_SERVING))
        with pytest.raises(IOError, match="SavedModel file does not exist at: "):
            tf.saved_model.loader.load(sess, ["serve"], str(tmp_path / "nothing"))
    broken = tmp_path / "broken"
    shutil.copytree(TF_SERVING, broken)
    data = (broken / "saved_model.pb").read_bytes()
    (broken / "saved_model.pb").write_bytes(data[: len(data) // 2])
    with tf.Graph().as_default(), tf.Session() as sess:
        with pytest.raises(IOError, match=f"Cannot parse file {broken / 'saved_model.pb'}: "):
            tf.saved_model.loader.load(sess, ["serve"], str(broken))
    assert not tf.saved_model.maybe_saved_model_directory(str(tmp_path))


def test_tensorflow_reads_edgelites_saved_model(tmp_path):
    """TF-side check: TensorFlow's loader runs edgelite's serving signature with the same outputs."""
    tensorflow = pytest.importorskip("tensorflow", reason="TensorFlow is not installed; the TF-side check of "
                                                          "edgelite's SavedModel needs it (see verify_with_tf.py)")
    _export(tmp_path / "m")
    tf1 = tensorflow.compat.v1
    with tf1.Graph().as_default(), tf1.Session() as sess:
        meta = tf1.saved_model.loader.load(sess, ["serve"], str(tmp_path / "m"))
        sig = meta.signature_def["serving_default"]
        y = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: model_cases.SERVING_INPUT})
    np.testing.assert_allclose(y, TF_RECORD["y"], rtol=1e-6, atol=1e-7)
