"""Per-tensor state cached on the Python side so set_tensor/get_tensor/tensor() avoid C round trips.

A TensorSlot is a snapshot of one tensor (type, shape, byte count, data address) taken from
el_tensor_get_info, plus a numpy array aliasing its memory for the copies in and out. Snapshots
are valid for one "generation" of the interpreter (see _table.TensorTable).
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from edgelite_runtime import _types as T
from edgelite_runtime._lib import ffi
from edgelite_runtime._native import decode

UNALLOCATED = "Tensor data is null. Run allocate_tensors() first"


class TensorSlot:
    """What the hot paths need to know about one tensor in the current generation."""

    __slots__ = ("subgraph", "index", "type", "name", "shape", "nbytes", "address", "constant",
                 "sparse", "dtype", "array", "writable", "problem", "view_shape", "view_buffer")

    def __init__(self, subgraph: int, index: int, info: Any) -> None:
        self.subgraph = subgraph
        self.index = index
        self.type = int(info.type)
        self.name = decode(info.name)
        self.shape: Tuple[int, ...] = tuple(ffi.unpack(info.dims, info.ndims)) if info.ndims > 0 else ()
        self.nbytes = int(info.bytes)
        self.address = int(ffi.cast("uintptr_t", info.data))
        self.constant = bool(info.is_constant)
        self.sparse = bool(info.has_sparsity)
        plain = self.type in T.PLAIN_TYPES
        # set_tensor's fast path compares the incoming dtype with this one by identity.
        self.dtype: Optional[np.dtype] = np.dtype(T.NUMPY_TYPES[self.type]) if plain else None
        self.array: Optional[np.ndarray] = None
        self.writable = False
        self.problem = ""
        self.view_shape: Optional[Tuple[int, ...]] = None
        self.view_buffer: Any = None
        self._map_memory()

    def _map_memory(self) -> None:
        """Alias the tensor's bytes with a numpy array, or record why get_tensor must refuse."""
        count = 1
        for d in self.shape:
            count *= d
        if self.nbytes == 0 and self.address:
            self.problem = "Invalid tensor size."
            return
        if self.type not in T.NUMPY_TYPES or self.type in (T.RESOURCE, T.VARIANT):
            self.problem = "Unknown tensor type."
            return
        if not self.address and (self.nbytes or count):
            self.problem = UNALLOCATED
            return
        if self.dtype is None:
            # Packed 4-bit values and TFLite's string layout are decoded from the raw bytes.
            self.array = _raw(self.address, self.nbytes)
            self.writable = not self.constant
            return
        if self.nbytes == 0:
            self.array = np.empty(self.shape, self.dtype)
            return
        shape = (self.nbytes // self.dtype.itemsize,) if self.sparse else self.shape
        if count * self.dtype.itemsize != self.nbytes and not self.sparse:
            self.problem = (f"Tensor {self.index} holds {self.nbytes} bytes but its shape "
                            f"{list(self.shape)} needs {count * self.dtype.itemsize}.")
            return
        arr = np.frombuffer(ffi.buffer(ffi.cast("char *", self.address), self.nbytes), self.dtype)
        self.array = arr.reshape(shape)
        self.writable = not self.constant
        if self.constant:
            self.array.flags.writeable = False
        # A 0-d tensor comes back as a numpy scalar (a copy) from tensor(), as in tflite.
        self.view_shape = shape if shape else None

    def mark_resized(self, shape: Tuple[int, ...]) -> None:
        """A resize waiting for allocate_tensors: new shape, and no data until then (as in tflite)."""
        self.shape = shape
        itemsize = np.dtype(T.NUMPY_TYPES.get(self.type, np.uint8)).itemsize
        self.nbytes = int(np.prod(shape, dtype=np.int64)) * itemsize
        self.address = 0
        self.array = None
        self.writable = False
        self.view_shape = None
        self.problem = UNALLOCATED

    def read(self) -> Any:
        """A copy of the tensor's value, shaped like tflite's GetTensor result."""
        arr = self.array
        if arr is None:
            raise ValueError(self.problem)
        if self.dtype is not None:
            out = arr.copy()
            return out if out.ndim else out[()]
        if self.type == T.INT4:
            return unpack_int4(arr, self.shape)
        return decode_strings(arr, self.shape)


def checked_array(slot: TensorSlot, value: Any) -> np.ndarray:
    """set_tensor's type and shape checks, in tflite's order and with its messages; the value as an array."""
    if isinstance(value, np.ndarray):
        arr = value
    else:
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError):
            raise ValueError("Failed to convert value into readable tensor.") from None
    code = T.code_of(arr.dtype)
    expected = slot.type
    got_name = T.TYPE_NAMES.get(code, "Unknown type")
    if expected == T.INT4:
        if code != T.INT8:
            raise ValueError(f"Cannot set tensor: Expected a numpy array of int8 for INT4 input {slot.index}, "
                             f"name: {slot.name}, but got {got_name}")
    elif code != expected:
        raise ValueError(
            f"Cannot set tensor: Got value of type {got_name} but expected type "
            f"{T.TYPE_NAMES.get(expected, 'Unknown type')} for input {slot.index}, name: {slot.name} ")
    if arr.shape != slot.shape:
        if arr.ndim != len(slot.shape):
            raise ValueError(f"Cannot set tensor: Dimension mismatch. Got {arr.ndim} but expected "
                             f"{len(slot.shape)} for input {slot.index}.")
        for j, (got, want) in enumerate(zip(arr.shape, slot.shape)):
            if got != want:
                raise ValueError(f"Cannot set tensor: Dimension mismatch. Got {got} but expected {want} "
                                 f"for dimension {j} of input {slot.index}.")
    return arr


