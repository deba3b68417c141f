"""tf.graph_util and tf.io.write_graph against what TensorFlow did with the same graph (fixtures/graph_util)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.framework.graph_def import GraphDef

import model_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "graph_util"
TF_RECORD = json.loads((FIXTURES / "graph_util.json").read_text())


def _summary(graph_def: GraphDef) -> list:
    return [[n.name, n.op, list(n.input)] for n in graph_def.node]


@pytest.fixture()
def session_graph():
    g = tf.Graph()
    with g.as_default():
        x, z = model_cases.small_graph(tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            yield g, sess, x, z


@pytest.mark.parametrize("key,kwargs", [("all", {}), ("whitelist", {"variable_names_whitelist": ["w"]}),
                                        ("blacklist", {"variable_names_blacklist": ["b", "scale"]})])
def test_freeze_keeps_the_nodes_tensorflow_keeps(session_graph, key, kwargs):
    g, sess, _x, _z = session_graph
    frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["z"], **kwargs)
    assert _summary(frozen) == TF_RECORD["freeze_" + key]


def test_frozen_graph_runs_like_the_session(session_graph):
    g, sess, _x, _z = session_graph
    frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["z"])
    with tf.Graph().as_default():
        z, = tf.import_graph_def(frozen, return_elements=["z:0"], name="")
        with tf.Session() as s2:
            out = s2.run(z, {"x:0": np.array([[1, 2, 3]], np.float32)})
    np.testing.assert_allclose(out, TF_RECORD["frozen_z"], rtol=1e-6)


def test_pruning_matches_tensorflow(session_graph):
    g, sess, _x, _z = session_graph
    gd = g.as_graph_def()
    assert _summary(tf.graph_util.extract_sub_graph(gd, ["y"])) == TF_RECORD["extract_y"]
    frozen = tf.graph_util.convert_variables_to_constants(sess, gd, ["z"])
    assert _summary(tf.graph_util.remove_training_nodes(frozen)) == TF_RECORD["training_removed"]
    assert _summary(tf.graph_util.remove_training_nodes(frozen, protected_nodes=["z"])) == \
        TF_RECORD["training_removed_protected"]
    assert tf.graph_util.tensor_shape_from_node_def_name(g, "y").as_list() == TF_RECORD["shape_of_y"]


def test_must_run_on_cpu_matches_tensorflow(session_graph):
    g, _sess, _x, _z = session_graph
    for node in g.as_graph_def().node:
        if node.name in TF_RECORD["must_run_on_cpu"]:
            got = [tf.graph_util.must_run_on_cpu(node), tf.graph_util.must_run_on_cpu(node, True)]
            assert got == TF_RECORD["must_run_on_cpu"][node.name], node.name
    assert tf.graph_util.must_run_on_cpu(g.get_operation_by_name("w"), pin_variables_on_cpu=True)


def test_bad_arguments_raise_like_tensorflow(session_graph):
    g, _sess, _x, _z = session_graph
    with pytest.raises(TypeError, match="graph_def must be a graph_pb2.GraphDef proto"):
        tf.graph_util.extract_sub_graph(g, ["y"])
    with pytest.raises(TypeError, match="dest_nodes must be an iterable of strings"):
        tf.graph_util.extract_sub_graph(g.as_graph_def(), "y")
    with pytest.raises(AssertionError, match="nope is not in graph"):
        tf.graph_util.extract_sub_graph(g.as_graph_def(), ["nope"])


@pytest.mark.parametrize("name,as_text", [("frozen.pb", False), ("frozen.pbtxt", True)])
def test_write_graph_rewrites_tensorflows_file_byte_for_byte(tmp_path, name, as_text):
    original = (FIXTURES / name).read_bytes()
    frozen = GraphDef.FromString((FIXTURES / "frozen.pb").read_bytes())
    for writer in (tf.io.write_graph, tf.train.write_graph):
        path = writer(frozen, str(tmp_path), name, as_text=as_text)
        assert Path(path).read_bytes() == original


def test_write_graph_of_an_edgelite_frozen_graph_reads_back(session_graph, tmp_path):
    g, sess, _x, _z = session_graph
    frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["z"])
    from edgelite.framework.text_format import parse
    text = Path(tf.io.write_graph(frozen, str(tmp_path), "f.pbtxt")).read_text()
    binary = Path(tf.io.write_graph(frozen, str(tmp_path), "f.pb", as_text=False)).read_bytes()
    assert parse(text, GraphDef).SerializeToString() == binary


def test_write_graph_of_an_edgelite_graph_equals_tensorflows_for_the_same_program(tmp_path):
    """The same small program built in both: every NodeDef byte-identical; only the producer version differs
    (edgelite writes its own GraphDef version)."""
    g = tf.Graph()
    with g.as_default():
        model_cases.small_graph(tf)
    producer = g.graph_def_versions.producer
    theirs = GraphDef.FromString((FIXTURES / "small_graph.pb").read_bytes())
    tf_producer = theirs.versions.producer
    assert tf_producer != producer
    theirs.versions.producer = producer
    binary = Path(tf.io.write_graph(g, str(tmp_path), "g.pb", as_text=False)).read_bytes()
    assert binary == theirs.SerializeToString()
    text = Path(tf.io.write_graph(g, str(tmp_path), "g.pbtxt")).read_text()
    tf_text = (FIXTURES / "small_graph.pbtxt").read_text()
    assert text == tf_text.replace(f"producer: {tf_producer}", f"producer: {producer}")
