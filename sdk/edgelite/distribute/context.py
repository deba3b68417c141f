"""Which Ray replica this process is, if any: set by the worker actor, read by the training library.

Importing this module never imports Ray, so `edgelite.train` can ask it on every session without the extra.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class ReplicaContext:
    """One worker of a synchronous data-parallel job: its task index, the job size and the aggregator actor."""

    task_index: int
    num_workers: int
    aggregator: Any
    generation: int = 0
    job_name: str = "worker"

    @property
    def is_chief(self) -> bool:
        """Worker 0 is the chief: it initializes or restores, checkpoints and writes summaries."""
        return self.task_index == 0


_current: Optional[ReplicaContext] = None


def current() -> Optional[ReplicaContext]:
    """The replica this process runs, or None outside a distributed job."""
    return _current


def set_current(ctx: Optional[ReplicaContext]) -> None:
    """Enter (or with None, leave) a replica."""
    global _current
    _current = ctx
