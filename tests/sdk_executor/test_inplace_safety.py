"""Elementwise steps may write into a dying intermediate, but never into anything another holder can see:
fetched values (of this or an earlier run), feeds, variables, constants, views and aliases. Arrays here are
64x64 float32 (16 KiB), above the size from which a buffer is reused."""
from __future__ import annotations

import threading

import numpy as np

import edgelite as tf


def _inputs(rng: np.random.Generator, shape: tuple) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def test_fetched_values_survive_later_runs():
    rng = np.random.default_rng(0)
    x = tf.placeholder(tf.float32, [None, 64])
    bv = _inputs(rng, (64,))
    y = tf.nn.relu(tf.nn.bias_add(x * 2.0, tf.constant(bv))) + 1.0
    feeds = [_inputs(rng, (64, 64)) for _ in range(4)]
    with tf.Session() as s:
        got = [s.run(y, {x: f}) for f in feeds]
        again = [s.run(y, {x: f}) for f in feeds]
    for f, g, a in zip(feeds, got, again):
        want = np.maximum(f * np.float32(2) + bv, 0) + np.float32(1)
        np.testing.assert_array_equal(g, want)
        np.testing.assert_array_equal(a, want)
        assert g is not a and not np.shares_memory(g, a)


def test_small_results_are_fresh_arrays():
    """Under the reuse size every result is a new allocation, so small values never alias either."""
    x = tf.placeholder(tf.float32, [4])
    h = tf.nn.relu(x * 2.0)
    with tf.Session() as s:
        first = s.run(h, {x: [1.0, -1.0, 2.0, 0.5]})
        second = s.run(h, {x: [3.0, 3.0, 3.0, 3.0]})
    np.testing.assert_array_equal(first, [2.0, 0.0, 4.0, 1.0])
    np.testing.assert_array_equal(second, [6.0, 6.0, 6.0, 6.0])


def test_fetched_intermediate_is_not_overwritten_by_its_consumer():
    rng = np.random.default_rng(1)
    xv = _inputs(rng, (64, 64))
    x = tf.placeholder(tf.float32, [None, 64])
    h = x - 0.5
    r = tf.nn.relu(h)
    with tf.Session() as s:
        hv, rv = s.run([h, r], {x: xv})
    np.testing.assert_array_equal(hv, xv - np.float32(0.5))
    np.testing.assert_array_equal(rv, np.maximum(xv - np.float32(0.5), 0))
    assert (hv < 0).any()


def test_feeds_variables_and_constants_are_left_alone():
    rng = np.random.default_rng(2)
    xv = _inputs(rng, (64, 64))
    kept = xv.copy()
    cv = _inputs(rng, (64, 64))
    x = tf.placeholder(tf.float32, [64, 64])
    v = tf.Variable(cv)
    c = tf.constant(cv)
    outs = [tf.nn.relu(x), x + 1.0, tf.nn.relu(v), v * 3.0, tf.nn.relu(c), tf.add_n([c, c, x]), tf.nn.relu6(x),
            tf.nn.relu6(v)]
    with tf.Session() as s:
        s.run(v.initializer)
        s.run(outs, {x: xv})
        f = s.make_callable(outs, [x])
        f(xv)
        s.run(outs, {x: xv.tolist()})
        np.testing.assert_array_equal(s.run(v), cv)
        np.testing.assert_array_equal(s.run(c), cv)
    np.testing.assert_array_equal(xv, kept)


def test_views_and_aliases_of_a_dying_value_keep_their_values():
    rng = np.random.default_rng(3)
    xv = _inputs(rng, (64, 64))
    x = tf.placeholder(tf.float32, [64, 64])
    a = x * 2.0
    flat = tf.reshape(a, [-1])
    same = tf.identity(a)
    with tf.control_dependencies([flat, same]):
        out = tf.nn.relu(a) + a
    with tf.Session() as s:
        fv, sv, ov = s.run([flat, same, out], {x: xv})
    a_ref = xv * np.float32(2)
    np.testing.assert_array_equal(fv, a_ref.ravel())
    np.testing.assert_array_equal(sv, a_ref)
    np.testing.assert_array_equal(ov, np.maximum(a_ref, 0) + a_ref)


