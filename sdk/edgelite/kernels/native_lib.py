"""libedgelite's training kernels (runtime_c/src/train) through cffi's ABI mode.

The declarations come from edgelite/train_kernels.h and train_kernels_f64.h (installed next to edgelite.h in a
wheel, read from the source tree otherwise) and the library is the one edgelite_runtime loaded. Any failure to
load leaves `handle()` None and the SDK on its numpy kernels; a library without the float64 kernels leaves
float64 on numpy (`Handle.f64` False).
"""
from __future__ import annotations

import contextlib
import importlib
import os
import threading
from typing import Any, Iterator, Optional

_API_VERSION = 2
_HEADER = "train_kernels.h"
_F64_API_VERSION = 1
_F64_HEADER = "train_kernels_f64.h"


class Handle:
    """The cffi ffi/lib pair and one el_train_kernels for the best ISA of this CPU and its threads."""

    def __init__(self, ffi: Any, lib: Any, kernels: Any, f64: bool = False) -> None:
        self.ffi = ffi
        self.lib = lib
        self.kernels = kernels
        self.f64 = f64
        self._has: dict = {}

    def has(self, name: str) -> bool:
        """Whether the loaded library exports `name` (kernels added later than the API version it reports)."""
        if name not in self._has:
            try:
                getattr(self.lib, name)
                self._has[name] = True
            except AttributeError:
                self._has[name] = False
        return self._has[name]

    def with_threads(self, threads: int) -> "Handle":
        """A kernel set on this library splitting its work over `threads` threads (its own pool)."""
        out = self.ffi.new("el_train_kernels **")
        if self.lib.el_train_kernels_create(self.ffi.NULL, threads, out) != 0:
            return self
        h = Handle(self.ffi, self.lib, self.ffi.gc(out[0], self.lib.el_train_kernels_destroy), self.f64)
        h._has = self._has
        return h

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
    return Handle(ffi, lib, ffi.gc(out[0], lib.el_train_kernels_destroy), _load_f64(ffi, lib, path.parent))


def _load_f64(ffi: Any, lib: Any, folder: Any) -> bool:
    """Declares the float64 kernels on `ffi`; True when the header is there and the library has them."""
    import cffi
    path = folder / _F64_HEADER
    if not path.is_file():
        return False
    runtime = importlib.import_module("edgelite_runtime._lib")
    try:
        ffi.cdef(runtime._cdef_from_header(path.read_text()))
        return lib.el_train_f64_api_version() == _F64_API_VERSION
    except (AttributeError, cffi.CDefError, cffi.FFIError):
        return False


_cache: dict = {}
_by_threads: dict = {}
_local = threading.local()
_lock = threading.Lock()


def handle() -> Optional[Handle]:
    """The loaded kernels, or None when libedgelite or its training kernels are not there (loaded once).

    Inside `threads_for_calls(n)` the kernel set has n threads (ConfigProto's intra_op_parallelism_threads);
    elsewhere EDGELITE_SDK_THREADS or one per CPU.
    """
    base = _cache.get("handle", _cache)
    if base is _cache:
        with _lock:
            if "handle" not in _cache:
                _cache["handle"] = _load()
        base = _cache["handle"]
    threads = _local.__dict__.get("threads")
    if not threads or base is None:
        return base
    h = _by_threads.get(threads)
    if h is None:
        with _lock:
            h = _by_threads.get(threads)
            if h is None:
                h = _by_threads[threads] = base if threads == base.threads else base.with_threads(threads)
    return h


@contextlib.contextmanager
def threads_for_calls(threads: int) -> Iterator[None]:
    """Makes this thread's kernel calls split their work over `threads` threads (0: the default) in the block."""
    before = getattr(_local, "threads", 0)
    _local.threads = max(int(threads), 0)
    try:
        yield
    finally:
        _local.threads = before
