"""Elementwise chains fused into one step give the bits of one kernel call per op (plans built with the rewrites
off), grow through broadcasting, keep a fetched intermediate intact and name the failing op of the chain."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite.client import plan_rewrites


def _fused_heads(sess: tf.Session) -> list:
    return [op.name for plan in sess._plans.values() for step, op in zip(plan[0].run_steps, plan[0].run_ops)
            if step.__qualname__.startswith("fused_step")]


def _run_both(build, feeds: dict) -> tuple:
    """Fetch build()'s tensors with the rewrites on and off (each in a fresh graph); also the fused heads."""
    out = []
    for lean in (True, False):
        with tf.Graph().as_default(), plan_rewrites.enabled(lean):
            fetches, placeholders = build()
            with tf.Session() as s:
                values = s.run(fetches, {placeholders[k]: v for k, v in feeds.items()})
                out.append((values, _fused_heads(s)))
    return out[0], out[1]


def _special_values(rng: np.random.Generator, shape: tuple) -> np.ndarray:
    x = rng.standard_normal(shape).astype(np.float32)
    x.ravel()[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return x


@pytest.mark.parametrize("size", [5, 4096])
def test_chain_bits_match_separate_kernels(size):
    """Below and above the size from which unfused steps reuse buffers."""
    rng = np.random.default_rng(0)
    bias = rng.standard_normal(size).astype(np.float32)

    def build():
        x = tf.placeholder(tf.float32, [None, size])
        y = tf.placeholder(tf.float32, [size])
        h = tf.nn.relu(tf.nn.bias_add(x * 2.0 - y, tf.constant(bias), name="bias"))
        h = tf.minimum(tf.nn.relu6(tf.maximum(h, y) * 3.0), 5.5)
        return [h, tf.nn.relu(3.0 - x * x)], {"x": x, "y": y}

    feeds = {"x": _special_values(rng, (3, size)), "y": _special_values(rng, (size,))}
    (lean, heads), (plain, plain_heads) = _run_both(build, feeds)
    assert heads and not plain_heads
    for a, b in zip(lean, plain):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def test_integer_chain_and_scalar_chain_bits():
    def build():
        n = tf.placeholder(tf.int32, [None])
        s = tf.placeholder(tf.float32, [])
        return [tf.maximum(n * 3 - 7, -2) + n, (s * 0.9 + 0.1) * s], {"n": n, "s": s}

    (lean, heads), (plain, _) = _run_both(build, {"n": np.arange(-5, 6, dtype=np.int32), "s": np.float32(0.3)})
    assert len(heads) == 2
    for a, b in zip(lean, plain):
        np.testing.assert_array_equal(a, b)
        assert np.asarray(a).dtype == np.asarray(b).dtype


def test_operand_that_grows_the_chain_value_uses_the_kernel():
    x = tf.placeholder(tf.float32, [1, 3])
    y = tf.placeholder(tf.float32, [4, 3])
    out = tf.nn.relu(x * 2.0 + y)
    with tf.Session() as s:
        xv, yv = np.float32([[1, -2, 3]]), np.arange(-6, 6, dtype=np.float32).reshape(4, 3)
        got = s.run(out, {x: xv, y: yv})
        assert _fused_heads(s)
    np.testing.assert_array_equal(got, np.maximum(xv * np.float32(2) + yv, 0))


def test_fetched_intermediate_is_not_overwritten():
    x = tf.placeholder(tf.float32, [3])
    a = x * 2.0
    b = tf.nn.relu(a)
    with tf.Session() as s:
        av, bv = s.run([a, b], {x: [-1.0, 0.5, 2.0]})
    np.testing.assert_array_equal(av, [-2.0, 1.0, 4.0])
    np.testing.assert_array_equal(bv, [0.0, 1.0, 4.0])


@pytest.mark.parametrize("lean", [True, False])
def test_failing_member_is_named_in_the_error(lean):
    with plan_rewrites.enabled(lean):
        x = tf.placeholder(tf.float32, [None])
        y = tf.placeholder(tf.float32, [None])
        out = tf.nn.relu(tf.add(x * 2.0, y, name="grow"))
        with tf.Session() as s:
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                s.run(out, {x: np.ones(3, np.float32), y: np.ones(4, np.float32)})
            assert bool(_fused_heads(s)) == lean
    assert info.value.op.name == "grow"


def test_head_result_shared_with_a_variable_or_feed_is_not_written():
    """Sum over no axis hands back its input array: the chain must not write into the variable or the feed."""
    start = np.float32([-1.0, 2.0, -3.0])
    v = tf.Variable(start)
    x = tf.placeholder(tf.float32, [3])
    from_var = tf.nn.relu(tf.reduce_sum(v, axis=[]))
    from_feed = tf.nn.relu(tf.reduce_sum(x, axis=[]))
    fed = np.float32([-4.0, 5.0, -6.0])
    with tf.Session() as s:
        s.run(v.initializer)
        got_var, got_feed = s.run([from_var, from_feed], {x: fed})
        assert _fused_heads(s)
        np.testing.assert_array_equal(s.run(v), start)
    np.testing.assert_array_equal(fed, [-4.0, 5.0, -6.0])
    np.testing.assert_array_equal(got_var, [0.0, 2.0, 0.0])
    np.testing.assert_array_equal(got_feed, [0.0, 5.0, 0.0])
