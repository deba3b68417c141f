"""Layer cases shared by the TensorFlow fixture generator (run by hand) and the edgelite tests.

Each case is (name, input shape, build) where build(tf, x) calls a tf.compat.v1.layers function or class on the
float32 input x; the variables it creates get seeded values assigned after initialisation.
"""
from __future__ import annotations

import zlib

import numpy as np


def seeded(tag: str, shape: list) -> np.ndarray:
    """Deterministic float32 values in [-1, 1) for an input or variable, keyed by a tag."""
    rng = np.random.default_rng(zlib.crc32(tag.encode()))
    return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)


CASES = [
    ("conv1d_valid", [2, 9, 3], lambda tf, x: tf.layers.conv1d(x, 4, 3)),
    ("conv1d_same_dilated_relu", [2, 10, 3],
     lambda tf, x: tf.layers.conv1d(x, 5, 3, padding="same", dilation_rate=2, activation=tf.nn.relu)),
    ("conv1d_strided_nobias", [2, 11, 2],
     lambda tf, x: tf.layers.conv1d(x, 3, 4, strides=2, padding="same", use_bias=False, name="c1")),
    ("conv1d_causal_dilated", [2, 9, 2], lambda tf, x: tf.layers.conv1d(x, 3, 3, padding="causal", dilation_rate=2)),
    ("separable_conv1d_causal", [1, 8, 2], lambda tf, x: tf.layers.separable_conv1d(x, 2, 3, padding="causal")),
    ("Conv1D_class", [1, 8, 3], lambda tf, x: tf.layers.Conv1D(2, 2, strides=2)(x)),
    ("conv3d_valid", [2, 4, 5, 6, 2], lambda tf, x: tf.layers.conv3d(x, 3, 2)),
    ("conv3d_same_strided", [1, 5, 6, 7, 3], lambda tf, x: tf.layers.conv3d(x, 2, (3, 2, 3), strides=(2, 1, 2),
                                                                            padding="same")),
    ("conv3d_dilated", [1, 6, 6, 6, 2], lambda tf, x: tf.layers.conv3d(x, 2, 2, dilation_rate=(2, 1, 2))),
    ("Conv3D_class_tanh", [1, 3, 4, 5, 2], lambda tf, x: tf.layers.Conv3D(3, 2, activation=tf.tanh)(x)),
    ("conv3d_transpose_same", [2, 2, 3, 4, 3],
     lambda tf, x: tf.layers.conv3d_transpose(x, 2, 3, strides=2, padding="same")),
    ("conv3d_transpose_valid", [1, 3, 2, 3, 2],
     lambda tf, x: tf.layers.conv3d_transpose(x, 3, (2, 3, 2), strides=(1, 2, 3))),
    ("Conv3DTranspose_class", [1, 2, 2, 2, 2], lambda tf, x: tf.layers.Conv3DTranspose(2, 2, strides=2)(x)),
    ("separable_conv1d_valid", [2, 9, 3], lambda tf, x: tf.layers.separable_conv1d(x, 4, 3)),
    ("separable_conv1d_dm2_same", [2, 10, 3],
     lambda tf, x: tf.layers.separable_conv1d(x, 5, 3, padding="same", depth_multiplier=2)),
    ("separable_conv1d_dilated", [1, 12, 2],
     lambda tf, x: tf.layers.separable_conv1d(x, 3, 3, dilation_rate=2, depth_multiplier=3, name="sep")),
    ("separable_conv1d_strided", [1, 12, 2],
     lambda tf, x: tf.layers.SeparableConv1D(3, 3, strides=2, padding="same")(x)),
    ("max_pooling1d", [2, 9, 3], lambda tf, x: tf.layers.max_pooling1d(x, 2, 2)),
    ("max_pooling1d_same", [2, 9, 3], lambda tf, x: tf.layers.max_pooling1d(x, 3, 2, padding="same")),
    ("average_pooling1d", [2, 10, 2], lambda tf, x: tf.layers.average_pooling1d(x, 3, 1)),
    ("average_pooling1d_same", [2, 9, 2], lambda tf, x: tf.layers.AveragePooling1D(4, 3, padding="same")(x)),
    ("max_pooling3d", [1, 4, 4, 6, 2], lambda tf, x: tf.layers.max_pooling3d(x, 2, 2)),
    ("max_pooling3d_same", [1, 5, 4, 3, 2], lambda tf, x: tf.layers.MaxPooling3D((2, 3, 2), (2, 2, 1),
                                                                                 padding="same")(x)),
    ("average_pooling3d", [1, 4, 5, 6, 2], lambda tf, x: tf.layers.average_pooling3d(x, (2, 2, 3), (1, 2, 3))),
    ("average_pooling3d_same", [1, 5, 4, 3, 2],
     lambda tf, x: tf.layers.average_pooling3d(x, 3, 2, padding="same")),
    ("conv1d_twice_default_names", [1, 7, 2],
     lambda tf, x: tf.layers.conv1d(tf.layers.conv1d(x, 3, 2), 2, 2)),
    ("conv3d_untrainable", [1, 3, 3, 3, 2], lambda tf, x: tf.layers.conv3d(x, 2, 2, trainable=False)),
]

