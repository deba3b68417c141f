"""Writes the C source of edgelite_runtime._fastcall, a cffi out-of-line API-mode module (limited
API, abi3) that the build compiles when Python's headers are there.

ABI mode reaches every C function through libffi, whose call sequence costs about 120 ns more
than a compiled call and leaves the next Python code slower by tens of nanoseconds; on a tiny
model that is a tenth of set_tensor + invoke + get_tensor. The module holds one trampoline,
invoke through a function pointer taken from the ABI-mode library, so both modes always call
into the same loaded libedgelite; without the module the binding stays in ABI mode.

    python bindings/fastcall_source.py OUT.c
"""
from __future__ import annotations

import sys
from pathlib import Path

import cffi

CDEF = "int el_fast_invoke(void* fn, void* interp, int subgraph);"

SOURCE = """
#include "edgelite/edgelite.h"

typedef el_status (*el_invoke_fn)(el_interpreter*, int);

static int el_fast_invoke(void* fn, void* interp, int subgraph) {
  return (int)((el_invoke_fn)fn)((el_interpreter*)interp, subgraph);
}
"""


def builder() -> cffi.FFI:
    """The module's FFI: the trampoline's declaration and its C body."""
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("edgelite_runtime._fastcall", SOURCE, py_limited_api=True)
    return ffi


def main(argv: list) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[1])
    out.parent.mkdir(parents=True, exist_ok=True)
    builder().emit_c_code(str(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
