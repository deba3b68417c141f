"""Tensor element types with TensorFlow's names, DataType enum values and properties."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

# TensorFlow's DataType enum values (types.proto); a reference type is the base value + 100.
_REF_OFFSET = 100

_INFO = {
    # enum: (name, numpy dtype or None)
    1: ("float32", np.float32),
    2: ("float64", np.float64),
    3: ("int32", np.int32),
    4: ("uint8", np.uint8),
    5: ("int16", np.int16),
    6: ("int8", np.int8),
    7: ("string", np.object_),
    8: ("complex64", np.complex64),
    9: ("int64", np.int64),
    10: ("bool", np.bool_),
    11: ("qint8", None),
    12: ("quint8", None),
    13: ("qint32", None),
    14: ("bfloat16", None),
    15: ("qint16", None),
    16: ("quint16", None),
    17: ("uint16", np.uint16),
    18: ("complex128", np.complex128),
    19: ("float16", np.float16),
    20: ("resource", np.object_),
    21: ("variant", np.object_),
    22: ("uint32", np.uint32),
    23: ("uint64", np.uint64),
}
_QUANTIZED = {11, 12, 13, 15, 16}
_FLOATING = {1, 2, 14, 19}
_COMPLEX = {8, 18}
_INTEGER = {3, 4, 5, 6, 9, 17, 22, 23}
_UNSIGNED = {4, 17, 22, 23}
# Quantized and bfloat16 limits are not representable by numpy; give TF's documented bounds.
_LIMITS = {
    11: (-128, 127), 12: (0, 255), 13: (-(2 ** 31), 2 ** 31 - 1), 15: (-32768, 32767), 16: (0, 65535),
}


class DType:
    """The type of the elements of a Tensor (TensorFlow's tf.DType)."""

    __slots__ = ("_type_enum",)

    def __init__(self, type_enum: int) -> None:
        type_enum = int(type_enum)
        if type_enum % _REF_OFFSET not in _INFO or type_enum >= 2 * _REF_OFFSET or type_enum <= 0:
            raise TypeError(f"type_enum is not a valid types_pb2.DataType: {type_enum}")
        self._type_enum = type_enum

    @property
    def _is_ref_dtype(self) -> bool:
        return self._type_enum > _REF_OFFSET

    is_ref_dtype = _is_ref_dtype

    @property
    def _base_enum(self) -> int:
        return self._type_enum - _REF_OFFSET if self._type_enum > _REF_OFFSET else self._type_enum

    @property
    def base_dtype(self) -> "DType":
        """The non-reference type of this dtype."""
        return _BY_ENUM[self._base_enum]

    @property
    def _as_ref(self) -> "DType":
        return _BY_ENUM[self._base_enum + _REF_OFFSET]

    as_ref = _as_ref

    @property
    def real_dtype(self) -> "DType":
        """The real part's type for complex types, else the base type."""
        base = self.base_dtype
        if base == complex64:
            return float32
        if base == complex128:
            return float64
        return base

    @property
    def name(self) -> str:
        """TensorFlow's name of the type, e.g. 'float32' or 'float32_ref'."""
        base = _INFO[self._base_enum][0]
        return base + "_ref" if self._is_ref_dtype else base

    @property
    def as_numpy_dtype(self) -> Any:
        """The numpy type that holds this type's values."""
        npt = _INFO[self._base_enum][1]
        if npt is None:
            raise TypeError(f"{self.name} has no numpy representation in edgelite")
        return npt

    @property
    def as_datatype_enum(self) -> int:
        """The types_pb2.DataType enum value."""
        return self._type_enum

    @property
    def is_bool(self) -> bool:
        """Whether this is the boolean type."""
        return self._base_enum == 10

    @property
    def is_numpy_compatible(self) -> bool:
        """Whether a numpy dtype represents this type."""
        return _INFO[self._base_enum][1] is not None

    @property
    def is_floating(self) -> bool:
        """Whether this is a (non-quantized) floating point type."""
        return self._base_enum in _FLOATING

    @property
    def is_complex(self) -> bool:
        """Whether this is a complex type."""
        return self._base_enum in _COMPLEX

    @property
    def is_integer(self) -> bool:
        """Whether this is a (non-quantized) integer type."""
        return self._base_enum in _INTEGER

    @property
    def is_quantized(self) -> bool:
        """Whether this is a quantized type."""
        return self._base_enum in _QUANTIZED

    @property
    def is_unsigned(self) -> bool:
        """Whether this is an unsigned integer type (quantized types excluded)."""
        return self._base_enum in _UNSIGNED

    @property
    def min(self) -> Any:
        """The smallest representable value; TypeError for non-numeric types."""
        return self._limits()[0]

    @property
    def max(self) -> Any:
        """The largest representable value; TypeError for non-numeric types."""
        return self._limits()[1]

    def _limits(self) -> tuple:
        base = self._base_enum
        if base in (7, 10, 20, 21) or base in _COMPLEX:
            raise TypeError(f"Cannot find minimum value of {self}.")
        if base in _LIMITS:
            return _LIMITS[base]
        if base == 14:
            return (-3.3895313892515355e38, 3.3895313892515355e38)
        npt = _INFO[base][1]
        if base in _FLOATING:
            fi = np.finfo(npt)
            return (npt(fi.min), npt(fi.max))
        ii = np.iinfo(npt)
        return (ii.min, ii.max)

    @property
    def limits(self) -> tuple:
        """(min, max) of the type."""
        return self._limits()

    @property
    def size(self) -> int:
        """Bytes per element (1 for non-numpy types)."""
        if self._base_enum in (20, 21):
            return 1
        if self._base_enum == 14:
            return 2
        npt = _INFO[self._base_enum][1]
        return 1 if npt is None else np.dtype(npt).itemsize

    def is_compatible_with(self, other: Any) -> bool:
        """T accepts T and T_ref; T_ref accepts only T_ref."""
        other = as_dtype(other)
        return self._type_enum in (other.as_datatype_enum, other.base_dtype.as_datatype_enum)

    def __eq__(self, other: Any) -> bool:
        if other is None:
            return False
        if not isinstance(other, DType):
            try:
                other = as_dtype(other)
            except TypeError:
                return False
        return self._type_enum == other._type_enum

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._type_enum

    def __reduce__(self) -> tuple:
        return as_dtype, (self.name,)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"


_BY_ENUM: dict[int, DType] = {}
for _e in _INFO:
    _BY_ENUM[_e] = DType(_e)
    _BY_ENUM[_e + _REF_OFFSET] = DType(_e + _REF_OFFSET)

float16 = half = _BY_ENUM[19]
float32 = _BY_ENUM[1]
float64 = double = _BY_ENUM[2]
bfloat16 = _BY_ENUM[14]
complex64 = _BY_ENUM[8]
complex128 = _BY_ENUM[18]
int8 = _BY_ENUM[6]
int16 = _BY_ENUM[5]
int32 = _BY_ENUM[3]
int64 = _BY_ENUM[9]
uint8 = _BY_ENUM[4]
uint16 = _BY_ENUM[17]
uint32 = _BY_ENUM[22]
uint64 = _BY_ENUM[23]
bool = _BY_ENUM[10]  # noqa: A001 - TensorFlow exports this name
string = _BY_ENUM[7]
qint8 = _BY_ENUM[11]
quint8 = _BY_ENUM[12]
qint16 = _BY_ENUM[15]
quint16 = _BY_ENUM[16]
qint32 = _BY_ENUM[13]
resource = _BY_ENUM[20]
variant = _BY_ENUM[21]

_BY_NAME: dict[str, DType] = {}
for _d in list(_BY_ENUM.values()):
    _BY_NAME[_d.name] = _d
_BY_NAME.update({"half": float16, "float": float32, "double": float64, "float16_ref": float16.as_ref,
                 "half_ref": float16.as_ref, "float_ref": float32.as_ref, "double_ref": float64.as_ref})

_BY_NUMPY = {
    np.dtype(np.float16): float16, np.dtype(np.float32): float32, np.dtype(np.float64): float64,
    np.dtype(np.int8): int8, np.dtype(np.int16): int16, np.dtype(np.int32): int32, np.dtype(np.int64): int64,
    np.dtype(np.uint8): uint8, np.dtype(np.uint16): uint16, np.dtype(np.uint32): uint32,
    np.dtype(np.uint64): uint64, np.dtype(np.bool_): bool, np.dtype(np.complex64): complex64,
    np.dtype(np.complex128): complex128, np.dtype(np.object_): string,
}


def as_dtype(type_value: Any) -> DType:
    """Convert a DType, DataType enum, type name or numpy type to a DType."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        if type_value in _BY_NAME:
            return _BY_NAME[type_value]
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.")
    if isinstance(type_value, (int, np.integer)) and not isinstance(type_value, (builtins.bool, np.bool_)):
        if int(type_value) in _BY_ENUM:
            return _BY_ENUM[int(type_value)]
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.")
    if type_value is str or type_value is bytes:
        return string
    try:
        npd = np.dtype(type_value)
    except TypeError:
        npd = None
    if npd is not None:
        if npd.kind in ("U", "S", "O"):
            return string
        if npd in _BY_NUMPY:
            return _BY_NUMPY[npd]
    raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.")


QUANTIZED_DTYPES = frozenset(_BY_ENUM[e] for e in _QUANTIZED) | frozenset(
    _BY_ENUM[e + _REF_OFFSET] for e in _QUANTIZED)


# tf.dtypes also carries the casting ops; they live in ops modules that import this one, so they are looked up
# on first use (PEP 562) instead of at import time.
_LAZY_OPS = {"cast": "edgelite.ops.math_ops", "saturate_cast": "edgelite.ops.math_ops",
             "as_string": "edgelite.strings"}


def __getattr__(name: str):
    module = _LAZY_OPS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
