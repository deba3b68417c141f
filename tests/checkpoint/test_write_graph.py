"""tf.io.write_graph / tf.compat.v1.train.write_graph and the text format they write."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite import train
from edgelite.framework.graph_def import GraphDef
from edgelite.framework.meta_graph_protos import SaverDef
from edgelite.framework.text_format import ParseError, message_to_string, parse


def _graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        tf.add(x, tf.constant(np.array([1.5, -2.0], np.float32)), name="y")
    return g


def test_binary_and_text_files_hold_the_graph_def(tmp_path):
    g = _graph()
    binary = tf.io.write_graph(g, str(tmp_path / "new" / "dir"), "g.pb", as_text=False)
    text = train.write_graph(g.as_graph_def(), str(tmp_path), "g.pbtxt")
    assert binary == str(tmp_path / "new" / "dir" / "g.pb") and text == str(tmp_path / "g.pbtxt")
    expected = g.as_graph_def().SerializeToString()
    assert open(binary, "rb").read() == expected
    content = open(text).read()
    assert content.startswith('node {\n  name: "x"\n  op: "Placeholder"\n')
    assert "      type: DT_FLOAT\n" in content and "versions {\n  producer: " in content
    assert parse(content, GraphDef).SerializeToString() == expected


def test_text_format_details():
    sd = SaverDef(filename_tensor_name='a"b\\c\n\x01', max_to_keep=3, keep_checkpoint_every_n_hours=0.1, version=2)
    # exactly what TensorFlow's text_format.MessageToString prints for the same SaverDef
    assert message_to_string(sd) == ('filename_tensor_name: "a\\"b\\\\c\\n\\001"\nmax_to_keep: 3\n'
                                     'keep_checkpoint_every_n_hours: 0.1\nversion: V2\n')
    assert parse(message_to_string(sd), SaverDef) == sd
    wide = SaverDef(restore_op_name="\u00e9", keep_checkpoint_every_n_hours=1e-30)
    assert parse(message_to_string(wide), SaverDef) == wide
    assert parse("version: 1 max_to_keep: 0x10 # comment\n restore_op_name: 'x' \"y\"", SaverDef) == \
        SaverDef(version=1, max_to_keep=16, restore_op_name="xy")
    with pytest.raises(ParseError, match='has no field named "bogus"'):
        parse("bogus: 1", SaverDef)
    with pytest.raises(ParseError, match="Expected an integer"):
        parse('max_to_keep: "3"', SaverDef)


def test_write_graph_rejects_non_graphs(tmp_path):
    with pytest.raises(TypeError, match="must be a Graph or a GraphDef"):
        tf.io.write_graph(42, str(tmp_path), "x.pbtxt")
