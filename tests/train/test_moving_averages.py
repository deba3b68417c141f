"""ExponentialMovingAverage in graphs: trajectories, shadow names and restore maps equal TensorFlow's."""
from __future__ import annotations

import json

import numpy as np
import pytest

import edgelite as tf
import edgelite.train  # noqa: F401  (tf.train)
from edgelite.train import ExponentialMovingAverage, Saver

from _tf_fixtures import FIXTURES, assert_close

EMA = np.load(FIXTURES / "ema.npz")
NAMES = json.loads((FIXTURES / "ema.json").read_text())


def _build(dt: str, case: str):
    """The generator's graph: a variable set from a feed, its double as a tensor, and a step counter."""
    var = tf.get_variable("v", initializer=tf.constant(np.array([1.0, -2.0, 0.5], dt)))
    feed = tf.placeholder(dt, [3])
    assign = tf.assign(var, feed)
    step = tf.get_variable("step", initializer=tf.constant(0, tf.int64), trainable=False)
    if case == "num_updates":
        ema = ExponentialMovingAverage(0.99, num_updates=step)
    else:
        ema = ExponentialMovingAverage(0.9, zero_debias=case == "zero_debias")
    tensor = var * 2.0
    apply = ema.apply([var, tensor])
    return var, feed, assign, step, ema, tensor, apply


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("case", ["plain", "num_updates", "zero_debias"])
def test_apply_matches_tensorflow_every_step(dt, case):
    with tf.Graph().as_default():
        var, feed, assign, step, ema, tensor, apply = _build(dt, case)
        inc = tf.assign_add(step, 1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i, row in enumerate(EMA["values"]):
                sess.run(assign, {feed: row.astype(dt)})
                sess.run(apply)
                sess.run(inc)
                assert_close(sess.run(ema.average(var)), EMA[f"{dt}/{case}/var"][i], dt, f"var step {i}")
                assert_close(sess.run(ema.average(tensor)), EMA[f"{dt}/{case}/tensor"][i], dt, f"tensor step {i}")
            assert sess.run(ema.average(var)).dtype == np.dtype(dt)


@pytest.mark.parametrize("case", ["plain", "num_updates", "zero_debias"])
def test_names_and_restore_map_match_tensorflow(case):
    ref = NAMES[case]
    with tf.Graph().as_default():
        var, _, _, _, ema, tensor, apply = _build("float32", case)
        assert ema.name == ref["name"]
        assert [apply.name, apply.type] == ref["apply_op"]
        assert ema.average_name(var) == ref["average_name_var"]
        assert ema.average_name(tensor) == ref["average_name_tensor"]
        assert ema.average(var).op.name == ref["shadow_var"]
        assert ema.average(tensor).op.name == ref["shadow_tensor"]
        assert [v.op.name for v in tf.global_variables()] == ref["global_variables"]
        assert [v.op.name for v in tf.moving_average_variables()] == ref["moving_average_variables"]
        assert {k: v.op.name for k, v in ema.variables_to_restore().items()} == ref["variables_to_restore"]
        assert not ema.average(var).trainable and tf.trainable_variables() == [var]


def test_average_name_before_apply_and_repeated_apply():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="w")
        ema = ExponentialMovingAverage(0.5)
        assert ema.average_name(v) == "w/ExponentialMovingAverage" and ema.average(v) is None
        first = ema.apply([v])
        shadow = ema.average(v)
        second = ema.apply([v])  # a second apply reuses the shadow
        assert ema.average(v) is shadow and second.name == "ExponentialMovingAverage_1"
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(tf.assign(v, [3.0, 6.0]))
            sess.run(first)
            sess.run(second)
            # Two updates with decay 0.5 from the initial value: 1 -> 2 -> 2.5, 2 -> 4 -> 5.
            np.testing.assert_allclose(sess.run(shadow), [2.5, 5.0])


