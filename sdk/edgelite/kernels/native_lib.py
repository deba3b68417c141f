"""libedgelite's float32 training kernels (runtime_c/src/train) through cffi's ABI mode.

The declarations come from edgelite/train_kernels.h (installed next to edgelite.h in a wheel, read from the
source tree otherwise) and the library is the one edgelite_runtime loaded. Any failure to load leaves
`handle()` None and the SDK on its numpy kernels.
"""
from __future__ import annotations

import importlib
import os
from typing import Any, Optional

_API_VERSION = 2
_HEADER = "train_kernels.h"


class Handle:
    """The cffi ffi/lib pair and one el_train_kernels for the best ISA of this CPU and its threads."""

    def __init__(self, ffi: Any, lib: Any, kernels: Any) -> None:
        self.ffi = ffi
        self.lib = lib
        self.kernels = kernels

    @property
    def threads(self) -> int:
        """Threads the kernels split their work over (the caller included)."""
        return int(self.lib.el_train_kernels_threads(self.kernels))

    @property
    def isa(self) -> str:
        """The instruction-set level the kernels run at ("avx512", "avx2", "scalar", ...)."""
        return self.ffi.string(self.lib.el_train_kernels_isa(self.kernels)).decode()


def _threads() -> int:
    """EDGELITE_SDK_THREADS, else one thread per CPU this process may run on (results do not depend on it)."""
    value = os.environ.get("EDGELITE_SDK_THREADS", "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _load() -> Optional[Handle]:
    try:
        import cffi
        # The module, not the package attribute of the same name (which is its cffi lib).
        runtime = importlib.import_module("edgelite_runtime._lib")
    except (ImportError, OSError):
        return None
    path = runtime.HEADER_PATH.parent / _HEADER
    if not path.is_file():
        return None
    try:
        ffi = cffi.FFI()
        ffi.include(runtime.ffi)
        ffi.cdef(runtime._cdef_from_header(path.read_text()))
        lib = ffi.dlopen(runtime.LIBRARY_PATH)
        if lib.el_train_api_version() != _API_VERSION:
            return None
        out = ffi.new("el_train_kernels **")
        if lib.el_train_kernels_create(ffi.NULL, _threads(), out) != 0:
            return None
    except (AttributeError, OSError, cffi.CDefError, cffi.FFIError):
        return None
    return Handle(ffi, lib, ffi.gc(out[0], lib.el_train_kernels_destroy))


_cache: dict = {}


def handle() -> Optional[Handle]:
    """The loaded kernels, or None when libedgelite or its training kernels are not there (loaded once)."""
    if "handle" not in _cache:
        _cache["handle"] = _load()
    return _cache["handle"]
