"""The compiled plan: built once per fetch/feed signature, values dropped after their last reader, control
dependencies kept, errors naming the failing op, one traced record per executed op."""
from __future__ import annotations

import weakref

import numpy as np
import pytest

import edgelite as tf


def test_plan_is_built_once_per_signature_and_reused():
    x = tf.placeholder(tf.float32, [None])
    y = tf.nn.relu(x - 1.0)
    with tf.Session() as s:
        for k in range(3):
            np.testing.assert_array_equal(s.run(y, {x: [k, 3.0]}), [max(k - 1.0, 0), 2.0])
        assert len(s._plans) == 1
        plan = next(iter(s._plans.values()))[0]
        steps = list(plan.steps)
        s.run(y, {x: [5.0]})
        assert next(iter(s._plans.values()))[0] is plan and plan.steps == steps
        s.run([y, x], {x: [5.0]})
        assert len(s._plans) == 2


def test_intermediate_is_freed_after_its_last_reader():
    """A value no later step reads is dropped before the run ends (a probe sees it gone)."""
    seen: dict = {}

    def keep_ref(a: np.ndarray) -> np.ndarray:
        seen["ref"] = weakref.ref(a)
        return (a * 2).astype(np.float32)

    def probe() -> bool:
        return np.bool_(seen["ref"]() is None)

    x = tf.placeholder(tf.float32, [1000])
    big = x * 3.0
    consumer = tf.py_func(keep_ref, [big], tf.float32)
    with tf.control_dependencies([consumer]):
        freed = tf.py_func(probe, [], tf.bool)
    with tf.control_dependencies([freed]):
        out = consumer + 1.0
    with tf.Session() as s:
        freed_v, out_v = s.run([freed, out], {x: np.ones(1000, np.float32)})
        assert freed_v
        np.testing.assert_array_equal(out_v, np.full(1000, 7.0, np.float32))
        # A fetched intermediate is kept for the caller instead.
        big_v, freed_v = s.run([big, freed], {x: np.ones(1000, np.float32)})
        assert not freed_v
        np.testing.assert_array_equal(big_v, np.full(1000, 3.0, np.float32))


def test_control_dependencies_order_side_effects():
    v = tf.Variable(1.0)
    inc = tf.assign_add(v, 1.0)
    with tf.control_dependencies([inc]):
        read_after = tf.identity(v.read_value()) * 10.0
    with tf.Session() as s:
        s.run(v.initializer)
        assert s.run(read_after) == 20.0
        assert s.run(read_after) == 30.0
        assert s.run(v) == 3.0


def test_cond_and_while_loop_values():
    x = tf.placeholder(tf.float32, [3])
    branch = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.relu(x * 2.0) + 1.0, lambda: x - 1.0)
    i, acc = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, tf.nn.relu(a * 2.0 - 1.0) + a),
                           [tf.constant(0), x])
    xv = np.array([1.0, -2.0, 3.0], np.float32)
    want = xv.copy()
    for _ in range(4):
        want = np.maximum(want * 2 - 1, 0) + want
    with tf.Session() as s:
        b, (n, a) = s.run([branch, (i, acc)], {x: xv})
        b2 = s.run(branch, {x: -xv})
    np.testing.assert_array_equal(b, np.maximum(xv * 2, 0) + 1)
    np.testing.assert_array_equal(b2, -xv - 1)
    assert n == 4
    np.testing.assert_array_equal(a, want)


def test_runtime_error_names_the_failing_op():
    x = tf.placeholder(tf.float32, [None, None])
    b = tf.placeholder(tf.float32, [None])
    y = tf.nn.relu(tf.nn.bias_add(x * 1.0, b, name="my_bias"))
    r = tf.reshape(y, [5], name="my_reshape")
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            s.run(y, {x: np.ones((2, 3)), b: np.ones(4)})
        assert e.value.op.name == "my_bias"
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            s.run(r, {x: np.ones((2, 3)), b: np.ones(3)})
        assert e.value.op.name == "my_reshape"
        # The plan stays usable after a failed run.
        np.testing.assert_array_equal(s.run(y, {x: -np.ones((1, 2)), b: [1.0, 3.0]}), [[0.0, 2.0]])


def test_uninitialized_variable_error_in_compiled_step():
    v = tf.Variable([1.0, 2.0], name="never_set")
    y = v * 2.0
    with tf.Session() as s:
        with pytest.raises(tf.errors.FailedPreconditionError, match="never_set"):
            s.run(y)


def test_trace_records_every_executed_op_once():
    x = tf.placeholder(tf.float32, [4])
    y = tf.nn.relu(x * 2.0 + 1.0, name="act")
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    meta = tf.RunMetadata()
    with tf.Session() as s:
        out = s.run(y, {x: np.arange(4, dtype=np.float32) - 2}, options=options, run_metadata=meta)
    np.testing.assert_array_equal(out, np.maximum((np.arange(4) - 2) * 2 + 1, 0))
    names = [n.node_name for d in meta.step_stats.dev_stats for n in d.node_stats]
    assert sorted(names) == sorted(op.name for op in [y.op, y.op.inputs[0].op, y.op.inputs[0].op.inputs[0].op])


def test_intra_op_threads_bound_blas_during_run_only():
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads() -> list:
        return [p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]

    if not blas_threads():
        pytest.skip("numpy has no BLAS thread pool here")
    before = blas_threads()
    seen: list = []

    def probe(a: np.ndarray) -> np.ndarray:
        seen.append(blas_threads())
        return a

    a = tf.constant(np.ones((4, 4), np.float32))
    out = tf.py_func(probe, [tf.matmul(a, a)], tf.float32)
    config = tf.ConfigProto(intra_op_parallelism_threads=1)
    with tf.Session(config=config) as s:
        assert s._state.intra_op_threads == 1
        for _ in range(2):
            assert s.run(out)[0, 0] == 4.0
    assert seen == [[1] * len(before)] * 2
    assert blas_threads() == before


def test_feed_shape_checks_after_accepted_feeds_and_set_shape():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = x * 2.0
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(y, {x: np.ones((4, 3))}), np.full((4, 3), 2.0))
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(4, 2\) for Tensor 'x:0'"):
            s.run(y, {x: np.ones((4, 2))})
        x.set_shape([2, 3])
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(4, 3\) for Tensor 'x:0', which has shape "
                                             r"'\(2, 3\)'"):
            s.run(y, {x: np.ones((4, 3))})
        np.testing.assert_array_equal(s.run(y, {x: np.ones((2, 3))}), np.full((2, 3), 2.0))
