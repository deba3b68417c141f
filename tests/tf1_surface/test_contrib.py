"""edgelite.contrib (tf.contrib of TF 1.x): TF-recorded results of the contrib_cases, core identities, and the
variance-scaling initializers against the formulas of TF 1.15's tf.contrib.layers documentation."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import contrib_cases
from .test_surface_fixtures import _expected

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "contrib_fixtures.json").read_text())


@pytest.mark.parametrize("case", contrib_cases.CASES, ids=lambda c: c.__name__)
def test_matches_tensorflow(case):
    with tf.Graph().as_default():
        got = case(tf, tf.contrib)
    want = FIXTURES[case.__name__]
    assert sorted(got) == sorted(want)
    for key, entry in want.items():
        expected = _expected(entry)
        if isinstance(expected, np.ndarray):
            np.testing.assert_allclose(np.asarray(got[key]), expected, rtol=2e-5, atol=2e-5, err_msg=key)
            assert np.asarray(got[key]).shape == expected.shape, key
        else:
            assert got[key] == expected, key


def test_contrib_rnn_is_core():
    """TF 1.15's contrib.rnn re-exported the core cells and drivers: the very same objects."""
    for name in ("BasicLSTMCell", "BasicRNNCell", "GRUCell", "LSTMCell", "MultiRNNCell", "DropoutWrapper",
                 "LSTMStateTuple", "RNNCell"):
        assert getattr(tf.contrib.rnn, name) is getattr(tf.nn.rnn_cell, name)
    assert tf.contrib.rnn.static_rnn is tf.nn.static_rnn
    assert tf.contrib.rnn.static_bidirectional_rnn is tf.nn.static_bidirectional_rnn


def test_contrib_regularizers_penalty():
    """l2_regularizer(scale)(w) = scale * sum(w^2) / 2, l1 = scale * sum|w| (contrib.layers docs)."""
    w_val = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    with tf.Graph().as_default():
        w = tf.constant(w_val)
        l2, l1 = tf.contrib.layers.l2_regularizer(0.1)(w), tf.contrib.layers.l1_regularizer(0.5)(w)
        with tf.Session() as sess:
            got_l2, got_l1 = sess.run([l2, l1])
    np.testing.assert_allclose(got_l2, 0.1 * np.sum(w_val ** 2) / 2, rtol=1e-6)
    np.testing.assert_allclose(got_l1, 0.5 * np.sum(np.abs(w_val)), rtol=1e-6)


def _sample(initializer, shape):
    with tf.Graph().as_default():
        value = initializer(shape)
        with tf.Session() as sess:
            return sess.run(value)


@pytest.mark.parametrize("shape, n", [([300, 500], 400.0), ([3, 3, 40, 60], 9 * 50.0)])
def test_xavier_uniform_limit(shape, n):
    """xavier_initializer(): uniform in +-sqrt(3 / n), n = (fan_in + fan_out) / 2 with receptive fields counted."""
    values = _sample(tf.contrib.layers.xavier_initializer(seed=3), shape)
    limit = math.sqrt(3.0 / n)
    assert values.dtype == np.float32 and list(values.shape) == shape
    assert np.abs(values).max() <= limit and np.abs(values).max() > 0.99 * limit
    assert abs(values.std() - limit / math.sqrt(3.0)) < 0.02 * limit


def test_variance_scaling_truncated_normal():
    """uniform=False draws a normal of stddev sqrt(1.3 factor / n) truncated at two stddevs (FAN_IN: n = fan_in)."""
    values = _sample(tf.contrib.layers.variance_scaling_initializer(factor=2.0, seed=5), [400, 300])
    stddev = math.sqrt(1.3 * 2.0 / 400.0)
    assert np.abs(values).max() <= 2.0 * stddev
    # a normal truncated at +-2 sigma keeps 0.8796 of its standard deviation
    assert abs(values.std() - 0.87962566 * stddev) < 0.02 * stddev
    xavier_normal = _sample(tf.contrib.layers.xavier_initializer(uniform=False, seed=5), [400, 300])
    assert abs(xavier_normal.std() - 0.87962566 * math.sqrt(1.3 / 350.0)) < 0.02 * math.sqrt(1.3 / 350.0)


def test_initializer_errors():
    """contrib's own error types and texts for an integer dtype and an unknown mode."""
    with pytest.raises(TypeError, match="Cannot create initializer for non-floating point type."):
        tf.contrib.layers.xavier_initializer(dtype=tf.int32)
    with pytest.raises(TypeError, match=r"Unknown mode FAN_SUM \[FAN_IN, FAN_OUT, FAN_AVG\]"):
        tf.contrib.layers.variance_scaling_initializer(mode="FAN_SUM")


def test_flatten_outputs_collections():
    with tf.Graph().as_default():
        out = tf.contrib.layers.flatten(tf.zeros([2, 3, 4]), outputs_collections="outs")
        assert tf.get_collection("outs") == [out]
        assert out.name.startswith("Flatten/")


