"""MetaGraphDef interoperability with TensorFlow, both directions.

TensorFlow-made .meta + checkpoint (fixtures/meta, from generate_tf_meta_graph.py) must import, restore and
run in edgelite to TensorFlow's recorded outputs; TensorFlow must import, restore and run edgelite's .meta
(fixtures/verify_meta_with_tf.py, skipped visibly where TensorFlow is absent).
"""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
from ckpt_helpers import FIXTURES
from meta_model import build
from tf_reference import tensorflow_python

import edgelite as tf
from edgelite import train

META = FIXTURES / "meta"
VERIFY = FIXTURES / "verify_meta_with_tf.py"
ODD = "q\"\\ \n\t\u00e9\x01'"  # every escape class of the text format


def test_tensorflow_meta_graph_imports_restores_and_runs():
    exp = np.load(META / "expected.npz")
    feeds = {"x:0": exp["x"], "t:0": exp["t"]}
    with tf.Graph().as_default() as g:
        saver = train.import_meta_graph(str(META / "model.ckpt-7.meta"))
        sd = saver.as_saver_def()
        assert (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name) == \
            ("save/Const:0", "save/control_dependency:0", "save/restore_all")
        assert (sd.max_to_keep, sd.keep_checkpoint_every_n_hours, sd.sharded, sd.version) == (3, 2.5, False, 2)
        assert [v.op.name for v in tf.trainable_variables()] == ["w1", "b1", "w2", "b2"]
        assert [v.op.name for v in tf.global_variables()] == ["w1", "b1", "w2", "b2", "global_step"]
        assert tf.get_collection("labels") == [b"first", b"second"]
        assert tf.get_collection("sizes") == [3, 7]
        assert tf.get_collection("rates") == [0.25]
        assert [t.name for t in tf.get_collection("outputs")] == ["y:0", "loss:0"]
        assert tf.get_collection("train_op") == [g.get_operation_by_name("train")] * 2
        with tf.Session() as sess:
            saver.restore(sess, str(META / "model.ckpt-7"))
            assert int(sess.run(train.get_global_step())) == 7
            y, loss = sess.run(["y:0", "loss:0"], feeds)
            np.testing.assert_allclose(y, exp["y"], rtol=1e-6, atol=1e-6)
            np.testing.assert_allclose(loss, exp["loss"], rtol=1e-6)
            sess.run(tf.get_collection("train_op")[0], feeds)
            for v in tf.global_variables():
                np.testing.assert_allclose(sess.run(v), exp["after/" + v.op.name], rtol=1e-6, atol=1e-7,
                                           err_msg=v.op.name)


def _spec(value) -> dict:
    value = np.asarray(value)
    return {"dtype": value.dtype.name, "shape": list(value.shape), "data": value.tolist()}


def test_tensorflow_imports_restores_and_runs_our_meta_graph(tmp_path):
    python = tensorflow_python()
    rng = np.random.default_rng(3)
    x_in = rng.standard_normal((4, 3)).astype(np.float32)
    t_in = rng.standard_normal((4, 2)).astype(np.float32)
    with tf.Graph().as_default() as g:
        m = build(rng)
        tf.add_to_collection("odd", ODD)
        saver = train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feeds = {m["x"]: x_in, m["t"]: t_in}
            sess.run(m["train"], feeds)
            prefix = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=m["step"])
            saver.export_meta_graph(str(tmp_path / "model.pbtxt"), as_text=True)
            train.write_graph(g, str(tmp_path), "graph.pbtxt")
            y, loss = sess.run([m["y"], m["loss"]], feeds)
            sess.run(m["train"], feeds)
            after = {v.name: _spec(sess.run(v)) for v in tf.global_variables()}
    manifest = {
        "meta": prefix + ".meta", "text_meta": str(tmp_path / "model.pbtxt"), "pbtxt": str(tmp_path / "graph.pbtxt"),
        "prefix": prefix, "feeds": {"x:0": _spec(x_in), "t:0": _spec(t_in)},
        "fetches": {"y:0": _spec(y), "loss:0": _spec(loss)}, "train_op_collection": "train_op",
        "after_train": after,
        "collections": {"labels": ["first", "second"], "odd": [ODD], "sizes": [3, 7], "rates": [0.25],
                        "outputs": ["y:0", "loss:0"], "trainable_variables": ["w1:0", "b1:0", "w2:0", "b2:0"],
                        "global_step": ["global_step:0"]},
        "saver_def": {"filename_tensor_name": "save/Const:0", "save_tensor_name": "save/control_dependency:0",
                      "restore_op_name": "save/restore_all", "max_to_keep": 5, "version": 2},
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run([python, str(VERIFY), str(tmp_path)], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert "ALL OK" in proc.stdout


def test_tensorflow_sharded_saver_graph_restores_and_saves(tmp_path):
    """TensorFlow's sharded save graph (ShardedFilename, StringJoin, MergeV2Checkpoints) runs in edgelite."""
    exp = np.load(META / "expected.npz")
    with tf.Graph().as_default():
        saver = train.import_meta_graph(str(META / "sharded" / "sh.meta"))
        assert saver.as_saver_def().sharded and saver.as_saver_def().save_tensor_name == "save/Identity:0"
        with tf.Session() as sess:
            saver.restore(sess, str(META / "sharded" / "sh"))
            np.testing.assert_array_equal(sess.run("c:0"), exp["sharded/c"])
            a = tf.global_variables()[0]
            sess.run(tf.assign(a, [0.0, 1.0, 2.0]))
            path = saver.save(sess, str(tmp_path / "again"), global_step=3)
    assert path == str(tmp_path / "again-3")
    assert sorted(os.listdir(tmp_path)) == ["again-3.data-00000-of-00002", "again-3.data-00001-of-00002",
                                            "again-3.index", "again-3.meta", "checkpoint"]
    np.testing.assert_array_equal(train.load_variable(path, "a"), np.array([0.0, 1.0, 2.0], np.float32))
    np.testing.assert_array_equal(train.load_variable(path, "b"), np.array([3, 7, -1], np.int64))
