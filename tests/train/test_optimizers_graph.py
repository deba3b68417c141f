"""Every optimizer configuration trained in a Session equals TensorFlow's recorded run, step by step.

The fixtures hold, for each configuration, dtype and dense/sparse problem, the free-running TensorFlow
trajectory: every variable, slot and non-slot variable after each of 25 steps and the gradients before each.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import edgelite as tf
import edgelite.train as train
from edgelite.framework.indexed_slices import IndexedSlices

from _problem import build_problem, make_optimizer
from _tf_fixtures import (FIXTURES, assert_close, assert_close_free_running, optimizer_cases, optimizer_layout,
                          series)

CASES = optimizer_cases()
STEPS = optimizer_layout()["problem"]["steps"]


def _config(key: str) -> dict:
    return optimizer_layout()["configs"][key]


def _state_fetches(opt, variables, cfg: dict) -> dict:
    fetch = {}
    for v in variables:
        fetch[f"var/{v.op.name}"] = v
        for slot in cfg["slots"]:
            fetch[f"slot/{v.op.name}/{slot}"] = opt.get_slot(v, slot)
    for name in cfg["nonslot"]:
        fetch[f"nonslot/{name}"] = opt._get_non_slot_variable(name)
    return fetch


def test_every_configuration_is_covered():
    # 25 configurations x 2 dtypes x dense/sparse, less the 8 float64 runs TensorFlow's proximal kernels refuse.
    assert len(CASES) == 92
    assert {_config(k)["class"] for k, _, _ in CASES} == {
        "GradientDescentOptimizer", "MomentumOptimizer", "AdagradOptimizer", "AdagradDAOptimizer",
        "AdadeltaOptimizer", "AdamOptimizer", "FtrlOptimizer", "ProximalAdagradOptimizer",
        "ProximalGradientDescentOptimizer", "RMSPropOptimizer"}


@pytest.mark.parametrize("key,dt,mode", CASES)
def test_minimize_matches_tensorflow(key, dt, mode):
    cfg, rec = _config(key), series(key, dt, mode)
    with tf.Graph().as_default():
        variables, loss = build_problem(dt, mode == "sparse")
        global_step = train.get_or_create_global_step()
        opt = make_optimizer(cfg, global_step)
        train_op = opt.minimize(loss, global_step=global_step, var_list=variables)
        fetch = _state_fetches(opt, variables, cfg)
        assert set(fetch) == {k for k in rec if k.split("/")[0] in ("var", "slot", "nonslot")}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for k, value in sess.run(fetch).items():
                assert_close(value, rec[k][0], dt, f"{k} initial")
            for step in range(STEPS):
                sess.run(train_op)
                state = sess.run(fetch)
                for k, value in state.items():
                    assert value.dtype == rec[k].dtype, k
                    assert_close_free_running(value, rec[k][step + 1], dt, f"{key} {k} after step {step + 1}")
                assert sess.run(global_step) == step + 1
        assert int(rec["global_step"]) == STEPS


@pytest.mark.parametrize("key,dt,mode", CASES)
def test_apply_gradients_of_tensorflow_element_by_element(key, dt, mode):
    """Fed TensorFlow's own gradients (duplicate indices included), the update ops agree element by element."""
    cfg, rec = _config(key), series(key, dt, mode)
    with tf.Graph().as_default():
        variables, _ = build_problem(dt, mode == "sparse")
        global_step = train.get_or_create_global_step()
        opt = make_optimizer(cfg, global_step)
        feeds, pairs = [], []
        for v in variables:
            if mode == "sparse":
                values = tf.placeholder(dt, [None] + v.get_shape().as_list()[1:])
                indices = tf.placeholder(tf.int32, [None])
                pairs.append((IndexedSlices(values, indices, tf.constant(v.get_shape().as_list())), v))
                feeds.append((values, f"grad/{v.op.name}/values"))
                feeds.append((indices, f"grad/{v.op.name}/indices"))
            else:
                g = tf.placeholder(dt, v.get_shape())
                pairs.append((g, v))
                feeds.append((g, f"grad/{v.op.name}"))
        train_op = opt.apply_gradients(pairs, global_step=global_step)
        fetch = _state_fetches(opt, variables, cfg)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(STEPS):
                sess.run(train_op, {ph: rec[k][step] for ph, k in feeds})
                for k, value in sess.run(fetch).items():
                    assert_close(value, rec[k][step + 1], dt, f"{key} {k} after step {step + 1}")


