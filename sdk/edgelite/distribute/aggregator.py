"""The parameter-holder of a synchronous job: gradient accumulators with a step, stale-gradient dropping, a
barrier per step, the chief's published state for (re)starting replicas, and the ledger of committed steps.

It is a plain class; `job.py` runs it as a threaded Ray actor, so replicas block in `push` while the driver can
still call `abort`. Every replica holds its own copy of the variables and applies the same averaged gradients
in the same order, so the copies stay equal without moving weights each step.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

ABORTED, READY, CONTINUE = "aborted", "ready", "continue"
_KEPT_STEPS = 4


class _Step:
    """The gradients accepted so far for one global step, kept per task so the sum has a fixed order."""

    def __init__(self) -> None:
        self.per_task: Dict[int, List[List[np.ndarray]]] = {}
        self.count = 0

    def add(self, task: int, values: List[np.ndarray]) -> None:
        self.per_task.setdefault(task, []).append(values)
        self.count += 1

    def contributions(self, task: int) -> int:
        return len(self.per_task.get(task, ()))

    def mean(self) -> List[np.ndarray]:
        """Summed in task order, whatever order the pushes came in: a restarted run repeats the same bits."""
        pushes = [values for task in sorted(self.per_task) for values in self.per_task[task]]
        sums = [np.array(v, copy=True) for v in pushes[0]]
        for values in pushes[1:]:
            for total, v in zip(sums, values):
                total += v
        return [(s / s.dtype.type(self.count)).astype(s.dtype) for s in sums]


class Aggregator:
    """Averages the replicas' gradients per global step; aborting bumps the generation and frees every waiter."""

    def __init__(self, num_workers: int) -> None:
        self._num_workers = num_workers
        self._cond = threading.Condition()
        self._generation = 0
        self._step = 0
        self._pending = _Step()
        self._done: Dict[int, List[np.ndarray]] = {}
        self._served: Dict[int, set] = {}
        self._start_step = 0
        self._state: Optional[Tuple[int, int, Dict[str, np.ndarray]]] = None
        self._ledger: List[int] = []
        self._commit_times: List[float] = []
        self._dropped = 0
        self._averaged = 0
        self._aborts = 0

    # ---- driver side ----------------------------------------------------------------------------------
    def abort(self) -> int:
        """A replica died: every replica must rejoin from the chief's next published state."""
        with self._cond:
            self._generation += 1
            self._aborts += 1
            self._state = None
            self._pending = _Step()
            self._cond.notify_all()
            return self._generation

    def stats(self) -> Dict[str, Any]:
        """Global step, committed-step ledger (with each commit's wall-clock time), gradients averaged into
        commits, dropped stale gradients and aborts so far."""
        with self._cond:
            return {"step": self._step, "ledger": list(self._ledger), "commit_times": list(self._commit_times),
                    "averaged": self._averaged, "dropped": self._dropped, "aborts": self._aborts,
                    "generation": self._generation}

    # ---- replica side ---------------------------------------------------------------------------------
    def publish_state(self, step: int, values: Dict[str, np.ndarray]) -> int:
        """The chief's variables after init or restore: the job continues from `step`.

        Steps at or after `step` committed before a failure are forgotten, so none is counted twice.
        """
        with self._cond:
            self._state = (self._generation, step, values)
            self._step = self._start_step = step
            self._pending = _Step()
            self._done.clear()
            self._served.clear()
            kept = [i for i, s in enumerate(self._ledger) if s < step]
            self._ledger = [self._ledger[i] for i in kept]
            self._commit_times = [self._commit_times[i] for i in kept]
            self._cond.notify_all()
            return self._generation

    def fetch_state(self) -> Tuple[int, int, Dict[str, np.ndarray]]:
        """Wait for the chief's state of the current generation (a non-chief replica's start)."""
        with self._cond:
            while self._state is None or self._state[0] != self._generation:
                self._cond.wait(1.0)
            return self._state

    def push(self, generation: int, task: int, local_step: int, values: List[np.ndarray],
             replicas_to_aggregate: int, total_num_replicas: int) -> Tuple[str, int, List[np.ndarray]]:
        """A replica's gradients (and averaged state) for `local_step`; returns the step's average when done.

        CONTINUE means: compute another batch on the same variables (fewer replicas than gradients needed).
        """
        with self._cond:
            if generation != self._generation:
                return ABORTED, self._step, []
            if local_step < self._step:
                self._dropped += 1
                return self._serve(task, local_step)
            if local_step > self._step:
                return ABORTED, self._step, []
            self._pending.add(task, values)
            quota = math.ceil(replicas_to_aggregate / max(1, total_num_replicas))
            self._try_complete(replicas_to_aggregate)
            while self._step <= local_step:
                if generation != self._generation:
                    return ABORTED, self._step, []
                if self._pending.contributions(task) < quota and self._pending.count < replicas_to_aggregate:
                    return CONTINUE, local_step, []
                self._cond.wait(1.0)
                self._try_complete(replicas_to_aggregate)
            return self._serve(task, local_step)

    def _try_complete(self, replicas_to_aggregate: int) -> None:
        """Close the step once enough gradients are in and every replica has taken the previous average."""
        previous_taken = (self._step == self._start_step
                          or len(self._served.get(self._step - 1, ())) >= self._num_workers)
        if self._pending.count < replicas_to_aggregate or not previous_taken:
            return
        self._done[self._step] = self._pending.mean()
        self._averaged += self._pending.count
        self._done.pop(self._step - _KEPT_STEPS, None)
        self._served.pop(self._step - _KEPT_STEPS, None)
        self._ledger.append(self._step)
        self._commit_times.append(time.time())
        self._step += 1
        self._pending = _Step()
        self._cond.notify_all()

    def _serve(self, task: int, step: int) -> Tuple[str, int, List[np.ndarray]]:
        mean = self._done.get(step)
        if mean is None:
            return ABORTED, self._step, []
        self._served.setdefault(step, set()).add(task)
        self._cond.notify_all()
        return READY, step + 1, mean
