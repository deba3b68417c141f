"""Conversions between strings and other data: to_number, as_string, hash buckets."""
from __future__ import annotations

import re
from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import fingerprint
from edgelite.ops import string_util as su

_INT_RE = re.compile(rb"[ \t\n\v\f\r]*[+-]?[0-9]+[ \t\n\v\f\r]*")
_FLOAT_RE = re.compile(rb"[ \t\n\v\f\r]*[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|inf|infinity|nan)"
                       rb"[ \t\n\v\f\r]*", re.IGNORECASE)


def _to_number_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    out_type = dtypes.as_dtype(ctx.attrs["out_type"])
    np_type = out_type.as_numpy_dtype

    def convert(b: bytes) -> Any:
        if out_type.is_integer:
            if not _INT_RE.fullmatch(b):
                raise su.invalid(f"StringToNumberOp could not correctly convert string: {b.decode('latin-1')}")
            v = int(b)
            info = np.iinfo(np_type)
            if not info.min <= v <= info.max:
                raise su.invalid(f"StringToNumberOp could not correctly convert string: {b.decode('latin-1')}")
            return v
        if not _FLOAT_RE.fullmatch(b):
            raise su.invalid(f"StringToNumberOp could not correctly convert string: {b.decode('latin-1')}")
        return float(b)

    return su.map_strings(x, convert).astype(np_type)


register_op("StringToNumber", inputs=["string_tensor: string"], outputs=["output: out_type"],
            attrs={"out_type": dtypes.float32}, kernel=_to_number_kernel, shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"out_type": [dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64]})


def _as_string_format(dtype: dtypes.DType, precision: int, scientific: bool, shortest: bool, width: int,
                      fill: str) -> str:
    """The printf format TF's AsString builds from its attrs (ValueError-free checks happen at build time)."""
    spec = "%" + fill + (str(width) if width > -1 else "")
    if dtype.is_floating or dtype.is_complex:
        spec += ("." + str(precision) if precision > -1 else "") + ("e" if scientific else "g" if shortest else "f")
        return f"({spec},{spec})" if dtype.is_complex else spec
    return spec + "d"


def _as_string_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    a = ctx.attrs
    dtype = dtypes.as_dtype(x.dtype)
    if len(a["fill"]) > 1:
        raise su.invalid("Fill string must be one or fewer characters")
    if a["scientific"] and a["shortest"]:
        raise su.invalid("Cannot select both scientific and shortest notation")
    if a["precision"] > -1 and not (dtype.is_floating or dtype.is_complex):
        raise su.invalid(f"precision not supported for datatype {dtype.name}")
    out = np.empty(x.shape, dtype=object)
    if dtype == dtypes.bool:
        out.ravel()[:] = [b"true" if v else b"false" for v in x.ravel()]
        return out
    fmt = _as_string_format(dtype, a["precision"], a["scientific"], a["shortest"], a["width"], a["fill"])
    if dtype.is_complex:
        out.ravel()[:] = [(fmt % (v.real, v.imag)).encode() for v in x.ravel()]
    else:
        out.ravel()[:] = [(fmt % v).encode() for v in x.ravel().tolist()]
    return out


register_op("AsString", inputs=["input: T"], outputs=["output: string"],
            attrs={"precision": -1, "scientific": False, "shortest": False, "width": -1, "fill": ""},
            kernel=_as_string_kernel, shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"T": [dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32,
                                  dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64,
                                  dtypes.complex64, dtypes.complex128, dtypes.bool, dtypes.half,
                                  dtypes.bfloat16]})

def _bucket_kernel(hash_fn: Any) -> Any:
    def kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
        n = ctx.attrs["num_buckets"]
        key = ctx.attrs.get("key")
        if key is not None and len(key) != 2:
            raise su.invalid("Key must have 2 elements")
        fn = (lambda b: hash_fn(key, b) % n) if key is not None else (lambda b: hash_fn(b) % n)
        return su.map_strings(x, fn, np.int64)
    return kernel