def test_broadcast_and_operand_order():
    """The dying operand is reused only when the result has its shape; Sub keeps its operand order."""
    rng = np.random.default_rng(4)
    xv, bv = _inputs(rng, (64, 64)), _inputs(rng, (64,))
    x = tf.placeholder(tf.float32, [64, 64])
    bp = tf.placeholder(tf.float32, [64])
    small = bp * 1.5
    big = x * 3.0
    outs = [big - small, (bp * 2.0) - (x * 0.5), tf.add_n([x * 1.0, x * 2.0, x]), tf.maximum(bp + 1.0, x),
            tf.nn.relu6(x * 4.0)]
    with tf.Session() as s:
        got = s.run(outs, {x: xv, bp: bv})
    f32 = np.float32
    np.testing.assert_array_equal(got[0], xv * f32(3) - bv * f32(1.5))
    np.testing.assert_array_equal(got[1], bv * f32(2) - xv * f32(0.5))
    np.testing.assert_array_equal(got[2], xv * f32(1) + xv * f32(2) + xv)
    np.testing.assert_array_equal(got[3], np.maximum(bv + f32(1), xv))
    np.testing.assert_array_equal(got[4], np.clip(xv * f32(4), 0, 6))


def test_concurrent_runs_of_one_plan_do_not_mix_values():
    x = tf.placeholder(tf.float32, [4096])
    y = tf.nn.relu(x * 2.0 - 1.0) + x
    errors: list = []

    def worker(sess: tf.Session, k: int) -> None:
        v = np.full(4096, float(k), np.float32)
        for _ in range(200):
            got = sess.run(y, {x: v})
            if not np.array_equal(got, np.maximum(v * 2 - 1, 0) + v):
                errors.append(k)

    with tf.Session() as s:
        threads = [threading.Thread(target=worker, args=(s, k)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_dying_intermediate_buffer_is_reused():
    """bias-add then relu then sub write one buffer: the result sits where the first intermediate was made."""
    made: list = []

    def fresh(x: np.ndarray) -> np.ndarray:
        out = x * np.float32(2)
        made.append(_address(out))
        return out

    bias = np.linspace(-1, 1, 64, dtype=np.float32)
    x = tf.placeholder(tf.float32, [64, 64])
    h = tf.py_func(fresh, [x], tf.float32)
    h.set_shape([64, 64])
    y = tf.nn.relu(tf.nn.bias_add(h, tf.constant(bias))) - 0.25
    xv = np.linspace(-2, 2, 4096, dtype=np.float32).reshape(64, 64)
    with tf.Session() as s:
        out = s.run(y, {x: xv})
    np.testing.assert_array_equal(out, np.maximum(xv * 2 + bias, 0) - np.float32(0.25))
    assert _address(out) == made[0]


def test_in_place_results_are_bit_identical_to_the_kernels():
    """Special values (nan, ±inf, -0.0) give the same bits whether an op writes in place or through its kernel."""
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 7.0, -3.0, 5.5], np.float32)
    xv = np.resize(special, (64, 64))
    bv = np.resize(special[::-1], 64)
    x = tf.placeholder(tf.float32, [64, 64])
    b = tf.placeholder(tf.float32, [64])
    one = tf.constant(1.0)
    pairs = [
        (tf.nn.relu(x * one), tf.nn.relu(x)),
        (tf.nn.relu6(x * one), tf.nn.relu6(x)),
        (tf.nn.bias_add(x * one, b), tf.nn.bias_add(x, b)),
        ((x * one) - b, x - b),
        (tf.maximum(x * one, b), tf.maximum(x, b)),
        (tf.minimum(b, x * one), tf.minimum(b, x)),
        (tf.add_n([x * one, x, x]), tf.add_n([x, x, x])),
    ]
    with tf.Session() as s:
        got = s.run(pairs, {x: xv, b: bv})
    for in_place, reference in got:
        np.testing.assert_array_equal(in_place.view(np.int32), reference.view(np.int32))
