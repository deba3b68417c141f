"""Compiled pooling kernels and fused optimizer updates against the numpy reference."""
from __future__ import annotations

import contextlib
from typing import Iterator, List

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from edgelite.kernels import native, pooling
from edgelite.kernels.backend import using
from edgelite.train import update_rules as ur

from .diff_util import FLOATS, assert_close, both, isa_levels, kernels_at, randn

pytestmark = pytest.mark.usefixtures("native_selected")


@st.composite
def pools(draw):
    """A random NHWC input, window, strides and padding."""
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    strides = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    padding = draw(st.sampled_from(["SAME", "VALID"]))
    xs = (draw(st.integers(1, 3)), draw(st.integers(kh, 11)), draw(st.integers(kw, 11)), draw(st.integers(1, 9)))
    return xs, (kh, kw), strides, padding, draw(st.integers(0, 2 ** 16)), draw(st.booleans())


@FLOATS
@settings(max_examples=60, deadline=None)
@given(pools())
def test_pooling_and_its_gradients_match_numpy(dtype, case):
    xs, ksize, strides, padding, seed, ties = case
    rng = np.random.default_rng(seed)
    # With ties (few distinct values) the first maximum in scan order must take the gradient.
    x = rng.integers(0, 3, xs).astype(dtype) if ties else randn(rng, *xs, dtype=dtype)
    y, y_native = both(pooling.max_pool, x, ksize, strides, padding)
    np.testing.assert_array_equal(y_native, y)
    dy = randn(rng, *y.shape, dtype=dtype)
    assert_close(*both(pooling.max_pool_grad, x, y, dy, ksize, strides, padding))
    assert_close(*both(pooling.avg_pool, x, ksize, strides, padding))
    assert_close(*both(pooling.avg_pool_grad, xs, dy, ksize, strides, padding))


@FLOATS
def test_max_pool_nan_handling_matches_numpy(dtype):
    x = np.array([1, np.nan, 3, 2, -np.inf, 5, np.nan, 0], dtype).reshape(1, 2, 4, 1)
    y, y_native = both(pooling.max_pool, x, (2, 2), (1, 1), "SAME")
    np.testing.assert_array_equal(y_native, y)
    dy = np.ones_like(y)
    np.testing.assert_array_equal(*both(pooling.max_pool_grad, x, y, dy, (2, 2), (1, 1), "SAME"))


@pytest.mark.parametrize("isa", isa_levels())
@pytest.mark.parametrize("channels", [16, 23, 40])
def test_max_pool_on_wide_channels_matches_numpy_at_every_isa(isa, channels):
    # Channel blocks of 16 with a masked tail on AVX-512, the plain loops below it; ties and NaNs included.
    rng = np.random.default_rng(channels)
    x = rng.integers(0, 3, (3, 8, 10, channels)).astype(np.float32)  # 2x2 stride-2 windows tile it
    x[0, 1, 2, ::3] = np.nan
    with kernels_at(isa):
        for ksize, strides, padding in (((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"), ((3, 2), (1, 1), "SAME")):
            y, y_native = both(pooling.max_pool, x, ksize, strides, padding)
            np.testing.assert_array_equal(y_native, y)
            dy = randn(rng, *y.shape)
            # Overlapping windows add their shares in another order than numpy: equal within rounding.
            assert_close(*both(pooling.max_pool_grad, x, y, dy, ksize, strides, padding))


@contextlib.contextmanager
def fused_calls() -> Iterator[List[bool]]:
    """What each native.optimizer_update call inside the block answered (True: the fused kernel ran)."""
    answers: List[bool] = []
    real = native.optimizer_update

    def recording(*args, **kwargs):
        answers.append(real(*args, **kwargs))
        return answers[-1]

    native.optimizer_update = recording
    try:
        yield answers
    finally:
        native.optimizer_update = real


# (name, slot count, rule); slots start positive in [0.1, ~4): valid accumulators and second moments.
UPDATES = [
    ("sgd", 1, lambda s, g: ur.apply_gradient_descent(s[0], np.float32(0.1), g)),
    ("momentum", 2, lambda s, g: ur.apply_momentum(s[0], s[1], 0.05, g, 0.9)),
    ("nesterov", 2, lambda s, g: ur.apply_momentum(s[0], s[1], 0.05, g, 0.9, use_nesterov=True)),
    ("adam", 3, lambda s, g: ur.apply_adam(s[0], s[1], s[2], 0.9 ** 3, 0.999 ** 3, 1e-3, 0.9, 0.999, 1e-7, g)),
    ("adam_nesterov", 3, lambda s, g: ur.apply_adam(s[0], s[1], s[2], 0.9, 0.999, 1e-3, 0.9, 0.999, 1e-7, g,
                                                    use_nesterov=True)),
    ("rmsprop", 3, lambda s, g: ur.apply_rmsprop(s[0], s[1], s[2], 0.01, 0.9, 0.5, 1e-10, g)),
    ("centered_rmsprop", 4, lambda s, g: ur.apply_centered_rmsprop(s[0], s[1], s[2], s[3], 0.01, 0.9, 0.5, 1e-10,
                                                                   g)),
    ("adagrad", 2, lambda s, g: ur.apply_adagrad(s[0], s[1], 0.1, g)),
    ("adagrad_frozen", 2, lambda s, g: ur.apply_adagrad(s[0], s[1], 0.1, g, update_slots=False)),
]


@FLOATS
@pytest.mark.parametrize("name,n,rule", UPDATES, ids=[u[0] for u in UPDATES])
def test_fused_updates_equal_the_numpy_rules_bit_for_bit(name, n, rule, dtype):
    rng = np.random.default_rng(7)
    slots = [np.abs(randn(rng, 33, 17, dtype=dtype)) + dtype(0.1) for _ in range(n)]
    if name == "centered_rmsprop":
        slots[1] *= dtype(0.1)  # mean gradient small next to the mean square: ms - mg^2 > 0
    grad = randn(rng, 33, 17, dtype=dtype)
    ref = [s.copy() for s in slots]
    with using("numpy"), fused_calls() as done:
        rule(ref, grad)
    assert done == [False]
    with fused_calls() as done:
        rule(slots, grad)
    assert done == [True]
    for a, b in zip(slots, ref):
        assert np.isfinite(b).all()
        np.testing.assert_array_equal(a, b)


def test_updates_of_other_dtypes_or_shapes_use_numpy():
    var = np.ones((4,), np.float16)
    f32 = np.ones((4,), np.float32)
    with fused_calls() as done:
        ur.apply_gradient_descent(var, 0.5, np.ones(4, np.float16))
        ur.apply_gradient_descent(f32, 0.5, np.ones((1,), np.float32))  # broadcast gradient
    assert done == [False, False]
    np.testing.assert_array_equal(var, 0.5)
    np.testing.assert_array_equal(f32, 0.5)
