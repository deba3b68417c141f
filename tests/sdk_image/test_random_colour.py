"""random_brightness/contrast/hue/saturation: TF's random streams are not reproducible outside TF, so these check
the drawn factor's range, that the op equals its adjust_* counterpart at that factor, and seeded determinism."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf

IMAGE = np.random.default_rng(4).random((6, 7, 3)).astype(np.float32)


def _runs(build, seed, runs=12):
    with tf.Graph().as_default():
        tf.set_random_seed(seed)
        x = tf.constant(IMAGE)
        y = build(x)
        with tf.Session() as sess:
            return [sess.run(y) for _ in range(runs)]


@pytest.mark.parametrize("build", [
    lambda x: tf.image.random_brightness(x, 0.3, seed=2),
    lambda x: tf.image.random_contrast(x, 0.4, 1.6, seed=3),
    lambda x: tf.image.random_hue(x, 0.4, seed=4),
    lambda x: tf.image.random_saturation(x, 0.2, 1.8, seed=5),
], ids=["brightness", "contrast", "hue", "saturation"])
def test_seeded_runs_repeat_and_vary(build):
    first, again = _runs(build, 11), _runs(build, 11)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert len({a.tobytes() for a in first}) > 6


def test_brightness_delta_is_uniform_in_range():
    outs = _runs(lambda x: tf.image.random_brightness(x, 0.3, seed=1), 5, runs=40)
    deltas = [float(np.mean(o - IMAGE)) for o in outs]
    for o, d in zip(outs, deltas):
        np.testing.assert_allclose(o - IMAGE, d, atol=1e-6)
    assert -0.3 <= min(deltas) < -0.1 and 0.1 < max(deltas) < 0.3


def test_contrast_factor_in_range_and_equal_to_adjust_contrast():
    outs = _runs(lambda x: tf.image.random_contrast(x, 0.4, 1.6, seed=1), 6, runs=20)
    mean = IMAGE.mean(axis=(0, 1))
    factors = [float(np.median((o - mean) / (IMAGE - mean))) for o in outs]
    assert all(0.4 <= f < 1.6 for f in factors)
    with tf.Graph().as_default(), tf.Session() as sess:
        want = sess.run(tf.image.adjust_contrast(tf.constant(IMAGE), factors[0]))
    np.testing.assert_allclose(outs[0], want, atol=1e-4)


@pytest.mark.parametrize("random_op,adjust_op,arg", [
    (lambda x: tf.image.random_hue(x, 0.0, seed=1), tf.image.adjust_hue, 0.0),
    (lambda x: tf.image.random_saturation(x, 1.0, 1.0 + 1e-7, seed=1), tf.image.adjust_saturation, 1.0),
])
def test_degenerate_ranges_equal_the_fixed_adjustment(random_op, adjust_op, arg):
    got = _runs(random_op, 3, runs=1)[0]
    with tf.Graph().as_default(), tf.Session() as sess:
        want = sess.run(adjust_op(tf.constant(IMAGE), arg))
    np.testing.assert_allclose(got, want, atol=1e-6)


def test_random_ops_keep_uint8():
    x = tf.placeholder(tf.uint8, [4, 4, 3])
    for y in (tf.image.random_brightness(x, 0.1), tf.image.random_contrast(x, 0.5, 1.5),
              tf.image.random_hue(x, 0.1), tf.image.random_saturation(x, 0.5, 1.5)):
        assert y.dtype == tf.uint8 and y.shape.as_list() == [4, 4, 3]


def test_random_jpeg_quality_is_seeded_and_stays_close_to_the_image():
    pytest.importorskip("PIL", reason="JPEG encoding needs Pillow (edgelite[image])")
    yy, xx = np.mgrid[0:16, 0:16]
    smooth = np.stack([yy / 16, xx / 16, (yy + xx) / 32], -1).astype(np.float32)

    def runs():
        with tf.Graph().as_default():
            tf.set_random_seed(2)
            y = tf.image.random_jpeg_quality(tf.constant(smooth), 30, 90, seed=7)
            with tf.Session() as sess:
                return [sess.run(y) for _ in range(6)]

    outs = runs()
    assert all(np.array_equal(a, b) for a, b in zip(outs, runs()))
    assert len({o.tobytes() for o in outs}) > 1
    for o in outs:
        assert o.dtype == np.float32 and o.shape == smooth.shape and np.abs(o - smooth).max() < 0.1
