"""edgelite against TensorFlow's recorded results for the TF1 constructs of surface_cases.py."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import surface_cases

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "surface_fixtures.json").read_text())


def _expected(entry):
    if isinstance(entry, dict) and "array" in entry:
        return np.asarray(entry["array"], dtype=entry["dtype"]).reshape(entry["shape"])
    if isinstance(entry, dict) and "bytes" in entry:
        return np.asarray([b.encode("latin-1") for b in entry["bytes"]], dtype=object).reshape(entry["shape"])
    return entry


@pytest.mark.parametrize("case", surface_cases.CASES, ids=lambda c: c.__name__)
def test_matches_tensorflow(case):
    with tf.Graph().as_default():
        got = case(tf)
    want = FIXTURES[case.__name__]
    assert sorted(got) == sorted(want)
    for key, entry in want.items():
        expected = _expected(entry)
        if isinstance(expected, np.ndarray) and expected.dtype != object:
            np.testing.assert_allclose(np.asarray(got[key]), expected, rtol=2e-5, atol=2e-5, err_msg=key)
            assert np.asarray(got[key]).shape == expected.shape, key
        elif isinstance(expected, np.ndarray):
            assert np.asarray(got[key], dtype=object).tolist() == expected.tolist(), key
        else:
            assert got[key] == expected, key
