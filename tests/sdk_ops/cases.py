"""Cases shared by the TensorFlow fixture generator (fixtures/generate.py) and the edgelite tests.

A value case is (name, fn(tf, *inputs), input specs, dtypes swept). `F(shape, lo, hi)` is an input of the
swept dtype (uniform floats, or integers in [lo, hi) for an integer sweep; differentiated for floats);
`V(array)` is a fixed array with its own dtype. Every input is fed through a placeholder of known shape.
An error case is name -> fn(tf) that either raises while building or returns fetches that fail when run.
The same code runs against `tensorflow.compat.v1` and `edgelite`.
"""
from __future__ import annotations

import sys

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


VALUE_CASES += [
    # ---- einsum / meshgrid / roll / reverse_sequence / searchsorted / unravel_index
    ("einsum_matmul", lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), [F(2, 3), F(3, 4)], FLOATS + INTS),
    ("einsum_batch", lambda tf, a, b: tf.linalg.einsum("bij,bkj->bik", a, b), [F(2, 3, 4), F(2, 5, 4)], FLOATS),
    ("einsum_implicit", lambda tf, a, b: tf.einsum("ij,j", a, b), [F(3, 4), F(4)], FLOATS),
    ("einsum_reduce", lambda tf, a: tf.einsum("ijk->ki", a), [F(2, 3, 4)], FLOATS),
    ("einsum_outer", lambda tf, a, b: tf.einsum("i,j->ij", a, b), [F(3), F(2)], FLOATS),
    ("einsum_ellipsis", lambda tf, a, b: tf.einsum("...ij,jk->...ik", a, b), [F(2, 2, 3), F(3, 2)], FLOATS),
    ("einsum_three", lambda tf, a, b, c: tf.einsum("ij,jk,kl->il", a, b, c), [F(2, 3), F(3, 2), F(2, 4)],
     FLOATS),
    ("meshgrid_xy", lambda tf, a, b: tf.meshgrid(a, b), [F(3), F(2)], FLOATS + INTS),
    ("meshgrid_ij", lambda tf, a, b, c: tf.meshgrid(a, b, c, indexing="ij"), [F(2), F(3), F(2)], FLOATS),
    ("roll", lambda tf, x: tf.roll(x, shift=2, axis=1), [F(2, 5)], FLOATS + INTS),
    ("roll_multi", lambda tf, x: tf.roll(x, shift=[-1, 3], axis=[0, 1]), [F(3, 4)], FLOATS),
    ("reverse_sequence", lambda tf, x, n: tf.reverse_sequence(x, n, seq_axis=1, batch_axis=0),
     [F(3, 4, 2), V([4, 0, 2], "int64")], FLOATS + INTS),
    ("reverse_sequence_v1", lambda tf, x, n: tf.reverse_sequence(x, n, seq_dim=0, batch_dim=1),
     [F(4, 2), V([1, 3])], FLOATS),
    ("searchsorted", lambda tf, s, v: [tf.searchsorted(s, v), tf.searchsorted(s, v, side="right")],
     [V([[0, 1, 1, 3], [2, 2, 5, 9]], "float32"), V([[1, 0.5], [2, 10]], "float32")], ("int32",)),
    ("searchsorted_int64", lambda tf, s, v: tf.searchsorted(s, v, out_type=tf.int64),
     [V([1, 3, 5, 7]), V([0, 3, 8, 4, 4])], ("int32",)),
    ("unravel_index", lambda tf, i, d: tf.unravel_index(i, d), [V([0, 5, 11, 7]), V([3, 4])], ("int32",)),
    ("unravel_index_scalar", lambda tf, i, d: tf.unravel_index(i, d), [V(17, "int64"), V([2, 3, 4], "int64")],
     ("int32",)),
    # ---- space / batch / depth
    ("space_to_batch_nd", lambda tf, x: tf.space_to_batch_nd(x, [2, 2], [[0, 1], [1, 1]]), [F(2, 3, 2, 3)],
     FLOATS + INTS),
    ("batch_to_space_nd", lambda tf, x: tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 0]]), [F(4, 2, 3, 1)],
     FLOATS + INTS),
    ("space_to_batch_v1", lambda tf, x: tf.space_to_batch(x, [[1, 1], [0, 2]], block_size=2), [F(1, 4, 2, 2)],
     FLOATS),
    ("batch_to_space_v1", lambda tf, x: tf.batch_to_space(x, [[0, 1], [1, 0]], block_size=2), [F(4, 2, 2, 3)],
     FLOATS),
    ("space_to_batch_nd_1d", lambda tf, x: tf.space_to_batch_nd(x, [3], [[1, 2]]), [F(2, 6, 2)], FLOATS),
    ("depth_to_space", lambda tf, x: tf.depth_to_space(x, 2), [F(2, 2, 3, 8)], FLOATS + INTS),
    ("space_to_depth", lambda tf, x: tf.space_to_depth(x, 2), [F(1, 4, 6, 3)], FLOATS + INTS),
    # ---- tensor_scatter_nd_*
    ("tensor_scatter_update", lambda tf, t, u: tf.tensor_scatter_nd_update(t, [[1], [3]], u), [F(5, 3), F(2, 3)],
     FLOATS + INTS),
    ("tensor_scatter_add", lambda tf, t, u: tf.tensor_scatter_nd_add(t, [[1, 0], [2, 2], [1, 0]], u),
     [F(3, 4), F(3)], FLOATS + INTS),
    ("tensor_scatter_sub", lambda tf, t, u: tf.tensor_scatter_sub(t, [[0], [2]], u), [F(3, 2), F(2, 2)], FLOATS),
    ("tensor_scatter_min", lambda tf, t, u: tf.tensor_scatter_nd_min(t, [[0], [2], [0]], u), [F(3, 2), F(3, 2)],
     FLOATS + INTS),
    ("tensor_scatter_max", lambda tf, t, u: tf.tensor_scatter_nd_max(t, [[1, 1], [0, 0]], u),
     [FV([[1, 2], [3, 4]]), FV([0.5, 4])], FLOATS),
    ("tensor_scatter_alias", lambda tf, t, u: [tf.tensor_scatter_update(t, [[0]], u), tf.tensor_scatter_add(t, [[0]], u)],
     [F(2, 2), F(1, 2)], FLOATS),
    # ---- counting
    ("bincount", lambda tf, x: [tf.bincount(x), tf.math.bincount(x, minlength=9), tf.bincount(x, maxlength=3)],
     [V([1, 4, 1, 0, 6, 4, 4])], ("int32",)),
    ("bincount_weights", lambda tf, x, w: tf.bincount(x, weights=w), [V([2, 0, 2, 5]), F(4)], FLOATS),
    ("bincount_dtype", lambda tf, x: tf.bincount(x, dtype=tf.float64), [V([[3, 1], [1, 1]])], ("int32",)),
    ("histogram_fixed_width", lambda tf, v: [tf.histogram_fixed_width(v, tf.cast([-1.0, 1.0], v.dtype), nbins=5),
                                             tf.histogram_fixed_width_bins(v, tf.cast([-1.0, 1.0], v.dtype), 5)],
     [F(3, 4)], FLOATS),
    ("histogram_fixed_width_int", lambda tf, v: tf.histogram_fixed_width(v, [0, 10], nbins=4, dtype=tf.int64),
     [V([-3, 0, 2, 5, 9, 10, 14, 7])], ("int32",)),
    ("confusion_matrix", lambda tf, l, p: [tf.confusion_matrix(l, p), tf.math.confusion_matrix(l, p, num_classes=5)],
     [V([0, 1, 2, 1, 3]), V([0, 2, 2, 1, 1])], ("int32",)),
    ("confusion_matrix_weights", lambda tf, l, p, w: tf.confusion_matrix(l, p, num_classes=3, weights=w,
                                                                         dtype=tf.float32),
     [V([0, 1, 2, 1], "int64"), V([[0], [2], [2], [1]], "int64"), V([0.5, 1, 2, 4], "float32")], ("int32",)),
    # ---- bitwise
    ("bitwise", lambda tf, x, y: [tf.bitwise.bitwise_and(x, y), tf.bitwise.bitwise_or(x, y),
                                  tf.bitwise.bitwise_xor(x, y), tf.bitwise.invert(x)],
     [F(3, 4, lo=-20, hi=20), F(4, lo=-20, hi=20)], INTS + ("int8", "uint8", "uint16")),
    ("bitwise_shift", lambda tf, x, y: [tf.bitwise.left_shift(x, y), tf.bitwise.right_shift(x, y)],
     [V([1, -8, 5, 127, -128, 3], "int8"), V([0, 3, 8, 9, 1, -1], "int8")], ("int32",)),
    ("bitwise_shift_wide", lambda tf, x, y: [tf.bitwise.left_shift(x, tf.cast(y, x.dtype)),
                                             tf.bitwise.right_shift(x, tf.cast(y, x.dtype))],
     [F(6, lo=-100, hi=100), V([0, 1, 5, 31, 40, 63])], ("int32", "int64")),
    # ---- more tf.math
    ("inverse_hyperbolic", lambda tf, a, b, c: [tf.acosh(a), tf.asinh(b), tf.math.atanh(c)],
     [F(4, lo=1.2, hi=3), F(4), F(4, lo=-0.9, hi=0.9)], FLOATS),
    ("xlogy_family", lambda tf, x, y: [tf.math.xlogy(x, y), tf.math.xdivy(x, y), tf.math.xlog1py(x, y)],
     [FV([0, 1.5, -2, 0, 0.25, 3]), F(6, lo=0.5, hi=2)], FLOATS),
    ("xlogy_broadcast", lambda tf, x, y: tf.math.xlogy(x, y), [F(3, 1), F(4, lo=0.5, hi=2)], FLOATS),
    ("multiply_no_nan", lambda tf, x, y: tf.math.multiply_no_nan(x, y), [F(2, 3), FV([0, 1.5, -2])], FLOATS),
    ("multiply_no_nan_inf", lambda tf, x, y: tf.math.multiply_no_nan(x / 0.0, y), [FV([1, -1, 2]), FV([0, 2, 0])],
     FLOATS),
    ("reciprocal_no_nan", lambda tf, x: tf.math.reciprocal_no_nan(x), [FV([0, 2, -0.5, 4])], FLOATS),
    ("truncatemod", lambda tf, x, y: tf.truncatemod(x, y), [F(6, lo=-5, hi=5), FV([1.5, -2, 3, -0.7, 2, 4])],
     FLOATS),
    ("truncatemod_int", lambda tf, x, y: tf.truncatemod(x, y), [V([7, -7, 7, -7, 0]), V([3, 3, -3, -3, 2])],
     ("int32",)),
    ("nextafter", lambda tf, x, y: tf.math.nextafter(x, y), [F(4), FV([5, -5, 0, 1])], FLOATS),
    ("cross", lambda tf, a, b: [tf.cross(a, b), tf.linalg.cross(a, b)], [F(2, 3), F(2, 3)], FLOATS + INTS),
    ("cumulative_logsumexp", lambda tf, x: [tf.math.cumulative_logsumexp(x, axis=1),
                                            tf.math.cumulative_logsumexp(x, axis=0, reverse=True),
                                            tf.math.cumulative_logsumexp(x, axis=1, exclusive=True)],
     [F(3, 4)], FLOATS),
    ("polyval", lambda tf, x, c: tf.math.polyval([c[0], c[1], 2.5 * c[2]], x), [F(5), F(3)], FLOATS),
    ("monotonic", lambda tf, a, b: [tf.is_non_decreasing(a), tf.math.is_strictly_increasing(a),
                                    tf.is_non_decreasing(b), tf.is_strictly_increasing(b)],
     [V([1, 2, 2, 5]), V([[0.5, 1], [2, 3]], "float32")], ("int32",)),
    ("zero_fraction", lambda tf, x: tf.math.zero_fraction(x), [V([[0, 1, 0], [2, 0, 0]])], ("int32",)),
    # ---- special functions
    ("lgamma_digamma_erfc", lambda tf, x: [tf.lgamma(x), tf.digamma(x), tf.math.erfc(x)], [F(5, lo=0.3, hi=4)],
     FLOATS),
    ("lgamma_negative", lambda tf, x: tf.math.lgamma(x), [FV([-0.5, -1.5, -2.5, 0.25])], FLOATS),
    ("erfinv_ndtri", lambda tf, x: [tf.math.erfinv(x), tf.math.ndtri(0.5 * x + 0.5), tf.math.erfcinv(x + 1)],
     [F(5, lo=-0.9, hi=0.9)], FLOATS),
    ("bessel", lambda tf, x: [tf.math.bessel_i0(x), tf.math.bessel_i0e(x), tf.math.bessel_i1(x),
                              tf.math.bessel_i1e(x)], [F(6, lo=-3, hi=3)], FLOATS),
    ("bessel_zero", lambda tf, x: [tf.math.bessel_i1(x), tf.math.bessel_i1e(x)], [FV([0.0, 1.0])], FLOATS),
    ("igamma", lambda tf, a, x: [tf.igamma(a, x), tf.math.igammac(a, x)], [F(5, lo=0.5, hi=3), F(5, lo=0.2, hi=4)],
     FLOATS),
    ("igamma_broadcast", lambda tf, a, x: tf.igamma(a, x), [F(3, 1, lo=0.5, hi=3), F(4, lo=0.2, hi=4)], FLOATS),
    ("betainc", lambda tf, a, b, x: tf.betainc(a, b, x), [F(4, lo=0.5, hi=3), F(4, lo=0.5, hi=3),
                                                          F(4, lo=0.1, hi=0.9)], FLOATS),
    ("zeta", lambda tf, x, q: tf.zeta(x, q), [F(4, lo=1.5, hi=4), F(4, lo=0.5, hi=3)], FLOATS),
    ("polygamma", lambda tf, n, x: tf.polygamma(n, x), [FV([0, 1, 2, 3]), F(4, lo=0.5, hi=3)], FLOATS),
    ("lbeta", lambda tf, x: tf.lbeta(x), [F(3, 4, lo=0.5, hi=3)], FLOATS),
    # ---- checks that pass
    ("check_numerics_ok", lambda tf, x: [tf.check_numerics(x, "fine"), tf.verify_tensor_all_finite(x, "fine"),
                                         tf.ensure_shape(x, [None, 3]), tf.guarantee_const(x)], [F(2, 3)], FLOATS),
    ("print_identity", lambda tf, x: tf.Print(x, [x, "text"], message="x: ", summarize=2), [F(2, 2)], FLOATS),
]


