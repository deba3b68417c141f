"""Run a training function on N Ray worker actors, restarting any that dies.

Each worker actor runs `fn(task_index)` in its own process with its own graph and Session; worker 0 is the
chief. When a worker process dies, the aggregator is aborted (the survivors' next step raises AbortedError and
their MonitoredSession recovers: the chief restores the last checkpoint, the others load the chief's variables)
and a new actor runs `fn` again for that task.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from ._ray import init_cluster, require_ray
from .aggregator import Aggregator
from .context import ReplicaContext, set_current

logger = logging.getLogger("edgelite.distribute")


class _Worker:
    """A Ray actor body: one replica process."""

    def pid(self) -> int:
        """This replica's process id, after importing the SDK so a spare starts training without delay."""
        import edgelite.train  # noqa: F401
        return os.getpid()

    def run(self, fn: Callable[[int], Any], task_index: int, num_workers: int, aggregator: Any,
            job_name: str) -> Any:
        set_current(ReplicaContext(task_index, num_workers, aggregator, job_name=job_name))
        limits = _one_blas_thread()
        try:
            return fn(task_index)
        finally:
            set_current(None)
            if limits is not None:
                limits.unregister()


def _one_blas_thread() -> Any:
    """Workers share the machine's cores; BLAS threads inside each would only compete."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(1)


@dataclass
class Job:
    """A running job as the driver sees it: worker actors, their process ids and the aggregator."""

    num_workers: int
    aggregator: Any
    job_name: str = "worker"
    workers: List[Any] = field(default_factory=list)
    pids: List[int] = field(default_factory=list)
    restarts: int = 0
    spares: List[Any] = field(default_factory=list)

    def stats(self) -> Dict[str, Any]:
        """The aggregator's global step, committed-step ledger, dropped stale gradients and aborts."""
        ray = require_ray()
        return ray.get(self.aggregator.stats.remote())


@dataclass
class JobResult:
    """What each worker's function returned, the restarts it took, and the aggregator's final counters."""

    results: List[Any]
    restarts: int
    stats: Dict[str, Any]


def run(fn: Callable[[int], Any], num_workers: int, address: Optional[str] = None, max_restarts: int = 20,
        cpus_per_worker: float = 1, spares: int = 1, on_poll: Optional[Callable[[Job], None]] = None,
        poll_secs: float = 0.05, job_name: str = "worker") -> JobResult:
    """Run `fn(task_index)` on `num_workers` replicas (worker 0 the chief) until all return.

    Starts a local Ray cluster unless Ray is running or `address` names one (and then shuts it down again).
    `spares` idle actors (reserving no CPU) wait with the SDK imported, to replace a dead worker at once.
    `on_poll(job)` is called between checks on the workers (monitoring, fault injection).
    """
    ray = require_ray()
    if num_workers < 1:
        raise ValueError(f"num_workers must be at least 1, got {num_workers}")
    started = init_cluster(num_workers, address)
    actor_cls = ray.remote(_Worker).options(num_cpus=cpus_per_worker)
    spare_cls = ray.remote(_Worker).options(num_cpus=0)
    job = Job(num_workers, None, job_name)
    try:
        job.aggregator = ray.remote(Aggregator).options(num_cpus=0, max_concurrency=2 * num_workers + 4).remote(
            num_workers)
        job.workers = [actor_cls.remote() for _ in range(num_workers)]
        job.pids = ray.get([w.pid.remote() for w in job.workers])
        job.spares = [spare_cls.remote() for _ in range(spares)]
        for spare in job.spares:
            spare.pid.remote()
        running = {job.workers[i].run.remote(fn, i, num_workers, job.aggregator, job_name): i
                   for i in range(num_workers)}
        results: Dict[int, Any] = {}
        while running:
            done, _ = ray.wait(list(running), num_returns=1, timeout=poll_secs)
            for ref in done:
                task = running.pop(ref)
                try:
                    results[task] = ray.get(ref)
                except ray.exceptions.RayActorError:
                    _restart(ray, job, spare_cls, fn, task, running, results, max_restarts)
            if on_poll is not None:
                on_poll(job)
        return JobResult([results[i] for i in range(num_workers)], job.restarts, job.stats())
    finally:
        for actor in job.workers + job.spares + [job.aggregator]:
            if actor is not None:
                ray.kill(actor)
        if started:
            ray.shutdown()


def _restart(ray: Any, job: Job, spare_cls: Any, fn: Callable[[int], Any], task: int, running: Dict[Any, int],
             results: Dict[int, Any], max_restarts: int) -> None:
    """Replace a dead worker by a spare (starting a new spare); workers that had already finished rejoin too,
    since the job rolls back to the last checkpoint."""
    job.restarts += 1
    if job.restarts > max_restarts:
        raise RuntimeError(f"edgelite.distribute: worker {task} died; giving up after {max_restarts} restarts")
    logger.warning("worker %d (pid %d) died; restarting it from the last checkpoint", task, job.pids[task])
    ray.get(job.aggregator.abort.remote())
    job.workers[task] = job.spares.pop(0) if job.spares else spare_cls.remote()
    job.pids[task] = ray.get(job.workers[task].pid.remote())
    job.spares.append(spare_cls.remote())
    job.spares[-1].pid.remote()
    for again in [task] + sorted(results):
        results.pop(again, None)
        running[job.workers[again].run.remote(fn, again, job.num_workers, job.aggregator, job.job_name)] = again
