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
