"""edgelite.keras against TensorFlow 2.21's tf.compat.v1.keras: the cases of keras_cases.py, results recorded by
fixtures/generate_tf_fixtures.py (same data, same seeded weights -> same losses, outputs, names and errors)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import keras_cases

HERE = Path(__file__).resolve().parent
ARRAYS = np.load(HERE / "fixtures" / "tf_keras.npz")
TEXTS = json.loads((HERE / "fixtures" / "tf_keras.json").read_text())["results"]

# Float32 training over a few epochs: summation order differs from TensorFlow's kernels.
RTOL, ATOL = 2e-4, 2e-5


def _expected(case: str) -> dict:
    prefix = case + "/"
    out = {k[len(prefix):]: ARRAYS[k] for k in ARRAYS.files if k.startswith(prefix)}
    out.update({k[len(prefix):]: v for k, v in TEXTS.items() if k.startswith(prefix)})
    return out


@pytest.mark.parametrize("case", sorted(keras_cases.CASES))
def test_case_matches_tensorflow(case: str) -> None:
    expected = _expected(case)
    got = keras_cases.CASES[case](tf)
    assert sorted(got) == sorted(expected)
    for key, want in expected.items():
        value = got[key]
        if isinstance(want, np.ndarray):
            np.testing.assert_allclose(np.asarray(value, np.float64), want.astype(np.float64), rtol=RTOL, atol=ATOL,
                                       err_msg=f"{case}/{key}")
        else:
            assert value == want, f"{case}/{key}"
