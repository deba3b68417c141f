"""Random ops: distributions against their formulas, determinism of the stateless ops, and random_gamma's
gradient against scipy's inverse incomplete gamma (an independent reference)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import edgelite as tf

N = 40000


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_random_gamma_moments_and_rate():
    with tf.Graph().as_default():
        x = tf.random_gamma([N], [0.5, 3.0], beta=[1.0, 2.0], seed=3)
        v = _run(x)
    # Gamma(a, rate b): mean a / b, variance a / b^2; 5 standard errors of slack
    mean, var = np.array([0.5, 1.5]), np.array([0.5, 0.75])
    assert np.all(np.abs(v.mean(0) - mean) < 5 * np.sqrt(var / N))
    assert np.allclose(v.var(0), var, rtol=0.1)
    assert v.min() > 0


def test_random_gamma_is_seeded_and_nan_for_bad_alpha():
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        x = tf.random.gamma([4], [-1.0, 2.0])
        a, b = _run(x), _run(x)
    np.testing.assert_array_equal(a, b)
    assert np.isnan(a[:, 0]).all() and np.isfinite(a[:, 1]).all()


def test_random_gamma_gradient_matches_inverse_cdf_derivative():
    """d sample / d alpha at a fixed quantile u: the derivative of gammaincinv(alpha, u) in alpha."""
    alpha = np.array([0.7, 2.5], np.float64)
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float64, [2])
        x = tf.random_gamma([3], a, dtype=tf.float64, seed=11)
        grad = tf.gradients(x, a, grad_ys=np.ones((3, 2)))[0]
        xv, gv = _run([x, grad], {a: alpha})
    u = special.gammainc(alpha, xv)
    h = 1e-5
    want = ((special.gammaincinv(alpha + h, u) - special.gammaincinv(alpha - h, u)) / (2 * h)).sum(0)
    np.testing.assert_allclose(gv, want, rtol=1e-5)


def test_random_poisson_moments_and_dtype():
    with tf.Graph().as_default():
        x = tf.random_poisson([1.5, 4.0], [N], seed=5)
        y = tf.random.poisson([2.0], [3], dtype=tf.int64, seed=5)
        v, w = _run([x, y])
    assert v.dtype == np.float32 and w.dtype == np.int64
    assert np.all(np.abs(v.mean(0) - [1.5, 4.0]) < 5 * np.sqrt(np.array([1.5, 4.0]) / N))


STATELESS = [
    ("uniform", lambda seed: tf.random.stateless_uniform([N], seed, minval=-1.0, maxval=3.0), 1.0, 16 / 12),
    ("uniform_int", lambda seed: tf.random.stateless_uniform([N], seed, minval=0, maxval=10, dtype=tf.int64),
     4.5, 99 / 12),
    ("normal", lambda seed: tf.random.stateless_normal([N], seed, mean=2.0, stddev=0.5), 2.0, 0.25),
    # a normal truncated at +-2 sd has variance 1 - 4 phi(2) / (2 Phi(2) - 1)
    ("truncated_normal", lambda seed: tf.random.stateless_truncated_normal([N], seed), 0.0,
     1 - 4 * np.exp(-2) / np.sqrt(2 * np.pi) / (2 * special.ndtr(2.0) - 1)),
    ("poisson", lambda seed: tf.random.stateless_poisson([N], seed, 3.0), 3.0, 3.0),
    ("gamma", lambda seed: tf.random.stateless_gamma([N], seed, 2.0, beta=4.0), 0.5, 0.125),
    ("binomial", lambda seed: tf.random.stateless_binomial([N], seed, 10.0, 0.3), 3.0, 2.1),
    ("param_truncated", lambda seed: tf.random.stateless_parameterized_truncated_normal(
        [N], seed, means=1.0, stddevs=2.0, minvals=1.0, maxvals=100.0), 1.0 + 2.0 * np.sqrt(2 / np.pi),
     4.0 * (1 - 2 / np.pi)),
]


@pytest.mark.parametrize("name,build,mean,var", STATELESS, ids=[c[0] for c in STATELESS])
def test_stateless_distribution_and_determinism(name, build, mean, var):
    with tf.Graph().as_default():
        a, b, c = build([1, 2]), build([1, 2]), build(tf.constant([1, 3], tf.int64))
        va, vb, vc = _run([a, b, c])
    with tf.Graph().as_default():
        again = _run(build([1, 2]))
    np.testing.assert_array_equal(va, vb)
    np.testing.assert_array_equal(va, again)
    assert not np.array_equal(va, vc)
    assert abs(va.mean() - mean) < 5 * np.sqrt(var / N)
    assert abs(va.var() - var) < 0.05 * var


def test_stateless_categorical_frequencies():
    logits = np.log([[0.2, 0.3, 0.5]])
    with tf.Graph().as_default():
        a = tf.random.stateless_categorical(logits, N, [4, 2])
        b = tf.random.stateless_multinomial(logits, N, [4, 2], output_dtype=tf.int32)
        va, vb = _run([a, b])
    np.testing.assert_array_equal(va, vb)
    freq = np.bincount(va[0], minlength=3) / N
    assert np.all(np.abs(freq - [0.2, 0.3, 0.5]) < 5 * np.sqrt(0.25 / N))
