"""The per-interpreter mutex, with an uncontended path cheap enough for sub-microsecond calls.

threading.Lock's acquire parses its (blocking, timeout) arguments on every call, which costs about
as much as set_tensor's whole copy of a small tensor. CallLock holds one token in a list: taking it
is `tokens.pop()` and giving it back `tokens.append(TOKEN)`, each a single atomic operation, so the
hot paths (set_tensor, get_tensor, invoke, tensor views) inline them. A caller that finds the list
empty waits on a condition variable until the holder, seeing a waiter, signals it.
"""
from __future__ import annotations

import threading
from typing import Any, List

TOKEN = True
# A waiter re-checks at least this often (seconds): a safety net should a wake-up ever be missed,
# e.g. where no GIL orders the holder's append before its read of the waiter count.
_RECHECK = 0.01


class CallLock:
    """A non-reentrant mutex: `tokens` is empty while some thread holds it."""

    __slots__ = ("tokens", "waiters", "_cond")

    def __init__(self) -> None:
        self.tokens: List[bool] = [TOKEN]
        self.waiters = 0
        self._cond = threading.Condition(threading.Lock())

    def wait(self) -> None:
        """Block until the token is free and take it (the contended half of acquire)."""
        with self._cond:
            self.waiters += 1
            try:
                while True:
                    try:
                        self.tokens.pop()
                        return
                    except IndexError:
                        self._cond.wait(_RECHECK)
            finally:
                self.waiters -= 1

    def wake(self) -> None:
        """Signal one waiter (the contended half of release)."""
        with self._cond:
            self._cond.notify()

    def acquire(self) -> None:
        """Take the token, waiting while another thread holds it."""
        try:
            self.tokens.pop()
        except IndexError:
            self.wait()

    def release(self) -> None:
        """Give the token back and wake a waiter if there is one."""
        self.tokens.append(TOKEN)
        if self.waiters:
            self.wake()

    def __enter__(self) -> "CallLock":
        self.acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()
