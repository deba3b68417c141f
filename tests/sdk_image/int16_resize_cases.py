"""A conv + resize graph converted with 16x8 quantization (int16 activations, int8 weights), built the same way by
fixtures/generate_int16_resize.py under TensorFlow and by test_convert_resize.py under edgelite."""
from __future__ import annotations

import numpy as np

KINDS = ("bilinear", "bilinear_half_pixel", "nearest")


def weights_and_samples() -> tuple:
    """The conv kernel and 16 calibration inputs (seeded)."""
    rng = np.random.default_rng(16)
    w = rng.normal(0, 0.5, (3, 3, 3, 4)).astype(np.float32)
    return w, [rng.random((1, 5, 6, 3)).astype(np.float32) for _ in range(16)]


def build(tf, kind: str, x, w):
    """relu(conv(x)) resized: the resize's int16 input scale comes from the conv's calibrated range."""
    h = tf.nn.relu(tf.nn.conv2d(x, tf.constant(w), [1, 1, 1, 1], "SAME"))
    if kind == "bilinear":
        return tf.image.resize_bilinear(h, [9, 7])
    if kind == "bilinear_half_pixel":
        return tf.image.resize_bilinear(h, [9, 7], half_pixel_centers=True)
    return tf.image.resize_nearest_neighbor(h, [10, 12])
