"""SyncReplicasOptimizer with in-process replicas: averaging, stale gradients dropped, tokens and hooks.

The scenarios and expected values are TensorFlow's own SyncReplicasOptimizer tests (two workers; three workers
with one backup), whose numbers follow from the plain averaging formula.
"""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
import edgelite.train as train


def _replicas(num_workers: int, replicas_to_aggregate: int, opt_factory=None):
    """One graph, one train op per replica (constant gradients 0.1 + 0.2 i, 0.9 + 0.2 i and a sparse row)."""
    global_step = tf.Variable(0, name="global_step", trainable=False, dtype=tf.int64)
    tf.add_to_collection(tf.GraphKeys.GLOBAL_STEP, global_step)
    v0 = tf.Variable(0.0, name="v0")
    v1 = tf.Variable(1.0, name="v1")
    vs = tf.Variable([[3.0], [4.0]], name="v_sparse")
    base = opt_factory() if opt_factory else train.GradientDescentOptimizer(2.0)
    opt = train.SyncReplicasOptimizer(base, replicas_to_aggregate=replicas_to_aggregate,
                                      total_num_replicas=num_workers)
    train_ops = []
    for i in range(num_workers):
        with tf.name_scope(f"worker_{i}"):
            sparse = tf.IndexedSlices(tf.constant([[0.1 + i * 0.2]]), tf.constant([1]), tf.constant([2, 1]))
            pairs = [(tf.constant(0.1 + i * 0.2), v0), (tf.constant(0.9 + i * 0.2), v1), (sparse, vs)]
            train_ops.append(opt.apply_gradients(pairs, global_step=global_step))
    return opt, global_step, (v0, v1, vs), train_ops


def test_two_replicas_average_their_gradients():
    with tf.Graph().as_default():
        opt, global_step, (v0, v1, vs), train_ops = _replicas(2, 2)
        hook = opt.make_session_run_hook(is_chief=True, num_tokens=2)
        with train.MonitoredTrainingSession(hooks=[hook], show_progress=False) as sess:
            local_steps = opt._local_steps
            assert sess.run([global_step] + local_steps) == [0, 0, 0]
            sess.run(train_ops[0])
            assert sess.run(global_step) == 0  # one of two gradients so far
            sess.run(train_ops[1])
            assert sess.run(global_step) == 1
            np.testing.assert_allclose(sess.run(v0), 0 - (0.1 + 0.3) / 2 * 2.0, rtol=1e-6)
            np.testing.assert_allclose(sess.run(v1), 1 - (0.9 + 1.1) / 2 * 2.0, rtol=1e-6)
            np.testing.assert_allclose(sess.run(vs), [[3.0], [4.0 - (0.1 + 0.3) / 2 * 2.0]], rtol=1e-6)
            # The initial tokens hold step 0, so the next gradients of both replicas are stale and dropped.
            assert sess.run(local_steps) == [0, 0]
            sess.run(train_ops[0])
            sess.run(train_ops[1])
            assert sess.run(global_step) == 1 and sess.run(local_steps) == [1, 1]
            np.testing.assert_allclose(sess.run(v0), -0.4, rtol=1e-6)
            # Now the token queue is empty: the replicas finish the next step together.
            sess.run(train_ops[0])
            assert sess.run(global_step) == 1
            sess.run(train_ops[1])
            assert sess.run(global_step) == 2
            np.testing.assert_allclose(sess.run(v0), 0 - 2 * (0.1 + 0.3) / 2 * 2.0, rtol=1e-6)
            np.testing.assert_allclose(sess.run(v1), 1 - 2 * (0.9 + 1.1) / 2 * 2.0, rtol=1e-6)
            # Replica 0 waited for a token; it takes it when its next step starts.
            sess.run(train_ops[0])
            assert sess.run(local_steps) == [2, 2]


def test_three_replicas_with_a_backup_drop_the_late_gradient():
    with tf.Graph().as_default():
        opt, global_step, (v0, v1, _), train_ops = _replicas(3, 2)
        hook = opt.make_session_run_hook(is_chief=True, num_tokens=3)
        with train.MonitoredTrainingSession(hooks=[hook], show_progress=False) as sess:
            sess.run(train_ops[0])
            sess.run(train_ops[2])
            assert sess.run(global_step) == 1
            np.testing.assert_allclose(sess.run(v0), 0 - (0.1 + 0.5) / 2 * 2.0, rtol=1e-6)
            np.testing.assert_allclose(sess.run(v1), 1 - (0.9 + 1.3) / 2 * 2.0, rtol=1e-6)
            sess.run(train_ops[1])  # replica 1 was late: its gradient of step 0 is dropped
            for op in train_ops:
                sess.run(op)
            assert sess.run(global_step) == 1 and sess.run(opt._local_steps[1]) == 1
            np.testing.assert_allclose(sess.run(v0), -0.6, rtol=1e-6)
            sess.run(train_ops[0])
            assert sess.run(global_step) == 1
            sess.run(train_ops[1])
            assert sess.run(global_step) == 2
            np.testing.assert_allclose(sess.run(v0), -0.6 - (0.1 + 0.3) / 2 * 2.0, rtol=1e-6)
            np.testing.assert_allclose(sess.run(v1), -1.2 - (0.9 + 1.1) / 2 * 2.0, rtol=1e-6)