def test_shadow_of_initialized_variable_starts_at_its_current_value():
    with tf.Graph().as_default():
        v = tf.Variable([1.0], name="v")
        with tf.Session() as sess:
            sess.run(v.initializer)
            sess.run(tf.assign(v, [7.0]))
            ema = ExponentialMovingAverage(0.9)
            ema.apply([v])
            sess.run(ema.average(v).initializer)
            np.testing.assert_allclose(sess.run(ema.average(v)), [7.0])


def test_default_var_list_is_trainable_variables():
    with tf.Graph().as_default():
        a = tf.Variable(1.0, name="a")
        tf.Variable(2.0, name="b", trainable=False)
        ema = ExponentialMovingAverage(0.9)
        ema.apply()
        assert [v.op.name for v in tf.moving_average_variables()] == ["a"]
        assert ema.average(a) is not None


def test_type_errors():
    with tf.Graph().as_default():
        ema = ExponentialMovingAverage(0.9)
        with pytest.raises(TypeError, match="half, float, or double"):
            ema.apply([tf.Variable(1, name="int_var")])
        with pytest.raises(TypeError):
            ema.apply([np.ones(2)])


def test_restore_averages_through_saver(tmp_path):
    """The documented use: save while training, restore the averages into the model variables."""
    with tf.Graph().as_default():
        v = tf.Variable([0.0, 0.0], name="w")
        ema = ExponentialMovingAverage(0.5)
        apply = ema.apply([v])
        saver = Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for target in ([2.0, 4.0], [4.0, 8.0]):
                sess.run(tf.assign(v, target))
                sess.run(apply)
            path = saver.save(sess, str(tmp_path / "model"))
    with tf.Graph().as_default():
        v = tf.Variable([0.0, 0.0], name="w")
        ema = ExponentialMovingAverage(0.5)
        restorer = Saver(ema.variables_to_restore())
        with tf.Session() as sess:
            restorer.restore(sess, path)
            # 0 -> 1 -> 2.5 and 0 -> 2 -> 5 with decay 0.5.
            np.testing.assert_allclose(sess.run(v), [2.5, 5.0])


def test_apply_after_a_training_step_averages_the_updated_value():
    """The documented pattern: the average op depends on the optimizer op and sees its result."""
    with tf.Graph().as_default():
        w = tf.Variable(4.0, name="w")
        opt_op = tf.train.GradientDescentOptimizer(0.5).minimize(w * w)  # w -= 0.5 * 2w -> 0
        ema = ExponentialMovingAverage(0.75)
        with tf.control_dependencies([opt_op]):
            training_op = ema.apply([w])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(training_op)
            assert sess.run(w) == 0.0 and sess.run(ema.average(w)) == 3.0  # 4 - 0.25 * (4 - 0)


def test_shadow_names_follow_the_variable_scope_as_tensorflow():
    """apply() inside variable_scope('vs') names shadows vs/<var>/<name>; name scopes alone add nothing."""
    ref = json.loads((FIXTURES / "ema_scoped.json").read_text())
    with tf.Graph().as_default():
        w = tf.Variable(1.0, name="w")
        t = tf.placeholder(tf.float32, [3], name="t")
        with tf.variable_scope("vs"):
            first = ExponentialMovingAverage(0.9)
            apply = first.apply([w, t])
            with tf.name_scope("ns"):
                ExponentialMovingAverage(0.9, name="E2").apply([w])
            again = ExponentialMovingAverage(0.9)
            again.apply([w])
        with tf.name_scope("onlyns"):
            ExponentialMovingAverage(0.9, name="E4").apply([w])
        with tf.variable_scope("outer"), tf.variable_scope("inner"):
            ExponentialMovingAverage(0.9, name="E5").apply([w])
        assert [x.op.name for x in tf.global_variables()] == ref["global_variables"]
        assert first.average_name(w) == ref["average_name_w"]
        assert first.average_name(t) == ref["average_name_t"]
        assert again.average(w).op.name == ref["again_w"]
        assert apply.name == ref["apply_op"]
