"""Elementwise string ops (tf.strings join/length/lower/upper/strip/substr/regex_full_match/regex_replace)."""
from __future__ import annotations

import re
from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import string_util as su


def _join_kernel(ctx: Any, inputs: list) -> np.ndarray:
    arrays = [su.as_bytes_array(x) for x in inputs]
    shape: Optional[tuple] = None
    for a in arrays:
        if a.ndim == 0:
            continue
        if shape is not None and a.shape != shape:
            raise su.invalid(f"Input shapes do not match: {su.shape_str(np.empty(shape))} vs. {su.shape_str(a)}")
        shape = a.shape
    shape = () if shape is None else shape
    sep = su.to_bytes(ctx.attrs["separator"])
    parts = [np.broadcast_to(a, shape).ravel() for a in arrays]
    out = np.empty(shape, dtype=object)
    out.ravel()[:] = [sep.join(items) for items in zip(*parts)] if parts else []
    return out


def _join_shape(op: ops.Operation) -> list:
    out = None
    for t in op.inputs:
        s = t.shape
        if s.ndims == 0:
            continue
        out = s if out is None else out.merge_with(s)
    return [[] if out is None else out]


register_op("StringJoin", inputs=["inputs: N * string"], outputs=["output: string"], attrs={"separator": ""},
            kernel=_join_kernel, shape_fn=_join_shape)


def _length_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    if ctx.attrs["unit"] == "UTF8_CHAR":
        # Count the bytes that do not continue a multi-byte sequence, as TF's UTF8_CHAR unit does.
        return su.map_strings(x, lambda b: sum(1 for c in b if c & 0xC0 != 0x80), np.int32)
    return su.map_strings(x, len, np.int32)


register_op("StringLength", inputs=["input: string"], outputs=["output: int32"], attrs={"unit": "BYTE"},
            kernel=_length_kernel, shape_fn=common_shapes.unchanged_shape)


def _case_kernel(upper: bool) -> Any:
    def kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
        enc = ctx.attrs["encoding"]
        if enc == "":
            return su.map_strings(x, (lambda b: b.upper()) if upper else (lambda b: b.lower()))
        if enc.lower().replace("-", "") != "utf8":
            raise su.invalid(f"encoding must be \"\" or \"utf-8\", got: {enc}")
        fn = (lambda b: b.decode("utf-8").upper().encode()) if upper else (lambda b: b.decode("utf-8").lower().encode())
        return su.map_strings(x, fn)
    return kernel


register_op("StringLower", inputs=["input: string"], outputs=["output: string"], attrs={"encoding": ""},
            kernel=_case_kernel(False), shape_fn=common_shapes.unchanged_shape)
register_op("StringUpper", inputs=["input: string"], outputs=["output: string"], attrs={"encoding": ""},
            kernel=_case_kernel(True), shape_fn=common_shapes.unchanged_shape)
register_op("StringStrip", inputs=["input: string"], outputs=["output: string"],
            kernel=lambda ctx, x: su.map_strings(x, lambda b: b.strip(b" \t\n\v\f\r")),
            shape_fn=common_shapes.unchanged_shape)


def _char_starts(b: bytes) -> list:
    return [i for i, c in enumerate(b) if c & 0xC0 != 0x80] + [len(b)]


def _substr_one(b: bytes, pos: int, length: int, utf8: bool, i: int) -> bytes:
    starts = _char_starts(b) if utf8 else None
    size = len(starts) - 1 if utf8 else len(b)
    if abs(pos) > size:
        what = "unicode string" if utf8 else "string"
        raise su.invalid(f"pos {pos} out of range for {what} b'{b.decode('latin-1')}' at index {i}")
    if pos < 0:
        pos += size
    end = size if length < 0 else min(size, pos + length)
    if utf8:
        return b[starts[pos]:starts[end]]
    return b[pos:end]


def _substr_kernel(ctx: Any, x: np.ndarray, pos: np.ndarray, length: np.ndarray) -> np.ndarray:
    if pos.shape != length.shape:
        raise su.invalid(f"pos and len should have the same shape, got: {su.shape_str(pos)} vs. "
                         f"{su.shape_str(length)}")
    xs = su.as_bytes_array(x)
    try:
        shape = np.broadcast_shapes(xs.shape, pos.shape)
    except ValueError:
        raise su.invalid(f"Incompatible shapes: {su.shape_str(xs)} vs. {su.shape_str(pos)}") from None
    utf8 = ctx.attrs["unit"] == "UTF8_CHAR"
    flat = zip(np.broadcast_to(xs, shape).ravel(), np.broadcast_to(pos, shape).ravel(),
               np.broadcast_to(length, shape).ravel())
    out = np.empty(shape, dtype=object)
    out.ravel()[:] = [_substr_one(b, int(p), int(n), utf8, i) for i, (b, p, n) in enumerate(flat)]
    return out


