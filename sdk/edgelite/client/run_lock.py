"""The lock a session holds while a step runs, which a blocking kernel (a queue dequeue) can lend out.

A step that waits on a queue must let other threads' steps (the queue runners filling it) run, so the
waiting kernel releases the session's lock for as long as it waits and takes it back afterwards.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Optional


class RunLock:
    """A mutex that knows which thread holds it, so that holder alone can lend it out while waiting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: Optional[int] = None

    def __enter__(self) -> "RunLock":
        self._lock.acquire()
        self._owner = threading.get_ident()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._owner = None
        self._lock.release()

    def held_by_me(self) -> bool:
        """Whether the calling thread holds the lock."""
        return self._owner == threading.get_ident()

    def wait_released(self, cond: threading.Condition, ready: Callable[[], Any], timeout: float = 0.5) -> Any:
        """Wait on cond until ready() returns something other than None, without holding this lock meanwhile.

        ready() runs with cond held and may raise to end the wait. Called with cond NOT held; the lock
        is re-taken (outside cond, keeping the lock-then-cond order) before ready() is tried again.
        """
        mine = self.held_by_me()
        while True:
            lent = False
            try:
                with cond:
                    result = ready()
                    if result is not None:
                        return result
                    if mine:
                        self._owner = None
                        self._lock.release()
                        lent = True
                    cond.wait(timeout)
            finally:
                if lent:
                    self._lock.acquire()
                    self._owner = threading.get_ident()