def write(slot: TensorSlot, value: Any) -> None:
    """set_tensor of a numeric tensor: tflite's checks in tflite's order and with its messages, then the copy."""
    if type(value) is np.ndarray and value.dtype is slot.dtype and value.shape == slot.shape and slot.writable:
        slot.array[...] = value
        return
    arr = checked_array(slot, value)
    if slot.type == T.STRING:
        raise ValueError(f"Cannot set tensor: STRING input {slot.index} needs the interpreter's string path.")
    if slot.constant:
        raise ValueError(f"Cannot set tensor: tensor {slot.index} ({slot.name}) is a constant of the model.")
    if slot.array is None:
        if not slot.address and slot.nbytes:
            raise ValueError("Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first")
        raise ValueError(slot.problem)
    if slot.type == T.INT4:
        slot.array[...] = pack_int4(arr, slot.nbytes)
        return
    if arr.nbytes != slot.nbytes:
        raise ValueError(f"numpy array had {arr.nbytes} bytes but expected {slot.nbytes} bytes.")
    slot.array[...] = arr


def _raw(address: int, nbytes: int) -> np.ndarray:
    if nbytes == 0:
        return np.empty(0, np.uint8)
    return np.frombuffer(ffi.buffer(ffi.cast("char *", address), nbytes), np.uint8)


def unpack_int4(raw: np.ndarray, shape: tuple) -> np.ndarray:
    """Two signed nibbles per byte, low nibble first, widened to int8 as tflite's GetTensor does."""
    count = int(np.prod(shape, dtype=np.int64))
    signed = raw.view(np.int8)
    out = np.empty(raw.size * 2, np.int8)
    out[0::2] = (signed << 4) >> 4
    out[1::2] = signed >> 4
    return out[:count].reshape(shape)


def pack_int4(values: np.ndarray, nbytes: int) -> np.ndarray:
    """Inverse of unpack_int4: int8 values in [-8, 7] packed two per byte."""
    flat = np.ascontiguousarray(values, np.int8).reshape(-1)
    if flat.size and (flat.min() < -8 or flat.max() > 7):
        raise ValueError("Cannot set tensor: Values for INT4 input must be between -8 and 7.")
    padded = np.zeros(nbytes * 2, np.int8)
    padded[: flat.size] = flat
    return ((padded[0::2] & 0x0F) | (padded[1::2] << 4)).view(np.uint8)


def decode_strings(raw: np.ndarray, shape: tuple) -> np.ndarray:
    """TFLite's string tensor layout (count, offsets, bytes) as an object array of bytes."""
    corrupt = ValueError("String tensor data is malformed.")
    if raw.size < 4:
        raise corrupt
    count = int(raw[:4].view(np.int32)[0])
    if count < 0 or 4 * (count + 2) > raw.size:
        raise corrupt
    offsets = raw[4: 4 * (count + 2)].view(np.int32)
    if np.any(np.diff(offsets) < 0) or offsets[0] < 0 or offsets[-1] > raw.size:
        raise corrupt
    data = raw.tobytes()
    out = np.empty(count, dtype=object)
    out[:] = [data[offsets[j]: offsets[j + 1]] for j in range(count)]
    return out.reshape(shape) if int(np.prod(shape, dtype=np.int64)) == count else out
