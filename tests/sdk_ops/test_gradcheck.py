"""Finite-difference checks (float64, tests/sdk_core/gradcheck.py) of the gradients of the tf1 core ops."""
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




def _u(rng, lo, hi, *shape):
    return rng.uniform(lo, hi, size=shape)


# name, build(*inputs), inputs(rng)
MULTI_CASES = [
    ("einsum_matmul", lambda a, b: tf.einsum("ij,jk->ik", a, b), lambda r: [_u(r, -1, 1, 2, 3), _u(r, -1, 1, 3, 4)]),
    ("einsum_reduce_only_here", lambda a, b: tf.einsum("ijk,j->j", a, b),
     lambda r: [_u(r, -1, 1, 2, 3, 4), _u(r, -1, 1, 3)]),
    ("einsum_ellipsis", lambda a, b: tf.einsum("...ij,jk->...ik", a, b),
     lambda r: [_u(r, -1, 1, 2, 2, 3), _u(r, -1, 1, 3, 2)]),
    ("einsum_broadcast_ellipsis", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
     lambda r: [_u(r, -1, 1, 2, 2, 3), _u(r, -1, 1, 1, 3, 2)]),
    ("einsum_three", lambda a, b, c: tf.einsum("ij,jk,k->i", a, b, c),
     lambda r: [_u(r, -1, 1, 2, 3), _u(r, -1, 1, 3, 2), _u(r, -1, 1, 2)]),
    ("roll", lambda x: tf.roll(x, [1, -2], [0, 1]), lambda r: [_u(r, -1, 1, 3, 4)]),
    ("reverse_sequence", lambda x: tf.reverse_sequence(x, [2, 0, 3], seq_axis=1), lambda r: [_u(r, -1, 1, 3, 4)]),
    ("space_to_batch_nd", lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 1], [1, 1]]),
     lambda r: [_u(r, -1, 1, 1, 3, 2, 2)]),
    ("batch_to_space_nd", lambda x: tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 0]]),
     lambda r: [_u(r, -1, 1, 4, 2, 3, 1)]),
    ("depth_to_space", lambda x: tf.depth_to_space(x, 2), lambda r: [_u(r, -1, 1, 1, 2, 2, 8)]),
    ("space_to_depth", lambda x: tf.space_to_depth(x, 2), lambda r: [_u(r, -1, 1, 1, 4, 2, 2)]),
    ("tensor_scatter_update", lambda t, u: tf.tensor_scatter_nd_update(t, [[1], [3]], u),
     lambda r: [_u(r, -1, 1, 5, 2), _u(r, -1, 1, 2, 2)]),
    ("tensor_scatter_add_sub", lambda t, u: tf.tensor_scatter_nd_sub(tf.tensor_scatter_nd_add(t, [[0], [0]], u),
                                                                     [[1], [0]], u),
     lambda r: [_u(r, -1, 1, 3, 2), _u(r, -1, 1, 2, 2)]),
    ("tensor_scatter_min_max", lambda t, u: tf.tensor_scatter_nd_max(tf.tensor_scatter_nd_min(t, [[1], [2]], u),
                                                                     [[0], [2]], u),
     lambda r: [r.permutation(np.linspace(-1, 1, 8)).reshape(4, 2), r.permutation(np.linspace(-0.9, 0.95, 4))
                .reshape(2, 2)]),
    ("cross", lambda a, b: tf.cross(a, b), lambda r: [_u(r, -1, 1, 2, 3), _u(r, -1, 1, 2, 3)]),
    ("cumulative_logsumexp", lambda x: [tf.math.cumulative_logsumexp(x, axis=1),
                                        tf.math.cumulative_logsumexp(x, axis=0, exclusive=True, reverse=True)[:-1]],
     lambda r: [_u(r, -2, 2, 3, 4)]),
    ("xlogy_family", lambda x, y: [tf.math.xlogy(x, y), tf.math.xdivy(x, y), tf.math.xlog1py(x, y)],
     lambda r: [_u(r, -2, 2, 2, 3), _u(r, 0.5, 2, 3)]),
    ("multiply_no_nan", lambda x, y: tf.math.multiply_no_nan(x, y), lambda r: [_u(r, -2, 2, 2, 3), _u(r, 0.5, 2, 3)]),
    ("inverse_hyperbolic", lambda a, b, c: [tf.acosh(a), tf.asinh(b), tf.atanh(c)],
     lambda r: [_u(r, 1.2, 3, 4), _u(r, -2, 2, 4), _u(r, -0.8, 0.8, 4)]),
    ("lgamma_digamma_erfc", lambda x: [tf.lgamma(x), tf.digamma(x), tf.erfc(x)], lambda r: [_u(r, 0.3, 4, 5)]),
    ("erfinv_ndtri", lambda x: [tf.math.erfinv(x), tf.math.ndtri(0.5 * x + 0.5), tf.math.erfcinv(x + 1)],
     lambda r: [_u(r, -0.9, 0.9, 5)]),
    ("bessel", lambda x: [tf.math.bessel_i0(x), tf.math.bessel_i0e(x), tf.math.bessel_i1(x), tf.math.bessel_i1e(x)],
     lambda r: [_u(r, 0.2, 3, 6) * r.choice([-1, 1], 6)]),
    ("igamma", lambda a, x: [tf.igamma(a, x), tf.igammac(a, x)], lambda r: [_u(r, 0.5, 3, 4), _u(r, 0.2, 4, 4)]),
    ("betainc_x", lambda x: tf.betainc(tf.constant([0.5, 1.5, 2.0], tf.float64), tf.constant([2.0, 0.7, 3.0],
                                                                                             tf.float64), x),
     lambda r: [_u(r, 0.1, 0.9, 3)]),
    ("zeta_q", lambda q: tf.zeta(tf.constant([1.5, 2.0, 3.5], tf.float64), q), lambda r: [_u(r, 0.5, 3, 3)]),
    ("polygamma_x", lambda x: tf.polygamma(tf.constant([0.0, 1.0, 2.0], tf.float64), x),
     lambda r: [_u(r, 0.5, 3, 3)]),
    ("lbeta", lambda x: tf.lbeta(x), lambda r: [_u(r, 0.5, 3, 2, 3)]),
    ("band_part_set_diag", lambda x, d: [tf.matrix_band_part(x, 1, 0), tf.matrix_set_diag(x, d),
                                         tf.linalg.set_diag(x, d[..., :2], k=-1)],
     lambda r: [_u(r, -1, 1, 2, 3, 3), _u(r, -1, 1, 2, 3)]),
    ("tensor_diag_trace", lambda x: [tf.diag(x), tf.diag_part(tf.diag(x) * 2.0), tf.trace(tf.diag(x))],
     lambda r: [_u(r, -1, 1, 3)]),
    ("inverse", lambda x: [tf.matrix_inverse(x), tf.linalg.inv(x, adjoint=True)],
     lambda r: [_u(r, -1, 1, 2, 3, 3) + 3 * np.eye(3)]),
    ("determinants", lambda x: [tf.matrix_determinant(x), tf.linalg.slogdet(x)[1]],
     lambda r: [_u(r, -1, 1, 2, 3, 3) + 2 * np.eye(3)]),
    ("solve", lambda a, b: [tf.matrix_solve(a, b), tf.linalg.solve(a, b, adjoint=True)],
     lambda r: [_u(r, -1, 1, 3, 3) + 3 * np.eye(3), _u(r, -1, 1, 3, 2)]),
    ("triangular_solve", lambda a, b: [tf.matrix_triangular_solve(a, b),
                                       tf.matrix_triangular_solve(a, b, lower=False, adjoint=True)],
     lambda r: [_u(r, -1, 1, 2, 3, 3) + 3 * np.eye(3), _u(r, -1, 1, 2, 3, 2)]),
    ("triangular_solve_broadcast", lambda a, b: tf.matrix_triangular_solve(a, b),
     lambda r: [_u(r, -1, 1, 3, 3) + 3 * np.eye(3), _u(r, -1, 1, 2, 3, 1)]),
    ("solve_ls", lambda a, b: [tf.matrix_solve_ls(a, b), tf.matrix_solve_ls(a, b, l2_regularizer=0.3)],
     lambda r: [_u(r, -1, 1, 4, 3), _u(r, -1, 1, 4, 2)]),
    ("solve_ls_wide", lambda a, b: tf.matrix_solve_ls(a, b, l2_regularizer=0.2),
     lambda r: [_u(r, -1, 1, 2, 4), _u(r, -1, 1, 2, 3)]),
    ("cholesky_logdet", lambda x: [tf.cholesky(tf.matmul(x, x, transpose_b=True) + 3 * tf.eye(3, dtype=tf.float64)),
                                   tf.linalg.logdet(tf.matmul(x, x, transpose_b=True) + tf.eye(3, dtype=tf.float64))],
     lambda r: [_u(r, -1, 1, 3, 3)]),
    ("svd", lambda x: [tf.svd(x)[0], tf.matmul(tf.svd(x)[1] * tf.svd(x)[0][..., None, :], tf.svd(x)[2],
                                               adjoint_b=True), tf.abs(tf.svd(x)[1])],
     lambda r: [_u(r, -1, 1, 2, 4, 3)]),
    ("svd_wide_values", lambda x: [tf.svd(x, compute_uv=False), tf.abs(tf.svd(x)[2])],
     lambda r: [_u(r, -1, 1, 3, 5)]),
    ("eigh", lambda x: [tf.self_adjoint_eig(x + tf.linalg.adjoint(x))[0],
                        tf.abs(tf.self_adjoint_eig(x + tf.linalg.adjoint(x))[1]), tf.self_adjoint_eigvals(x)],
     lambda r: [_u(r, -1, 1, 3, 3)]),
    ("complex_parts", lambda a, b: [tf.real(tf.complex(a, b) * tf.complex(b, a)), tf.angle(tf.complex(a, b)),
                                    tf.imag(tf.conj(tf.complex(a, b)) * tf.complex(a, a))],
     lambda r: [_u(r, 0.5, 2, 2, 3), _u(r, -1, 1, 3)]),
    ("repeat", lambda x: [tf.repeat(x, 2), tf.repeat(x, [2, 0, 1], axis=1)], lambda r: [_u(r, -1, 1, 2, 3)]),
    ("print_check_numerics", lambda x: tf.check_numerics(tf.Print(x, [x]), "m") * tf.ensure_shape(x, [2, 2]),
     lambda r: [_u(r, -1, 1, 2, 2)]),
]


@pytest.mark.parametrize("name,build,shape", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradient_matches_finite_differences(name, build, shape):
    rng = np.random.default_rng(len(name))
    # distinct values keep max/min/sort away from ties, where the function has no derivative
    x = rng.permutation(np.linspace(0.5, 2.5, int(np.prod(shape)))).reshape(shape)
    check_gradients(build, [x], rng)


@pytest.mark.parametrize("name,build,make", MULTI_CASES, ids=[c[0] for c in MULTI_CASES])
def test_gradients_of_several_inputs(name, build, make):
    rng = np.random.default_rng(len(name) + 100)
    check_gradients(build, make(rng), rng)
