"""Canned estimators against tf.compat.v1.estimator's recorded results (fixtures/canned_fixtures.json): the same
data and starting weights, so metrics, trained weights, predictions and checkpoint keys must agree."""
from __future__ import annotations

import inspect
import json
import types
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import canned_cases, error_cases

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "canned_fixtures.json").read_text())
EST = types.SimpleNamespace(**{name: getattr(tf.estimator, name) for name in tf.estimator.__all__},
                            numpy_input_fn=tf.estimator.inputs.numpy_input_fn)


def test_parse_example_specs_match_tensorflow():
    with tf.Graph().as_default():
        assert canned_cases.parse_specs(tf, EST) == FIXTURES["parse_specs"]


def _close(got, want, what: str) -> None:
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=2e-4, atol=2e-5,
                               err_msg=what)


@pytest.mark.parametrize("case", sorted(canned_cases.CASES))
def test_matches_tensorflow(case, tmp_path):
    want = FIXTURES["cases"][case]
    got = canned_cases.run_case(tf, EST, case, str(tmp_path))
    assert got["variable_names"] == want["variable_names"]
    assert sorted(got["metrics"]) == sorted(want["metrics"])
    for key, value in want["metrics"].items():
        _close(got["metrics"][key], value, f"metric {key}")
    for name, value in want["variables"].items():
        _close(got["variables"][name], value, f"variable {name}")
    assert len(got["predictions"]) == len(want["predictions"])
    for g, w in zip(got["predictions"], want["predictions"]):
        assert sorted(g) == sorted(w)
        for key, value in w.items():
            if isinstance(value, list) and value and isinstance(value[0], str):
                assert g[key] == value, key
            else:
                _close(g[key], value, f"prediction {key}")


# TensorFlow 2.21 wraps some graph-building errors in its own texts ("in user code:", "Graph execution error:") or
# names its own tensor class: for those only the error type is compared.
TYPE_ONLY = {"label_out_of_range", "unknown_feature_key"}
PREFIX_ONLY = {"features_not_a_dict": "ValueError: features should be a dictionary of `Tensor`s. Given type:"}


@pytest.mark.parametrize("case", error_cases.CASES, ids=lambda c: c.__name__)
def test_errors_match_tensorflow(case, tmp_path):
    want = FIXTURES["errors"][case.__name__]
    with tf.Graph().as_default():
        got = error_cases.outcome(case, tf, EST, str(tmp_path))
    if case.__name__ in TYPE_ONLY:
        assert got.split(":")[0] == want.split(":")[0], got
    elif case.__name__ in PREFIX_ONLY:
        assert got.startswith(PREFIX_ONLY[case.__name__]) and want.startswith(PREFIX_ONLY[case.__name__]), got
    else:
        assert got == want


def test_label_out_of_range_message(tmp_path):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must <= n_classes - 1"):
        error_cases.label_out_of_range(tf, EST, str(tmp_path))


@pytest.mark.parametrize("name", sorted(FIXTURES["signatures"]))
def test_constructor_arguments_match_tensorflow(name):
    got = []
    for param, p in inspect.signature(getattr(tf.estimator, name).__init__).parameters.items():
        if param == "self":
            continue
        default = "<required>" if p.default is inspect.Parameter.empty else p.default
        if callable(default):
            default = "<callable>"
        got.append([param, default])
    assert got == FIXTURES["signatures"][name]


def test_add_metrics_matches_tensorflow(tmp_path):
    got = canned_cases.add_metrics_case(tf, EST, str(tmp_path))
    want = FIXTURES["add_metrics"]
    assert sorted(got["metrics"]) == sorted(want["metrics"])
    for key, value in want["metrics"].items():
        _close(got["metrics"][key], value, f"metric {key}")
    assert got["refused"] == want["refused"] and got["same_dir"] == want["same_dir"]
