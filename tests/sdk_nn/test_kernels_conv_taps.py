"""conv2d_backprop_input's per-tap col2im against the all-columns formulation (one GEMM, then scatter_taps)."""
import numpy as np
import pytest

from edgelite.kernels import conv
from edgelite.kernels.geometry import scatter_taps, window2d

from .test_kernels_conv import _case, _kernel_padding


def _all_columns(input_shape, w, dy, strides, dilations, padding):
    """dy @ w^T for every tap at once ([N, OH, OW, KH, KW, C] columns), then added back onto the input grid."""
    g = window2d(input_shape, w.shape[:2], strides, dilations, padding)
    cols = dy.reshape(-1, w.shape[3]) @ w.reshape(-1, w.shape[3]).T
    cols = cols.reshape(dy.shape[0], g.out_h, g.out_w, g.k_h, g.k_w, input_shape[3])
    return scatter_taps(cols, g, input_shape[0], input_shape[3])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(30))
def test_backprop_input_matches_all_columns(seed, dtype):
    rng, x, (kh, kw), strides, dilations, padding = _case(seed + 500)
    w = rng.standard_normal((kh, kw, x.shape[3], int(rng.integers(1, 5)))).astype(dtype)
    pad = _kernel_padding(padding)
    dy = rng.standard_normal(conv.conv2d(x.astype(dtype), w, strides, dilations, pad).shape).astype(dtype)
    got = conv.conv2d_backprop_input(x.shape, w, dy, strides, dilations, pad)
    want = _all_columns(x.shape, w, dy, strides, dilations, pad)
    assert got.dtype == want.dtype == dtype
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
