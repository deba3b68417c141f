"""Feature columns through input_layer / linear_model / make_parse_example_spec against TensorFlow 2.21's
recorded results (tests/sdk_fc/fixtures/generate_fc_fixtures.py): outputs, static shapes, variable names/shapes."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from tests.sdk_fc import fc_cases

RECORDS = json.loads((Path(__file__).parent / "fixtures" / "fc_cases.json").read_text())


@pytest.mark.parametrize("case", fc_cases.CASES, ids=[c[0] for c in fc_cases.CASES])
def test_column_layers_match_tensorflow(case, vocab_path) -> None:
    expected = RECORDS[case[0]]
    got = fc_cases.run_case(tf, case, vocab_path)
    if "error" in expected:
        # a "Given (type <class ...>)" tail names TensorFlow's own module path, so only the text before it counts
        message = expected["message"].split(" Given (type <class 'tensorflow")[0]
        assert got.get("error") == expected["error"]
        assert got.get("message", "").split(" Given (type")[0] == message
        return
    assert "error" not in got, got
    assert got["variables"] == expected["variables"]
    assert got["static_shape"][1:] == expected["static_shape"][1:]
    np.testing.assert_allclose(np.array(got["output"]), np.array(expected["output"]), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", fc_cases.SPEC_CASES, ids=[c[0] for c in fc_cases.SPEC_CASES])
def test_parse_example_spec_matches_tensorflow(case) -> None:
    assert fc_cases.run_spec_case(tf, case) == RECORDS[case[0]]
