"""GraphDef/NodeDef protos edited as TF1 graph-surgery scripts do: results must match TensorFlow's recorded ones
(identical serialized bytes, map behaviour, the imported edited graph's output)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import graph_surgery_cases

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "graph_surgery_fixtures.json").read_text())


def _plain(value):
    """Tuples as lists, as json gives them back."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("case", graph_surgery_cases.CASES, ids=lambda c: c.__name__)
def test_matches_tensorflow(case):
    got = _plain(case(tf))
    want = FIXTURES[case.__name__]
    assert sorted(got) == sorted(want)
    for key, expected in want.items():
        if key == "out":
            np.testing.assert_allclose(got[key], expected, rtol=1e-6, err_msg=key)
        else:
            assert got[key] == expected, key


def test_map_key_and_class_errors_are_typeerrors():
    node = tf.NodeDef(name="n")
    with pytest.raises(TypeError):
        node.attr[3]
    with pytest.raises(TypeError, match="Parameter to CopyFrom"):
        node.CopyFrom(tf.AttrValue())


def test_map_survives_deepcopy_and_parse():
    node = tf.NodeDef(name="n", op="Const", attr={"dtype": {"type": 1}})
    clone = copy.deepcopy(node)
    clone.attr["extra"].i = 3
    assert "extra" not in node.attr and clone.attr["dtype"] == node.attr["dtype"]
    assert tf.NodeDef.FromString(clone.SerializeToString()) == clone
