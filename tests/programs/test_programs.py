"""Complete TF1 programs run unchanged under edgelite and land within their stated tolerance of TensorFlow."""
from __future__ import annotations

import json

import pytest

from . import _harness

PROGRAMS = _harness.discover()


def _expected(path):
    recorded = _harness.RESULTS_DIR / f"{path.stem}.json"
    if not recorded.is_file():
        pytest.fail(f"no TensorFlow result for {path.name}: run "
                    f"`/work/tfvenv/bin/python tests/programs/record_tf_results.py {path.stem}` and commit it")
    return json.loads(recorded.read_text())["result"]


def test_every_program_states_its_tolerance_and_imports_edgelite_once():
    assert PROGRAMS, "no programs found"
    for path in PROGRAMS:
        tolerance = _harness.read_tolerance(path)
        assert isinstance(tolerance, dict)
        _harness.tensorflow_source(path.read_text(), path.name)


def test_mismatches_reports_metrics_outside_tolerance():
    expected = {"accuracy": 0.9, "steps": 10, "name": "mlp"}
    assert _harness.mismatches({"accuracy": 0.92, "steps": 10, "name": "mlp"}, expected, {"accuracy": 0.03}) == []
    problems = _harness.mismatches({"accuracy": 0.95, "steps": 11}, expected, {"accuracy": 0.03})
    assert [p.split(":")[0] for p in problems] == ["accuracy", "steps", "name"]


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_matches_recorded_tensorflow_result(path):
    expected = _expected(path)
    got = _harness.run_edgelite(path)
    problems = _harness.mismatches(got, expected, _harness.read_tolerance(path))
    assert not problems, f"{path.name}: " + "; ".join(problems)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_matches_live_tensorflow(path):
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the live TF comparison is skipped")
    got = _harness.run_edgelite(path)
    live = _harness.run_tensorflow(path)
    problems = _harness.mismatches(got, live, _harness.read_tolerance(path))
    assert not problems, f"{path.name}: " + "; ".join(problems)
