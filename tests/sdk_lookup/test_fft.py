"""tf.signal / tf.spectral / top-level FFTs and their gradients against TensorFlow 2.21 (fixtures/tf_fft.npz from
generate_fft_fixtures.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import fft_cases

FIXTURES = np.load(Path(__file__).parent / "fixtures" / "tf_fft.npz")


@pytest.mark.parametrize("name", sorted(fft_cases.CASES))
def test_matches_tensorflow(name: str) -> None:
    with tf.Graph().as_default():
        fetches = fft_cases.CASES[name](tf)
        static = {k: v.shape.as_list() for k, v in fetches.items()}
        with tf.Session() as sess:
            got = sess.run(fetches)
    want_keys = sorted(k.split("/", 1)[1] for k in FIXTURES.files if k.startswith(name + "/"))
    assert sorted(got) == want_keys
    for key, value in got.items():
        want = FIXTURES[f"{name}/{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        assert static[key] == list(want.shape), key
        tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(value, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max())))


def test_no_gradient_for_rfft3d_like_tf() -> None:
    with tf.Graph().as_default():
        x = tf.constant(np.ones((2, 2, 2), np.float32))
        with pytest.raises(LookupError):
            tf.gradients(tf.reduce_sum(tf.real(tf.signal.rfft3d(x))), x)


def test_fft_rejects_real_input() -> None:
    with tf.Graph().as_default():
        with pytest.raises(TypeError):
            tf.signal.fft(tf.constant([1.0, 2.0]))
