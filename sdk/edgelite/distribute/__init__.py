"""edgelite.distribute: synchronous data-parallel training of SDK graphs on Ray workers.

`run(fn, num_workers)` runs `fn(task_index)` on Ray actors (worker 0 is the chief); a graph built there with
`tf.train.SyncReplicasOptimizer` averages its gradients over the replicas each step through a parameter-holder
actor. `run_cluster` runs a TF1 between-graph replication script (ClusterSpec, Server, replica_device_setter)
that way, and `train_recipe` a model recipe. Ray is the optional `distributed` extra; without it every
entry point raises ImportError naming `pip install "edgelite[distributed]"`.
"""
from __future__ import annotations

from typing import Any

from ._ray import MISSING_RAY, require_ray
from .cluster_spec import ClusterSpec
from .device_setter import replica_device_setter
from .server import Server


def run(*args: Any, **kwargs: Any) -> Any:
    """Run `fn(task_index)` on N Ray replicas and restart dead ones (see edgelite.distribute.job.run)."""
    require_ray()
    from .job import run as run_job
    return run_job(*args, **kwargs)


def run_cluster(*args: Any, **kwargs: Any) -> Any:
    """Run a between-graph replication script's main(job_name, task_index) on one Ray replica per worker task
    (see edgelite.distribute.cluster_run.run_cluster)."""
    require_ray()
    from .cluster_run import run_cluster as run_tasks
    return run_tasks(*args, **kwargs)


def train_recipe(*args: Any, **kwargs: Any) -> Any:
    """Train a model recipe on N Ray replicas (see edgelite.distribute.recipe_training.train_recipe)."""
    require_ray()
    from .recipe_training import train_recipe as train
    return train(*args, **kwargs)


__all__ = ["MISSING_RAY", "ClusterSpec", "Server", "replica_device_setter", "require_ray", "run", "run_cluster",
           "train_recipe"]
