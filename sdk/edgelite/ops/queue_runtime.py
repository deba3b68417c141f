"""The run-time side of TF's queues: a bounded, thread-safe store of tuples shared by the session's steps.

Enqueue waits while the queue is full and dequeue while it holds too few elements; both lend the
session's run lock out while they wait (client/run_lock.py), so a step blocked on a queue never stops
the queue runners that would unblock it. Closing fails the waiting dequeues that can no longer be
served (OutOfRangeError) and, with cancel_pending_enqueues, the waiting enqueues (CancelledError);
closing the session cancels everything that still waits.
"""
from __future__ import annotations

import heapq
import threading
from typing import Any, Optional

import numpy as np

from edgelite.framework import errors


class QueueRuntime:
    """FIFO order; subclasses pick a different element to hand out or pad batches."""

    kind = "FIFOQueue"

    def __init__(self, name: str, capacity: int, shapes: list, rng: Any = None, min_after_dequeue: int = 0) -> None:
        self.name = name
        self.capacity = capacity
        self.shapes = shapes
        self.rng = rng
        self.min_after_dequeue = min_after_dequeue
        self.cond = threading.Condition()
        self.closed = False
        self.cancelled = False
        self.cancel_enqueues = False
        self._items: list = []

    # ---- storage (called with cond held) -----------------------------------------------------------
    def __len__(self) -> int:
        return len(self._items)

    def _put(self, item: tuple) -> None:
        self._items.append(item)

    def _take(self) -> tuple:
        return self._items.pop(0)

    def _ready_count(self) -> int:
        """How many elements a dequeue may take now."""
        return len(self._items)

    def _served(self) -> None:
        """Called (cond held) after an enqueue added elements: a queue that serves waiting dequeues itself, as
        TensorFlow's do, hands them out here, before the enqueue adds more."""

    def _batch(self, items: list) -> list:
        """Stack n dequeued tuples into one array per component."""
        if not items:
            return [np.zeros((0,) + tuple(d or 0 for d in (s or ())), dtype=object) for s in self.shapes]
        out = []
        for c in range(len(items[0])):
            parts = [it[c] for it in items]
            if any(p.shape != parts[0].shape for p in parts):
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch in tuple component {c}. Expected {list(parts[0].shape)}, got "
                                f"{list(next(p.shape for p in parts if p.shape != parts[0].shape))}")
            out.append(np.stack(parts))
        return out

    # ---- waiting -----------------------------------------------------------------------------------------
    def _check_cancelled(self) -> None:
        if self.cancelled:
            raise errors.CancelledError(None, None, f"{self.kind} '{self.name}' was cancelled (its session was "
                                                    "closed).")

    def _closed_error(self, requested: int) -> errors.OutOfRangeError:
        return errors.OutOfRangeError(
            None, None, f"{self.kind} '{self.name}' is closed and has insufficient elements (requested {requested}, "
                        f"current size {len(self._items)})")

    def enqueue(self, run_lock: Any, items: list) -> None:
        """Add tuples one by one, waiting for room; a closed queue refuses them (CancelledError)."""
        pending = list(items)
        # An enqueue already waiting when the queue closes still completes unless the close cancels it.
        arrived_open: list = []

        def ready() -> Optional[bool]:
            self._check_cancelled()
            if not arrived_open:
                arrived_open.append(not self.closed)
            if self.closed and (self.cancel_enqueues or not arrived_open[0]):
                raise errors.CancelledError(None, None, f"{self.kind} '{self.name}' is closed.")
            while pending and len(self._items) < self.capacity:
                while pending and len(self._items) < self.capacity:
                    self._put(pending.pop(0))
                self._served()
                self.cond.notify_all()
            return True if not pending else None

        run_lock.wait_released(self.cond, ready)

    def dequeue(self, run_lock: Any, n: Optional[int], up_to: bool = False) -> Any:
        """One tuple (n None), exactly n tuples, or with up_to between 1 and n once the queue is closed."""
        want = 1 if n is None else n

        def ready() -> Optional[list]:
            self._check_cancelled()
            avail = len(self._items) if self.closed else self._ready_count()
            if avail >= want:
                return [self._take() for _ in range(want)]
            if self.closed:
                if up_to and avail > 0:
                    return [self._take() for _ in range(avail)]
                raise self._closed_error(want)
            return None

        taken = run_lock.wait_released(self.cond, ready)
        with self.cond:
            self.cond.notify_all()
        if n is None:
            return list(taken[0])
        return self._batch(taken)

    def close(self, cancel_pending_enqueues: bool) -> None:
        with self.cond:
            self.closed = True
            self.cancel_enqueues = self.cancel_enqueues or cancel_pending_enqueues
            self.cond.notify_all()

    def cancel(self) -> None:
        """Fail every waiting and later operation (the session is closing)."""
        with self.cond:
            self.cancelled = True
            self.closed = True
            self.cond.notify_all()


class PaddingFIFORuntime(QueueRuntime):
    """FIFO whose batches pad each component to the largest shape in the batch (zeros or empty strings)."""

    kind = "PaddingFIFOQueue"

    def _batch(self, items: list) -> list:
        if not items:
            return super()._batch(items)
        out = []
        for c in range(len(items[0])):
            parts = [it[c] for it in items]
            shape = tuple(max(p.shape[d] for p in parts) for d in range(parts[0].ndim))
            arr = np.zeros((len(parts),) + shape, dtype=parts[0].dtype)
            if arr.dtype == object:
                arr[...] = b""
            for i, p in enumerate(parts):
                arr[(i,) + tuple(slice(0, k) for k in p.shape)] = p
            out.append(arr)
        return out


class PriorityRuntime(QueueRuntime):
    """Hands out the element with the smallest int64 priority (its first component) first."""

    kind = "PriorityQueue"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seq = 0

    def _put(self, item: tuple) -> None:
        self._seq += 1
        heapq.heappush(self._items, (int(item[0]), self._seq, item))

    def _take(self) -> tuple:
        return heapq.heappop(self._items)[2]
