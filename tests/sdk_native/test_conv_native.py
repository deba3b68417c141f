"""Compiled conv2d / depthwise kernels against the numpy reference on random geometries."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from edgelite.kernels import conv, geometry
from edgelite.kernels.backend import using

from .diff_util import FLOATS, assert_close, both, digests_by_thread_count, isa_levels, kernels_at, randn

PADDINGS = st.one_of(st.sampled_from(["SAME", "VALID"]),
                     st.tuples(st.tuples(st.integers(0, 2), st.integers(0, 2)),
                               st.tuples(st.integers(0, 2), st.integers(0, 2))))

pytestmark = pytest.mark.usefixtures("native_selected")


@st.composite
def windows(draw, depthwise: bool = False):
    """A random NHWC input, filter, strides, dilations and padding with at least one output pixel."""
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    strides = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dilations = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = draw(PADDINGS)
    h = draw(st.integers((kh - 1) * dilations[0] + 1, 12))
    w = draw(st.integers((kw - 1) * dilations[1] + 1, 12))
    cin = draw(st.integers(1, 20))
    cout = draw(st.integers(1, 3)) if depthwise else draw(st.integers(1, 40))
    batch = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2 ** 16))
    return (batch, h, w, cin), (kh, kw, cin, cout), strides, dilations, padding, seed


def _arrays(case, depthwise: bool, dtype=np.float32):
    xs, ws, strides, dilations, padding, seed = case
    rng = np.random.default_rng(seed)
    x, w = randn(rng, *xs, dtype=dtype), randn(rng, *ws, dtype=dtype)
    g = geometry.window2d(xs, ws[:2], strides, dilations, padding)
    channels = ws[2] * ws[3] if depthwise else ws[3]
    dy = randn(rng, xs[0], g.out_h, g.out_w, channels, dtype=dtype)
    return x, w, dy


@FLOATS
@settings(max_examples=60, deadline=None)
@given(windows())
def test_conv2d_and_its_gradients_match_numpy(dtype, case):
    xs, ws, strides, dilations, padding, _ = case
    x, w, dy = _arrays(case, depthwise=False, dtype=dtype)
    assert_close(*both(conv.conv2d, x, w, strides, dilations, padding))
    assert_close(*both(conv.conv2d_backprop_input, xs, w, dy, strides, dilations, padding))
    assert_close(*both(conv.conv2d_backprop_filter, x, ws, dy, strides, dilations, padding))


@FLOATS
@settings(max_examples=60, deadline=None)
@given(windows(depthwise=True))
def test_depthwise_and_its_gradients_match_numpy(dtype, case):
    xs, ws, strides, dilations, padding, _ = case
    x, w, dy = _arrays(case, depthwise=True, dtype=dtype)
    assert_close(*both(conv.depthwise_conv2d, x, w, strides, dilations, padding))
    assert_close(*both(conv.depthwise_conv2d_backprop_input, xs, w, dy, strides, dilations, padding))
    assert_close(*both(conv.depthwise_conv2d_backprop_filter, x, ws, dy, strides, dilations, padding))


@pytest.mark.parametrize("xs,ws,strides,padding", [
    ((4, 32, 32, 16), (3, 3, 16, 32), (1, 1), "SAME"),     # ResNet-8 body
    ((4, 16, 16, 32), (3, 3, 32, 64), (2, 2), "SAME"),     # strided stage entry
    ((4, 16, 16, 32), (1, 1, 32, 64), (1, 1), "VALID"),    # pointwise (MobileNet)
    ((9, 6, 6, 40), (1, 1, 40, 24), (1, 1), "SAME"),       # pointwise, filter-gradient chunks across images
    ((3, 16, 16, 8), (1, 1, 8, 16), (2, 2), "VALID"),      # strided shortcut
    ((4, 49, 10, 1), (10, 4, 1, 64), (2, 2), "SAME"),      # DS-CNN stem
    ((2, 32, 32, 16), (3, 3, 16, 16), (1, 1), "SAME"),     # ResNet-8 16-channel body: the narrow-channel product
    ((16, 8, 8, 1), (3, 3, 1, 16), (1, 1), "SAME"),        # digits CNN conv1: filter gradient by whole images
    ((20, 4, 4, 16), (3, 3, 16, 32), (1, 1), "SAME"),      # digits CNN conv2: 16 images per chunk, a short last one
    ((3, 9, 12, 4), (3, 3, 4, 5), (1, 1), "SAME"),         # 5 channels: masked lanes of the narrow product
    ((2, 10, 8, 8), (2, 3, 8, 12), (1, 1), ((1, 0), (2, 1))),  # explicit padding on the narrow product
    ((3, 9, 11, 6), (1, 1, 6, 10), (2, 3), "VALID"),       # strided 1x1: filter gradient of the subsampled input
    ((2, 9, 11, 6), (1, 1, 6, 10), (2, 3), "SAME"),        # strided 1x1 with SAME (no padding before)
    ((2, 9, 11, 8), (3, 3, 8, 12), (3, 2), "SAME"),        # column strides: the phase-split padded copy
    ((9, 12, 12, 16), (3, 3, 16, 16), (1, 1), "SAME"),     # filter gradient by image groups, uneven last group
    ((17, 11, 13, 16), (3, 3, 16, 24), (2, 2), "SAME"),    # image groups with column phases, wide channels
    ((4, 9, 9, 5), (3, 3, 5, 7), (2, 2), "VALID"),         # no window reaches past x: read in place
])
@pytest.mark.parametrize("isa", isa_levels())
def test_recipe_layers_match_numpy(xs, ws, strides, padding, isa):
    rng = np.random.default_rng(1)
    x, w = randn(rng, *xs), randn(rng, *ws)
    with kernels_at(isa):
        y, y_native = both(conv.conv2d, x, w, strides, (1, 1), padding)
        assert_close(y, y_native)
        dy = randn(rng, *y.shape)
        assert_close(*both(conv.conv2d_backprop_input, xs, w, dy, strides, (1, 1), padding))
        assert_close(*both(conv.conv2d_backprop_filter, x, ws, dy, strides, (1, 1), padding))


@pytest.mark.parametrize("xs,strides", [((4, 25, 5, 64), (1, 1)), ((3, 48, 48, 8), (2, 2)), ((2, 6, 6, 128), (1, 1))])
def test_depthwise_recipe_layers_match_numpy(xs, strides):
    rng = np.random.default_rng(6)
    x, w = randn(rng, *xs), randn(rng, 3, 3, xs[3], 1)
    y, y_native = both(conv.depthwise_conv2d, x, w, strides, (1, 1), "SAME")
    assert_close(y, y_native)
    dy = randn(rng, *y.shape)
    assert_close(*both(conv.depthwise_conv2d_backprop_input, xs, w, dy, strides, (1, 1), "SAME"))
    assert_close(*both(conv.depthwise_conv2d_backprop_filter, x, w.shape, dy, strides, (1, 1), "SAME"))


def test_results_are_bitwise_repeatable():
    rng = np.random.default_rng(2)
    x, w = randn(rng, 3, 20, 20, 24), randn(rng, 3, 3, 24, 40)
    dy = randn(rng, 3, 20, 20, 40)
    first = conv.conv2d_backprop_filter(x, w.shape, dy, (1, 1), (1, 1), "SAME")
    for _ in range(3):
        np.testing.assert_array_equal(conv.conv2d_backprop_filter(x, w.shape, dy, (1, 1), (1, 1), "SAME"), first)


def test_mixed_dtypes_take_the_reference_path_and_strided_views_copy():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 7, 7, 3))
    w = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    out = conv.conv2d(x, w, (1, 1), (1, 1), "SAME")
    assert out.dtype == np.float64
    with using("numpy"):
        np.testing.assert_array_equal(out, conv.conv2d(x, w, (1, 1), (1, 1), "SAME"))
    xt = randn(rng, 2, 3, 7, 7).transpose(0, 2, 3, 1)  # a non-contiguous NHWC view
    assert_close(*both(conv.conv2d, xt, w.astype(np.float32), (1, 1), (1, 1), "VALID"))


_DIGEST = """
import hashlib, numpy as np
from edgelite.kernels import conv, native_lib
rng = np.random.default_rng(5)
x, w = rng.standard_normal((5, 13, 11, 24), np.float32), rng.standard_normal((3, 3, 24, 40), np.float32)
dw = rng.standard_normal((3, 3, 24, 2), np.float32)
dy, ddy = rng.standard_normal((5, 13, 11, 40), np.float32), rng.standard_normal((5, 7, 6, 48), np.float32)
outs = [conv.conv2d(x, w, (1, 1), (1, 1), "SAME"), conv.conv2d_backprop_input(x.shape, w, dy, (1, 1), (1, 1), "SAME"),
        conv.conv2d_backprop_filter(x, w.shape, dy, (1, 1), (1, 1), "SAME"),
        conv.depthwise_conv2d(x, dw, (2, 2), (1, 1), "SAME"),
        conv.depthwise_conv2d_backprop_input(x.shape, dw, ddy, (2, 2), (1, 1), "SAME"),
        conv.depthwise_conv2d_backprop_filter(x, dw.shape, ddy, (2, 2), (1, 1), "SAME")]
x16, w16 = rng.standard_normal((19, 4, 8, 16), np.float32), rng.standard_normal((3, 3, 16, 16), np.float32)
dy16 = rng.standard_normal((19, 4, 8, 16), np.float32)
outs += [conv.conv2d(x16, w16, (1, 1), (1, 1), "SAME"),
         conv.conv2d_backprop_input(x16.shape, w16, dy16, (1, 1), (1, 1), "SAME"),
         conv.conv2d_backprop_filter(x16, w16.shape, dy16, (1, 1), (1, 1), "SAME")]
print(native_lib.handle().threads, hashlib.sha256(b"".join(o.tobytes() for o in outs)).hexdigest())
"""


def test_same_bits_on_any_thread_count():
    digests = digests_by_thread_count(_DIGEST)
    assert digests["1"] == digests["3"]
