"""Run a TF1 between-graph replication script's `main(job_name, task_index)` on Ray, one replica per worker task."""
from __future__ import annotations

import functools
from typing import Any, Callable

from .cluster_spec import ClusterSpec
from .job import JobResult, run


def _call_task(task_index: int, main: Callable[[str, int], Any], job_name: str) -> Any:
    return main(job_name, task_index)


def run_cluster(main: Callable[[str, int], Any], cluster: Any, job_name: str = "worker", **kwargs: Any) -> JobResult:
    """Call `main(job_name, i)` for every task i of `cluster`'s `job_name` job, each on its own Ray replica.

    Task 0 is the chief. The cluster's other jobs (ps) are not started: the parameter-holder actor does their
    work. `kwargs` go to edgelite.distribute.job.run (address, max_restarts, on_poll, ...).
    """
    spec = cluster if isinstance(cluster, ClusterSpec) else ClusterSpec(cluster)
    indices = spec.task_indices(job_name)
    if not indices or indices != list(range(len(indices))):
        raise ValueError(f"job {job_name!r} must have tasks 0..n-1 to run as Ray replicas, got {indices}")
    return run(functools.partial(_call_task, main=main, job_name=job_name), len(indices), job_name=job_name,
               **kwargs)