# Build-time errors: (name, input shape, build); TF's error type and message are recorded.
ERROR_CASES = [
    ("conv1d_rank2_input", [4, 3], lambda tf, x: tf.layers.conv1d(x, 2, 2)),
    ("conv3d_rank4_input", [1, 4, 4, 3], lambda tf, x: tf.layers.conv3d(x, 2, 2)),
    ("conv1d_zero_filters", [1, 5, 2], lambda tf, x: tf.layers.conv1d(x, 0, 2)),
    ("conv3d_bad_kernel_size", [1, 4, 4, 4, 2], lambda tf, x: tf.layers.conv3d(x, 2, (2, 2))),
    ("max_pooling1d_bad_padding", [1, 5, 2], lambda tf, x: tf.layers.max_pooling1d(x, 2, 2, padding="full")),
    ("separable_conv1d_unknown_channels", [1, 5, None],
     lambda tf, x: tf.layers.separable_conv1d(x, 2, 2)),
]


def spec_layer(tf, **spec: object):
    """A Layer subclass whose input_spec is InputSpec(**spec); its call doubles the input."""

    class SpecLayer(tf.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.input_spec = tf.layers.InputSpec(**spec)

        def call(self, inputs):
            return inputs * 2.0

    return SpecLayer()


# InputSpec on a layer: (name, input shape, dtype name, spec kwargs); TF's error (or none) is recorded.
SPEC_CASES = [
    ("ndim", [2, 3], "float32", {"ndim": 3}),
    ("min_ndim", [2, 3], "float32", {"min_ndim": 3}),
    ("max_ndim", [2, 3, 4], "float32", {"max_ndim": 2}),
    ("axes", [2, 3], "float32", {"axes": {-1: 4}}),
    ("axes_unknown_dim_ok", [None, 3, 5], "float32", {"axes": {1: 3}, "min_ndim": 2}),
    ("shape", [2, 3], "float32", {"shape": (None, 4)}),
    ("shape_ok", [2, 3], "float32", {"shape": (None, 3)}),
    ("dtype", [2, 3], "float32", {"dtype": "float64"}),
    ("dtype_ok", [2, 3], "float64", {"dtype": "float64", "ndim": 2}),
]

# InputSpec constructor arguments whose repr() / get_config() / errors are recorded.
SPEC_REPRS = [
    {"ndim": 3, "axes": {-1: 4}},
    {"dtype": "float32", "shape": (None, 3)},
    {"min_ndim": 2, "max_ndim": 4, "axes": {"-1": 3}},
    {"ndim": 2, "axes": {3: 1}},
]
