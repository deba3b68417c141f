"""tf.train.Server on a Ray replica: names the replica's task in the cluster; the in-process session is the target.

A between-graph replication script creates `Server(cluster, job_name, task_index)` and passes `server.target`
to its session. Under `edgelite.distribute.run_cluster` each worker task is a Ray replica whose Session runs
in its own process; the ps tasks are not started (the parameter-holder actor does their work), so a script's
`if job_name == "ps": server.join()` branch is simply never taken.
"""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import errors

from . import context
from .cluster_spec import ClusterSpec


class Server:
    """An in-process server for one task of a cluster, checked against the Ray replica it runs in."""

    def __init__(self, server_or_cluster_def: Any, job_name: Optional[str] = None, task_index: Optional[int] = None,
                 protocol: Optional[str] = None, config: Any = None, start: bool = True) -> None:
        cluster = ClusterSpec(server_or_cluster_def)
        if job_name is None:
            if len(cluster.jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = cluster.jobs[0]
        if task_index is None:
            indices = cluster.task_indices(job_name)
            if len(indices) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = indices[0]
        try:
            address = cluster.task_address(job_name, task_index)
        except ValueError:
            raise errors.InternalError(None, None, f'Task {task_index} was not defined in job "{job_name}"') from None
        replica = context.current()
        if replica is not None and (job_name, task_index) != (replica.job_name, replica.task_index):
            raise ValueError(f"this Ray replica runs task {replica.task_index} of job {replica.job_name!r}, "
                             f"not task {task_index} of job {job_name!r}")
        self._cluster = cluster
        self._job_name = job_name
        self._task_index = int(task_index)
        self._protocol = protocol or "grpc"
        self._config = config
        self._target = f"{self._protocol}://{address}"

    @property
    def target(self) -> str:
        """The session target of this task (`grpc://<its address>`); sessions given it run in this process."""
        return self._target

    def start(self) -> None:
        """Start the server: an in-process server is serving once constructed, so nothing is left to do."""

    @staticmethod
    def create_local_server(config: Any = None, start: bool = True) -> "Server":
        """A single-task cluster (job "localhost") served in this process."""
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config, start=start)
