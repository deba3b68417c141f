"""sample_distorted_bounding_box, random_crop and extract_glimpse's noise: TF's random streams cannot be
reproduced, so these check TensorFlow's documented constraints and seeded determinism."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf


def _samples(runs, seed=3, **kw):
    with tf.Graph().as_default():
        tf.set_random_seed(seed)
        begin, size, bbox = tf.image.sample_distorted_bounding_box([60, 80, 3], [[[0.1, 0.2, 0.6, 0.7]]], **kw)
        assert begin.shape.as_list() == [3] and bbox.shape.as_list() == [1, 1, 4]
        with tf.Session() as sess:
            return [sess.run([begin, size, bbox]) for _ in range(runs)]


def test_crops_meet_the_area_aspect_and_coverage_constraints():
    out = _samples(60, min_object_covered=0.5, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.8))
    box = (6, 16, 36, 56)  # y0, x0, y1, x1 in pixels of the object
    for begin, size, bbox in out:
        (y, x, _), (h, w, c) = begin, size
        assert c == -1 and 0 <= y and 0 <= x and y + h <= 60 and x + w <= 80
        assert 0.1 * 4800 <= h * w <= 0.8 * 4800
        assert 0.5 <= w / h * (1 + 1e-9) and w / h <= 2.0 * 1.05  # lrintf rounding of the width
        inter = max(min(y + h, box[2]) - max(y, box[0]), 0) * max(min(x + w, box[3]) - max(x, box[1]), 0)
        assert inter / ((box[2] - box[0]) * (box[3] - box[1])) >= 0.5
        np.testing.assert_allclose(bbox[0, 0], [y / 60, x / 80, (y + h) / 60, (x + w) / 80], rtol=1e-6)
    assert len({(int(b[0]), int(b[1]), int(s[0])) for b, s, _ in out}) > 20


def test_seeded_sampling_repeats_and_impossible_constraints_give_the_whole_image():
    first = _samples(5, seed=9)
    again = _samples(5, seed=9)
    assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(first, again))
    whole = _samples(3, min_object_covered=1.0, area_range=(0.01, 0.02), max_attempts=5)
    for begin, size, bbox in whole:
        assert list(begin) == [0, 0, 0] and list(size) == [60, 80, -1]
        np.testing.assert_array_equal(bbox, [[[0, 0, 1, 1]]])


def test_random_crop_is_a_seeded_window_of_the_input():
    value = np.arange(7 * 9 * 2, dtype=np.float32).reshape(7, 9, 2)

    def crops(seed):
        with tf.Graph().as_default():
            tf.set_random_seed(seed)
            y = tf.image.random_crop(tf.constant(value), [3, 4, 2], seed=1)
            with tf.Session() as sess:
                return [sess.run(y) for _ in range(30)]

    out = crops(2)
    corners = set()
    for o in out:
        y0, x0 = np.argwhere(value[..., 0] == o[0, 0, 0])[0]
        np.testing.assert_array_equal(o, value[y0:y0 + 3, x0:x0 + 4])
        corners.add((y0, x0))
    assert len(corners) > 8
    assert all(np.array_equal(a, b) for a, b in zip(out, crops(2)))


@pytest.mark.parametrize("uniform", [True, False])
def test_glimpse_outside_the_image_is_noise_of_the_image_statistics(uniform):
    rng = np.random.default_rng(0)
    image = (rng.random((1, 6, 6, 1)) + 5).astype(np.float32)
    g = tf.image.extract_glimpse(tf.constant(image), [4, 4], [[1.0, 1.0]], uniform_noise=uniform)
    with tf.Session() as sess:
        out = sess.run(g)[0, :, :, 0]
    np.testing.assert_array_equal(out[:2, :2], image[0, 4:, 4:, 0])
    noise = np.concatenate([out[2:].ravel(), out[:2, 2:].ravel()])
    if uniform:
        assert image.min() <= noise.min() and noise.max() <= image.max()
    else:
        assert abs(noise.mean() - image.mean()) < 4 * image.std() and noise.std() > 0
