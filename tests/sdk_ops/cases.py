"""Cases shared by the TensorFlow fixture generator (fixtures/generate.py) and the edgelite tests.

A value case is (name, fn(tf, *inputs), input specs, dtypes swept). `F(shape, lo, hi)` is an input of the
swept dtype (uniform floats, or integers in [lo, hi) for an integer sweep; differentiated for floats);
`V(array)` is a fixed array with its own dtype. Every input is fed through a placeholder of known shape.
An error case is name -> fn(tf) that either raises while building or returns fetches that fail when run.
The same code runs against `tensorflow.compat.v1` and `edgelite`.
"""
from __future__ import annotations

import numpy as np

FLOATS = ("float32", "float64")
INTS = ("int32", "int64")


def F(*shape, lo=-2.0, hi=2.0):
    return ("f", tuple(shape), lo, hi)


def FV(value):
    """Fixed values in the swept dtype, differentiated like F (for zeros, ties and other chosen points)."""
    return ("fv", np.asarray(value, dtype=np.float64))


def V(value, dtype="int32"):
    return ("v", np.asarray(value, dtype=dtype))


_IDS = [0, 0, 1, 3, 3, 3]          # sorted, with an empty segment (2)
_UIDS = [2, -1, 0, 2, 4, 0]         # unsorted, a dropped id, empty segments 1 and 3

VALUE_CASES = [
    # ---- segment reductions
    ("segment_sum", lambda tf, d, i: tf.segment_sum(d, i), [F(6, 3), V(_IDS)], FLOATS + INTS),
    ("segment_mean", lambda tf, d, i: tf.segment_mean(d, i), [F(6, 3), V(_IDS)], FLOATS + INTS),
    ("segment_max", lambda tf, d, i: tf.segment_max(d, i), [F(6, 3), V(_IDS, "int64")], FLOATS + INTS),
    ("segment_min", lambda tf, d, i: tf.math.segment_min(d, i), [F(6), V(_IDS)], FLOATS + INTS),
    ("segment_prod", lambda tf, d, i: tf.segment_prod(d, i), [F(6, 2), V(_IDS)], FLOATS + INTS),
    ("segment_prod_zeros", lambda tf, d, i: tf.segment_prod(d, i),
     [FV([[1, 0], [0, 0], [2, 3], [0, 4], [5, 0], [6, 0]]), V(_IDS)], FLOATS),
    ("unsorted_segment_prod_zeros", lambda tf, d, i: tf.unsorted_segment_prod(d, i, 5),
     [FV([[1, 0], [3, 0], [2, 3], [0, 4], [5, 0], [0, 0]]), V(_UIDS)], FLOATS),
    ("segment_max_ties", lambda tf, d, i: [tf.segment_max(d, i), tf.unsorted_segment_min(d, i, 4)],
     [FV([1, 1, 2, 3, 3, 0]), V(_IDS)], FLOATS),
    ("unsorted_segment_sum", lambda tf, d, i: tf.unsorted_segment_sum(d, i, 5), [F(6, 2), V(_UIDS)], FLOATS + INTS),
    ("unsorted_segment_max", lambda tf, d, i: tf.unsorted_segment_max(d, i, 5), [F(6, 2), V(_UIDS)], FLOATS + INTS),
    ("unsorted_segment_min", lambda tf, d, i: tf.math.unsorted_segment_min(d, i, 5), [F(6), V(_UIDS)],
     FLOATS + INTS),
    ("unsorted_segment_prod", lambda tf, d, i: tf.unsorted_segment_prod(d, i, 5), [F(6, 2), V(_UIDS)],
     FLOATS + INTS),
    ("unsorted_segment_2d_ids", lambda tf, d, i: tf.unsorted_segment_max(d, i, tf.constant(3, tf.int64)),
     [F(2, 3, 2), V([[0, 2, 1], [2, 2, -1]])], FLOATS),
    ("unsorted_segment_mean", lambda tf, d, i: tf.unsorted_segment_mean(d, i, 5), [F(6, 2), V(_UIDS)], FLOATS),
    ("unsorted_segment_sqrt_n", lambda tf, d, i: tf.math.unsorted_segment_sqrt_n(d, i, 5), [F(6, 2), V(_UIDS)],
     FLOATS),
    ("sparse_segment_sum", lambda tf, d, x, i: tf.sparse_segment_sum(d, x, i), [F(4, 3), V([0, 3, 3, 1]),
                                                                            V([0, 0, 2, 2])], FLOATS + INTS),
    ("sparse_segment_mean", lambda tf, d, x, i: tf.sparse_segment_mean(d, x, i), [F(4, 3), V([0, 3, 3, 1], "int64"),
                                                                              V([0, 0, 2, 2])], FLOATS),
    ("sparse_segment_sqrt_n", lambda tf, d, x, i: tf.sparse_segment_sqrt_n(d, x, i),
     [F(4), V([2, 3, 3, 1, 0]), V([0, 0, 0, 1, 3], "int64")], FLOATS),
    ("sparse_segment_sum_num", lambda tf, d, x, i: tf.sparse_segment_sum(d, x, i, num_segments=5),
     [F(4, 2), V([0, 3, 3]), V([1, 1, 2])], FLOATS),
    ("sparse_segment_mean_num", lambda tf, d, x, i: tf.sparse_segment_mean(d, x, i, num_segments=4),
     [F(4, 2), V([0, 3, 3]), V([1, 1, 2])], FLOATS),
    ("sparse_segment_sqrt_n_num", lambda tf, d, x, i: tf.sparse_segment_sqrt_n(d, x, i, num_segments=4),
     [F(4, 2), V([0, 3, 3]), V([0, 1, 1])], FLOATS),
    # ---- unique / setdiff
    ("unique", lambda tf, x: list(tf.unique(x)), [V([3, 1, 3, 7, 1, 0])], ("int32",)),
    ("unique_float", lambda tf, x: list(tf.unique(x, out_idx=tf.int64)), [V([2.5, -1, 2.5, 0], "float32")],
     ("int32",)),
    ("unique_with_counts", lambda tf, x: list(tf.unique_with_counts(x)), [V([5, 5, 2, 9, 2, 5], "int64")],
     ("int32",)),
    ("setdiff1d", lambda tf, x, y: list(tf.setdiff1d(x, y)), [V([4, 1, 4, 2, 8]), V([2, 9])], ("int32",)),
    ("setdiff1d_int64", lambda tf, x, y: list(tf.setdiff1d(x, y, index_dtype=tf.int64)),
     [V([1.5, 2, 3], "float64"), V([2.0], "float64")], ("int32",)),
    # ---- sort / argsort
    ("sort", lambda tf, x: tf.sort(x), [F(3, 5)], FLOATS + INTS),
    ("sort_desc_axis0", lambda tf, x: tf.sort(x, axis=0, direction="DESCENDING"), [F(4, 3, lo=-3, hi=3)],
     FLOATS + INTS),
    ("sort_axis1_rank3", lambda tf, x: tf.sort(x, axis=1), [F(2, 4, 3, lo=-3, hi=3)], FLOATS + INTS),
    ("argsort", lambda tf, x: tf.argsort(x), [F(3, 6, lo=-3, hi=3)], FLOATS + INTS),
    ("argsort_desc", lambda tf, x: tf.argsort(x, axis=0, direction="DESCENDING", stable=True),
     [F(5, 2, lo=-2, hi=2)], INTS),
    ("sort_int_extremes", lambda tf, x: [tf.sort(x), tf.argsort(x)],
     [V([2147483647, -2147483648, 0, -1, -2147483648])], ("int32",)),
    ("sort_uint8", lambda tf, x: [tf.sort(x), tf.argsort(x, direction="DESCENDING")], [V([255, 0, 7, 255], "uint8")],
     ("int32",)),
]


