"""tf.debugging.assert_shapes against TensorFlow 2.21's recorded outcomes: passes, build-time ValueErrors and
run-time InvalidArgumentErrors with TF's texts (tests/sdk_fc/fixtures/generate_fc_fixtures.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from tests.sdk_fc import shape_assert_cases

RECORDS = json.loads((Path(__file__).parent / "fixtures" / "shape_assert_cases.json").read_text())


@pytest.mark.parametrize("case", shape_assert_cases.CASES, ids=[c[0] for c in shape_assert_cases.CASES])
def test_assert_shapes_matches_tensorflow(case) -> None:
    assert shape_assert_cases.run_case(tf, case) == RECORDS[case[0]]