def _cube_with_custom_gradient(tf):
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x + 1.0
        return x * x * x, grad
    return cube


def _scaled_with_variable(tf):
    """custom_gradient over a function reading a variable created outside it (grad_fn gets `variables`)."""
    w = tf.get_variable("w", [], dtype=tf.float64, initializer=tf.constant_initializer(1.5))

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * 2.0, [tf.reduce_sum(dy * x) * 10.0]
        return x * w, grad
    return scaled, w


def _template_case(tf, x):
    def dense(v, scale):
        w = tf.get_variable("w", [], dtype=v.dtype, initializer=tf.constant_initializer(scale))
        return v * w
    t = tf.make_template("dense", dense, scale=0.5)
    return [t(x), t(x * 2.0)]


def _custom_gradient_variable_case(tf, x):
    scaled, w = _scaled_with_variable(tf)
    y = scaled(x)
    return [y, tf.gradients(y, [w])[0]]


VALUE_CASES += [
    # ---- py_func family, custom_gradient, make_template
    ("py_func", lambda tf, x: tf.py_func(lambda a: np.sort(a, axis=-1) * 2, [x], x.dtype), [F(2, 4)], FLOATS),
    ("py_func_list", lambda tf, x, n: tf.py_func(lambda a, k: [a[:k], np.int64(a.size), np.float32(k)], [x, n],
                                                 [x.dtype, tf.int64, tf.float32], stateful=False),
     [F(5), V(3)], FLOATS),
    ("numpy_function", lambda tf, x: tf.numpy_function(lambda a: (a + 1).astype(a.dtype), [x], [x.dtype]),
     [F(3)], FLOATS + INTS),
    # a fixed input: TF differentiates py_function by re-running it under an eager tape, which edgelite lacks
    ("py_function", lambda tf, x: tf.py_function(lambda a: a.numpy() * 3, [x], x.dtype),
     [V([[1.5, 2], [3, -4]], "float32")], ("int32",)),
    ("custom_gradient", lambda tf, x: _cube_with_custom_gradient(tf)(x), [F(4)], ("float64",)),
    ("custom_gradient_variable", _custom_gradient_variable_case, [F(3)], ("float64",)),
    ("make_template", _template_case, [F(3)], FLOATS),
]


