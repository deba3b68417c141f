"""Finite-difference checks of the gradients added with the segment, sort and linear-algebra ops."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from sdk_core.gradcheck import check_gradients

_IDS = np.array([0, 0, 1, 3, 3, 3], np.int32)
_UIDS = np.array([2, -1, 0, 2, 4, 0], np.int32)

GRAD_CASES = [
    ("segment_mean", lambda d: tf.segment_mean(d, _IDS), (6, 3)),
    ("segment_max", lambda d: tf.segment_max(d, _IDS), (6, 3)),
    ("segment_min", lambda d: tf.segment_min(d, _IDS), (6,)),
    ("segment_prod", lambda d: tf.segment_prod(d, _IDS), (6, 2)),
    # empty segments hold the dtype's extremes, which would swamp the differences: only filled ones are checked
    ("unsorted_segment_max", lambda d: tf.gather(tf.unsorted_segment_max(d, _UIDS, 5), [0, 2, 4]), (6, 2)),
    ("unsorted_segment_min", lambda d: tf.gather(tf.unsorted_segment_min(d, _UIDS, 5), [0, 2, 4]), (6, 2)),
    ("unsorted_segment_prod", lambda d: tf.unsorted_segment_prod(d, _UIDS, 5), (6, 2)),
    ("unsorted_segment_mean", lambda d: tf.unsorted_segment_mean(d, _UIDS, 5), (6, 2)),
    ("unsorted_segment_sqrt_n", lambda d: tf.unsorted_segment_sqrt_n(d, _UIDS, 5), (6, 2)),
    ("sparse_segment_sum", lambda d: tf.sparse_segment_sum(d, [0, 3, 3, 1], [0, 0, 2, 2]), (4, 3)),
    ("sparse_segment_mean", lambda d: tf.sparse_segment_mean(d, [0, 3, 3, 1], [0, 0, 2, 2]), (4, 3)),
    ("sparse_segment_sqrt_n", lambda d: tf.sparse_segment_sqrt_n(d, [0, 3, 3, 1], [0, 1, 1, 1], num_segments=3),
     (4, 3)),
    ("sort", lambda d: tf.sort(d, axis=0), (4, 3)),
    ("sort_desc", lambda d: tf.sort(d, direction="DESCENDING"), (2, 5)),
]


@pytest.mark.parametrize("name,build,shape", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradient_matches_finite_differences(name, build, shape):
    rng = np.random.default_rng(len(name))
    # distinct values keep max/min/sort away from ties, where the function has no derivative
    x = rng.permutation(np.linspace(0.5, 2.5, int(np.prod(shape)))).reshape(shape)
    check_gradients(build, [x], rng)
