"""parse_example written to a GraphDef (as a SavedModel's parsing serving input is) imports back and parses the
same: the op carries TF's key/default inputs and type/shape attrs. (TensorFlow 2.21 imports and runs such a
GraphDef too; the estimator export test serves one against TF-recorded predictions.)"""
from __future__ import annotations

import numpy as np

import edgelite as tf

SPEC = {"x": tf.io.FixedLenFeature([4], tf.float32), "c": tf.io.VarLenFeature(tf.string),
        "q": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True),
        "d": tf.io.FixedLenFeature([], tf.int64, default_value=3),
        "s": tf.io.FixedLenFeature([2], tf.string, default_value=["u", "v"])}


def _example(x, c, q) -> bytes:
    feature = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=x)),
               "c": tf.train.Feature(bytes_list=tf.train.BytesList(value=c)),
               "q": tf.train.Feature(int64_list=tf.train.Int64List(value=q))}
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


RECORDS = [_example([1, 2, 3, 4], [b"a"], [1, 2, 3, 4]), _example([5, 6, 7, 8], [b"b", b"c"], [7, 8])]


def test_parse_example_graph_def_round_trip():
    with tf.Graph().as_default() as g:
        serialized = tf.placeholder(tf.string, [None], name="serialized")
        tf.io.parse_example(serialized, SPEC)
        op = g.get_operation_by_name("ParseExample/ParseExampleV2")
        with tf.Session() as sess:
            want = sess.run(op.outputs, {serialized: RECORDS})
        graph_def = g.as_graph_def()
    node = next(n for n in graph_def.node if n.name == "ParseExample/ParseExampleV2")
    assert sorted(node.attr) == ["Tdense", "dense_shapes", "num_sparse", "ragged_split_types",
                                                         "ragged_value_types", "sparse_types"]
    assert len(node.input) == 5 + len(SPEC) - 1  # serialized, names, 3 key vectors, one default per dense feature
    with tf.Graph().as_default() as g2:
        tf.import_graph_def(graph_def, name="")
        op = g2.get_operation_by_name("ParseExample/ParseExampleV2")
        assert [o.shape.as_list() for o in op.outputs] == [[None, 2], [None], [2], [None], [None, None, 2],
                                                           [None, 2], [None, 4]]
        with tf.Session() as sess:
            got = sess.run(op.outputs, {g2.get_tensor_by_name("serialized:0"): RECORDS})
    for g_value, w_value in zip(got, want):
        np.testing.assert_array_equal(g_value, w_value)