def name_cases(tf) -> dict:
    """name -> builder returning names (tensors, variables) whose TF spelling edgelite must reproduce."""
    def template_names():
        def layer(x):
            w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
            return tf.identity(x * w, name="out")
        t = tf.make_template("layer", layer)
        x = tf.placeholder(tf.float32, [2])
        a, b = t(x), t(x)
        t2 = tf.make_template("layer", layer)
        c = t2(x)
        now = tf.make_template("eager_scope", layer, create_scope_now_=True)
        d = now(x)
        return ([a.name, b.name, c.name, d.name] + [v.name for v in tf.global_variables()]
                + [t.variable_scope_name, now.variable_scope_name, [v.name for v in t.trainable_variables]])

    def script_names():
        x = tf.placeholder(tf.float32, [2])
        a = tf.py_func(lambda v: v, [x], tf.float32)
        b = tf.py_func(lambda v: v, [x], [tf.float32], stateful=False, name="mine")
        c = tf.numpy_function(lambda v: v, [x], tf.float32)
        d = tf.py_function(lambda v: v, [x], tf.float32)
        e = tf.py_func(lambda v: None, [x], [])
        return [a.name, a.op.type, b[0].name, b[0].op.type, c.name, d.name, d.op.type, e.name, e.type]

    def logging_names():
        x = tf.placeholder(tf.float32, [2])
        n = tf.placeholder(tf.int32, [2])
        return [tf.Assert(True, [n, "text"]).name, tf.Print(x, [x]).name, tf.check_numerics(x, "m").name,
                tf.verify_tensor_all_finite(x, "m").name, tf.ensure_shape(x, [2]).name,
                tf.add_check_numerics_ops().name, tf.print(x).name]

    def random_shapes():
        a = tf.placeholder(tf.float32, [3])
        outs = [tf.random_gamma([2, 4], a, seed=1), tf.random.gamma([5], [[1.0], [2.0]], beta=[1.0, 2.0, 3.0]),
                tf.random_poisson(a, [2]), tf.random.poisson([1.0, 2.0], [3], dtype=tf.int64),
                tf.random.stateless_uniform([2, 3], [1, 2]), tf.random.stateless_uniform([4], [1, 2], 0, 9, tf.int64),
                tf.random.stateless_normal([3], tf.constant([4, 5], tf.int64), dtype=tf.float64),
                tf.random.stateless_truncated_normal([2, 2], [1, 2]),
                tf.random.stateless_categorical([[0.5, 1.0], [2.0, 0.1]], 4, [1, 2], dtype=tf.int32),
                tf.random.stateless_multinomial(tf.zeros([3, 5]), 2, [7, 8]),
                tf.random.stateless_poisson([2, 3], [1, 2], [1.0, 2.0, 3.0]),
                tf.random.stateless_gamma([2, 3], [1, 2], [1.0, 2.0, 3.0]),
                tf.random.stateless_binomial([4], [1, 2], 10.0, 0.3),
                tf.random.stateless_parameterized_truncated_normal([3], [1, 2])]
        return [(o.name, o.dtype.name, o.shape.as_list() if o.shape.ndims is not None else None) for o in outs]

    def check_names():
        x = tf.placeholder(tf.int32, [2])
        r = tf.placeholder(tf.int32)
        return [tf.assert_equal(x, x).name, tf.assert_positive(x).name, tf.assert_rank(x, 1).name,
                tf.assert_rank(r, 1).name, tf.assert_integer(x).name, tf.assert_scalar(3).name,
                tf.assert_type(x, tf.int32).name, tf.is_numeric_tensor(x), tf.is_numeric_tensor(tf.constant("s")),
                tf.assert_same_float_dtype([tf.constant(1.0, tf.float64)]).name]

    return {"template": template_names, "script_ops": script_names, "logging_ops": logging_names,
            "random_shapes": random_shapes, "check_ops": check_names}


