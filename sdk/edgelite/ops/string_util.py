"""Helpers for string kernels: string tensors are numpy object arrays whose items are bytes (str is UTF-8)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from edgelite.ops import sparse_checks as checks


def to_bytes(x: Any) -> bytes:
    """One string item as bytes."""
    return x.encode("utf-8") if isinstance(x, str) else bytes(x)


def as_bytes_array(x: Any) -> np.ndarray:
    """A string tensor value as an object array of bytes."""
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    out.ravel()[:] = [to_bytes(v) for v in arr.ravel()]
    return out


def map_strings(x: Any, fn: Callable[[bytes], Any], dtype: Any = object) -> np.ndarray:
    """fn applied to every string of x, as an array of dtype with x's shape."""
    arr = as_bytes_array(x)
    out = np.frompyfunc(fn, 1, 1)(arr) if arr.size else np.empty(arr.shape, dtype=object)
    out = np.asarray(out, dtype=object).reshape(arr.shape)
    return out if dtype is object else out.astype(dtype)


def invalid(msg: str) -> Exception:
    """An InvalidArgumentError attributed to the running op."""
    return checks.invalid(msg)


def shape_str(a: Any) -> str:
    """A shape the way TF's messages print it: [2,3]."""
    return checks.fmt_index(np.shape(a))


def decode_utf8(b: bytes, errors: str = "replace") -> str:
    """UTF-8 text of b (TF's UTF8_CHAR unit)."""
    return b.decode("utf-8", errors=errors)
