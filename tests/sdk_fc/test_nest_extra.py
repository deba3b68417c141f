"""tf.nest on attrs-style classes, composites (SparseTensor with and without expand_composites), mapping and
sequence type checks and their error texts, against TensorFlow 2.21's records."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from tests.sdk_fc import nest_extra_cases

RECORDS = json.loads((Path(__file__).parent / "fixtures" / "nest_extra_cases.json").read_text())


@pytest.mark.parametrize("case", nest_extra_cases.CASES, ids=[c[0] for c in nest_extra_cases.CASES])
def test_nest_matches_tensorflow(case) -> None:
    assert nest_extra_cases.run(case[1], tf) == RECORDS[case[0]]
