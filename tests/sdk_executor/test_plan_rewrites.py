"""Plan rewrites: Identity/NoOp sharing their input's slot, shape arithmetic remembered between runs. They must
follow changing shapes, keep errors, keep traces complete and give the same bits as one kernel call per op."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite.client import plan_rewrites


def _step_kinds(sess: tf.Session) -> list:
    """The factory name of each step of the session's plans (memo_step, compile_step, ...)."""
    return [step.__qualname__.split(".")[0] for plan in sess._plans.values() for step in plan[0].steps]


def test_mean_gradient_follows_the_batch_size():
    """The mean's gradient is (1/N) * w per row: a stale shape computation would keep the first batch's N."""
    x = tf.placeholder(tf.float32, [None, 3])
    w = tf.constant([1.0, 2.0, 3.0])
    loss = tf.reduce_mean(tf.reduce_sum(x * w, axis=1))
    (gx,) = tf.gradients(loss, [x])
    with tf.Session() as s:
        for n in (2, 5, 2, 7, 5):
            got = s.run(gx, {x: np.ones((n, 3), np.float32)})
            want = (np.float32(1) / np.float32(n)) * np.float32([1.0, 2.0, 3.0])
            np.testing.assert_array_equal(got, np.tile(want, (n, 1)))
        assert "memo_step" in _step_kinds(s)


def test_remembered_values_are_fetched_as_fresh_writable_arrays():
    x = tf.placeholder(tf.float32, [None, 4])
    shape = tf.shape(x)
    count = tf.reduce_prod(shape)
    with tf.Session() as s:
        first_shape, first_count = s.run([shape, count], {x: np.zeros((3, 4), np.float32)})
        assert first_shape.flags.writeable
        first_shape[0] = 99
        second_shape, second_count = s.run([shape, count], {x: np.zeros((3, 4), np.float32)})
        assert "memo_step" in _step_kinds(s)
    np.testing.assert_array_equal(second_shape, [3, 4])
    assert first_count == second_count == 12


def test_failing_shape_arithmetic_fails_on_every_run():
    """An error is not remembered as a result: the same inputs raise again, other inputs run."""
    x = tf.placeholder(tf.float32, [None])
    n = tf.shape(x)[0]
    r = tf.range(0, n, n - 2)
    with tf.Session() as s:
        for _ in range(2):
            with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
                s.run(r, {x: np.zeros(2, np.float32)})
        np.testing.assert_array_equal(s.run(r, {x: np.zeros(3, np.float32)}), [0, 1, 2])


def test_traced_run_records_ops_that_share_their_input_slot():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.identity(x * 2.0, name="ident")
    with tf.control_dependencies([y]):
        done = tf.no_op(name="done")
    with tf.Session() as s:
        meta = tf.RunMetadata()
        out = s.run([y, done], {x: [1.0, 2.0]}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                    run_metadata=meta)
        np.testing.assert_array_equal(out[0], [2.0, 4.0])
        names = {n.node_name for d in meta.step_stats.dev_stats for n in d.node_stats}
        assert {"ident", "done", "mul"} <= names
        np.testing.assert_array_equal(s.run(y, {x: [3.0, 4.0]}), [6.0, 8.0])
        assert "_elided" in _step_kinds(s)


def _train_small_cnn(lean: bool, steps: int) -> list:
    """Variables after `steps` Adam steps of a conv/pool/dense classifier, plans built with rewrites on or off."""
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((6, 8, 8, 1)).astype(np.float32)
    ys = rng.integers(0, 4, 6)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 8, 8, 1])
        y = tf.placeholder(tf.int64, [None])
        h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
        h = tf.layers.max_pooling2d(h, 2, 2)
        logits = tf.layers.dense(tf.layers.flatten(h), 4)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
        with plan_rewrites.enabled(lean), tf.Session() as s:
            s.run(tf.global_variables_initializer())
            losses = [s.run([train, loss], {x: xs[: 3 + k % 4], y: ys[: 3 + k % 4]})[1] for k in range(steps)]
            kinds = _step_kinds(s)
            return losses + s.run(tf.trainable_variables()) + [kinds]


def test_rewritten_plan_gives_the_bits_of_one_kernel_call_per_op():
    *lean, lean_kinds = _train_small_cnn(True, 5)
    *plain, plain_kinds = _train_small_cnn(False, 5)
    assert "memo_step" in lean_kinds and "_elided" in lean_kinds
    assert "memo_step" not in plain_kinds and "_elided" not in plain_kinds
    assert len(lean) == len(plain)
    for a, b in zip(lean, plain):
        np.testing.assert_array_equal(a, b)