def _spd(tf, a):
    """A symmetric positive definite matrix from any square a (batched)."""
    n = a.shape.as_list()[-1]
    return tf.matmul(a, a, transpose_b=True) + n * tf.eye(n, dtype=a.dtype)


def _conditioned(tf, a):
    """a plus a multiple of the identity: comfortably invertible."""
    n = a.shape.as_list()[-1]
    return a + 3.0 * tf.eye(n, dtype=a.dtype)


def _svd_invariants(tf, a, full=False):
    """Sign-free functions of the SVD: s, u diag(s) v^H (the input back) and |u|, |v| column products."""
    s, u, v = tf.svd(a, full_matrices=full)
    k = s.shape.as_list()[-1]
    back = tf.matmul(u[..., :, :k] * s[..., None, :], v[..., :, :k], adjoint_b=True)
    return [s, back, tf.matmul(u, u, transpose_a=True), tf.abs(u[..., :, :k]) * tf.abs(v[..., :1, :k])]


def _eigh_invariants(tf, a):
    e, v = tf.self_adjoint_eig(a)
    return [e, tf.matmul(v * e[..., None, :], v, adjoint_b=True), tf.abs(v), tf.self_adjoint_eigvals(a)]


VALUE_CASES += [
    # ---- linear algebra
    ("matrix_band_part", lambda tf, x: [tf.matrix_band_part(x, 1, 0), tf.linalg.band_part(x, -1, 2),
                                        tf.matrix_band_part(x, tf.constant(0), tf.constant(-1))],
     [F(2, 3, 4)], FLOATS + INTS),
    ("matrix_set_diag", lambda tf, x, d: [tf.matrix_set_diag(x, d), tf.linalg.set_diag(x, d[..., :2], k=1),
                                          tf.matrix_set_diag(x, d[..., :2], k=-1)], [F(2, 3, 3), F(2, 3)],
     FLOATS + INTS),
    ("tensor_diag", lambda tf, d: [tf.diag(d), tf.linalg.tensor_diag(d)], [F(2, 3)], FLOATS + INTS),
    ("tensor_diag_part", lambda tf, x: [tf.diag_part(x), tf.linalg.tensor_diag_part(x)], [F(2, 3, 2, 3)],
     FLOATS + INTS),
    ("trace", lambda tf, x: [tf.trace(x), tf.linalg.trace(x)], [F(2, 3, 4)], FLOATS + INTS),
    ("matrix_inverse", lambda tf, x: [tf.matrix_inverse(_conditioned(tf, x)),
                                      tf.linalg.inv(_conditioned(tf, x), adjoint=True)], [F(2, 3, 3)], FLOATS),
    ("matrix_determinant", lambda tf, x: [tf.matrix_determinant(x), tf.linalg.det(x)], [F(2, 3, 3)], FLOATS),
    ("slogdet", lambda tf, x: list(tf.linalg.slogdet(x)), [F(3, 3, 3)], FLOATS),
    ("logdet", lambda tf, x: tf.linalg.logdet(_spd(tf, x)), [F(2, 3, 3)], FLOATS),
    ("matrix_solve", lambda tf, a, b: [tf.matrix_solve(_conditioned(tf, a), b),
                                       tf.linalg.solve(_conditioned(tf, a), b, adjoint=True)],
     [F(2, 3, 3), F(2, 3, 2)], FLOATS),
    ("matrix_triangular_solve", lambda tf, a, b: [tf.matrix_triangular_solve(_conditioned(tf, a), b),
                                                  tf.linalg.triangular_solve(_conditioned(tf, a), b, lower=False,
                                                                             adjoint=True)],
     [F(2, 3, 3), F(2, 3, 2)], FLOATS),
    ("triangular_solve_broadcast", lambda tf, a, b: tf.matrix_triangular_solve(_conditioned(tf, a), b),
     [F(3, 3), F(2, 3, 1)], FLOATS),
    ("matrix_solve_ls", lambda tf, a, b: [tf.matrix_solve_ls(a, b), tf.linalg.lstsq(a, b, l2_regularizer=0.5)],
     [F(2, 4, 3), F(2, 4, 2)], FLOATS),
    ("matrix_solve_ls_wide", lambda tf, a, b: tf.matrix_solve_ls(a, b, l2_regularizer=0.1), [F(2, 4), F(2, 3)],
     FLOATS),
    ("cholesky", lambda tf, x: [tf.cholesky(_spd(tf, x)), tf.linalg.cholesky(_spd(tf, x))], [F(2, 3, 3)], FLOATS),
    ("cholesky_solve", lambda tf, x, b: tf.cholesky_solve(tf.cholesky(_spd(tf, x)), b), [F(3, 3), F(3, 2)],
     FLOATS),
    ("svd_square", lambda tf, a: _svd_invariants(tf, a), [F(2, 3, 3)], FLOATS),
    ("svd_wide", lambda tf, a: _svd_invariants(tf, a), [F(3, 5)], FLOATS),
    ("svd_tall", lambda tf, a: _svd_invariants(tf, a), [F(2, 4, 3)], FLOATS),
    ("svd_full", lambda tf, a: _svd_invariants(tf, a, full=True), [F(4, 3)], FLOATS),
    ("svd_values", lambda tf, a: [tf.svd(a, compute_uv=False), tf.linalg.svd(a, compute_uv=False)], [F(2, 3, 4)],
     FLOATS),
    ("self_adjoint_eig", lambda tf, a: _eigh_invariants(tf, a + tf.linalg.adjoint(a)), [F(2, 3, 3)], FLOATS),
    ("eigh_lower_only", lambda tf, a: [tf.linalg.eigh(a)[0], tf.linalg.eigvalsh(a)], [F(4, 4)], FLOATS),
    ("eye", lambda tf, x: [tf.eye(3) * x[0], tf.eye(2, 4, batch_shape=[2], dtype=tf.float64),
                           tf.linalg.eye(2, dtype=tf.int32)], [F(1)], ("float32",)),
    ("eye_dynamic", lambda tf, n: tf.eye(n[0], num_columns=n[1], batch_shape=n[2:]), [V([2, 3, 2])], ("int32",)),
    ("matvec", lambda tf, a, b: [tf.linalg.matvec(a, b), tf.linalg.matvec(a, b[..., :2], transpose_a=True)],
     [F(2, 2, 3), F(2, 3)], FLOATS),
    ("matmul_adjoint", lambda tf, a, b: tf.matmul(a, b, adjoint_a=True, adjoint_b=True), [F(3, 2), F(4, 3)], FLOATS),
]


