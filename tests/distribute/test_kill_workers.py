"""Worker processes killed at 5 random steps: the job restarts them from the last checkpoint and finishes with
exactly the variables of an uninterrupted run (no step lost, none applied twice)."""
from __future__ import annotations

import os
import random
import signal
import time

import pytest

pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")

from edgelite.distribute.recipe_training import RecipeRun, train_recipe  # noqa: E402


class _Killer:
    """Kills the process of a chosen worker as soon as the job's global step reaches each chosen step.

    The next kill waits until the job has replaced the last victim and committed a step since, so every kill
    hits a live worker of a running job.
    """

    def __init__(self, steps, victims) -> None:
        self.plan = list(zip(steps, victims))
        self.killed = []
        self.last_kill = 0.0

    def __call__(self, job) -> None:
        if not self.plan or job.restarts != len(self.killed):
            return
        stats = job.stats()
        if not stats["commit_times"] or stats["commit_times"][-1] <= self.last_kill:
            return
        target, task = self.plan[0]
        if stats["step"] >= target:
            os.kill(job.pids[task], signal.SIGKILL)
            self.last_kill = time.time()
            self.killed.append((stats["step"], task))
            self.plan.pop(0)


def test_five_kills_resume_without_losing_or_repeating_steps(digits_runs, tmp_path):
    _, reference, ref_chief, _, _, _ = digits_runs
    rng = random.Random(28)
    # Targets leave at least 15 of the 45 steps after the last one, so a fast machine cannot finish first.
    steps = sorted(rng.sample(range(3, 31), 5))
    victims = [0] + [rng.randrange(2) for _ in range(4)]  # the chief at least once
    killer = _Killer(steps, victims)
    spec = RecipeRun("digits_cnn", {}, str(tmp_path), num_workers=2, epochs=1, save_checkpoint_steps=5)
    job = train_recipe(spec, on_poll=killer, poll_secs=0.01)
    chief, other = job.results
    assert len(killer.killed) == 5 and job.restarts == 5
    assert job.stats["aborts"] == 5
    # Every global step is committed exactly once in the surviving history, and the job ends at the last one.
    assert job.stats["ledger"] == list(range(45))
    assert chief["global_step"] == 45 and chief["checkpoint"].endswith("model.ckpt-45")
    # The final checkpoint restores the replicas' variables, which equal the uninterrupted run's bit for bit.
    assert chief["restored_sha256"] == chief["weights_sha256"] == other["weights_sha256"]
    assert chief["weights_sha256"] == ref_chief["weights_sha256"]
    assert chief["test"] == ref_chief["test"]
