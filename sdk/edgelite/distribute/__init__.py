"""edgelite.distribute: synchronous data-parallel training of SDK graphs on Ray workers.

`run(fn, num_workers)` runs `fn(task_index)` on Ray actors (worker 0 is the chief); a graph built there with
`tf.train.SyncReplicasOptimizer` averages its gradients over the replicas each step through a parameter-holder
actor. `train_recipe` does this for a model recipe. Ray is the optional `distributed` extra; without it every
entry point raises ImportError naming `pip install "edgelite[distributed]"`.
"""
from __future__ import annotations

from typing import Any

from ._ray import MISSING_RAY, require_ray
from .context import ReplicaContext, current


def run(*args: Any, **kwargs: Any) -> Any:
    """Run `fn(task_index)` on N Ray replicas and restart dead ones (see edgelite.distribute.job.run)."""
    require_ray()
    from .job import run as run_job
    return run_job(*args, **kwargs)


def train_recipe(*args: Any, **kwargs: Any) -> Any:
    """Train a model recipe on N Ray replicas (see edgelite.distribute.recipe_training.train_recipe)."""
    require_ray()
    from .recipe_training import train_recipe as train
    return train(*args, **kwargs)


__all__ = ["MISSING_RAY", "ReplicaContext", "current", "require_ray", "run", "train_recipe"]
