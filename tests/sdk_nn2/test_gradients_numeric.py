"""Finite-difference checks of the new gradients (float64; LRN, which TF keeps to float32 and below, through
its numpy kernels, which compute in float64)."""
from types import SimpleNamespace

import numpy as np

import edgelite as tf
from edgelite.nn import lrn_ops

from sdk_core.gradcheck import check_gradients


def test_softsign_gradient():
    rng = np.random.default_rng(0)
    check_gradients(lambda x: tf.nn.softsign(x), [rng.uniform(-3, 3, (3, 4))], rng)


def test_swish_gradient_in_features_and_beta():
    rng = np.random.default_rng(1)
    check_gradients(lambda x, b: tf.nn.swish(x, b), [rng.uniform(-3, 3, (2, 5)), np.array(1.3)], rng)


def test_weighted_moments_and_log_poisson_gradients():
    rng = np.random.default_rng(2)
    check_gradients(lambda x, w: list(tf.nn.weighted_moments(x, [0], w)),
                    [rng.normal(size=(4, 3)), rng.uniform(0.5, 2, (4, 3))], rng)
    check_gradients(lambda t, x: tf.nn.log_poisson_loss(t, x, compute_full_loss=True),
                    [rng.uniform(0.5, 4, (3, 3)), rng.normal(size=(3, 3))], rng)


def test_lrn_grad_kernel_matches_finite_differences():
    rng = np.random.default_rng(3)
    ctx = SimpleNamespace(attrs={"depth_radius": 2, "bias": 0.7, "alpha": 0.4, "beta": 0.75})
    x = rng.normal(size=(1, 2, 2, 7))
    dy = rng.normal(size=x.shape)
    analytic = lrn_ops._lrn_grad_kernel(ctx, dy, x, lrn_ops._lrn_kernel(ctx, x))
    eps = 1e-6
    for _ in range(4):
        v = rng.normal(size=x.shape)
        numeric = np.sum(dy * (lrn_ops._lrn_kernel(ctx, x + eps * v) - lrn_ops._lrn_kernel(ctx, x - eps * v))) \
            / (2 * eps)
        np.testing.assert_allclose(np.sum(analytic * v), numeric, rtol=1e-6)