@pytest.mark.parametrize("key", sorted(optimizer_layout()["configs"]))
@pytest.mark.parametrize("mode", ["dense", "sparse"])
def test_slot_names_variables_and_train_op_match_tensorflow(key, mode):
    cfg = _config(key)
    ref = cfg["names"][mode]
    with tf.Graph().as_default():
        variables, loss = build_problem("float32", mode == "sparse")
        global_step = train.get_or_create_global_step()
        opt = make_optimizer(cfg, global_step)
        train_op = opt.minimize(loss, global_step=global_step, var_list=variables)
        assert [train_op.name, train_op.type] == ref["train_op"]
        assert opt.get_slot_names() == cfg["slots"]
        names = {f"{v.op.name}/{s}": opt.get_slot(v, s).op.name for v in variables for s in cfg["slots"]}
        assert names == ref["slot_vars"]
        assert [v.op.name for v in opt.variables()] == ref["variables"]
        slots = [opt.get_slot(v, s) for v in variables for s in cfg["slots"]]
        assert all(not s.trainable and s in tf.global_variables() for s in slots)
        assert all(s.get_shape() == v.get_shape() for v in variables for s in
                   (opt.get_slot(v, n) for n in cfg["slots"]))
        assert train_op in tf.get_collection(tf.GraphKeys.TRAIN_OP)


def test_gate_constants():
    assert (train.Optimizer.GATE_NONE, train.Optimizer.GATE_OP, train.Optimizer.GATE_GRAPH) == (0, 1, 2)
    assert train.AdamOptimizer.GATE_GRAPH == 2


@pytest.mark.parametrize("gate", [0, 1, 2])
def test_gating_modes_give_the_same_steps(gate):
    rec = series("momentum", "float64", "dense")
    with tf.Graph().as_default():
        variables, loss = build_problem("float64", False)
        opt = train.MomentumOptimizer(0.05, 0.9)
        grads_and_vars = opt.compute_gradients(loss, variables, gate_gradients=gate)
        if gate == train.Optimizer.GATE_GRAPH:
            # Every gradient waits for all of them: one shared control input.
            controls = {tuple(op.name for op in g.op.control_inputs) for g, _ in grads_and_vars}
            assert len(controls) == 1 and len(next(iter(controls))) == 1
        train_op = opt.apply_gradients(grads_and_vars)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(5):
                sess.run(train_op)
            assert_close(sess.run(variables[0]), rec["var/w"][5], "float64")


def test_global_step_is_incremented_after_the_update():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        global_step = train.get_or_create_global_step()
        opt = train.GradientDescentOptimizer(0.5)
        train_op = opt.minimize(tf.reduce_sum(v * v), global_step=global_step, name="train")
        # The increment is the returned op; its constant 1 (created under the dependency, as in TensorFlow)
        # waits for the grouped variable updates.
        assert train_op.type == "AssignAdd" and train_op.name == "train"
        assert train_op.inputs[0].op is global_step.op
        assert [c.name for c in train_op.inputs[1].op.control_inputs] == ["train/update"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train_op)
            sess.run(train_op)
            assert sess.run(global_step) == 2
            np.testing.assert_allclose(sess.run(v), [0.0, 0.0])  # v -= 0.5 * 2v
        no_step = opt.minimize(tf.reduce_sum(v * v))
        assert no_step.type == "NoOp" and no_step.name == "GradientDescent"


