"""Two Ray replicas with SyncReplicasOptimizer train a recipe as one process does (same seed, same global batch)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")

import edgelite as tf  # noqa: E402
from edgelite import models  # noqa: E402
from edgelite.distribute.recipe_training import RecipeRun, make_recipe, train_recipe  # noqa: E402
from edgelite.models.training import train  # noqa: E402


def _test_probabilities(recipe, checkpoint: str, x: np.ndarray) -> np.ndarray:
    g = recipe.build_inference(batch_size=None)
    with tf.Session(graph=g.graph) as sess:
        g.saver.restore(sess, checkpoint)
        return sess.run(g.outputs, {g.x: x})


def _compare(tmp_path, recipe_name: str, params: dict, epochs: int):
    spec = RecipeRun(recipe_name, params, str(tmp_path / "two"), num_workers=2, epochs=epochs)
    recipe = make_recipe(spec)
    single = train(recipe, tmp_path / "one", epochs=epochs, progress=False, log=lambda line: None)
    job = train_recipe(spec)
    chief, other = job.results
    data = recipe.data(0)
    one = _test_probabilities(recipe, single.checkpoint, data.x_test)
    two = _test_probabilities(recipe, chief["checkpoint"], data.x_test)
    return single, job, chief, other, one, two


def test_digits_cnn_two_replicas_equal_one_process(ray_cluster, tmp_path):
    single, job, chief, other, one, two = _compare(tmp_path, "digits_cnn", {}, epochs=2)
    assert chief["global_step"] == single.history[-1]["global_step"] == 90
    assert job.stats["ledger"] == list(range(90)) and job.restarts == 0
    # Replicas hold the same variables, and the chief's checkpoint restores them.
    assert chief["weights_sha256"] == other["weights_sha256"] == chief["restored_sha256"]
    assert abs(chief["test"] - single.history[-1]["test_accuracy"]) <= 0.01
    np.testing.assert_allclose(two, one, atol=2e-3)


def test_resnet8_two_replicas_match_one_process(ray_cluster, tmp_path):
    single, job, chief, other, one, two = _compare(tmp_path, "resnet8", {"input_size": 16}, epochs=1)
    assert chief["global_step"] == single.history[-1]["global_step"]
    # Batch-norm moving statistics are averaged across replicas each step, so the replicas stay equal.
    assert chief["weights_sha256"] == other["weights_sha256"]
    assert abs(chief["test"] - single.history[-1]["test_accuracy"]) <= 0.03
    # Batch norm normalizes each replica's half batch by its own statistics: close to, not equal to, one process.
    assert np.mean(np.abs(two - one)) < 0.05
