"""Session.run: fetch structures, feeds, partial execution, plan caching and the seeds' errors."""
from __future__ import annotations

import collections

import numpy as np
import pytest

import edgelite as tf


def test_nested_fetch_structures():
    a = tf.constant(1.0)
    b = tf.constant([2, 3])
    Pair = collections.namedtuple("Pair", ["x", "y"])
    with tf.Session() as s:
        out = s.run({"a": a, "nested": [b, (a, {"deep": b})], "pair": Pair(a, b)})
    assert out["a"] == 1.0 and out["nested"][1][0] == 1.0
    assert isinstance(out["nested"][1], tuple) and isinstance(out["pair"], Pair)
    np.testing.assert_array_equal(out["nested"][1][1]["deep"], [2, 3])
    np.testing.assert_array_equal(out["pair"].y, [2, 3])


def test_fetch_by_name_operations_and_duplicates():
    a = tf.constant(4.0, name="four")
    op = tf.no_op(name="noop")
    with tf.Session() as s:
        assert s.run("four:0") == 4.0
        assert s.run(op) is None and s.run("noop") is None
        assert s.run([a, a, "four:0"]) == [4.0, 4.0, 4.0]
    with pytest.raises(TypeError):
        tf.Session().run(None)
    with pytest.raises(TypeError):
        tf.Session().run(3.0)
    with pytest.raises(ValueError):
        tf.Session().run("missing:0")


def test_feeds_of_any_tensor_and_partial_execution():
    p = tf.placeholder(tf.float32, [2])
    q = tf.placeholder(tf.float32, [2])
    mid = p * 2.0
    out = mid + 1.0
    unrelated = q * 3.0
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(out, {p: [1.0, 2.0]}), [3.0, 5.0])
        np.testing.assert_array_equal(s.run(out, {mid: [10.0, 20.0]}), [11.0, 21.0])
        np.testing.assert_array_equal(s.run(mid, {mid: [7.0, 8.0]}), [7.0, 8.0])
        np.testing.assert_array_equal(s.run(out, {"Placeholder:0": np.ones(2)}), [3.0, 3.0])
        with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder tensor"):
            s.run([out, unrelated], {p: [1.0, 2.0]})


def test_feed_conversion_and_shape_errors():
    p = tf.placeholder(tf.float32, [None, 2])
    y = p * 2.0
    with tf.Session() as s:
        got = s.run(y, {p: [[1, 2]]})
        assert got.dtype == np.float32
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            s.run(y, {p: [1.0, 2.0]})
        assert isinstance(info.value, ValueError)
        assert "Cannot feed value of shape (2,) for Tensor 'Placeholder:0', which has shape '(?, 2)'" in \
            str(info.value)
        with pytest.raises(TypeError):
            s.run(y, {p: tf.constant([[1.0, 2.0]])})
        with pytest.raises(TypeError):
            s.run(y, {3: [[1.0, 2.0]]})


def test_missing_feed_message_names_placeholder():
    p = tf.placeholder(tf.float32, [None, 3], name="input")
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            s.run(p + 1.0)
    e = info.value
    assert e.error_code == tf.errors.INVALID_ARGUMENT and e.op.name == "input"
    assert "You must feed a value for placeholder tensor 'input' with dtype float and shape [?,3]" in e.message


def test_uninitialized_variable_message():
    v = tf.Variable([1.0, 2.0], name="weights")
    with tf.Session() as s:
        with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value weights"):
            s.run(v * 2.0)
        with pytest.raises(tf.errors.FailedPreconditionError):
            s.run(v)


def test_runtime_kernel_errors_become_invalid_argument():
    p = tf.placeholder(tf.int32, [None])
    g = tf.gather(tf.constant([1.0, 2.0]), p)
    r = tf.reshape(tf.constant([1, 2, 3]), tf.placeholder_with_default([3], [1]))
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices = 7 is not in \[0, 2\)"):
            s.run(g, {p: [7]})
        assert s.run(r).tolist() == [1, 2, 3]


def test_plan_cache_reuses_plan_per_signature():
    p = tf.placeholder(tf.float32, [])
    y = p * 2.0
    s = tf.Session()
    s.run(y, {p: 1.0})
    assert len(s._plans) == 1
    for i in range(5):
        assert s.run(y, {p: float(i)}) == 2.0 * i
    assert len(s._plans) == 1
    s.run([y, p], {p: 1.0})
    assert len(s._plans) == 2
    s.close()


