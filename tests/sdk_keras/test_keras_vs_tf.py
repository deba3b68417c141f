"""edgelite.keras against TensorFlow 2.21's tf.compat.v1.keras: the cases of keras_cases.py and the other case
modules, results recorded by fixtures/generate_tf_fixtures.py (same data, same seeded weights -> same losses,
outputs, names and errors)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import data_cases, keras_cases, mask_cases, metric_cases, optimizer_cases, rnn_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# case module -> fixture file stem (as in fixtures/generate_tf_fixtures.py)
MODULES = {"tf_keras": keras_cases, "tf_optimizers": optimizer_cases, "tf_data_utils": data_cases,
           "tf_metric_classes": metric_cases, "tf_masking": mask_cases,
           "tf_rnn_options": rnn_cases}

# Float32 training over a few epochs: summation order differs from TensorFlow's kernels.
RTOL, ATOL = 2e-4, 2e-5


def _recorded(stem: str) -> tuple:
    arrays = np.load(FIXTURES / f"{stem}.npz")
    texts = json.loads((FIXTURES / f"{stem}.json").read_text())["results"]
    return arrays, texts


def _expected(stem: str, case: str) -> dict:
    arrays, texts = _recorded(stem)
    prefix = case + "/"
    out = {k[len(prefix):]: arrays[k] for k in arrays.files if k.startswith(prefix)}
    out.update({k[len(prefix):]: v for k, v in texts.items() if k.startswith(prefix)})
    return out


@pytest.mark.parametrize("stem,case", [(stem, case) for stem, module in MODULES.items() for case in
                                       sorted(module.CASES)])
def test_case_matches_tensorflow(stem: str, case: str) -> None:
    expected = _expected(stem, case)
    got = MODULES[stem].CASES[case](tf)
    assert sorted(got) == sorted(expected)
    for key, want in expected.items():
        value = got[key]
        if isinstance(want, np.ndarray):
            np.testing.assert_allclose(np.asarray(value, np.float64), want.astype(np.float64), rtol=RTOL, atol=ATOL,
                                       err_msg=f"{case}/{key}")
        else:
            assert value == want, f"{case}/{key}"
