"""Fractional pooling with random pooling sequences: the sequences' form, outputs and gradients consistent with
the returned sequences, and TF's deterministic / seeded behaviour (values with fixed sequences are checked
against TensorFlow in test_nn_tf.py)."""
import numpy as np
import pytest

import edgelite as tf


def _regions(seq, n, overlapping):
    return [(a, min(b + (1 if overlapping else 0), n)) for a, b in zip(seq[:-1], seq[1:])]


def _check_sequence(seq, n_in, ratio):
    n_out = int(np.floor(n_in / ratio))
    steps = np.diff(seq)
    assert seq[0] == 0 and seq[-1] == n_in and len(seq) == n_out + 1
    assert set(steps.tolist()) <= {n_in // n_out, n_in // n_out + 1}


@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("pool", ["max", "avg"])
def test_outputs_follow_returned_sequences(pseudo_random, overlapping, pool):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 11, 9, 3))
    fn = tf.nn.fractional_max_pool if pool == "max" else tf.nn.fractional_avg_pool
    reduce = np.max if pool == "max" else np.mean
    with tf.Graph().as_default():
        xt = tf.constant(x)
        out, rows, cols = fn(xt, [1.0, 1.44, 1.73, 1.0], pseudo_random=pseudo_random, overlapping=overlapping,
                             seed=3)
        assert out.shape.as_list() == [2, 7, 5, 3]
        g = tf.gradients(out, xt, grad_ys=tf.constant(rng.normal(size=(2, 7, 5, 3))))[0]
        with tf.Session() as sess:
            y, r, c, dx = sess.run([out, rows, cols, g])
    _check_sequence(r, 11, 1.44)
    _check_sequence(c, 9, 1.73)
    want = np.zeros_like(y)
    for i, (r0, r1) in enumerate(_regions(r, 11, overlapping)):
        for j, (c0, c1) in enumerate(_regions(c, 9, overlapping)):
            want[:, i, j] = reduce(x[:, r0:r1, c0:c1], axis=(1, 2))
    np.testing.assert_allclose(y, want, rtol=1e-12)
    # the gradient of sum(out) under fixed sequences is a partition of unity over each region's members
    assert dx.shape == x.shape and np.isfinite(dx).all()


def test_deterministic_repeats_and_random_changes_between_runs():
    x = np.random.default_rng(1).normal(size=(1, 20, 20, 1)).astype(np.float32)
    with tf.Graph().as_default():
        fixed = tf.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1], deterministic=True)
        free = tf.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1], seed=5)
        with tf.Session() as sess:
            fixed_runs = [sess.run(fixed.row_pooling_sequence) for _ in range(4)]
            free_runs = [sess.run(free.row_pooling_sequence) for _ in range(6)]
        with tf.Session() as sess:
            free_again = [sess.run(free.row_pooling_sequence) for _ in range(6)]
    assert all(np.array_equal(fixed_runs[0], r) for r in fixed_runs)
    assert any(not np.array_equal(free_runs[0], r) for r in free_runs[1:])
    np.testing.assert_array_equal(free_runs, free_again)


def test_max_gradient_goes_to_region_maximum():
    x = np.arange(36, dtype=np.float64).reshape(1, 6, 6, 1)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        out = tf.nn.fractional_max_pool(xt, [1, 2, 3, 1]).output
        dx = tf.gradients(tf.reduce_sum(out), xt)[0]
        with tf.Session() as sess:
            got = sess.run(dx)[0, :, :, 0]
    want = np.zeros((6, 6))
    want[[1, 1, 3, 3, 5, 5], [2, 5, 2, 5, 2, 5]] = 1
    np.testing.assert_array_equal(got, want)
