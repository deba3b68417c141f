"""MetaGraphDef export/import within edgelite: the TF1 recipe, collections, scopes, retention, errors."""
from __future__ import annotations

import logging
import os

import numpy as np
import pytest
from meta_model import build

import edgelite as tf
from edgelite import train
from edgelite.framework import meta_graph
from edgelite.framework.meta_graph_protos import MetaGraphDef, VariableDef
from edgelite.train.checkpoint_reader import CheckpointReader


@pytest.fixture()
def graph():
    with tf.Graph().as_default() as g:
        yield g


def _feeds(rng):
    return rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)


def _trained_model(tmp_path, steps=3, **save_kw):
    """Builds, trains and saves the model; returns (prefix, feeds, outputs before/after one more step)."""
    rng = np.random.default_rng(11)
    x_in, t_in = _feeds(rng)
    with tf.Graph().as_default():
        m = build(rng)
        saver = train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                sess.run(m["train"], {m["x"]: x_in, m["t"]: t_in})
            prefix = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=m["step"], **save_kw)
            feeds = {m["x"]: x_in, m["t"]: t_in}
            y, loss = sess.run([m["y"], m["loss"]], feeds)
            sess.run(m["train"], feeds)
            after = {v.op.name: sess.run(v) for v in tf.global_variables()}
    return prefix, (x_in, t_in), (y, loss), after


def test_save_writes_meta_and_import_restore_run_in_a_fresh_graph(tmp_path):
    prefix, (x_in, t_in), (y, loss), after = _trained_model(tmp_path)
    assert prefix.endswith("model.ckpt-3") and os.path.exists(prefix + ".meta")
    with tf.Graph().as_default():
        saver = train.import_meta_graph(prefix + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            feeds = {"x:0": x_in, "t:0": t_in}
            got_y, got_loss = sess.run(["y:0", "loss:0"], feeds)
            np.testing.assert_array_equal(got_y, y)
            np.testing.assert_array_equal(got_loss, loss)
            sess.run(tf.get_collection("train_op")[0], feeds)
            for v in tf.global_variables():
                np.testing.assert_array_equal(sess.run(v), after[v.op.name], err_msg=v.op.name)


def test_collections_round_trip(tmp_path):
    prefix, *_ = _trained_model(tmp_path)
    with tf.Graph().as_default() as g:
        train.import_meta_graph(prefix + ".meta")
        assert [v.op.name for v in tf.global_variables()] == ["w1", "b1", "w2", "b2", "frozen", "global_step"]
        assert [v.op.name for v in tf.trainable_variables()] == ["w1", "b1", "w2", "b2"]
        assert not tf.global_variables()[4].trainable
        assert [v.op.name for v in tf.get_collection(tf.GraphKeys.GLOBAL_STEP)] == ["global_step"]
        assert train.get_global_step().op.name == "global_step"
        # minimize() adds its op to the train_op collection, and the model adds it once more, as in TensorFlow
        assert tf.get_collection("train_op") == [g.get_operation_by_name("train")] * 2
        assert [t.name for t in tf.get_collection("outputs")] == ["y:0", "loss:0"]
        assert tf.get_collection("labels") == [b"first", b"second"]
        assert tf.get_collection("sizes") == [3, 7]
        assert tf.get_collection("rates") == [0.25]
        w1 = tf.global_variables()[0]
        assert w1.initializer.name == "w1/Assign" and w1.value().name == "w1/read:0"
        assert w1.initial_value.name == "w1/initial_value:0"


def test_variable_def_fields(graph):
    v = tf.Variable(np.ones(2, np.float32), name="v", trainable=False)
    vd = VariableDef.FromString(v.to_proto().SerializeToString())
    assert (vd.variable_name, vd.initializer_name, vd.snapshot_name, vd.initial_value_name) == \
        ("v:0", "v/Assign", "v/read:0", "v/initial_value:0")
    assert (vd.trainable, vd.is_resource) == (False, False)
    assert v.to_proto(export_scope="other") is None


def test_unserializable_collections_are_dropped_with_a_warning(graph, caplog):
    tf.add_to_collection("mixed", 1)
    tf.add_to_collection("mixed", "two")
    tf.add_to_collection("objects", object())
    tf.add_to_collection(("tuple", "key"), 5)
    tf.add_to_collection("ok", 1.5)
    with caplog.at_level(logging.WARNING, logger="edgelite"):
        mgd = train.export_meta_graph()
    cols = meta_graph.collection_defs(mgd)
    assert sorted(cols) == ["ok"]
    assert list(cols["ok"].float_list.value) == [1.5]
    text = caplog.text
    assert "Issue encountered when serializing mixed" in text and "Issue encountered when serializing objects" in text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="edgelite"):
        mgd = train.export_meta_graph(collection_list=["ok", ("tuple", "key")])
    assert sorted(meta_graph.collection_defs(mgd)) == ["ok"]
    assert "Only collections with string type keys will be serialized" in caplog.text