def test_var_list_selects_what_is_trained():
    with tf.Graph().as_default():
        a = tf.Variable(1.0, name="a")
        b = tf.Variable(1.0, name="b")
        c = tf.Variable(1.0, name="c")
        frozen = tf.Variable(1.0, name="frozen", trainable=False)
        loss = a * a + b * b + frozen * frozen
        opt = train.GradientDescentOptimizer(0.25)
        pairs = opt.compute_gradients(loss)
        assert [v for _, v in pairs] == [a, b, c] and pairs[2][0] is None
        nested = opt.compute_gradients(loss, var_list=[[a], (frozen,)])
        assert [v for _, v in nested] == [a, frozen]
        step = opt.minimize(loss, var_list=[b, c])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step)
            # Only b moves: b -= 0.25 * 2b; c has no gradient and is skipped.
            assert sess.run([a, b, c, frozen]) == [1.0, 0.5, 1.0, 1.0]


def test_grad_loss_scales_the_gradient():
    with tf.Graph().as_default():
        w = tf.Variable([1.0, -2.0, 3.0], name="w")
        loss = 0.5 * tf.reduce_sum(w * w)  # d loss / d w = w
        opt = train.GradientDescentOptimizer(1.0)
        (g, _), = opt.compute_gradients(loss, [w], grad_loss=tf.constant(3.0))
        step = opt.minimize(loss, var_list=[w], grad_loss=tf.constant(0.5))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_allclose(sess.run(g), [3.0, -6.0, 9.0])
            sess.run(step)
            np.testing.assert_allclose(sess.run(w), [0.5, -1.0, 1.5])  # w -= 0.5 * w


def test_callable_loss_and_tensor_hyper_parameters():
    with tf.Graph().as_default():
        w = tf.Variable([2.0], name="w")
        lr = tf.placeholder(tf.float32, [])
        step = train.MomentumOptimizer(lr, momentum=0.0).minimize(lambda: tf.reduce_sum(w * w))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step, {lr: 0.25})
            np.testing.assert_allclose(sess.run(w), [1.0])  # 2 - 0.25 * 4


def test_base_optimizer_errors():
    with pytest.raises(ValueError, match="name"):
        train.GradientDescentOptimizer(0.1, name="")
    with tf.Graph().as_default():
        w = tf.Variable([1.0], name="w")
        unrelated = tf.Variable([1.0], name="unrelated")
        loss = tf.reduce_sum(w * w)
        opt = train.GradientDescentOptimizer(0.1)
        with pytest.raises(TypeError, match="not a tf.Variable"):
            opt.compute_gradients(loss, var_list=[w, w.value()])
        with pytest.raises(ValueError, match="not a tf.Variable"):
            opt.minimize(loss, var_list=[w.value()])
        with pytest.raises(ValueError, match="gate_gradients"):
            opt.compute_gradients(loss, gate_gradients=3)
        with pytest.raises(ValueError, match="Invalid type"):
            opt.compute_gradients(tf.constant(1), var_list=[w])
        with pytest.raises(ValueError, match="No gradients provided"):
            opt.minimize(loss, var_list=[unrelated])
        with pytest.raises(ValueError, match="No variables provided"):
            opt.apply_gradients([])
        with pytest.raises(ValueError, match="No gradients provided"):
            opt.apply_gradients([(None, w)])
        with pytest.raises(TypeError):
            opt.apply_gradients(5)
        with pytest.raises(TypeError):
            opt.apply_gradients([(tf.constant([1.0]),)])
        with pytest.raises(TypeError):
            opt.apply_gradients([(tf.constant([1.0]), w.value())])
        with pytest.raises(TypeError, match="Gradient must be convertible"):
            opt.apply_gradients([(object(), w)])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to optimize"):
            train.GradientDescentOptimizer(0.1).compute_gradients(tf.constant(1.0))


