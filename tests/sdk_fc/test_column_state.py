"""Feature-column variables against TensorFlow 2.21's records: collections (weight_collections, model and
trainable variables, trainable=False), cols_to_vars, and ckpt_to_load_from reading a Saver checkpoint."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from tests.sdk_fc import fc_state_cases

RECORDS = json.loads((Path(__file__).parent / "fixtures" / "fc_state_cases.json").read_text())


@pytest.mark.parametrize("case", fc_state_cases.CASES, ids=[c[0] for c in fc_state_cases.CASES])
def test_column_state_matches_tensorflow(case, tmp_path) -> None:
    assert fc_state_cases.run(case[1], tf, str(tmp_path)) == RECORDS[case[0]]