def test_arg_scope_defaults_nesting_and_reuse():
    """arg_scope supplies keyword defaults to decorated functions; explicit arguments win; inner scopes add to
    outer ones; the yielded dict re-enters a scope; undecorated functions are refused."""
    fc, framework = tf.contrib.layers.fully_connected, tf.contrib.framework
    with tf.Graph().as_default():
        x = tf.zeros([2, 3])
        with framework.arg_scope([fc], activation_fn=None, scope="a") as outer:
            assert framework.arg_scoped_arguments(fc) == ["activation_fn", "scope"]
            first = fc(x, 4)
            with framework.arg_scope([fc], scope="b"):
                inner = fc(x, 4)
            explicit = fc(x, 4, scope="c", activation_fn=tf.nn.relu)
        with framework.arg_scope(outer):
            reused = fc(x, 4, reuse=True)
        plain = fc(x, 4)
    assert first.op.type == "AddV2" and first.name.startswith("a/")
    assert inner.op.type == "AddV2" and inner.name.startswith("b/")
    assert explicit.op.type == "Relu" and explicit.name.startswith("c/")
    assert reused.name.startswith("a_1/") and plain.op.type == "Relu"
    assert framework.has_arg_scope(fc) and not framework.has_arg_scope(tf.layers.dense)
    with pytest.raises(ValueError, match="is not decorated with @add_arg_scope"):
        with framework.arg_scope([tf.layers.dense], units=3):
            pass
    with pytest.raises(TypeError, match="list_ops_or_scope must either be a list/tuple or reused scope"):
        with framework.arg_scope(fc, units=3):
            pass


def test_sequence_loss_argument_errors():
    logits, targets, weights = tf.zeros([2, 3, 4]), tf.zeros([2, 3], tf.int32), tf.ones([2, 3])
    loss = tf.contrib.seq2seq.sequence_loss
    with pytest.raises(ValueError, match=r"Logits must be a \[batch_size x sequence_length x logits\] tensor"):
        loss(tf.zeros([6, 4]), targets, weights)
    with pytest.raises(ValueError, match=r"Targets must be a \[batch_size x sequence_length\] tensor"):
        loss(logits, tf.zeros([6], tf.int32), weights)
    with pytest.raises(ValueError, match="average_across_timesteps and sum_over_timesteps cannot be set"):
        loss(logits, targets, weights, sum_over_timesteps=True)


def test_fully_connected_errors_and_dropout():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="num_outputs type should be one of"):
            tf.contrib.layers.fully_connected(tf.zeros([2, 3]), 4.0)
        with pytest.raises(ValueError, match="The last dimension of the inputs to `Dense` should be defined"):
            tf.contrib.layers.fully_connected(tf.placeholder(tf.float32, [2, None]), 4)
        x_val = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
        x = tf.constant(x_val)
        kept = tf.contrib.layers.dropout(x, 0.5, is_training=False)
        dropped = tf.contrib.layers.dropout(x, 0.5, is_training=True, seed=1)
        with tf.Session() as sess:
            got_kept, got_dropped = sess.run([kept, dropped])
    np.testing.assert_array_equal(got_kept, x_val)
    # kept elements are scaled by 1 / keep_prob
    assert set(np.round(got_dropped[got_dropped != 0] / x_val[got_dropped != 0], 5)) <= {2.0}


def test_batch_norm_arguments():
    """batch_norm: arg_scope-able, TF's data_format error, and eval-only use reads the moving statistics."""
    assert tf.contrib.framework.has_arg_scope(tf.contrib.layers.batch_norm)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="data_format has to be either NCHW or NHWC."):
            tf.contrib.layers.batch_norm(tf.zeros([2, 3]), data_format="NCW")
        out = tf.contrib.layers.batch_norm(tf.constant([[1.0, 2.0], [3.0, 6.0]]), is_training=False)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run(out)
    # moving mean 0 and variance 1 at the start: x / sqrt(1 + epsilon)
    np.testing.assert_allclose(got, np.array([[1.0, 2.0], [3.0, 6.0]]) / np.sqrt(1.001), rtol=1e-6)


def test_conv_pool_and_legacy_loss_errors():
    """TF 1.15's argument errors of conv2d, the 2-D pools and legacy_seq2seq.sequence_loss_by_example."""
    with tf.Graph().as_default():
        image = tf.zeros([1, 4, 4, 2])
        with pytest.raises(ValueError, match="Invalid data_format: 'NCW'"):
            tf.contrib.layers.conv2d(image, 2, 3, data_format="NCW")
        with pytest.raises(ValueError, match="Convolution expects input with rank 4, got 3"):
            tf.contrib.layers.conv2d(tf.zeros([4, 4, 2]), 2, 3)
        with pytest.raises(ValueError, match="data_format has to be either NCHW or NHWC."):
            tf.contrib.layers.max_pool2d(image, 2, data_format="NWC")
        with pytest.raises(ValueError, match="Lengths of logits, weights, and targets must be the same 2, 1, 2."):
            tf.contrib.legacy_seq2seq.sequence_loss_by_example(
                [tf.zeros([2, 3])] * 2, [tf.zeros([2], tf.int32)] * 2, [tf.ones([2])])
        assert tf.contrib.layers.convolution2d is tf.contrib.layers.conv2d