@pytest.mark.parametrize("make", [
    lambda: train.AdagradOptimizer(0.1, initial_accumulator_value=0.0),
    lambda: train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=-1.0),
    lambda: train.AdagradDAOptimizer(0.1, global_step=None, initial_gradient_squared_accumulator_value=0.0),
    lambda: train.FtrlOptimizer(0.1, initial_accumulator_value=-0.1),
    lambda: train.FtrlOptimizer(0.1, learning_rate_power=0.5),
    lambda: train.FtrlOptimizer(0.1, l1_regularization_strength=-1.0),
    lambda: train.FtrlOptimizer(0.1, l2_regularization_strength=-1.0),
    lambda: train.FtrlOptimizer(0.1, l2_shrinkage_regularization_strength=-1.0),
])
def test_hyper_parameter_validation(make):
    with pytest.raises(ValueError):
        make()


def test_ftrl_slot_names_follow_accum_and_linear_names():
    with tf.Graph().as_default():
        w = tf.Variable([1.0], name="w")
        opt = train.FtrlOptimizer(0.1, accum_name="acc", linear_name="lin")
        opt.minimize(tf.reduce_sum(w * w))
        assert opt.get_slot(w, "accum").op.name == "w/acc"
        assert opt.get_slot(w, "linear").op.name == "w/lin"


def test_get_slot_of_unknown_variable_or_name_is_none():
    with tf.Graph().as_default():
        w = tf.Variable([1.0], name="w")
        other = tf.Variable([1.0], name="other")
        opt = train.AdamOptimizer()
        opt.minimize(tf.reduce_sum(w * w), var_list=[w])
        assert opt.get_slot(w, "m") is not None
        assert opt.get_slot(other, "m") is None and opt.get_slot(w, "nope") is None
        assert opt.get_name() == "Adam"


def test_optimizer_state_is_per_graph():
    opt = train.AdamOptimizer(0.1)
    for _ in range(2):
        with tf.Graph().as_default():
            w = tf.Variable([1.0], name="w")
            opt.minimize(tf.reduce_sum(w * w))
            assert [v.op.name for v in opt.variables()] == ["beta1_power", "beta2_power", "w/Adam", "w/Adam_1"]


def test_apply_gradients_inside_cond_builds_state_outside():
    """Slots are created in the outer graph even when apply_gradients runs in a cond branch."""
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        flag = tf.placeholder(tf.bool, [])
        opt = train.AdamOptimizer(0.1)
        step = tf.cond(flag, lambda: opt.apply_gradients([(tf.constant([0.5, 0.5]), w)]), tf.no_op)
        assert {v.op.name for v in tf.global_variables()} == {"w", "w/Adam", "w/Adam_1", "beta1_power",
                                                              "beta2_power"}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step, {flag: False})
            np.testing.assert_array_equal(sess.run(w), [1.0, 2.0])
            sess.run(step, {flag: True})
            # The first Adam step moves every coordinate by lr (m/sqrt(v) = sign(g)).
            np.testing.assert_allclose(sess.run(w), [0.9, 1.9], rtol=1e-6)
            np.testing.assert_allclose(sess.run(opt._get_non_slot_variable("beta1_power")), 0.81, rtol=1e-6)


def test_slot_names_follow_the_variable_scope_as_tensorflow():
    """minimize() inside variable_scope('train') names slots train/<var>/Adam and train/beta1_power (TF's
    checkpoint keys); a name scope alone adds nothing."""
    ref = json.loads((FIXTURES / "slot_names.json").read_text())
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.variable_scope("train"):
            adam = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(w * w))
        with tf.name_scope("ns"):
            momentum = tf.train.MomentumOptimizer(0.1, 0.9).minimize(tf.reduce_sum(w * w))
        with tf.variable_scope("a"), tf.variable_scope("b"):
            rmsprop = tf.train.RMSPropOptimizer(0.1).minimize(tf.reduce_sum(w * w))
        assert [x.op.name for x in tf.global_variables()] == ref["global_variables"]
        assert [adam.name, momentum.name, rmsprop.name] == ref["ops"]
