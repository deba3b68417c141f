"""Constructs of public TF1 estimator / serving / input-pipeline scripts against TensorFlow's recorded results
(model_script_cases), and tf.contrib.lookup's `mapping` spelling of the core vocabulary tables."""
from __future__ import annotations

import json
import types
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.ops import lookup_index_tables

from . import model_script_cases
from .test_surface_fixtures import _expected

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "model_script_fixtures.json").read_text())
CORE = types.SimpleNamespace(lookup=lookup_index_tables)


@pytest.mark.parametrize("case", model_script_cases.CASES, ids=lambda c: c.__name__)
def test_matches_tensorflow(case):
    if case is model_script_cases.pandas_columns_to_dataset:
        pytest.importorskip("pandas")
    with tf.Graph().as_default():
        got = case(tf, CORE)
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
