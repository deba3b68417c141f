"""SIGKILL a process that saves in a loop at random moments: the state file must always name a whole checkpoint."""
from __future__ import annotations

import os
import random
import signal
import time

import numpy as np
import pytest

import edgelite as tf
from edgelite.ops.variables import Variable
from edgelite import train
from edgelite.checkpoint import BundleReader

KILLS = 100
SHAPES = {"layer/kernel": (256, 256), "layer/bias": (256,), "embedding": (512, 64)}


def _value(name: str, step: int) -> np.ndarray:
    """What variable `name` holds when checkpoint `step` is written: a function of both, so mixes show."""
    seed = sum(map(ord, name))
    return np.full(SHAPES[name], step * 1000 + seed, dtype=np.float32)


def _child(directory: str) -> None:
    """Resumes from the newest checkpoint and saves forever with max_to_keep=3 (runs in a forked process)."""
    with tf.Graph().as_default():
        variables = {n: Variable(np.zeros(s, np.float32), name=n) for n, s in SHAPES.items()}
        saver = train.Saver(variables, max_to_keep=3)
        with tf.Session() as sess:
            step = 0
            state = train.get_checkpoint_state(directory)
            if state is not None:
                saver.recover_last_checkpoints(state.all_model_checkpoint_paths)
                step = int(state.model_checkpoint_path.rsplit("-", 1)[1])
            while True:
                step += 1
                for n, v in variables.items():
                    v.load(_value(n, step), sess)
                saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=step)


def _check_directory(directory: str, restorer, variables, sess) -> int:
    state = train.get_checkpoint_state(directory)
    if state is None:
        return 0
    for path in state.all_model_checkpoint_paths:  # every listed checkpoint is whole and readable
        with BundleReader(path) as reader:
            for name in SHAPES:
                step = int(path.rsplit("-", 1)[1])
                np.testing.assert_array_equal(reader.get(name), _value(name, step))
    latest = train.latest_checkpoint(directory)
    assert latest == state.model_checkpoint_path
    step = int(latest.rsplit("-", 1)[1])
    restorer.restore(sess, latest)
    for name, v in variables.items():
        np.testing.assert_array_equal(sess.run(v), _value(name, step))
    return step


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork to kill a saving child cheaply")
def test_sigkill_during_saves_never_corrupts_latest(tmp_path):
    directory = str(tmp_path)
    rng = random.Random(20261122)
    steps = []
    with tf.Graph().as_default():
        variables = {n: Variable(np.zeros(s, np.float32), name=n) for n, s in SHAPES.items()}
        restorer = train.Saver(variables)
        with tf.Session() as sess:
            # On a loaded machine a child may be killed before its first save many times over: keep
            # killing past KILLS (for at most a minute) until enough saves completed to exercise the protocol.
            # Kills that land before the child's first save (its start-up is slow under load) lengthen the
            # next wait, so the kill moments keep falling inside the save loop.
            deadline = time.monotonic() + 60.0
            stalls = 0
            while len(steps) < KILLS or ((steps[-1] < 10) and time.monotonic() < deadline):
                pid = os.fork()
                if pid == 0:  # pragma: no cover - the child never returns
                    try:
                        _child(directory)
                    finally:
                        os._exit(1)
                time.sleep(rng.uniform(0.0, 0.1) + min(2.0, 0.05 * stalls))
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                assert os.WIFSIGNALED(status), "the saving child died on its own"
                step = _check_directory(directory, restorer, variables, sess)
                stalls = stalls + 1 if steps and step == steps[-1] else 0
                steps.append(step)
    assert steps == sorted(steps), "a kill lost checkpoints that were already recorded"
    assert steps[-1] >= 10, f"too few saves completed to exercise the protocol ({steps[-1]})"
    assert len(train.get_checkpoint_state(directory).all_model_checkpoint_paths) <= 3