def test_saver_def_fields_round_trip_through_meta(graph):
    tf.Variable(np.zeros(2, np.float32), name="w")
    saver = train.Saver(max_to_keep=4, keep_checkpoint_every_n_hours=1.5, sharded=True)
    mgd = MetaGraphDef.FromString(saver.export_meta_graph().SerializeToString())
    sd = mgd.saver_def
    assert (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name) == \
        ("save/Const:0", "save/control_dependency:0", "save/restore_all")
    assert (sd.max_to_keep, sd.sharded, sd.keep_checkpoint_every_n_hours, sd.version) == (4, True, 1.5, 2)
    with tf.Graph().as_default():
        imported = train.import_meta_graph(mgd)
        assert imported.as_saver_def() == sd


def test_meta_written_on_every_save_unless_disabled(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(np.zeros(2, np.float32), name="v")
        saver = train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, str(tmp_path / "m"))
            first = (tmp_path / "m.meta").read_bytes()
            tf.add_to_collection("later", 2)
            saver.save(sess, str(tmp_path / "m"))
            second = (tmp_path / "m.meta").read_bytes()
            saver.save(sess, str(tmp_path / "n"), write_meta_graph=False)
            saver.save(sess, str(tmp_path / "o"), meta_graph_suffix="graph")
    assert prefix == str(tmp_path / "m") and first != second
    assert "later" in meta_graph.collection_defs(MetaGraphDef.FromString(second))
    assert not (tmp_path / "n.meta").exists() and (tmp_path / "o.graph").exists()
    assert not [f for f in os.listdir(tmp_path) if ".tmp" in f or f.startswith(".")]
    assert v is not None


def test_retention_deletes_old_meta_files(tmp_path):
    with tf.Graph().as_default():
        tf.Variable(np.zeros(2, np.float32), name="v")
        saver = train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(4):
                saver.save(sess, str(tmp_path / "m"), global_step=step)
    metas = sorted(f for f in os.listdir(tmp_path) if f.endswith(".meta"))
    assert metas == ["m-2.meta", "m-3.meta"]


def test_imported_saver_saves_through_the_graph(tmp_path):
    prefix, _, _, after = _trained_model(tmp_path)
    with tf.Graph().as_default():
        saver = train.import_meta_graph(prefix + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            out = saver.save(sess, str(tmp_path / "again"), global_step=9)
    assert out == str(tmp_path / "again-9") and os.path.exists(out + ".meta")
    original, again = CheckpointReader(prefix), CheckpointReader(out)
    for name in ["w1", "b1", "w2", "b2", "frozen", "global_step"]:
        np.testing.assert_array_equal(again.get_tensor(name), original.get_tensor(name))
    assert train.latest_checkpoint(str(tmp_path)) == out


def test_import_scope_twice_into_one_graph(tmp_path):
    prefix, (x_in, t_in), (y, _), _ = _trained_model(tmp_path)
    with tf.Graph().as_default():
        a = train.import_meta_graph(prefix + ".meta", import_scope="a")
        b = train.import_meta_graph(prefix + ".meta", import_scope="b")
        assert a.as_saver_def().restore_op_name == "a/save/restore_all"
        assert b.as_saver_def().filename_tensor_name == "b/save/Const:0"
        assert len(tf.global_variables()) == 12
        assert tf.get_collection("outputs")[2].name == "b/y:0"
        with tf.Session() as sess:
            a.restore(sess, prefix)
            b.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run("a/y:0", {"a/x:0": x_in}), y)
            np.testing.assert_array_equal(sess.run("b/y:0", {"b/x:0": x_in}), y)


def test_export_scope_marks_unbound_inputs(graph):
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.name_scope("inner"):
        y = tf.multiply(x, 3.0, name="y")
    mgd, var_list = meta_graph.export_scoped_meta_graph(export_scope="inner")
    names = [n.name for n in mgd.graph_def.node]
    assert "y" in names and "x" not in names
    node = [n for n in mgd.graph_def.node if n.name == "y"][0]
    assert node.input[0] == "$unbound_inputs_x" and var_list == {}
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Graph contains unbound inputs: \\$unbound_inputs_x"):
            train.import_meta_graph(mgd)
        z = tf.constant(np.array([1.0, 2.0], np.float32), name="z")
        meta_graph.import_scoped_meta_graph_with_return_elements(mgd, import_scope="new",
                                                                 input_map={"$unbound_inputs_x": z})
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run("new/y:0"), [3.0, 6.0])
    assert y is not None


def test_clear_devices_and_strip_default_attrs(graph):
    with tf.device("/cpu:0"):
        tf.Variable(np.zeros(2, np.float32), name="v")
    mgd = train.export_meta_graph(clear_devices=True, strip_default_attrs=True)
    assert all(n.device == "" for n in mgd.graph_def.node)
    assert mgd.meta_info_def.stripped_default_attrs
    kept = train.export_meta_graph()
    assert any(n.device for n in kept.graph_def.node)


