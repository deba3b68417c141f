"""tf.train.ClusterSpec: a cluster as jobs of tasks with network addresses (TensorFlow's class and errors).

Under edgelite.distribute the addresses are not dialled: `run_cluster` starts one Ray replica per task of the
worker job, and the ps job's role (holding shared state) is played by the parameter-holder actor.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

_BAD_CLUSTER = ("`cluster` must be a dictionary mapping one or more job names to lists of network addresses, "
                "or a `ClusterDef` protocol buffer")


def _tasks(job_name: str, tasks: Any) -> Dict[int, str]:
    if isinstance(tasks, (list, tuple)):
        indexed = dict(enumerate(tasks))
    elif isinstance(tasks, dict):
        indexed = {int(i): address for i, address in tasks.items()}
    else:
        raise TypeError(f"The tasks for job {job_name!r} must be a list or a dictionary from integers to strings.")
    for i, address in indexed.items():
        if not isinstance(address, (str, bytes)):
            raise TypeError(f"Task address {address!r} must be bytes or unicode")
        indexed[i] = address.decode() if isinstance(address, bytes) else address
    return indexed


class ClusterSpec:
    """Represents a cluster as a set of "tasks", organized into "jobs"."""

    def __init__(self, cluster: Union[Dict[str, Any], "ClusterSpec"]) -> None:
        if isinstance(cluster, ClusterSpec):
            self._cluster_spec = {job: dict(tasks) for job, tasks in cluster._cluster_spec.items()}
        elif isinstance(cluster, dict):
            self._cluster_spec = {job: _tasks(job, tasks) for job, tasks in cluster.items()}
        else:
            raise TypeError(_BAD_CLUSTER)

    def __bool__(self) -> bool:
        return bool(self._cluster_spec)

    __nonzero__ = __bool__

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, ClusterSpec):
            return self._cluster_spec == other._cluster_spec
        return self._cluster_spec == other

    def __ne__(self, other: Any) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return f"ClusterSpec({self.as_dict()!r})"

    __repr__ = __str__

    @property
    def jobs(self) -> List[str]:
        """The job names, in the order they were given."""
        return list(self._cluster_spec)

    def _job(self, job_name: str) -> Dict[int, str]:
        try:
            return self._cluster_spec[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def as_dict(self) -> Dict[str, Any]:
        """job -> list of addresses when its task indices are 0..n-1, else job -> {task index: address}."""
        out: Dict[str, Any] = {}
        for job in self.jobs:
            indices = self.task_indices(job)
            if not indices:
                out[job] = {}
            elif max(indices) + 1 == len(indices):
                out[job] = self.job_tasks(job)
            else:
                out[job] = {i: self.task_address(job, i) for i in indices}
        return out

    def num_tasks(self, job_name: str) -> int:
        """How many tasks `job_name` has."""
        return len(self._job(job_name))

    def task_indices(self, job_name: str) -> List[int]:
        """The task indices of `job_name`, ascending."""
        return sorted(self._job(job_name))

    def task_address(self, job_name: str, task_index: int) -> str:
        """The address of one task."""
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name: str) -> List[Optional[str]]:
        """Addresses by task index, None where a sparse job has no task."""
        job = self._job(job_name)
        if not job:
            return []
        return [job.get(i) for i in range(max(job) + 1)]
