"""Fused batch norm and its gradient against the straightforward broadcast formulas (random layouts and shapes)."""
import numpy as np
import pytest

from edgelite.kernels import normalization as norm


def _reference(x, dy, scale, offset, eps, axis):
    """Training-mode FusedBatchNorm and FusedBatchNormGrad written directly from the formulas, in float64."""
    axes = tuple(a for a in range(x.ndim) if a != axis)
    shape = [1] * x.ndim
    shape[axis] = -1
    n = x.size // x.shape[axis]
    x, dy = x.astype(np.float64), dy.astype(np.float64)
    mean = x.mean(axis=axes)
    var = ((x - mean.reshape(shape)) ** 2).mean(axis=axes)
    xhat = (x - mean.reshape(shape)) / np.sqrt(var + eps).reshape(shape)
    y = xhat * scale.reshape(shape) + offset.reshape(shape)
    doffset = dy.sum(axis=axes)
    dscale = (dy * xhat).sum(axis=axes)
    dx = (scale / np.sqrt(var + eps)).reshape(shape) * (dy - (doffset / n).reshape(shape)
                                                        - xhat * (dscale / n).reshape(shape))
    return y, mean, var, dx, dscale, doffset


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(12))
def test_fused_batch_norm_and_grad_match_formulas(seed, dtype):
    rng = np.random.default_rng(seed)
    rank = 4 + seed % 2
    fmt = ("NHWC", "NDHWC")[rank - 4] if seed % 3 else ("NCHW", "NCDHW")[rank - 4]
    shape = tuple(int(d) for d in rng.integers(1, 6, size=rank))
    shape = (shape[0] + 1,) + shape[1:]
    axis = norm.channel_axis(rank, fmt)
    c = shape[axis]
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    scale, offset = rng.random(c).astype(dtype) + 0.5, rng.standard_normal(c).astype(dtype)
    eps = 1e-3
    y, bmean, _, smean, svar = norm.fused_batch_norm(x, scale, offset, None, None, eps, True, 1.0, fmt)
    dx, dscale, doffset = norm.fused_batch_norm_grad(dy, x, scale, smean, svar, eps, True, fmt)
    ry, rmean, rvar, rdx, rdscale, rdoffset = _reference(x, dy, scale.astype(np.float64), offset.astype(np.float64),
                                                         eps, axis)
    tol = 2e-4 if dtype == np.float32 else 1e-10
    assert y.dtype == dx.dtype == dtype and y.shape == dx.shape == shape
    for got, want in ((y, ry), (bmean, rmean), (svar, rvar), (dx, rdx), (dscale, rdscale), (doffset, rdoffset)):
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    mean, var = rng.standard_normal(c).astype(dtype), rng.random(c).astype(dtype) + 0.1
    yi = norm.fused_batch_norm(x, scale, offset, mean, var, eps, False, 1.0, fmt)[0]
    per = [1] * rank
    per[axis] = -1
    want_i = (x - mean.reshape(per)) / np.sqrt(var + eps).reshape(per) * scale.reshape(per) + offset.reshape(per)
    np.testing.assert_allclose(yi, want_i, rtol=tol, atol=tol)
    dxi = norm.fused_batch_norm_grad(dy, x, scale, mean, var, eps, False, fmt)[0]
    np.testing.assert_allclose(dxi, dy * (scale / np.sqrt(var + eps)).reshape(per), rtol=tol, atol=tol)
