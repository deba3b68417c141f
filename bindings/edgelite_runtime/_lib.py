"""Loads libedgelite through cffi's ABI mode, with the cdef read from the public C header.

ABI mode needs no compiled Python extension, so the binding runs wherever cffi does. The one call
whose cost matters on tiny models, invoke, goes through edgelite_runtime._fastcall when the wheel
has it (an abi3 cffi API-mode trampoline, bindings/fastcall_source.py); EDGELITE_FASTCALL=0
keeps every call in ABI mode.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, Tuple

import cffi

_PKG = Path(__file__).resolve().parent
_SRC_HEADER = _PKG.parent.parent / "runtime_c" / "include" / "edgelite" / "edgelite.h"


def _header_path() -> Path:
    for p in (_PKG / "edgelite.h", _SRC_HEADER):
        if p.is_file():
            return p
    raise ImportError("edgelite.h not found next to the edgelite_runtime package")


def _library_path() -> str:
    env = os.environ.get("EDGELITE_LIBRARY")
    if env:
        return env
    for name in ("libedgelite.so", "libedgelite.dylib", "edgelite.dll"):
        p = _PKG / name
        if p.is_file():
            return str(p)
    raise ImportError(
        "libedgelite was not found in the edgelite_runtime package; reinstall with `pip install .` "
        "or point EDGELITE_LIBRARY at a built libedgelite"
    )


def _cdef_from_header(text: str) -> str:
    """Strip what cffi's parser does not take: comments, C++ guards, preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", "", text, flags=re.S)
    return "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))


# Where the binding's two halves came from (tests hand them to other Python environments).
HEADER_PATH = _header_path()
LIBRARY_PATH = _library_path()

ffi = cffi.FFI()
ffi.cdef(_cdef_from_header(HEADER_PATH.read_text()))
# RTLD_GLOBAL puts libedgelite's TfLite C helpers (TfLiteIntArrayCreate, TfLiteKernelInitFailed,
# ...) in the process's global scope, where a delegate plugin loaded later finds the ones it
# leaves undefined for its host, as it would inside a TFLite binary.
lib = ffi.dlopen(LIBRARY_PATH, ffi.RTLD_NOW | ffi.RTLD_GLOBAL)

API_VERSION = 1
if lib.el_api_version() != API_VERSION:
    raise ImportError(
        f"libedgelite API version {lib.el_api_version()} does not match the binding's {API_VERSION}"
    )


def _fastcall() -> Any:
    """The compiled trampoline module's lib, or None (not built, not loadable, or switched off)."""
    if os.environ.get("EDGELITE_FASTCALL", "1").strip() == "0":
        return None
    try:
        from edgelite_runtime import _fastcall as module
    except ImportError:
        return None
    return module.lib


FASTCALL = _fastcall()


def _abi_invoke(fn: Any, interp: Any, subgraph: int) -> int:
    return fn(interp, subgraph)


def invoker(interp: Any) -> Tuple[Callable[[Any, Any, int], int], Any, Any]:
    """(call, a, b) with call(a, b, subgraph) == lib.el_interpreter_invoke(interp, subgraph),
    through the compiled trampoline when there is one. Both take the function from `lib`, so
    they always run the library this module loaded."""
    if FASTCALL is None:
        return _abi_invoke, lib.el_interpreter_invoke, interp
    return (FASTCALL.el_fast_invoke, ffi.cast("void *", lib.el_interpreter_invoke),
            ffi.cast("void *", interp))
