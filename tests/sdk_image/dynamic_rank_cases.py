"""Images of unknown rank or unknown inner sizes through flip/rot90/transpose/per_image_standardization (TF's
_AssertAtLeast3DImage asserts and its cond on the run-time rank), shared by fixtures/generate_dynamic_rank.py (run
by hand under TensorFlow) and test_dynamic_rank.py: (name, fn(tf, image tensor) -> tensor, input, static shape
given to the placeholder, how the result is judged).

How: "tf" compares with TF's output or its error type and text; "type" only the error type (TF's session runs a
transpose of the cond branch not taken before the rank assert, so its message names that op); a numpy function
where TF 2.21's session may fail the case for the same reason (a transpose of the other branch, fed the wrong
rank; it depends on the run) while edgelite follows TF's code: judged against numpy, and against TF's values
when its recorded run got through.
"""
from __future__ import annotations

import numpy as np


def _arange(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)


def _zeros(*shape):
    return np.zeros(shape, np.float32)


CASES = [
    ("flip_lr_unknown_rank_3d", lambda tf, x: tf.image.flip_left_right(x), _arange(2, 2, 3), None, "tf"),
    ("flip_lr_unknown_rank_4d", lambda tf, x: tf.image.flip_left_right(x), _arange(2, 2, 3, 1), None, "tf"),
    # every rank but 3 takes TF's batch branch: a 5-D image is flipped on its axis 2
    ("flip_lr_unknown_rank_5d", lambda tf, x: tf.image.flip_left_right(x), _arange(1, 2, 2, 3, 2), None, "tf"),
    ("flip_ud_unknown_rank_3d", lambda tf, x: tf.image.flip_up_down(x), _arange(3, 2, 2), None, "tf"),
    ("flip_lr_unknown_rank_2d", lambda tf, x: tf.image.flip_left_right(x), _arange(2, 3), None, "tf"),
    ("flip_ud_unknown_rank_1d", lambda tf, x: tf.image.flip_up_down(x), _arange(4), None, "tf"),
    ("flip_lr_zero_height", lambda tf, x: tf.image.flip_left_right(x), _zeros(0, 2, 3), [None, None, 3], "tf"),
    ("flip_ud_zero_width_batch", lambda tf, x: tf.image.flip_up_down(x), _zeros(2, 3, 0, 1), [None, None, None, 1],
     "tf"),
    ("rot90_unknown_rank_3d", lambda tf, x: tf.image.rot90(x, 1), _arange(2, 3, 1), None, "tf"),
    ("rot90_unknown_rank_4d_k3", lambda tf, x: tf.image.rot90(x, 3), _arange(2, 2, 3, 1), None,
     lambda x: np.rot90(x, 3, axes=(1, 2))),
    ("rot90_unknown_rank_2d", lambda tf, x: tf.image.rot90(x, 1), _arange(2, 3), None, "type"),
    ("rot90_zero_channels", lambda tf, x: tf.image.rot90(x, 2), _zeros(2, 2, 0), [2, 2, None], "tf"),
    ("transpose_unknown_rank_4d", lambda tf, x: tf.image.transpose(x), _arange(1, 2, 3, 2), None,
     lambda x: np.transpose(x, (0, 2, 1, 3))),
    ("transpose_unknown_rank_3d", lambda tf, x: tf.image.transpose(x), _arange(3, 2, 1), None,
     lambda x: np.transpose(x, (1, 0, 2))),
    ("transpose_unknown_rank_2d", lambda tf, x: tf.image.transpose(x), _arange(2, 3), None, "type"),
    ("random_flip_lr_unknown_rank_2d", lambda tf, x: tf.image.random_flip_left_right(x, seed=3), _arange(2, 3),
     None, "tf"),
    ("standardize_unknown_rank_4d", lambda tf, x: tf.image.per_image_standardization(x), _arange(2, 2, 3, 1), None,
     "tf"),
    ("standardize_unknown_rank_2d", lambda tf, x: tf.image.per_image_standardization(x), _arange(2, 3), None, "tf"),
    ("standardize_zero_width", lambda tf, x: tf.image.per_image_standardization(x), _zeros(2, 0, 3), [2, None, 3],
     "tf"),
    ("random_flip_ud_unknown_size", lambda tf, x: tf.image.random_flip_up_down(x, seed=3), _zeros(1, 0, 2, 1),
     [1, None, 2, 1], "tf"),
]
