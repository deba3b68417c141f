"""Float32 MatMul / BatchMatMulV2 and their gradients on the compiled GEMM against numpy's BLAS."""
from __future__ import annotations

import contextlib
from typing import Iterator, List

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import edgelite as tf
from edgelite.kernels import backend, matmul, native_lib

from .diff_util import assert_close, randn

pytestmark = pytest.mark.usefixtures("native_selected")


@pytest.fixture(autouse=True)
def _needs_mat_mul():
    if not native_lib.handle().has("el_train_mat_mul"):
        pytest.skip("this libedgelite predates el_train_mat_mul")


@contextlib.contextmanager
def counting_products() -> Iterator[List[int]]:
    """Thread counts of the kernel sets that ran each compiled product inside the block."""
    seen: List[int] = []
    saved = matmul._call

    def counted(h, *args):
        seen.append(h.threads)
        return saved(h, *args)

    matmul._call = counted
    try:
        yield seen
    finally:
        matmul._call = saved


def run_both(fetches, feed=None, config=None):
    """(numpy results, native results) of one graph's fetches; fails unless the native run used the GEMM."""
    with backend.using("numpy"), counting_products() as seen, tf.Session(config=config) as sess:
        ref = sess.run(fetches, feed)
    assert not seen, "the numpy switch still reached the compiled product"
    with counting_products() as seen, tf.Session(config=config) as sess:
        out = sess.run(fetches, feed)
    assert seen, "MatMul did not run on the compiled product"
    return ref, out


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 40), st.integers(1, 70), st.integers(1, 40), st.booleans(), st.booleans(),
       st.integers(0, 2 ** 16))
def test_matmul_and_its_gradients_match_numpy(m, k, n, ta, tb, seed):
    rng = np.random.default_rng(seed)
    a_val = randn(rng, *((k, m) if ta else (m, k)))
    b_val = randn(rng, *((n, k) if tb else (k, n)))
    with tf.Graph().as_default():
        a, b = tf.constant(a_val), tf.constant(b_val)
        y = tf.matmul(a, b, transpose_a=ta, transpose_b=tb)
        loss = tf.reduce_sum(y * tf.constant(randn(rng, m, n)))
        ref, out = run_both([y] + tf.gradients(loss, [a, b]))
    for r, o in zip(ref, out):
        assert_close(r, o, rtol=1e-4, scale_atol=1e-5)


@pytest.mark.parametrize("a_shape,b_shape,adj_x,adj_y", [
    ((3, 5, 7), (3, 7, 4), False, False),
    ((2, 3, 7, 5), (7, 4), True, False),
    ((3, 1, 5, 7), (4, 9, 7), False, True),
    ((6, 4), (2, 9, 6), True, True),
    ((2, 0, 3), (2, 3, 5), False, False),
])
def test_batch_matmul_and_its_gradients_match_numpy(a_shape, b_shape, adj_x, adj_y):
    rng = np.random.default_rng(len(a_shape) * 7 + len(b_shape))
    with tf.Graph().as_default():
        a, b = tf.constant(randn(rng, *a_shape)), tf.constant(randn(rng, *b_shape))
        y = tf.matmul(a, b, adjoint_a=adj_x, adjoint_b=adj_y)
        ref, out = run_both([y] + tf.gradients(tf.reduce_sum(y * y), [a, b]))
    for r, o in zip(ref, out):
        assert_close(r, o, rtol=1e-4, scale_atol=1e-5)


def test_transposed_views_are_read_in_place():
    rng = np.random.default_rng(3)
    a, b = randn(rng, 9, 12), randn(rng, 12, 5)
    expected = a.astype(np.float64) @ b
    np.testing.assert_allclose(matmul.mat_mul(np.asfortranarray(a), b, False, False), expected, rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(matmul.mat_mul(a.T, b, True, False), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(matmul.mat_mul(a, b.T.copy().T, False, False), expected, rtol=1e-5, atol=1e-5)


def test_zero_depth_gives_zeros():
    out = matmul.mat_mul(np.zeros((3, 0), np.float32), np.zeros((0, 4), np.float32), False, False)
    assert out.shape == (3, 4) and not out.any()


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_same_bits_on_any_thread_count(ta, tb):
    # Big enough that three threads get several row blocks each: every output is still one ordered sum.
    rng = np.random.default_rng(11)
    m, k, n = 301, 700, 90
    a = randn(rng, *((k, m) if ta else (m, k)))
    b = randn(rng, *((n, k) if tb else (k, n)))
    results = {}
    for threads in (1, 3):
        with native_lib.threads_for_calls(threads), counting_products() as seen:
            results[threads] = matmul.mat_mul(a, b, ta, tb)
        assert seen == [threads]
    assert results[1].tobytes() == results[3].tobytes()
    expected = (a.T if ta else a).astype(np.float64) @ (b.T if tb else b)
    np.testing.assert_allclose(results[1], expected, rtol=1e-4, atol=1e-3)


def test_intra_op_parallelism_threads_sets_the_kernel_threads():
    rng = np.random.default_rng(5)
    with tf.Graph().as_default():
        y = tf.matmul(tf.constant(randn(rng, 8, 6)), tf.constant(randn(rng, 6, 4)))
        for threads in (1, 3):
            config = tf.ConfigProto(intra_op_parallelism_threads=threads)
            with counting_products() as seen, tf.Session(config=config) as sess:
                sess.run(y)
            assert seen == [threads]
        with counting_products() as seen, tf.Session() as sess:
            sess.run(y)
        assert seen == [native_lib.handle().threads]


def test_float64_products_stay_on_numpy():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((5, 7)), rng.standard_normal((7, 3))
    with counting_products() as seen:
        assert matmul.mat_mul(a, b, False, False) is None
        assert matmul.batch_mat_mul(a[None], b[None], False, False) is None
    assert not seen
    with tf.Graph().as_default(), tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.matmul(tf.constant(a), tf.constant(b))), a @ b)
