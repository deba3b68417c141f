"""Compiled float64 training kernels against the numpy reference: ISA levels, threads, the elementwise kernels.

The random-geometry convolution / pooling tests and the optimizer tests run both float types (diff_util.FLOATS).
"""
from __future__ import annotations

import numpy as np
import pytest

from edgelite.kernels import activations, conv, normalization, softmax_xent

from .diff_util import assert_close, both, counting_native_calls, digests_by_thread_count, isa_levels, kernels_at

pytestmark = pytest.mark.usefixtures("native_f64_selected")


# Layers of the recipes: the im2col tiles, the per-image input gradient and the filter-gradient parts at sizes
# where each runs several tiles / parts, plus the pointwise paths.
RECIPE_LAYERS = [
    ((4, 32, 32, 16), (3, 3, 16, 32), (1, 1), "SAME"),
    ((4, 16, 16, 32), (3, 3, 32, 64), (2, 2), "SAME"),
    ((4, 16, 16, 32), (1, 1, 32, 64), (1, 1), "VALID"),
    ((3, 16, 16, 8), (1, 1, 8, 16), (2, 2), "VALID"),
    ((16, 8, 8, 1), (3, 3, 1, 16), (1, 1), "SAME"),
    ((4, 49, 10, 1), (10, 4, 1, 64), (2, 2), "SAME"),
]


@pytest.mark.parametrize("xs,ws,strides,padding", RECIPE_LAYERS)
def test_recipe_layers_match_numpy_at_every_isa(xs, ws, strides, padding):
    # AVX2 and AVX-512 run other register blocks with the same fused multiply-adds in depth order: the same bits.
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    results = {}
    for isa in isa_levels():
        with kernels_at(isa):
            y, y_native = both(conv.conv2d, x, w, strides, (1, 1), padding)
            assert_close(y, y_native)
            dy = np.random.default_rng(2).standard_normal(y.shape)
            dx, dx_native = both(conv.conv2d_backprop_input, xs, w, dy, strides, (1, 1), padding)
            assert_close(dx, dx_native)
            dw, dw_native = both(conv.conv2d_backprop_filter, x, ws, dy, strides, (1, 1), padding)
            assert_close(dw, dw_native)
            results[isa] = (y_native, dx_native, dw_native)
    if "avx2" in results and "avx512" in results:
        for a, b in zip(results["avx2"], results["avx512"]):
            np.testing.assert_array_equal(a, b)


def test_activation_and_bias_gradients_match_numpy():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 7, 9)) * 4
    x[0, 0, :4] = [0.0, 6.0, np.nan, np.inf]
    dy = rng.standard_normal(x.shape)
    np.testing.assert_array_equal(*both(activations.relu_grad, dy, x))
    np.testing.assert_array_equal(*both(activations.relu6_grad, dy, x))
    assert_close(*both(normalization.bias_add_grad, dy))


def test_softmax_cross_entropy_matches_numpy():
    rng = np.random.default_rng(5)
    logits = rng.standard_normal((6, 4, 10)) * 30
    labels = rng.dirichlet(np.ones(10), (6, 4))
    assert_close(*both(softmax_xent.softmax_cross_entropy_with_logits, logits, labels))
    classes = rng.integers(0, 10, (6, 4))
    assert_close(*both(softmax_xent.sparse_softmax_cross_entropy_with_logits, logits, classes))
    with pytest.raises(ValueError, match="outside the valid range"):
        softmax_xent.sparse_softmax_cross_entropy_with_logits(logits, classes + 1)


def test_float64_batch_norm_stays_on_numpy():
    # TensorFlow's CPU FusedBatchNorm has no float64 kernel and neither has libedgelite.
    x = np.random.default_rng(6).standard_normal((4, 3, 3, 5))
    with counting_native_calls() as calls:
        out = normalization.fused_batch_norm(x, np.ones(5), np.zeros(5), None, None)
    assert calls[0] == 0
    assert out[0].dtype == np.float64


_DIGEST = """
import hashlib, numpy as np
from edgelite.kernels import conv, native_lib, pooling
rng = np.random.default_rng(5)
x, w = rng.standard_normal((5, 13, 11, 24)), rng.standard_normal((3, 3, 24, 40))
dw, dy = rng.standard_normal((3, 3, 24, 2)), rng.standard_normal((5, 13, 11, 40))
ddy = rng.standard_normal((5, 7, 6, 48))
outs = [conv.conv2d(x, w, (1, 1), (1, 1), "SAME"), conv.conv2d_backprop_input(x.shape, w, dy, (1, 1), (1, 1), "SAME"),
        conv.conv2d_backprop_filter(x, w.shape, dy, (1, 1), (1, 1), "SAME"),
        conv.conv2d_backprop_filter(x, (1, 1, 24, 40), dy, (1, 1), (1, 1), "SAME"),
        conv.depthwise_conv2d(x, dw, (2, 2), (1, 1), "SAME"),
        conv.depthwise_conv2d_backprop_input(x.shape, dw, ddy, (2, 2), (1, 1), "SAME"),
        conv.depthwise_conv2d_backprop_filter(x, dw.shape, ddy, (2, 2), (1, 1), "SAME"),
        pooling.max_pool_grad(x, pooling.max_pool(x, (3, 3), (2, 2), "SAME"), ddy[..., :24], (3, 3), (2, 2), "SAME"),
        pooling.avg_pool_grad(x.shape, ddy[..., :24], (3, 3), (2, 2), "SAME")]
assert all(o.dtype == np.float64 for o in outs) and native_lib.handle().f64
print(native_lib.handle().threads, hashlib.sha256(b"".join(o.tobytes() for o in outs)).hexdigest())
"""


def test_same_bits_on_any_thread_count():
    digests = digests_by_thread_count(_DIGEST)
    assert digests["1"] == digests["3"]