register_op("StringToHashBucketFast", inputs=["input: string"], outputs=["output: int64"],
            attrs={"num_buckets": 1}, kernel=_bucket_kernel(fingerprint.fingerprint64),
            shape_fn=common_shapes.unchanged_shape)
register_op("StringToHashBucket", inputs=["string_tensor: string"], outputs=["output: int64"],
            attrs={"num_buckets": 1}, kernel=_bucket_kernel(fingerprint.tf_hash64),
            shape_fn=common_shapes.unchanged_shape)
register_op("StringToHashBucketStrong", inputs=["input: string"], outputs=["output: int64"],
            attrs={"num_buckets": 1, "key": []}, kernel=_bucket_kernel(fingerprint.siphash24),
            shape_fn=common_shapes.unchanged_shape)
for _t in ("StringToNumber", "AsString", "StringToHashBucketFast",
           "StringToHashBucket", "StringToHashBucketStrong"):
    ops.NoGradient(_t)


def _str(x: Any, name: str = "input") -> ops.Tensor:
    return ops.convert_to_tensor(x, dtype=dtypes.string, name=name)


def string_to_number(string_tensor: Any, out_type: Any = dtypes.float32, name: Optional[str] = None) -> ops.Tensor:
    """Each string parsed as a number of out_type (InvalidArgumentError if it is not one)."""
    return ops.apply_op("StringToNumber", [_str(string_tensor, "string_tensor")],
                        {"out_type": dtypes.as_dtype(out_type)}, name=name or "StringToNumber")


def as_string(input: Any, precision: int = -1, scientific: bool = False, shortest: bool = False,  # noqa: A002
              width: int = -1, fill: str = "", name: Optional[str] = None) -> ops.Tensor:
    """Each number formatted like printf with TF's precision/scientific/shortest/width/fill options."""
    x = ops.convert_to_tensor(input, name="input")
    return ops.apply_op("AsString", [x], {"precision": precision, "scientific": scientific, "shortest": shortest,
                                          "width": width, "fill": fill}, name=name or "AsString")


def _check_buckets(num_buckets: Any) -> int:
    n = int(num_buckets)
    if n < 1:
        raise ValueError(f"Attr 'num_buckets' of 'StringToHashBucketFast' Op passed {n} less than minimum 1.")
    return n


def string_to_hash_bucket_fast(input: Any, num_buckets: int, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """int64 bucket of each string: FarmHash Fingerprint64 mod num_buckets (stable across runs and platforms)."""
    return ops.apply_op("StringToHashBucketFast", [_str(input)], {"num_buckets": _check_buckets(num_buckets)},
                        name=name or "StringToHashBucketFast")


def string_to_hash_bucket_strong(input: Any, num_buckets: int, key: Any,  # noqa: A002
                                 name: Optional[str] = None) -> ops.Tensor:
    """int64 bucket of each string: keyed SipHash-2-4 mod num_buckets (for adversarial inputs)."""
    key = [int(k) for k in key]
    return ops.apply_op("StringToHashBucketStrong", [_str(input)],
                        {"num_buckets": _check_buckets(num_buckets), "key": key},
                        name=name or "StringToHashBucketStrong")


def string_to_hash_bucket(string_tensor: Any = None, num_buckets: Any = None, name: Optional[str] = None,
                          input: Any = None) -> ops.Tensor:  # noqa: A002
    """Legacy bucketing with TF's Hash64; prefer string_to_hash_bucket_fast."""
    if string_tensor is not None and input is not None:
        raise ValueError("Cannot specify both 'string_tensor' and 'input'")
    string_tensor = input if string_tensor is None else string_tensor
    return ops.apply_op("StringToHashBucket", [_str(string_tensor, "string_tensor")],
                        {"num_buckets": _check_buckets(num_buckets)}, name=name or "StringToHashBucket")