def test_one_process_aggregates_several_batches_per_step():
    """One replica and replicas_to_aggregate=3: every third run applies the mean of the last three gradients."""
    with tf.Graph().as_default():
        w = tf.Variable([1.0, -1.0], name="w")
        x = tf.placeholder(tf.float32, [2])
        global_step = train.get_or_create_global_step()
        opt = train.SyncReplicasOptimizer(train.GradientDescentOptimizer(0.5), replicas_to_aggregate=3,
                                          total_num_replicas=1)
        train_op = opt.minimize(tf.reduce_sum(w * x), global_step=global_step)
        hook = opt.make_session_run_hook(is_chief=True)
        batches = [np.array([1.0, 2.0]), np.array([3.0, -1.0]), np.array([2.0, 2.0])]
        with train.MonitoredTrainingSession(hooks=[hook], show_progress=False) as sess:
            for b in batches:
                sess.run(train_op, {x: b})
            assert sess.run(global_step) == 1
            np.testing.assert_allclose(sess.run(w), [1.0, -1.0] - 0.5 * np.mean(batches, axis=0), rtol=1e-6)


def test_errors_and_hook_protocol():
    with tf.Graph().as_default():
        opt = train.SyncReplicasOptimizer(train.GradientDescentOptimizer(1.0), replicas_to_aggregate=2,
                                          total_num_replicas=3)
        hook = opt.make_session_run_hook(True)
        with pytest.raises(ValueError, match="apply_gradient should be called"):
            hook.begin()
        with pytest.raises(ValueError, match="should be called after apply_gradients"):
            opt.get_init_tokens_op()
        v = tf.Variable([0.0], name="v")
        with pytest.raises(ValueError, match="at least one variable"):
            opt.apply_gradients([], global_step=None)
        with pytest.raises(ValueError, match="Global step is required"):
            opt.apply_gradients([(tf.constant([1.0]), v)])
        global_step = train.get_or_create_global_step()
        opt.minimize(tf.reduce_sum(v), global_step=global_step)
        hook.begin()  # a hook made before minimize works once gradients are applied
        tight = train.SyncReplicasOptimizer(train.GradientDescentOptimizer(1.0), replicas_to_aggregate=3,
                                            total_num_replicas=1)
        tight.minimize(tf.reduce_sum(v), global_step=global_step)
        with pytest.raises(ValueError, match="Too few tokens to finish the first step: 1 \\(given\\) vs 2"):
            tight.get_init_tokens_op(1)


def test_variables_and_slots_come_from_the_wrapped_optimizer():
    with tf.Graph().as_default():
        v = tf.Variable([0.0], name="fetch_variable_test")
        global_step = train.get_or_create_global_step()
        opt = train.SyncReplicasOptimizer(train.AdamOptimizer(0.01), replicas_to_aggregate=1)
        opt.minimize(tf.reduce_sum(v), global_step=global_step)
        names = [x.op.name for x in opt.variables()]
        assert "beta1_power" in names and "beta2_power" in names
        assert "sync_rep_local_step" not in names
        assert opt.get_slot(v, "m") is opt._opt.get_slot(v, "m") and opt.get_slot_names() == ["m", "v"]
        assert [x.op.name for x in tf.local_variables()] == ["sync_rep_local_step"]


def test_waiting_replica_without_partners_fails_clearly():
    with tf.Graph().as_default():
        opt, global_step, _, train_ops = _replicas(2, 2)
        hook = opt.make_session_run_hook(is_chief=True, num_tokens=0)
        with train.MonitoredTrainingSession(hooks=[hook], show_progress=False) as sess:
            sess.run(train_ops[0])
            with pytest.raises(tf.errors.FailedPreconditionError, match="waiting for the other replicas"):
                sess.run(train_ops[0])


def test_variable_averages_follow_each_completed_step():
    with tf.Graph().as_default():
        w = tf.Variable(2.0, name="w")
        global_step = train.get_or_create_global_step()
        ema = train.ExponentialMovingAverage(0.5)
        opt = train.SyncReplicasOptimizer(train.GradientDescentOptimizer(1.0), replicas_to_aggregate=2,
                                          total_num_replicas=1, variable_averages=ema, variables_to_average=[w])
        train_op = opt.minimize(w * 1.0, global_step=global_step)  # gradient 1 every time
        hook = opt.make_session_run_hook(is_chief=True)
        with train.MonitoredTrainingSession(hooks=[hook], show_progress=False) as sess:
            sess.run(train_op)
            assert sess.run(ema.average(w)) == 2.0  # no step finished yet
            sess.run(train_op)
            # w: 2 -> 1; shadow: 2 -= 0.5 * (2 - 1) after the update.
            assert sess.run([w, ema.average(w), global_step]) == [1.0, 1.5, 1]


def test_chief_queue_runner_as_tf1_scripts_start_it():
    """The chief's QueueRunner (TF1 distributed scripts start it with a coordinator) runs beside the replicas'
    steps without changing them and stops when the coordinator does."""
    with tf.Graph().as_default():
        opt = train.SyncReplicasOptimizer(train.GradientDescentOptimizer(2.0), replicas_to_aggregate=2)
        with pytest.raises(ValueError, match=r"^Should be called after apply_gradients\(\)\.$"):
            opt.get_chief_queue_runner()
    with tf.Graph().as_default():
        opt, global_step, (v0, v1, _), train_ops = _replicas(2, 2)
        chief_queue_runner = opt.get_chief_queue_runner()
        init_tokens = opt.get_init_tokens_op()
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            sess.run(opt.chief_init_op)
            coord = train.Coordinator()
            threads = chief_queue_runner.create_threads(sess, coord=coord, start=True)
            sess.run(init_tokens)
            sess.run(train_ops[0])
            sess.run(train_ops[1])
            assert sess.run(global_step) == 1
            np.testing.assert_allclose(sess.run([v0, v1]), [-0.4, -1.0], rtol=1e-6)
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=30)
            assert not any(t.is_alive() for t in threads)
