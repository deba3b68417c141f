"""Compile and link flags for C programs built against libedgelite's TensorFlow Lite C API.

`python -m edgelite_runtime.config --cflags --libs` prints what a compiler needs to build a
program that includes "tensorflow/lite/c/c_api.h" and links libedgelite. Standard library only:
it runs where numpy is absent.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional, Sequence

_PKG = Path(__file__).resolve().parent
_SRC_INCLUDE = _PKG.parent.parent / "runtime_c" / "include"
_LIB_NAMES = ("libedgelite.so", "libedgelite.dylib", "edgelite.dll")


def include_dir() -> Path:
    """The directory holding tensorflow/lite/c/c_api.h: the installed package's, else the source tree's."""
    for d in (_PKG / "include", _SRC_INCLUDE):
        if (d / "tensorflow" / "lite" / "c" / "c_api.h").is_file():
            return d
    raise FileNotFoundError("tensorflow/lite/c/c_api.h is not installed with edgelite_runtime")


def library_path() -> Path:
    """The libedgelite the Python binding would load ($EDGELITE_LIBRARY first)."""
    env = os.environ.get("EDGELITE_LIBRARY")
    if env:
        lib = Path(env).resolve()
        if not lib.is_file():
            raise FileNotFoundError(f"EDGELITE_LIBRARY names {env}, which is not a file")
        return lib
    for name in _LIB_NAMES:
        if (_PKG / name).is_file():
            return _PKG / name
    raise FileNotFoundError("libedgelite is not installed with edgelite_runtime; set EDGELITE_LIBRARY")


def cflags() -> List[str]:
    """Compiler flags: the include directory."""
    return [f"-I{include_dir()}"]


def libs() -> List[str]:
    """Linker flags: libedgelite by path, with an rpath so the program finds it at run time."""
    lib = library_path()
    return [str(lib), f"-Wl,-rpath,{lib.parent}"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Prints the requested flags on one line, as pkg-config does."""
    parser = argparse.ArgumentParser(prog="python -m edgelite_runtime.config", description=__doc__.splitlines()[0])
    parser.add_argument("--cflags", action="store_true", help="print the compiler flags")
    parser.add_argument("--libs", action="store_true", help="print the linker flags")
    parser.add_argument("--includedir", action="store_true", help="print the header directory")
    parser.add_argument("--libdir", action="store_true", help="print the directory holding libedgelite")
    args = parser.parse_args(argv)
    if not (args.cflags or args.libs or args.includedir or args.libdir):
        parser.print_usage(sys.stderr)
        return 2
    try:
        out: List[str] = []
        if args.includedir:
            out.append(str(include_dir()))
        if args.libdir:
            out.append(str(library_path().parent))
        if args.cflags:
            out += cflags()
        if args.libs:
            out += libs()
    except FileNotFoundError as e:
        print(f"edgelite_runtime.config: {e}", file=sys.stderr)
        return 1
    print(" ".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
