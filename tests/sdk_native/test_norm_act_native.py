"""Compiled batch norm, bias / activation gradients and softmax cross-entropy against numpy."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from edgelite.kernels import activations, normalization, softmax_xent

from .diff_util import assert_close, both, isa_levels, kernels_at, randn

SHAPES = st.sampled_from([(5, 3), (2, 4, 4, 8), (3, 7, 5, 17), (1, 1, 1, 4), (16, 6, 6, 32), (2, 3, 3, 2, 5)])

pytestmark = pytest.mark.usefixtures("native_selected")


@settings(max_examples=30, deadline=None)
@given(SHAPES, st.integers(0, 2 ** 16), st.sampled_from([1.0, 0.3]), st.booleans())
def test_fused_batch_norm_matches_numpy(shape, seed, factor, training):
    rng = np.random.default_rng(seed)
    c = shape[-1]
    x = randn(rng, *shape) * 3 + 1
    scale, offset, mean = randn(rng, c), randn(rng, c), randn(rng, c)
    variance = rng.random(c).astype(np.float32) + 0.1
    assert_close(*both(normalization.fused_batch_norm, x, scale, offset, mean, variance, 1e-3, training, factor),
                 rtol=1e-4, scale_atol=1e-4)
    dy = randn(rng, *shape)
    assert_close(*both(normalization.fused_batch_norm_grad, dy, x, scale, mean, variance, 1e-3, training),
                 rtol=1e-4, scale_atol=1e-4)


@pytest.mark.parametrize("channels", [16, 23, 40])
def test_batch_norm_passes_give_the_same_bits_at_every_isa(channels):
    # The AVX-512 passes keep the plain loops' operations and order: forward, gradient and BiasAddGrad agree
    # bit for bit across ISA levels (and with numpy within rounding).
    rng = np.random.default_rng(channels)
    x, dy = randn(rng, 4, 9, 7, channels) * 3 + 1, randn(rng, 4, 9, 7, channels)
    scale, offset = randn(rng, channels), randn(rng, channels)
    results = {}
    for isa in isa_levels():
        with kernels_at(isa):
            y, mean, var = normalization.fused_batch_norm(x, scale, offset, None, None, 1e-3, True)[:3]
            grads = normalization.fused_batch_norm_grad(dy, x, scale, mean, var, 1e-3, True)[:3]
            results[isa] = [y, mean, var, *grads, normalization.bias_add_grad(dy)]
    first = results[isa_levels()[0]]
    for isa, out in results.items():
        for a, b in zip(first, out):
            np.testing.assert_array_equal(a, b, err_msg=isa)
    with kernels_at(isa_levels()[-1]):
        assert_close(*both(normalization.fused_batch_norm, x, scale, offset, None, None, 1e-3, True),
                     rtol=1e-4, scale_atol=1e-4)
        assert_close(*both(normalization.fused_batch_norm_grad, dy, x, scale, first[1], first[2], 1e-3, True),
                     rtol=1e-4, scale_atol=1e-4)


def test_batch_norm_of_one_row_reports_nan_unbiased_variance_like_numpy():
    rng = np.random.default_rng(0)
    x = randn(rng, 1, 1, 1, 3)
    ones, zeros = np.ones(3, np.float32), np.zeros(3, np.float32)
    assert_close(*both(normalization.fused_batch_norm, x, ones, zeros, None, None, 1e-3, True))


def test_nchw_batch_norm_stays_on_numpy():
    rng = np.random.default_rng(0)
    x = randn(rng, 2, 3, 4, 4)
    ones, zeros = np.ones(3, np.float32), np.zeros(3, np.float32)
    y = normalization.fused_batch_norm(x, ones, zeros, None, None, 1e-3, True, data_format="NCHW")[0]
    np.testing.assert_allclose(y.mean(axis=(0, 2, 3)), 0, atol=1e-5)


@settings(max_examples=20, deadline=None)
@given(SHAPES, st.integers(0, 2 ** 16))
def test_bias_add_grad_matches_numpy(shape, seed):
    dy = randn(np.random.default_rng(seed), *shape)
    assert_close(*both(normalization.bias_add_grad, dy), rtol=1e-4, scale_atol=1e-5)


def test_relu_gradients_at_their_edges():
    x = np.array([-1, -0.0, 0.0, 1e-30, 5.999, 6.0, 6.5, np.inf, -np.inf, np.nan], np.float32)
    dy = np.arange(1, x.size + 1, dtype=np.float32)
    ref, out = both(activations.relu_grad, dy, x)
    np.testing.assert_array_equal(out, ref)
    ref, out = both(activations.relu6_grad, dy, x)
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("fn", [activations.relu_grad, activations.relu6_grad])
def test_relu_gradients_on_tensors(fn):
    rng = np.random.default_rng(4)
    x, dy = randn(rng, 8, 9, 9, 7) * 4, randn(rng, 8, 9, 9, 7)
    ref, out = both(fn, dy, x)
    np.testing.assert_array_equal(out, ref)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 40), st.integers(1, 30), st.integers(0, 2 ** 16))
def test_softmax_cross_entropy_matches_numpy(rows, classes, seed):
    rng = np.random.default_rng(seed)
    logits = randn(rng, rows, classes) * 10
    labels = rng.random((rows, classes)).astype(np.float32)
    labels /= labels.sum(axis=1, keepdims=True)
    # A loss near 0 is a difference of numbers as large as the logits: float32 rounding of those bounds the error.
    floor = 8 * float(np.finfo(np.float32).eps) * float(np.abs(logits).max())
    assert_close(*both(softmax_xent.softmax_cross_entropy_with_logits, logits, labels), rtol=1e-4,
                 scale_atol=1e-5, atol_floor=floor)
    ids = rng.integers(0, classes, rows)
    assert_close(*both(softmax_xent.sparse_softmax_cross_entropy_with_logits, logits, ids), rtol=1e-4,
                 scale_atol=1e-5, atol_floor=floor)


def test_sparse_labels_out_of_range_raise_before_the_kernel():
    logits = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="outside the valid range"):
        softmax_xent.sparse_softmax_cross_entropy_with_logits(logits, np.array([0, 3]))
