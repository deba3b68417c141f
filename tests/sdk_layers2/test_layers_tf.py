"""tf.compat.v1.layers 1-D/3-D convolutions and pooling against TensorFlow 2.21 fixtures: outputs, gradients with
respect to the input and every variable, variable names/shapes/trainability, static output shapes, build errors."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import layer_cases

HERE = Path(__file__).resolve().parent / "fixtures"
FACTS = json.loads((HERE / "tf_layers.json").read_text())
ARRAYS = np.load(HERE / "tf_layers.npz")


@pytest.mark.parametrize("name,shape,build", layer_cases.CASES, ids=[c[0] for c in layer_cases.CASES])
def test_layer_matches_tensorflow(name: str, shape: list, build) -> None:
    facts = FACTS["cases"][name]
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape, name="x")
        y = build(tf, x)
        variables = tf.global_variables()
        trainable = set(tf.trainable_variables())
        assert [[v.name, v.shape.as_list(), v in trainable] for v in variables] == facts["variables"]
        assert y.shape.as_list() == facts["output_shape"]
        gy = layer_cases.seeded("gy" + name, y.shape.as_list())
        grads = tf.gradients(y, [x] + variables, grad_ys=gy)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in variables:
                v.load(layer_cases.seeded(name + v.op.name, v.shape.as_list()), sess)
            vals = sess.run([y] + grads, {x: layer_cases.seeded("x" + name, shape)})
    np.testing.assert_allclose(vals[0], ARRAYS[f"{name}/y"], rtol=1e-5, atol=1e-5)
    for i, g in enumerate(vals[1:]):
        np.testing.assert_allclose(g, ARRAYS[f"{name}/grad{i}"], rtol=1e-5, atol=1e-5, err_msg=f"gradient {i}")


def _message_core(message: str) -> str:
    """TF's text without the parts that differ by design: the uniquified layer name and TF1's Dimension() repr."""
    return message.split(" Full shape received")[0].split(" is incompatible")[-1]


@pytest.mark.parametrize("name,shape,build", layer_cases.ERROR_CASES, ids=[c[0] for c in layer_cases.ERROR_CASES])
def test_build_error_matches_tensorflow(name: str, shape: list, build) -> None:
    expected = FACTS["errors"][name]
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape, name="x")
        with pytest.raises(Exception) as info:
            build(tf, x)
    assert type(info.value).__name__ == expected["type"]
    assert _message_core(str(info.value)) == _message_core(expected["message"])


def test_conv1d_reuse_shares_variables() -> None:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [1, 5, 2])
        a = tf.layers.conv1d(x, 3, 2, name="shared")
        b = tf.layers.conv1d(x, 3, 2, name="shared", reuse=True)
        assert [v.name for v in tf.global_variables()] == ["shared/kernel:0", "shared/bias:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            va, vb = sess.run([a, b], {x: layer_cases.seeded("reuse", [1, 5, 2])})
    np.testing.assert_array_equal(va, vb)


def test_channels_first_equals_transposed_channels_last() -> None:
    """channels_first layers compute the channels_last result on transposed data (TF's CPU kernels lack NCW/NCDHW,
    so this is checked against edgelite's own channels_last path, which the fixtures check against TF)."""
    data1, data3 = layer_cases.seeded("cf1", [2, 9, 3]), layer_cases.seeded("cf3", [1, 4, 5, 6, 3])
    builds = [
        (data1, (0, 2, 1), lambda x, f: tf.layers.conv1d(x, 4, 3, padding="causal", data_format=f, name="a")),
        (data1, (0, 2, 1), lambda x, f: tf.layers.separable_conv1d(x, 4, 3, depth_multiplier=2, data_format=f,
                                                                   name="b")),
        (data1, (0, 2, 1), lambda x, f: tf.layers.max_pooling1d(x, 2, 2, data_format=f)),
        (data1, (0, 2, 1), lambda x, f: tf.layers.average_pooling1d(x, 3, 2, padding="same", data_format=f)),
        (data3, (0, 4, 1, 2, 3), lambda x, f: tf.layers.conv3d(x, 2, 2, strides=(1, 2, 1), data_format=f,
                                                               name="c")),
        (data3, (0, 4, 1, 2, 3), lambda x, f: tf.layers.conv3d_transpose(x, 2, 3, strides=2, padding="same",
                                                                         data_format=f, name="d")),
        (data3, (0, 4, 1, 2, 3), lambda x, f: tf.layers.max_pooling3d(x, 2, 2, data_format=f)),
        (data3, (0, 4, 1, 2, 3), lambda x, f: tf.layers.average_pooling3d(x, 2, 1, data_format=f)),
    ]
    for data, perm, build in builds:
        back = tuple(int(i) for i in np.argsort(perm))
        with tf.Graph().as_default():
            last = build(tf.constant(data), "channels_last")
            with tf.variable_scope(tf.get_variable_scope(), reuse=True):
                first = build(tf.constant(data.transpose(perm)), "channels_first")
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                v_last, v_first = sess.run([last, first])
        assert first.shape.as_list() == [last.shape.as_list()[i] for i in perm]
        np.testing.assert_allclose(v_first.transpose(back), v_last, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["conv3d_transpose_valid", "conv3d_transpose_same", "conv1d_causal_dilated",
                                  "separable_conv1d_dm2_same", "average_pooling1d_same"])
def test_unknown_dims_give_the_fixture_values(name: str) -> None:
    """With batch and spatial sizes unknown at build time (output sizes computed at run time) a case gives TF's
    values for the fed shape."""
    shape, build = next((s, b) for n, s, b in layer_cases.CASES if n == name)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None] * (len(shape) - 1) + shape[-1:])
        y = build(tf, x)
        assert y.shape.as_list()[:-1] == [None] * (len(shape) - 1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in tf.global_variables():
                v.load(layer_cases.seeded(name + v.op.name, v.shape.as_list()), sess)
            got = sess.run(y, {x: layer_cases.seeded("x" + name, shape)})
    np.testing.assert_allclose(got, ARRAYS[f"{name}/y"], rtol=1e-5, atol=1e-5)
