"""STRING tensors from Python: numpy arrays of bytes or str packed into TFLite's string buffer.

The layout (int32 count, count + 1 int32 offsets from the buffer start, then the bytes back to
back) is what kernels read; the C side checks it and gives the tensor a heap buffer of that size,
so setting a string tensor may move its memory and starts a new table generation.
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from edgelite_runtime import _types as T
from edgelite_runtime._lib import ffi, lib
from edgelite_runtime._tensors import TensorSlot, checked_array, write

_NOT_BYTES = "PyBytes_AsStringAndSize() failed."
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: classes defined in Python carry their bare name as tp_name


def c_type_name(value: Any) -> str:
    """The type's name as CPython's tp_name spells it ('list', 'numpy.bytes_'), which tflite's messages quote."""
    t = type(value)
    if t.__module__ == "builtins" or t.__flags__ & _HEAP_TYPE:
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


def require_ndarray(value: Any) -> None:
    """tflite packs strings only from a numpy array; lists, bytes and numpy scalars are refused with its text."""
    if not isinstance(value, np.ndarray):
        raise ValueError(f"Passed in value type is not a numpy array, got type {c_type_name(value)}.")


def _as_bytes(v: Any) -> bytes:
    """One element of an object array: str as UTF-8, bytes as they are, anything else refused as tflite does."""
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        try:
            return v.encode("utf-8")
        except UnicodeEncodeError:
            pass
    raise ValueError(_NOT_BYTES)


def _items(arr: np.ndarray) -> List[bytes]:
    """Each element as bytes, row-major.

    An element of an n-d 'S' array loses its trailing NULs (numpy's item access, which tflite uses
    too), but a 0-d 'S' array is taken whole, every byte of its itemsize, as tflite does; str
    elements are UTF-8 in either case.
    """
    if arr.ndim == 0 and arr.dtype.kind == "S":
        return [arr.tobytes()]
    flat = arr.reshape(-1)
    if arr.dtype.kind == "U":
        return np.char.encode(flat, "utf-8").tolist()
    if arr.dtype.kind == "O":
        return [_as_bytes(v) for v in flat.tolist()]
    return flat.tolist()


def pack_strings(arr: np.ndarray) -> bytes:
    """The TFLite string buffer holding the elements of `arr` in row-major order."""
    items = _items(arr)
    count = len(items)
    head = 4 * (count + 2)
    lengths = np.fromiter((len(b) for b in items), np.int64, count)
    offsets = np.empty(count + 2, np.int64)
    offsets[0] = count
    offsets[1] = head
    np.cumsum(lengths, out=offsets[2:])
    offsets[2:] += head
    if offsets[-1] > np.iinfo(np.int32).max:
        raise ValueError(f"Cannot set tensor: {offsets[-1]} bytes of strings exceed a string tensor's 2 GiB.")
    return offsets.astype(np.int32).tobytes() + b"".join(items)


def set_strings(table: Any, slot: TensorSlot, value: Any) -> None:
    """set_tensor on a STRING tensor: tflite's type and shape checks, then the packed buffer to C."""
    arr = checked_array(slot, value)
    require_ndarray(value)
    if slot.constant:
        raise ValueError(f"Cannot set tensor: tensor {slot.index} ({slot.name}) is a constant of the model.")
    if table.pending.get((slot.subgraph, slot.index)) is not None:
        raise ValueError("Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first")
    buf = pack_strings(arr)
    status = lib.el_tensor_set_string(table.native.interp, slot.subgraph, slot.index, ffi.from_buffer(buf), len(buf))
    table.reset()  # the tensor's memory moved
    table.native.raise_for(status)


def write_value(table: Any, slot: TensorSlot, value: Any) -> None:
    """set_tensor's general path: strings are packed and handed to C, everything else is copied by write()."""
    if slot.type == T.STRING:
        set_strings(table, slot, value)
    else:
        write(slot, value)
