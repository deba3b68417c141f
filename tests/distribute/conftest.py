"""One small local Ray cluster for the distributed tests, always shut down (also when a test fails), and the
single-process vs two-replica comparison the tests share."""
from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024)
    try:
        yield ray
    finally:
        ray.shutdown()


def _test_probabilities(recipe, checkpoint: str, x: np.ndarray) -> np.ndarray:
    import edgelite as tf
    g = recipe.build_inference(batch_size=None)
    with tf.Session(graph=g.graph) as sess:
        g.saver.restore(sess, checkpoint)
        return sess.run(g.outputs, {g.x: x})


def _compare(tmp_path, recipe_name: str, params: dict, epochs: int):
    """Train in one process and on two replicas; the runs, and both models' test-set probabilities."""
    from edgelite.distribute.recipe_training import RecipeRun, make_recipe, train_recipe
    from edgelite.models.training import train
    spec = RecipeRun(recipe_name, params, str(tmp_path / "two"), num_workers=2, epochs=epochs)
    recipe = make_recipe(spec)
    single = train(recipe, tmp_path / "one", epochs=epochs, progress=False, log=lambda line: None)
    job = train_recipe(spec)
    chief, other = job.results
    data = recipe.data(0)
    one = _test_probabilities(recipe, single.checkpoint, data.x_test)
    two = _test_probabilities(recipe, chief["checkpoint"], data.x_test)
    return single, job, chief, other, one, two


@pytest.fixture(scope="session")
def compare(ray_cluster):
    return _compare


@pytest.fixture(scope="session")
def digits_runs(ray_cluster, tmp_path_factory):
    """digits CNN, 1 epoch (45 steps of 32), in one process and on two replicas; shared with the kill test."""
    return _compare(tmp_path_factory.mktemp("digits"), "digits_cnn", {}, epochs=1)
