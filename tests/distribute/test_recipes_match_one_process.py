"""Two Ray replicas with SyncReplicasOptimizer train a recipe as one process does (same seed, same global batch)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")
def test_digits_cnn_two_replicas_equal_one_process(digits_runs):
    single, job, chief, other, one, two = digits_runs
    assert chief["global_step"] == single.history[-1]["global_step"] == 45
    assert job.stats["ledger"] == list(range(45)) and job.restarts == 0
    # Replicas hold the same variables, and the chief's checkpoint restores them.
    assert chief["weights_sha256"] == other["weights_sha256"] == chief["restored_sha256"]
    assert abs(chief["test"] - single.history[-1]["test_accuracy"]) <= 0.01
    np.testing.assert_allclose(two, one, atol=2e-3)


def test_resnet8_two_replicas_match_one_process(compare, tmp_path):
    single, job, chief, other, one, two = compare(tmp_path, "resnet8", {"input_size": 16}, epochs=1)
    assert chief["global_step"] == single.history[-1]["global_step"]
    # Batch-norm moving statistics are averaged across replicas each step, so the replicas stay equal.
    assert chief["weights_sha256"] == other["weights_sha256"]
    assert abs(chief["test"] - single.history[-1]["test_accuracy"]) <= 0.03
    # Batch norm normalizes each replica's half batch by its own statistics: close to, not equal to, one process.
    assert np.mean(np.abs(two - one)) < 0.05