def test_text_meta_graph_round_trips(tmp_path, graph):
    tf.Variable(np.array([1.5, -2.0], np.float32), name="v")
    tf.add_to_collection("labels", "quote\" and \\ and \u00e9")
    saver = train.Saver()
    binary = saver.export_meta_graph(str(tmp_path / "m.meta"))
    saver.export_meta_graph(str(tmp_path / "m.pbtxt"), as_text=True)
    text = (tmp_path / "m.pbtxt").read_text()
    assert 'filename_tensor_name: "save/Const:0"' in text and "version: V2" in text and "type: DT_FLOAT" in text
    parsed = meta_graph.read_meta_graph_file(str(tmp_path / "m.pbtxt"))
    # Both files are written deterministically (maps in key order), as TensorFlow's write_graph does.
    written = meta_graph.read_meta_graph_file(str(tmp_path / "m.meta"))
    assert parsed.SerializeToString() == written.SerializeToString()
    assert set(written.collection_def) == set(binary.collection_def)


def test_errors(tmp_path, graph):
    with pytest.raises(IOError, match="File does not exist"):
        train.import_meta_graph(str(tmp_path / "missing.meta"))
    (tmp_path / "junk.meta").write_bytes(b"\xff\xfe not a proto {")
    with pytest.raises(IOError, match="Cannot parse file"):
        train.import_meta_graph(str(tmp_path / "junk.meta"))
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        train.export_meta_graph(bogus=1)
    with pytest.raises(ValueError, match="save_debug_info"):
        train.export_meta_graph(str(tmp_path / "d.meta"), save_debug_info=True)
    with pytest.raises(TypeError, match="graph must be of type Graph"):
        train.export_meta_graph(graph="not a graph")


def test_import_without_variables_returns_none(graph):
    tf.constant(1.0, name="c")
    mgd = train.export_meta_graph()
    with tf.Graph().as_default():
        assert train.import_meta_graph(mgd) is None


def test_partitioned_variable_round_trips_through_the_graph_ops(tmp_path):
    from edgelite.ops import variable_scope as vs
    value = np.arange(12, dtype=np.float32).reshape(6, 2)
    with tf.Graph().as_default():
        pv = vs.get_variable("emb", initializer=value, partitioner=tf.fixed_size_partitioner(3))
        tf.reduce_sum(tf.concat(list(pv._get_variable_list()), 0), name="total")
        saver = train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, str(tmp_path / "m"))
    with tf.Graph().as_default():
        imported = train.import_meta_graph(prefix + ".meta")
        assert [v._save_slice_info.spec for v in tf.global_variables()] == ["6 2 0,2:0,2", "6 2 2,2:0,2",
                                                                            "6 2 4,2:0,2"]
        with tf.Session() as sess:
            imported.restore(sess, prefix)
            assert sess.run("total:0") == value.sum()
            again = imported.save(sess, str(tmp_path / "again"))
    np.testing.assert_array_equal(train.load_variable(again, "emb"), value)


def test_clear_extraneous_savers_keeps_only_the_given_saver(tmp_path, graph):
    tf.Variable(np.ones(2, np.float32), name="v")
    first = train.Saver()
    second = train.Saver(max_to_keep=1)
    assert second.as_saver_def().restore_op_name == "save_1/restore_all"
    mgd = second.export_meta_graph(clear_extraneous_savers=True, clear_devices=True)
    names = {n.name for n in mgd.graph_def.node}
    assert "save_1/restore_all" in names and "v" in names
    assert not any(n.startswith("save/") for n in names)
    with tf.Graph().as_default():
        imported = train.import_meta_graph(mgd, clear_devices=True)
        assert imported.as_saver_def().max_to_keep == 1
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = imported.save(sess, str(tmp_path / "only"))
    np.testing.assert_array_equal(train.load_variable(path, "v"), np.ones(2, np.float32))
    assert first.as_saver_def().restore_op_name == "save/restore_all"


def test_saver_of_a_finalized_graph_exports_no_saver_def(tmp_path):
    with tf.Graph().as_default() as g:
        v = tf.Variable(np.array([4.0, 5.0], np.float32), name="v")
        init = tf.global_variables_initializer()
        g.finalize()
        saver = train.Saver()
        with tf.Session() as sess:
            sess.run(init)
            prefix = saver.save(sess, str(tmp_path / "f"))
    assert saver.as_saver_def().restore_op_name == "" and v is not None
    mgd = meta_graph.read_meta_graph_file(prefix + ".meta")
    assert not mgd.HasField("saver_def")
    with tf.Graph().as_default():
        imported = train.import_meta_graph(prefix + ".meta")
        assert imported.as_saver_def().restore_op_name == "save/restore_all"
        with tf.Session() as sess:
            imported.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run("v:0"), [4.0, 5.0])


def test_tensorflow_only_proto_collections_are_skipped_on_import(graph, caplog):
    from edgelite.framework.meta_graph_protos import CollectionDef
    tf.constant(1.0, name="c")
    mgd = train.export_meta_graph()
    mgd.collection_def["queue_runners"].CopyFrom(
        CollectionDef(bytes_list=CollectionDef.BytesList(value=[b"\n\x03q"])))
    with tf.Graph().as_default():
        with caplog.at_level(logging.WARNING, logger="edgelite"):
            train.import_meta_graph(mgd)
        assert tf.get_collection("queue_runners") == []
    assert "Collection queue_runners holds TensorFlow objects edgelite cannot rebuild" in caplog.text
