"""The switch of the executor's plan rewrites: ops that compute nothing sharing their input's slot, shape
arithmetic remembered between runs, and elementwise chains fused into one step.

`EDGELITE_LEAN_PLAN=0` (or `enabled(False)`) builds plans with one plain kernel call per op instead: the
reference the rewrites are tested against, since they must give the same bits.
"""
from __future__ import annotations

import contextlib
import os
from typing import Iterator

_state = {"on": os.environ.get("EDGELITE_LEAN_PLAN", "1").strip() != "0"}


def active() -> bool:
    """Whether plans built from now on use the rewrites."""
    return _state["on"]


@contextlib.contextmanager
def enabled(on: bool) -> Iterator[None]:
    """Builds the plans of a block with the rewrites on or off (plans already built keep theirs)."""
    before = _state["on"]
    _state["on"] = bool(on)
    try:
        yield
    finally:
        _state["on"] = before
