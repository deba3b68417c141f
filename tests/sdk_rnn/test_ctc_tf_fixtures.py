"""The CTC cases of ctc_cases.py against TensorFlow 2.21's recorded losses, gradients and decodings."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import ctc_cases

DATA = np.load(Path(__file__).resolve().parent / "fixtures" / "tf_ctc.npz")


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test starts from an empty default graph."""
    with tf.Graph().as_default() as g:
        yield g


@pytest.mark.parametrize("name,shape,build", ctc_cases.CASES, ids=[c[0] for c in ctc_cases.CASES])
def test_case_matches_tensorflow(name, shape, build):
    x, fetches, n_out = ctc_cases.build_fetches(tf, name, shape, build)
    with tf.Session() as sess:
        vals = sess.run(fetches, {x: DATA[f"{name}/logits"]})
    for k, got in enumerate(vals[:n_out]):
        want = DATA[f"{name}/out_{k}"]
        assert np.asarray(got).dtype == want.dtype, f"output {k}"
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"output {k}")
    if len(vals) > n_out:
        np.testing.assert_allclose(vals[-1], DATA[f"{name}/grad"], rtol=1e-4, atol=1e-5)
