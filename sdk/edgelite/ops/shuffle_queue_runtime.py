"""TensorFlow's RandomShuffleQueue at run time, in its exact order for given seeds.

Each element is taken at (next 32-bit Philox sample) % size, the last element moving into its place;
min_after_dequeue elements stay back until the queue closes. Dequeues wait as attempts in arrival order and the
queue serves the oldest one whenever it changes (an enqueue added elements, a dequeue arrived, the queue
closed), inside the operation that changed it, as TensorFlow's kernel does: a waiting dequeue_many takes each
element it may the moment it may, before the next enqueue. On close a partly served batch goes back (last taken
first) and dequeue_up_to starts over on everything left.
"""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import errors

from .queue_runtime import QueueRuntime


class _Attempt:
    """A waiting dequeue: how many elements it still wants, what it took, and how it ended."""

    __slots__ = ("want", "up_to", "taken", "done", "error")

    def __init__(self, want: int, up_to: bool) -> None:
        self.want = want
        self.up_to = up_to
        self.taken: list = []
        self.done = False
        self.error: Optional[Exception] = None


class RandomShuffleRuntime(QueueRuntime):
    """A RandomShuffleQueue: rng is its Philox generator, attempts its waiting dequeues (oldest first)."""

    kind = "RandomShuffleQueue"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._attempts: list = []

    def _take(self) -> tuple:
        i = self.rng() % len(self._items)
        item = self._items[i]
        self._items[i] = self._items[-1]
        self._items.pop()
        return item

    def _ready_count(self) -> int:
        return max(0, len(self._items) - self.min_after_dequeue)

    def _progress(self, a: _Attempt) -> bool:
        """Serve attempt a as far as the queue allows; True once it has ended (served in full, or failed)."""
        size = len(self._items)
        if self.closed and size < a.want:
            self._items.extend(reversed(a.taken))
            if a.up_to and self._items:
                a.taken = []
                a.want = size = len(self._items)
            else:
                a.error = errors.OutOfRangeError(
                    None, None, f"{self.kind} '{self.name}' is closed and has insufficient elements "
                                f"(requested {a.want}, current size {size})")
                return True
        avail = min(a.want, size if self.closed else size - self.min_after_dequeue)
        if avail > 0:
            a.taken.extend(self._take() for _ in range(avail))
            a.want -= avail
        a.done = a.want == 0
        return a.done

    def _served(self) -> None:
        """Serve the waiting dequeues, oldest first, until one has to go on waiting."""
        while self._attempts and self._progress(self._attempts[0]):
            self._attempts.pop(0)
        self.cond.notify_all()

    def dequeue(self, run_lock: Any, n: Optional[int], up_to: bool = False) -> Any:
        if n == 0:
            return self._batch([])
        a = _Attempt(1 if n is None else n, up_to)

        def ready() -> Optional[list]:
            self._check_cancelled()
            if not (a.done or a.error or a in self._attempts):
                self._attempts.append(a)
                self._served()
            if a.error is not None:
                raise a.error
            return a.taken if a.done else None

        try:
            run_lock.wait_released(self.cond, ready)
        finally:
            with self.cond:
                if a in self._attempts:  # cancelled while waiting: it takes nothing more
                    self._attempts.remove(a)
        if n is None:
            return list(a.taken[0])
        return self._batch(a.taken)

    def close(self, cancel_pending_enqueues: bool) -> None:
        with self.cond:
            super().close(cancel_pending_enqueues)
            self._served()
