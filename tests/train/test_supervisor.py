"""Coordinator, LooperThread, Supervisor and basic_train_loop."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import edgelite as tf
import edgelite.summary as summary
import edgelite.train as train

from _monitored import event_timeline


def test_coordinator_stops_threads_and_reraises_the_first_error():
    coord = train.Coordinator()

    def worker(fail: bool):
        with coord.stop_on_exception():
            while not coord.should_stop():
                if fail:
                    raise ValueError("worker failed")
                time.sleep(0.001)

    threads = [threading.Thread(target=worker, args=(i == 1,)) for i in range(3)]
    for t in threads:
        t.start()
    with pytest.raises(ValueError, match="worker failed"):
        coord.join(threads, stop_grace_period_secs=5)
    assert coord.joined and coord.should_stop()
    coord.clear_stop()
    assert not coord.should_stop() and not coord.joined


def test_coordinator_clean_stops_timeouts_and_stragglers():
    coord = train.Coordinator(clean_stop_exception_types=(tf.errors.OutOfRangeError, StopIteration))
    try:
        raise StopIteration
    except StopIteration:
        coord.request_stop(ex=StopIteration())
    coord.join([])  # a clean stop records nothing
    coord = train.Coordinator()
    assert coord.wait_for_stop(0.01) is False
    coord.request_stop(ValueError("outside a handler"))
    with pytest.raises(ValueError, match="ex must be a tuple or sys.exc_info"):
        coord.raise_requested_exception()
    coord = train.Coordinator()
    release = threading.Event()
    straggler = threading.Thread(target=release.wait, name="slowpoke")
    straggler.start()
    coord.register_thread(straggler)
    coord.request_stop()
    with pytest.raises(RuntimeError, match="slowpoke"):
        coord.join(stop_grace_period_secs=0.01)
    release.set()
    straggler.join()


def test_looper_thread_calls_its_target_until_stopped():
    coord = train.Coordinator()
    calls = []
    looper = train.LooperThread.loop(coord, 0.01, calls.append, args=("tick",))
    time.sleep(0.1)
    coord.request_stop()
    coord.join([looper], stop_grace_period_secs=5)
    assert len(calls) >= 3 and set(calls) == {"tick"}
    with pytest.raises(ValueError, match="'args' and 'kwargs' argument require"):
        train.LooperThread(train.Coordinator(), 1, args=(1,))


def _model():
    w = tf.Variable([1.0, 2.0], name="w")
    global_step = train.get_or_create_global_step()
    loss = tf.reduce_sum(w * w)
    summary.scalar("loss", loss)
    train_op = train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
    return w, global_step, train_op


def test_supervisor_services_and_restart_from_logdir(tmp_path):
    with tf.Graph().as_default():
        w, global_step, train_op = _model()
        sv = train.Supervisor(logdir=str(tmp_path), save_summaries_secs=0.05, save_model_secs=0.05)
        assert tf.get_default_graph().finalized and sv.is_chief and sv.save_path == str(tmp_path / "model.ckpt")
        with sv.managed_session() as sess:
            for _ in range(5):
                sess.run(train_op)
            # Let the summary and checkpoint threads run after the last step; on a loaded machine
            # that can take far longer than their 0.05 s period, so wait for the step-5 checkpoint.
            deadline = time.monotonic() + 30.0
            while not (train.latest_checkpoint(str(tmp_path)) or "").endswith("model.ckpt-5"):
                assert time.monotonic() < deadline, "the checkpoint thread never saved step 5"
                time.sleep(0.05)
            time.sleep(0.2)
        assert sv.should_stop()
    timeline = event_timeline(tmp_path)
    kinds = {(kind, tuple(tags)) for _, kind, tags in timeline}
    assert ("summary", ("loss",)) in kinds and ("summary", ("global_step/sec",)) in kinds
    assert timeline[2] == [0, "session_log", ["START"]]  # after the file version and the graph
    assert ("session_log", ("CHECKPOINT",)) in kinds and timeline[-1][1:] == ["session_log", ["STOP"]]
    latest = train.latest_checkpoint(str(tmp_path))
    assert latest.endswith("model.ckpt-5")
    # A new supervisor on the same logdir restores instead of initializing.
    with tf.Graph().as_default():
        w, global_step, train_op = _model()
        sv = train.Supervisor(logdir=str(tmp_path), save_summaries_secs=0, save_model_secs=0)
        with sv.managed_session() as sess:
            assert sess.run(global_step) == 5
            np.testing.assert_allclose(sess.run(w), np.array([1.0, 2.0]) * 0.8 ** 5, rtol=1e-6)


def test_errors_in_the_block_are_raised_after_stopping_out_of_range_is_clean(tmp_path):
    with tf.Graph().as_default():
        _, _, train_op = _model()
        sv = train.Supervisor(logdir=str(tmp_path), save_summaries_secs=0, save_model_secs=0)
        with pytest.raises(KeyError):
            with sv.managed_session() as sess:
                raise KeyError("bad")
        assert sess._closed
        with sv.managed_session() as sess:
            sess.run(train_op)
            raise tf.errors.OutOfRangeError(None, None, "input done")
        with pytest.raises(TypeError):
            sv.summary_computed(sess, 3.0)


def test_non_chief_and_missing_logdir():
    with tf.Graph().as_default():
        _model()
        sv = train.Supervisor(is_chief=False, recovery_wait_secs=0.01)
        with pytest.raises(RuntimeError, match="Only chief supervisor"):
            sv.start_standard_services(None)
    with tf.Graph().as_default():
        _model()
        sv = train.Supervisor()
        with sv.managed_session(start_standard_services=False) as sess:
            with pytest.raises(ValueError, match="logdir"):
                sv.start_standard_services(sess)
            with pytest.raises(RuntimeError, match="summary writer"):
                sv.summary_computed(sess, summary.Summary())


def test_basic_train_loop_runs_until_stop_and_retries_aborted(tmp_path):
    with tf.Graph().as_default():
        _, global_step, train_op = _model()
        sv = train.Supervisor(logdir=str(tmp_path), save_summaries_secs=0, save_model_secs=0)
        sessions = []

        def step(sess, limit, abort_at=None):
            if sess not in sessions:
                sessions.append(sess)
            sess.run(train_op)
            value = sess.run(global_step)
            if abort_at is not None and len(sessions) == 1 and value == abort_at:
                raise tf.errors.AbortedError(None, None, "server restarted")
            if value >= limit:
                sv.request_stop()

        train.basic_train_loop(sv, step, args=(4,), kwargs={"abort_at": 2})
        # The aborted session was replaced by a fresh one (nothing was checkpointed, so it starts over).
        assert len(sessions) == 2 and all(s._closed for s in sessions)


def test_monitored_session_joins_hook_threads_and_reports_their_error():
    class BackgroundHook(train.SessionRunHook):
        def after_create_session(self, session, coord):
            def work():
                with coord.stop_on_exception():
                    raise ValueError("background failure")
            thread = threading.Thread(target=work)
            coord.register_thread(thread)
            thread.start()
            thread.join()

    with tf.Graph().as_default():
        c = tf.constant(1.0)
        with pytest.raises(ValueError, match="background failure"):
            with train.MonitoredSession(hooks=[BackgroundHook()]) as sess:
                assert sess.should_stop()  # the coordinator was stopped by the failing thread
                sess.run(c)
