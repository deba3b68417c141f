"""Finite-difference checks of the new gradients (float64; LRN, which TF keeps to float32 and below, through
its numpy kernels, which compute in float64)."""
from types import SimpleNamespace

import numpy as np

import edgelite as tf
from edgelite.nn import lrn_ops

from sdk_core.gradcheck import check_gradients


def test_softsign_gradient():
    rng = np.random.default_rng(0)
    check_gradients(lambda x: tf.nn.softsign(x), [rng.uniform(-3, 3, (3, 4))], rng)


def test_swish_gradient_in_features_and_beta():
    rng = np.random.default_rng(1)
    check_gradients(lambda x, b: tf.nn.swish(x, b), [rng.uniform(-3, 3, (2, 5)), np.array(1.3)], rng)


def test_weighted_moments_and_log_poisson_gradients():
    rng = np.random.default_rng(2)
    check_gradients(lambda x, w: list(tf.nn.weighted_moments(x, [0], w)),
                    [rng.normal(size=(4, 3)), rng.uniform(0.5, 2, (4, 3))], rng)
    check_gradients(lambda t, x: tf.nn.log_poisson_loss(t, x, compute_full_loss=True),
                    [rng.uniform(0.5, 4, (3, 3)), rng.normal(size=(3, 3))], rng)


def test_lrn_grad_kernel_matches_finite_differences():
    rng = np.random.default_rng(3)
    ctx = SimpleNamespace(attrs={"depth_radius": 2, "bias": 0.7, "alpha": 0.4, "beta": 0.75})
    x = rng.normal(size=(1, 2, 2, 7))
    dy = rng.normal(size=x.shape)
    analytic = lrn_ops._lrn_grad_kernel(ctx, dy, x, lrn_ops._lrn_kernel(ctx, x))
    eps = 1e-6
    for _ in range(4):
        v = rng.normal(size=x.shape)
        numeric = np.sum(dy * (lrn_ops._lrn_kernel(ctx, x + eps * v) - lrn_ops._lrn_kernel(ctx, x - eps * v))) \
            / (2 * eps)
        np.testing.assert_allclose(np.sum(analytic * v), numeric, rtol=1e-6)


def test_conv3d_and_transpose_gradients():
    rng = np.random.default_rng(4)
    check_gradients(lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], "SAME", dilations=[1, 1, 2, 1, 1]),
                    [rng.normal(size=(1, 4, 5, 3, 2)), rng.normal(size=(2, 2, 2, 2, 3))], rng)
    check_gradients(lambda x, w: tf.nn.conv3d_transpose(x, w, [1, 4, 3, 3, 2], [1, 2, 1, 1, 1], "VALID"),
                    [rng.normal(size=(1, 2, 2, 2, 3)), rng.normal(size=(2, 2, 2, 2, 3))], rng)


def test_conv3d_and_pool3d_channels_first_match_channels_last():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 4, 5, 3, 2)).astype(np.float32)
    w = rng.normal(size=(2, 3, 2, 2, 3)).astype(np.float32)
    first = (0, 4, 1, 2, 3)
    with tf.Graph().as_default():
        last = [tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"), tf.nn.max_pool3d(x, 2, [1, 2, 1], "SAME"),
                tf.nn.avg_pool3d(x, [2, 3, 2], 1, "VALID")]
        xf = np.transpose(x, first)
        chan_first = [tf.nn.conv3d(xf, w, [1, 1, 1, 2, 1], "SAME", data_format="NCDHW"),
                      tf.nn.max_pool3d(xf, 2, [1, 2, 1], "SAME", data_format="NCDHW"),
                      tf.nn.avg_pool3d(xf, [2, 3, 2], 1, "VALID", data_format="NCDHW")]
        for a, b in zip(last, chan_first):
            assert np.transpose(np.zeros(a.shape.as_list()), first).shape == tuple(b.shape.as_list())
        with tf.Session() as sess:
            got_last, got_first = sess.run([last, chan_first])
    for a, b in zip(got_last, got_first):
        np.testing.assert_allclose(np.transpose(a, first), b, rtol=1e-5, atol=1e-6)


