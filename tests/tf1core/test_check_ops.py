"""tf.assert_* raise TensorFlow's error types with its texts, at build time when static shapes or constant values
decide and from the Assert op otherwise (recorded from TF 2.21)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf

from . import tf1core_cases

FIXTURES = json.loads((Path(__file__).resolve().parent / "tf_fixtures.json").read_text())["checks"]


@pytest.mark.parametrize("name", sorted(tf1core_cases.CHECK_CASES))
def test_check_matches_tensorflow(name):
    assert tf1core_cases.check_outcome(tf, tf1core_cases.CHECK_CASES[name]) == FIXTURES[name]


def test_checks_gate_computation_through_control_dependencies():
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None])
        with tf.control_dependencies([tf.assert_non_negative(x), tf.debugging.assert_rank(x, 1)]):
            root = tf.sqrt(x)
        assert sess.run(root, {x: [4.0]}).tolist() == [2.0]
        with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x >= 0 did not hold"):
            sess.run(root, {x: [-4.0]})
