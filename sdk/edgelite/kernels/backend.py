"""Which implementation the SDK's hot kernels run: libedgelite's compiled float32 / float64 kernels or numpy.

`EDGELITE_SDK_KERNELS=numpy|native` sets the starting choice (native by default); `select` and `using`
change it at run time. numpy stays the portable reference: it runs every dtype and layout, and it runs
everything when libedgelite cannot be loaded (then "native" quietly means numpy).
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator, Optional

import numpy as np

from . import native_lib

CHOICES = ("native", "numpy")
_ENV = "EDGELITE_SDK_KERNELS"


def _initial() -> str:
    value = os.environ.get(_ENV, "native").strip().lower() or "native"
    return value if value in CHOICES else "native"


_state = {"choice": _initial()}
_FLOAT32 = np.dtype(np.float32)
_FLOAT64 = np.dtype(np.float64)


def select(name: str) -> None:
    """Makes `name` ("native" or "numpy") the kernels the SDK runs from now on."""
    if name not in CHOICES:
        raise ValueError(f"SDK kernels must be one of {CHOICES}, got {name!r}")
    _state["choice"] = name


def selected() -> str:
    """The kernels asked for ("native" or "numpy"); see `native_available` for whether native can run."""
    return _state["choice"]


@contextlib.contextmanager
def using(name: str) -> Iterator[None]:
    """Runs a block with the given kernels selected, restoring the previous choice after it."""
    before = selected()
    select(name)
    try:
        yield
    finally:
        select(before)


def native_available() -> bool:
    """True when libedgelite's training kernels load."""
    return native_lib.handle() is not None


def native_for(*arrays: np.ndarray) -> Optional[Any]:
    """The native kernel handle when native kernels are selected, loadable and every array is float32, or
    every array is float64 and the library has the float64 kernels."""
    if _state["choice"] != "native":
        return None
    dtype = arrays[0].dtype if arrays else _FLOAT32
    for a in arrays:
        if a.dtype != dtype:
            return None
    if dtype == _FLOAT32:
        return native_lib.handle()
    if dtype != _FLOAT64:
        return None
    h = native_lib.handle()
    return h if h is not None and h.f64 else None