VALUE_CASES += [
    # ---- complex numbers and approximate top k
    ("complex_parts", lambda tf, a, b: [tf.real(tf.complex(a, b)), tf.math.imag(tf.complex(a, b) * tf.complex(b, a)),
                                       tf.angle(tf.complex(a, b)), tf.real(tf.conj(tf.complex(a, b)) * tf.complex(a, a)),
                                       tf.math.real(a), tf.imag(a), tf.math.angle(a), tf.conj(a)],
     [F(2, 3), F(3)], FLOATS),
    # TF's CPU kernel only has the largest-k along the last dimension
    ("approx_max_k", lambda tf, x: list(tf.math.approx_max_k(x, 2)) + list(tf.approx_top_k(x, 3)), [F(3, 4)],
     ("float32",)),
]


VALUE_CASES += [
    ("repeat", lambda tf, x: [tf.repeat(x, 2), tf.repeat(x, 3, axis=1), tf.repeat(x, [2, 0], axis=0),
                              tf.repeat(x, tf.constant([1, 3, 2]), axis=-1), tf.repeat(x[0, 0], 3)],
     [F(2, 3)], FLOATS + INTS),
    ("manip_roll", lambda tf, x: tf.manip.roll(x, 1, 0), [F(2, 3)], FLOATS),
]


