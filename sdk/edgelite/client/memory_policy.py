"""Keeps freed step buffers in the process heap instead of handing them back to the OS after every kernel.

A training step allocates and frees the same large buffers (activations, gradients, the compiled kernels'
scratch) every step. glibc serves blocks above its mmap threshold (128 KiB at first) with fresh mappings and
returns freed heap tops beyond its trim threshold, so each step pays page faults and page zeroing again: about a
quarter of a digits CNN step and a sixth of a ResNet-8 step on one core. TensorFlow keeps its buffers in its own
allocator's pools; here glibc is asked to keep them (mallopt), once per process, when the first Session is made.
`EDGELITE_KEEP_FREED_MEMORY=0` leaves malloc as it is.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os

# mallopt parameters (malloc.h) and the values: blocks up to 32 MiB (glibc's largest mmap threshold on 64-bit)
# come from the heap, and up to 512 MiB of free heap top is kept.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_THRESHOLD = 32 << 20
_TRIM_THRESHOLD = 512 << 20

_done: dict = {}


def keep_freed_memory() -> bool:
    """Applies the policy once per process; True when glibc took both settings."""
    if "result" not in _done:
        _done["result"] = _apply()
    return _done["result"]


def _apply() -> bool:
    if os.environ.get("EDGELITE_KEEP_FREED_MEMORY", "1").strip() == "0":
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
        # glibc's mallopt only: musl and others have no such symbol or ignore it.
        if not hasattr(libc, "gnu_get_libc_version"):
            return False
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) & bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