def test_closed_session_and_empty_graph():
    tf.constant(1.0)
    s = tf.Session()
    s.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        s.run("Const:0")
    with pytest.raises(RuntimeError, match="graph is empty"):
        tf.Session(graph=tf.Graph()).run([])


def test_session_context_sets_default_session_and_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(3.0)
    with tf.Session(graph=g) as s:
        assert tf.get_default_session() is s and tf.get_default_graph() is g
        assert c.eval() == 3.0
    assert tf.get_default_session() is None


def test_interactive_session_installs_itself():
    c = tf.constant(5.0)
    s = tf.InteractiveSession()
    try:
        assert tf.get_default_session() is s and c.eval() == 5.0
    finally:
        s.close()
    assert tf.get_default_session() is None


def test_make_callable():
    p = tf.placeholder(tf.float32, [2])
    y = tf.reduce_sum(p)
    with tf.Session() as s:
        f = s.make_callable([y, {"double": y * 2.0}], feed_list=[p])
        out = f(np.array([1.0, 2.0], np.float32))
        assert out[0] == 3.0 and out[1]["double"] == 6.0


def test_fetched_variable_value_is_a_copy():
    v = tf.Variable([1.0, 2.0])
    with tf.Session() as s:
        s.run(v.initializer)
        got = s.run(v)
        got[0] = 100.0
        np.testing.assert_array_equal(s.run(v), [1.0, 2.0])
        read = s.run(v.value())
        read[1] = -1.0
        np.testing.assert_array_equal(s.run(v), [1.0, 2.0])


def test_sessions_have_separate_state_and_reset_clears_containers():
    with tf.container("c1"):
        v = tf.Variable(1.0)
    w = tf.Variable(2.0)
    s1, s2 = tf.Session(), tf.Session()
    s1.run([v.initializer, w.initializer])
    with pytest.raises(tf.errors.FailedPreconditionError):
        s2.run(v)
    tf.Session.reset("", ["c1"])
    with pytest.raises(tf.errors.FailedPreconditionError):
        s1.run(v)
    assert s1.run(w) == 2.0
    s1.close()
    s2.close()


def test_feeding_indexed_slices_and_fetching_them():
    values = tf.placeholder(tf.float32, [None, 2])
    indices = tf.placeholder(tf.int64, [None])
    sl = tf.IndexedSlices(values, indices, tf.constant([3, 2], dtype=tf.int64))
    with tf.Session() as s:
        out = s.run(sl, {sl: ([[1.0, 2.0]], [2], [3, 2])})
    assert isinstance(out, tf.IndexedSlicesValue) and out.indices.tolist() == [2]


def test_error_classes_have_tf_constructor_and_codes():
    e = tf.errors.OutOfRangeError(None, None, "done")
    assert e.message == "done" and e.error_code == tf.errors.OUT_OF_RANGE and isinstance(e, tf.errors.OpError)
    assert tf.errors.exception_type_from_error_code(9) is tf.errors.FailedPreconditionError
    assert tf.errors.error_code_from_exception_type(tf.errors.DataLossError) == 15
    for cls in (tf.errors.CancelledError, tf.errors.NotFoundError, tf.errors.AbortedError,
                tf.errors.UnavailableError, tf.errors.DeadlineExceededError, tf.errors.InternalError,
                tf.errors.UnimplementedError, tf.errors.ResourceExhaustedError, tf.errors.AlreadyExistsError,
                tf.errors.PermissionDeniedError, tf.errors.UnauthenticatedError, tf.errors.UnknownError):
        assert issubclass(cls, tf.errors.OpError) and cls(None, None, "m").message == "m"


def test_seeded_random_ops_are_deterministic_per_session():
    tf.set_random_seed(42)
    a = tf.random_normal([3])
    b = tf.random_uniform([3], seed=3)
    with tf.Session() as s1:
        first = s1.run([a, b])
        second = s1.run([a, b])
    with tf.Session() as s2:
        again = s2.run([a, b])
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    assert not np.array_equal(first[0], second[0])