def test_morphology_and_argmax_pool_gradients():
    rng = np.random.default_rng(6)
    check_gradients(lambda x, w: tf.nn.dilation2d(x, w, [1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
                    [rng.normal(size=(1, 5, 6, 2)), rng.normal(size=(2, 2, 2))], rng)
    check_gradients(lambda x, w: tf.nn.erosion2d(x, w, [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
                    [rng.normal(size=(1, 4, 4, 2)), rng.normal(size=(2, 3, 2))], rng)
    check_gradients(lambda x: tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 1, 2, 1], "SAME").output,
                    [rng.normal(size=(2, 4, 5, 2))], rng)


def test_argmax_output_dtype():
    with tf.Graph().as_default():
        out = tf.nn.max_pool_with_argmax(np.zeros((1, 4, 4, 1), np.float32), 2, 2, "SAME", output_dtype=tf.int32)
        assert out.argmax.dtype == tf.int32 and out.output.shape.as_list() == [1, 2, 2, 1]


def test_approx_min_k_is_exact_and_differentiable():
    """TF's CPU kernel covers only approx_max_k over the last dimension; edgelite is exact everywhere."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(5, 3, 2)).astype(np.float32)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        values, indices = tf.nn.approx_min_k(xt, 2, reduction_dimension=0)
        g = tf.gradients(values, xt, grad_ys=np.ones((2, 3, 2), np.float32))[0]
        with tf.Session() as sess:
            v, i, dx = sess.run([values, indices, g])
    np.testing.assert_array_equal(v, np.sort(x, axis=0)[:2])
    np.testing.assert_array_equal(i, np.argsort(x, axis=0)[:2])
    np.testing.assert_array_equal(dx, (x <= np.sort(x, axis=0)[1]).astype(np.float32))


def test_top_k_index_type_and_positional_name():
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 3.0, 2.0]])
        wide = tf.nn.top_k(x, 2, True, tf.int64)
        named = tf.nn.top_k(x, 1, True, tf.int32, "best")
        assert wide.indices.dtype == tf.int64 and named.values.op.name == "best"
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(wide.indices), [[1, 2]])


def test_sampled_losses_gradients_with_fixed_samples():
    rng = np.random.default_rng(8)
    labels = np.array([[1, 3], [0, 0], [5, 2]], np.int64)
    sampled = (np.array([2, 4, 1], np.int64), np.array([[0.5, 0.4], [0.2, 0.2], [0.3, 0.6]]),
               np.array([0.3, 0.7, 0.5]))
    for loss in (tf.nn.nce_loss, tf.nn.sampled_softmax_loss):
        check_gradients(lambda w, b, x, loss=loss: loss(w, b, labels, x, 3, 6, num_true=2,
                                                        sampled_values=[tf.constant(v) for v in sampled],
                                                        remove_accidental_hits=True),
                        [rng.normal(size=(6, 4)), rng.normal(size=6), rng.normal(size=(3, 4))], rng)


def test_stateless_dropout_depends_only_on_the_seed():
    x = np.ones((50, 40), np.float32)
    with tf.Graph().as_default():
        a = tf.nn.experimental.stateless_dropout(x, 0.3, seed=[4, 7])
        b = tf.nn.experimental.stateless_dropout(x, 0.3, seed=[4, 7])
        c = tf.nn.experimental.stateless_dropout(x, 0.3, seed=[4, 8])
        with tf.Session() as sess:
            ra, rb, rc, ra2 = sess.run([a, b, c, a])
    np.testing.assert_array_equal(ra, rb)
    np.testing.assert_array_equal(ra, ra2)
    assert not np.array_equal(ra, rc)
    assert set(np.unique(ra).tolist()) <= {0.0, np.float32(1 / 0.7)}
    assert abs(float(np.mean(ra == 0)) - 0.3) < 0.05