register_op("Substr", inputs=["input: string", "pos: T", "len: T"], outputs=["output: string"],
            attrs={"unit": "BYTE"}, kernel=_substr_kernel,
            shape_fn=lambda op: [common_shapes.broadcast_static_shape(op.inputs[0].shape, op.inputs[1].shape)],
            allowed_dtypes={"T": [dtypes.int32, dtypes.int64]})


def _compile(pattern: Any) -> "re.Pattern":
    pat = su.to_bytes(np.asarray(pattern, dtype=object).item())
    try:
        return re.compile(pat)
    except re.error as e:
        raise su.invalid(f"Invalid pattern: {pat.decode('latin-1')}, error: {e}") from None


def _full_match_kernel(ctx: Any, x: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    rx = _compile(pattern)
    return su.map_strings(x, lambda b: rx.fullmatch(b) is not None, bool)


register_op("RegexFullMatch", inputs=["input: string", "pattern: string"], outputs=["output: bool"],
            kernel=_full_match_kernel, shape_fn=common_shapes.unchanged_shape)


def _rewrite_template(rewrite: bytes) -> bytes:
    # RE2 spells the whole match \0, Python \g<0>; other \N groups read the same.
    return re.sub(rb"\\0", rb"\\g<0>", rewrite)


def _replace_kernel(ctx: Any, x: np.ndarray, pattern: np.ndarray, rewrite: np.ndarray) -> np.ndarray:
    rx = _compile(pattern)
    template = _rewrite_template(su.to_bytes(np.asarray(rewrite, dtype=object).item()))
    count = 0 if ctx.attrs["replace_global"] else 1
    return su.map_strings(x, lambda b: rx.sub(template, b, count=count))


register_op("RegexReplace", inputs=["input: string", "pattern: string", "rewrite: string"],
            outputs=["output: string"], attrs={"replace_global": True}, kernel=_replace_kernel,
            shape_fn=common_shapes.unchanged_shape)
for _t in ("StringJoin", "StringLength", "StringLower", "StringUpper", "StringStrip", "Substr", "RegexFullMatch",
           "RegexReplace"):
    ops.NoGradient(_t)


def _str(x: Any, name: str = "input") -> ops.Tensor:
    return ops.convert_to_tensor(x, dtype=dtypes.string, name=name)


def string_join(inputs: list, separator: str = "", name: Optional[str] = None) -> ops.Tensor:
    """Elementwise concatenation of string tensors (scalars broadcast) with separator between them."""
    return ops.apply_op("StringJoin", [[_str(x) for x in inputs]], {"separator": separator},
                        name=name or "StringJoin")


def string_length(input: Any, name: Optional[str] = None, unit: str = "BYTE") -> ops.Tensor:  # noqa: A002
    """int32 length of each string in bytes or UTF-8 characters."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"Attr 'unit' of 'StringLength' Op passed string '{unit}' not in: \"BYTE\", "
                         "\"UTF8_CHAR\".")
    return ops.apply_op("StringLength", [_str(input)], {"unit": unit}, name=name or "StringLength")


def lower(input: Any, encoding: str = "", name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Lowercase (ASCII only unless encoding='utf-8')."""
    return ops.apply_op("StringLower", [_str(input)], {"encoding": encoding}, name=name or "StringLower")


def upper(input: Any, encoding: str = "", name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Uppercase (ASCII only unless encoding='utf-8')."""
    return ops.apply_op("StringUpper", [_str(input)], {"encoding": encoding}, name=name or "StringUpper")


def string_strip(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Strings without leading and trailing ASCII whitespace."""
    return ops.apply_op("StringStrip", [_str(input)], name=name or "StringStrip")


def substr(input: Any, pos: Any, len: Any, name: Optional[str] = None, unit: str = "BYTE") -> ops.Tensor:  # noqa: A002
    """input[pos:pos+len] per string (negative pos from the end), in bytes or UTF-8 characters."""
    return ops.apply_op("Substr", [_str(input), pos, len], {"unit": unit}, name=name or "Substr")


def regex_full_match(input: Any, pattern: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Whether each whole string matches the regular expression."""
    return ops.apply_op("RegexFullMatch", [_str(input), _str(pattern, "pattern")], name=name or "RegexFullMatch")


def regex_replace(input: Any, pattern: Any, rewrite: Any, replace_global: bool = True,  # noqa: A002
                  name: Optional[str] = None) -> ops.Tensor:
    """Matches of pattern replaced by rewrite (\\1 groups, \\0 whole match); only the first unless global."""
    return ops.apply_op("RegexReplace", [_str(input), _str(pattern, "pattern"), _str(rewrite, "rewrite")],
                        {"replace_global": replace_global}, name=name or "RegexReplace")