VALUE_CASES += [
    ("required_space_to_batch_paddings", lambda tf, s: list(tf.required_space_to_batch_paddings(s, [2, 3]))
     + list(tf.required_space_to_batch_paddings([5, 7], [4, 2], base_paddings=[[1, 0], [2, 1]]))
     + list(tf.required_space_to_batch_paddings(s, tf.constant([3, 3]), tf.stack([s, s], 1) * 0 + 1)),
     [V([5, 4])], ("int32",)),
]


def print_cases(tf) -> dict:
    """name -> builder of fetches that print; each is run three times and the printed text compared."""
    c = tf.constant
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7

    return {
        "Print_v1": lambda: tf.Print(c(1.0), [c(x), c([True, False]), "s", c(np.float64(2 / 3))], message="m: ",
                                     summarize=4),
        "Print_first_n": lambda: tf.Print(c([1, 2]), [c([1, 2])], message="once ", first_n=2),
        "Print_all": lambda: tf.Print(c(0), [c(np.arange(6).reshape(2, 3))], summarize=-1),
        "print_v2": lambda: tf.print("x =", c(x), "n", c(7), output_stream=sys.stdout),
        "print_v2_long": lambda: tf.print(c(np.arange(10)), c(np.arange(30).reshape(6, 5)), sep="|", end="!\n",
                                          summarize=2),
        "print_v2_stderr": lambda: tf.print(c(["a", "b"]), c(True), c(1.5), {"k": 1}, summarize=-1),
    }


