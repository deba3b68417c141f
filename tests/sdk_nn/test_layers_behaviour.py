"""tf.layers behaviour beyond the TensorFlow recording: reuse, training switches, dynamic shapes, errors."""
import numpy as np
import pytest

import edgelite as tf


def _moving(name):
    return [v for v in tf.global_variables() if v.name.endswith(name + ":0")][0]


@pytest.mark.parametrize("dtype,shape", [(tf.float32, [None, 2, 2, 3]), (tf.float64, [None, 3])])
def test_batch_norm_training_switch_and_moving_averages(dtype, shape):
    rng = np.random.default_rng(0)
    xv = rng.standard_normal([5] + shape[1:]) + 3.0
    with tf.Graph().as_default():
        x = tf.placeholder(dtype, shape)
        training = tf.placeholder_with_default(False, [])
        y = tf.layers.batch_normalization(x, training=training, momentum=0.75, epsilon=1e-3)
        updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        assert len(updates) == 2
        mean, var = _moving("moving_mean"), _moving("moving_variance")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            inferred = sess.run([y] + updates, {x: xv})[0]
            assert np.allclose(sess.run(mean), 0) and np.allclose(sess.run(var), 1)
            np.testing.assert_allclose(inferred, xv / np.sqrt(1 + 1e-3), rtol=1e-5)
            trained = sess.run([y] + updates, {x: xv, training: True})[0]
            axes = tuple(range(xv.ndim - 1))
            mu, sigma2 = xv.mean(axes), xv.var(axes)
            np.testing.assert_allclose(trained, (xv - mu) / np.sqrt(sigma2 + 1e-3), rtol=1e-4, atol=1e-5)
            n = xv.size / xv.shape[-1]
            # the fused (4-D float32) path feeds the unbiased batch variance to the average, as TF does
            batch_var = sigma2 * n / (n - 1) if xv.ndim == 4 else sigma2
            np.testing.assert_allclose(sess.run(mean), 0.25 * mu, rtol=1e-5)
            np.testing.assert_allclose(sess.run(var), 0.75 + 0.25 * batch_var, rtol=1e-5)


def test_dropout_layer_follows_the_training_tensor():
    with tf.Graph().as_default():
        training = tf.placeholder_with_default(False, [])
        y = tf.layers.dropout(tf.ones([200, 10]), rate=0.4, training=training)
        with tf.Session() as sess:
            assert (sess.run(y) == 1).all()
            dropped = sess.run(y, {training: True})
    assert 0.3 < np.mean(dropped == 0) < 0.5
    np.testing.assert_allclose(dropped[dropped != 0], 1 / 0.6)


def test_layer_object_called_twice_shares_variables():
    with tf.Graph().as_default():
        layer = tf.layers.Dense(3, name="shared")
        a = layer(tf.ones([2, 4]))
        b = layer(tf.zeros([5, 4]))
        assert [v.name for v in tf.global_variables()] == ["shared/kernel:0", "shared/bias:0"]
        assert a.op.name == "shared/BiasAdd" and b.op.name == "shared/BiasAdd_1"
        assert layer.trainable_weights == [layer.kernel, layer.bias]


def test_reuse_through_an_enclosing_variable_scope():
    with tf.Graph().as_default():
        x = tf.ones([2, 4])
        with tf.variable_scope("model"):
            tf.layers.dense(x, 3, name="fc")
        with tf.variable_scope("model", reuse=True):
            tf.layers.dense(x, 3, name="fc")
        assert [v.name for v in tf.global_variables()] == ["model/fc/kernel:0", "model/fc/bias:0"]


def test_frozen_layer_variables_are_not_trainable():
    with tf.Graph().as_default():
        tf.layers.conv2d(tf.ones([1, 4, 4, 1]), 2, 3, trainable=False)
        assert tf.trainable_variables() == []
        assert [v.name for v in tf.global_variables()] == ["conv2d/kernel:0", "conv2d/bias:0"]


def test_default_kernel_initializer_is_glorot_uniform():
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        layer = tf.layers.Dense(300)
        layer(tf.ones([1, 200]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            k, b = sess.run([layer.kernel, layer.bias])
    limit = np.sqrt(6 / (200 + 300))
    assert np.abs(k).max() <= limit and np.abs(k).max() > 0.95 * limit
    assert abs(k.std() - limit / np.sqrt(3)) < 0.01 and (b == 0).all()


def test_dynamic_spatial_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None, None, 2])
        up = tf.layers.conv2d_transpose(x, 3, 3, strides=2, padding="same")
        flat = tf.layers.flatten(up)
        assert up.shape.as_list() == [None, None, None, 3]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            u, f = sess.run([up, flat], {x: np.ones((2, 3, 5, 2), np.float32)})
    assert u.shape == (2, 6, 10, 3) and f.shape == (2, 180)


def test_dense_needs_a_known_last_dimension():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="last dimension of the inputs to `Dense` should be defined"):
            tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 3)


def test_conv_layer_argument_errors():
    with tf.Graph().as_default():
        x = tf.ones([1, 4, 4, 1])
        with pytest.raises(ValueError, match="padding"):
            tf.layers.conv2d(x, 2, 3, padding="full")
        with pytest.raises(ValueError, match="kernel_size"):
            tf.layers.conv2d(x, 2, (3, 3, 3))
        with pytest.raises(ValueError, match="expected min_ndim=4"):
            tf.layers.conv2d(tf.ones([4, 4]), 2, 3)


def test_activity_regularizer_adds_a_batch_mean_loss():
    with tf.Graph().as_default():
        y = tf.layers.dense(tf.ones([4, 2]), 3, kernel_initializer=tf.ones_initializer(),
                            activity_regularizer=lambda t: tf.reduce_sum(t))
        (loss,) = tf.losses.get_regularization_losses()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(loss) == pytest.approx(4 * 3 * 2 / 4)
            assert sess.run(y).shape == (4, 3)