def error_cases(tf) -> dict:
    """name -> builder; the builder raises at build time or returns fetches that fail at run time."""
    c = tf.constant
    return {
        "segment_ids_rank": lambda: tf.segment_prod([[1., 2], [3, 4]], [[0, 0]]),
        "segment_ids_float": lambda: tf.segment_sum([1, 2, 3], c([0, 1, 1.])),
        "segment_data_bool": lambda: tf.segment_sum([True], [0]),
        "segment_max_complex": lambda: tf.segment_max(c([1j]), [0]),
        "segment_dim_mismatch": lambda: tf.segment_sum([1., 2, 3], [0, 1]),
        "segment_not_increasing": lambda: tf.segment_sum([1., 2, 3], tf.placeholder_with_default([0, 2, 1], None)),
        "segment_negative": lambda: tf.segment_mean([1., 2, 3], tf.placeholder_with_default([-1, 2, 3], None)),
        "segment_size_runtime": lambda: tf.segment_max(tf.placeholder_with_default([1., 2, 3], None),
                                                       tf.placeholder_with_default([0, 0], None)),
        "unsorted_out_of_range": lambda: tf.unsorted_segment_max([1., 2, 3], [0, 5, 1], 3),
        "unsorted_dim_mismatch": lambda: tf.unsorted_segment_sum([[1., 2, 3]], [[0, 1]], 3),
        "unsorted_prefix_runtime": lambda: tf.unsorted_segment_prod(tf.placeholder_with_default([1., 2, 3], None),
                                                                    tf.placeholder_with_default([0, 1], None), 3),
        "unsorted_num_rank": lambda: tf.unsorted_segment_min([1., 2], [0, 1], [2]),
        "sparse_bad_index": lambda: tf.sparse_segment_mean([1., 2, 3], [0, 5, 2], [0, 0, 1]),
        "sparse_not_increasing": lambda: tf.sparse_segment_sum([1., 2, 3], [0, 1, 2], [0, 2, 1]),
        "sparse_dim_mismatch": lambda: tf.sparse_segment_mean([1., 2, 3], [0, 1, 2], [0, 1]),
        "sparse_num_segments": lambda: tf.sparse_segment_sum([1., 2, 3], [0, 1, 2], [0, 0, 5], num_segments=4),
        "sparse_mean_int": lambda: tf.sparse_segment_mean([1, 2, 3], [0, 1, 2], [0, 0, 1]),
        "unique_rank": lambda: tf.unique([[1, 5], [1, 3]]),
        "unique_out_idx": lambda: tf.unique_with_counts([1, 2], out_idx=tf.float32),
        "setdiff_rank": lambda: tf.setdiff1d([1, 2], [[1]]),
        "setdiff_dtype": lambda: tf.setdiff1d([1, 2], [1.5]),
        "sort_direction": lambda: tf.sort([3, 1, 2], direction="foo"),
        "sort_axis_not_constant": lambda: tf.sort([3, 1, 2], axis=tf.placeholder(tf.int32, [])),
        "sort_axis_vector": lambda: tf.argsort([3, 1, 2], axis=[0]),
        "sort_string": lambda: tf.sort(["b", "a"]),
    }