def _template_twice(tf):
    t = tf.make_template("bad", lambda x: x * tf.Variable(1.0))
    t(1.0)
    return t(2.0)


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
        "einsum_arg_count": lambda: tf.einsum("ij,jk->ik", c([[1.0]])),
        "einsum_rank": lambda: tf.einsum("ij,jk->ik", c([1.0]), c([[1.0]])),
        "roll_size_mismatch": lambda: tf.roll([1, 2, 3], [1, 2], tf.placeholder_with_default([0], None)),
        "reverse_sequence_long": lambda: tf.reverse_sequence([[1, 2], [3, 4]], tf.placeholder_with_default(
            c([1, 3], tf.int64), None), seq_axis=1),
        "reverse_sequence_same_axes": lambda: tf.reverse_sequence([[1, 2], [3, 4]], [1, 1], seq_axis=0,
                                                                  batch_axis=0),
        "searchsorted_side": lambda: tf.searchsorted([1, 2], [1], side="middle"),
        "unravel_index_bound": lambda: tf.unravel_index(tf.placeholder_with_default([7], None), [2, 3]),
        "space_to_batch_indivisible": lambda: tf.space_to_batch_nd(tf.zeros([1, 3, 3, 1]), [2, 2], [[0, 0], [0, 0]]),
        "space_to_batch_runtime": lambda: tf.space_to_batch_nd(tf.placeholder_with_default(tf.zeros([1, 3, 4, 1]),
                                                                                       None), [2, 2], [[0, 0], [0, 0]]),
        "batch_to_space_indivisible": lambda: tf.batch_to_space_nd(tf.zeros([3, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]),
        "depth_to_space_depth": lambda: tf.depth_to_space(tf.zeros([1, 2, 2, 6]), 2),
        "depth_to_space_rank": lambda: tf.depth_to_space(tf.zeros([2, 2, 4]), 2),
        "space_to_depth_size": lambda: tf.space_to_depth(tf.zeros([1, 3, 4, 1]), 2),
        "space_to_depth_block": lambda: tf.space_to_depth(tf.zeros([1, 4, 4, 1]), 1),
        "tensor_scatter_bad_index": lambda: tf.tensor_scatter_nd_update(c([1, 2, 3]), tf.placeholder_with_default(
            [[1], [5]], None), [7, 8]),
        "tensor_scatter_updates_shape": lambda: tf.tensor_scatter_nd_add(tf.zeros([3, 2]), [[0], [1]], tf.zeros([2, 3])),
        "tensor_scatter_index_dtype": lambda: tf.tensor_scatter_nd_max([1.0], c([[0.5]]), [1.0]),
        "bincount_negative": lambda: tf.bincount(tf.placeholder_with_default([1, -1], None)),
        "histogram_bad_range": lambda: tf.histogram_fixed_width([1.0, 2.0], [2.0, 1.0]),
        "histogram_nbins": lambda: tf.histogram_fixed_width([1.0, 2.0], [0.0, 1.0], nbins=0),
        "confusion_negative": lambda: tf.confusion_matrix(tf.placeholder_with_default([0, -1], None), [0, 1]),
        "confusion_out_of_bound": lambda: tf.confusion_matrix(tf.placeholder_with_default([0, 3], None), [0, 1],
                                                              num_classes=3),
        "bitwise_float": lambda: tf.bitwise.bitwise_and(c([1.0]), c([2.0])),
        "xlogy_int": lambda: tf.math.xlogy(c([1]), c([2])),
        "truncatemod_zero": lambda: tf.truncatemod(c([1, 2]), tf.placeholder_with_default([1, 0], None)),
        "cross_inner_dim": lambda: tf.cross(c([[1.0, 2.0]]), c([[1.0, 2.0]])),
        "cross_int_bool": lambda: tf.cross(c([True, False, True]), c([True, False, True])),
        "lgamma_int": lambda: tf.lgamma(c([1, 2])),
        "polygamma_half": lambda: tf.polygamma(c([1.0], tf.float16), c([1.0], tf.float16)),
        "cumulative_logsumexp_int": lambda: tf.math.cumulative_logsumexp(c([1, 2])),
        "assert_fails": lambda: tf.Assert(tf.placeholder_with_default(False, []),
                                          ["x is", c([1, 2, 3, 4]), c(2.5), c([[1.5, 2], [3, 4]])], summarize=3),
        "assert_summarize": lambda: tf.Assert(tf.placeholder_with_default(False, []),
                                              [c(np.arange(12).reshape(3, 4)), c([True, False]), c(1 / 3),
                                               c(np.float64(1 / 3)), c(np.arange(5, dtype=np.int64))], summarize=5),
        "assert_condition_dtype": lambda: tf.Assert(c(1), ["x"]),
        "check_numerics_nan": lambda: tf.check_numerics(tf.placeholder_with_default([1.0, float("nan")], None),
                                                        "bad x"),
        "check_numerics_inf": lambda: tf.check_numerics(tf.placeholder_with_default([1.0, float("inf")], None), "m"),
        "check_numerics_both": lambda: tf.check_numerics(tf.placeholder_with_default(
            [float("-inf"), float("nan")], None), "both"),
        "check_numerics_int": lambda: tf.check_numerics(c([1]), "m"),
        "verify_finite": lambda: tf.verify_tensor_all_finite(tf.placeholder_with_default([float("inf")], None),
                                                             "not finite"),
        "ensure_shape_static": lambda: tf.ensure_shape(c([1, 2, 3]), [2]),
        "ensure_shape_runtime": lambda: tf.ensure_shape(tf.placeholder_with_default([1, 2, 3], None), [2]),
        "py_func_dtype": lambda: tf.py_func(lambda: np.float64(1.0), [], tf.float32),
        "py_func_count": lambda: tf.py_func(lambda: (1, 2), [], [tf.int64]),
        "py_func_raises": lambda: tf.py_func(lambda: int("x"), [], tf.int64),
        "py_func_stop_iteration": lambda: tf.py_func(lambda: next(iter([])), [], tf.int64),
        "custom_gradient_new_variable": lambda: tf.custom_gradient(
            lambda x: (x * tf.get_variable("v", [], initializer=tf.zeros_initializer()), lambda dy: dy))(c(1.0)),
        "custom_gradient_needs_variables": lambda: tf.custom_gradient(
            lambda x: (x * tf.Variable(1.0), lambda dy: dy))(c(1.0)),
        "template_new_trainable": lambda: _template_twice(tf),
        "inverse_singular": lambda: tf.matrix_inverse(tf.placeholder_with_default([[1.0, 2.0], [2.0, 4.0]], None)),
        "inverse_not_square": lambda: tf.matrix_inverse(tf.zeros([2, 3])),
        "inverse_int": lambda: tf.matrix_inverse(c([[1, 0], [0, 1]])),
        "determinant_not_square": lambda: tf.matrix_determinant(tf.zeros([3, 2])),
        "solve_rows": lambda: tf.matrix_solve(tf.eye(3), tf.zeros([2, 1])),
        "solve_singular": lambda: tf.matrix_solve(tf.placeholder_with_default([[1.0, 1.0], [1.0, 1.0]], None),
                                                  [[1.0], [2.0]]),
        "triangular_singular": lambda: tf.matrix_triangular_solve(
            tf.placeholder_with_default([[1.0, 0.0], [1.0, 0.0]], None), [[1.0], [2.0]]),
        "cholesky_not_pd": lambda: tf.cholesky(tf.placeholder_with_default([[1.0, 2.0], [2.0, 1.0]], None)),
        "band_part_too_wide": lambda: tf.matrix_band_part(tf.placeholder_with_default(tf.zeros([2, 2]), None), 3, 0),
        "band_part_rank": lambda: tf.matrix_band_part(c([1.0, 2.0]), 0, 0),
        "set_diag_shape": lambda: tf.matrix_set_diag(tf.placeholder_with_default(tf.zeros([3, 3]), None),
                                                     tf.placeholder_with_default([1.0, 2.0], None)),
        "diag_part_odd_rank": lambda: tf.diag_part(tf.zeros([2, 3, 2])),
        "svd_int": lambda: tf.svd(c([[1, 2], [3, 4]])),
        "eigh_not_square": lambda: tf.self_adjoint_eig(tf.zeros([2, 3])),
        "solve_ls_rows": lambda: tf.matrix_solve_ls(tf.zeros([3, 2]), tf.zeros([2, 1])),
        "stateless_seed_rank": lambda: tf.random.stateless_uniform([2], 3),
        "stateless_seed_size": lambda: tf.random.stateless_normal([2], [1, 2, 3]),
        "stateless_seed_runtime": lambda: tf.random.stateless_uniform([2], tf.placeholder_with_default(
            tf.constant([1, 2, 3], tf.int64), None)),
        "stateless_int_no_maxval": lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32),
        "random_gamma_int": lambda: tf.random_gamma([2], [1, 2], dtype=tf.int32),
        "assert_equal_static": lambda: tf.assert_equal(c([1, 2]), c([1, 3]), message="mismatch"),
        "assert_equal_run": lambda: tf.assert_equal(tf.placeholder_with_default([1, 2], None), c([1, 3])),
        "assert_less_run": lambda: tf.debugging.assert_less(tf.placeholder_with_default([1.0, 5.0], None), 2.0,
                                                            summarize=5),
        "assert_greater_equal_run": lambda: tf.assert_greater_equal(tf.placeholder_with_default([1, 5], None), 2,
                                                                    message="too small"),
        "assert_none_equal_static": lambda: tf.assert_none_equal(c([1, 2]), c([3, 2])),
        "assert_positive_run": lambda: tf.assert_positive(tf.placeholder_with_default([1.0, -2.0], None),
                                                          message="need > 0"),
        "assert_negative_static": lambda: tf.assert_negative(c([-1, 0])),
        "assert_non_positive_run": lambda: tf.debugging.assert_non_positive(tf.placeholder_with_default([3], None)),
        "assert_near_run": lambda: tf.assert_near(tf.placeholder_with_default([1.0, 2.0], None), c([1.0, 2.5]),
                                                  atol=0.1),
        "assert_rank_static": lambda: tf.assert_rank(c([[1, 2]]), 1, message="rank"),
        "assert_rank_run": lambda: tf.assert_rank(tf.placeholder_with_default([1.0], None), 2),
        "assert_rank_at_least_static": lambda: tf.assert_rank_at_least(c([1, 2]), 2),
        "assert_rank_in_static": lambda: tf.assert_rank_in(c([1, 2]), [0, 2]),
        "assert_integer": lambda: tf.assert_integer(c([1.0]), message="ints"),
        "assert_type": lambda: tf.assert_type(c([1.0]), tf.int32),
        "assert_scalar": lambda: tf.assert_scalar(c([1.0])),
        "assert_same_float_dtype": lambda: tf.assert_same_float_dtype([c([1.0]), c([1.0], tf.float64)]),
        "assert_same_float_dtype_int": lambda: tf.assert_same_float_dtype([c([1])]),
        "assert_proper_iterable": lambda: tf.assert_proper_iterable(np.zeros(2)),
        "assert_rank_ok": lambda: [tf.assert_rank(c([[1]]), 2), tf.assert_equal(c(1), c(1)),
                                   tf.assert_positive(tf.placeholder_with_default([1.0], None))],
        "complex_mixed": lambda: tf.complex(c([1.0]), c([1.0], tf.float64)),
        "complex_int": lambda: tf.complex(c([1]), c([2])),
        "conj_string": lambda: tf.conj(c(["a"])),
        "repeat_mismatch": lambda: tf.repeat(tf.zeros([2, 3]), [1, 2, 3], axis=0),
        "ensure_shape_rank": lambda: tf.ensure_shape(c([[1, 2]]), [None]),
    }
