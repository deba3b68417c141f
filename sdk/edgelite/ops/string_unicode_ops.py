"""tf.strings.unicode_encode (code points to UTF-8/16/32 strings) and unicode_transcode."""
from __future__ import annotations

import codecs
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import string_util as su

_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")


def _valid_code_point(cp: int) -> bool:
    return 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF


def _encode_kernel(ctx: Any, values: np.ndarray, splits: np.ndarray) -> np.ndarray:
    errors, repl = ctx.attrs["errors"], ctx.attrs["replacement_char"]
    encoding = ctx.attrs["output_encoding"].lower()
    out = np.empty(max(splits.size - 1, 0), dtype=object)
    for i in range(out.size):
        chars = []
        for cp in values[splits[i]:splits[i + 1]].tolist():
            if _valid_code_point(cp):
                chars.append(chr(cp))
            elif errors == "strict":
                raise su.invalid("Code point is out of range for Unicode, or is a surrogate.")
            elif errors == "replace":
                chars.append(chr(repl))
        out[i] = "".join(chars).encode(encoding)
    return out


register_op("UnicodeEncode", inputs=["input_values: int32", "input_splits: Tsplits"], outputs=["output: string"],
            attrs={"errors": "replace", "output_encoding": "UTF-8", "replacement_char": 65533,
                   "Tsplits": dtypes.int64},
            kernel=_encode_kernel, shape_fn=lambda op: [[None]])


# Invalid input decodes to a lone surrogate, which no valid input can produce, then becomes the replacement.
_MARK = "\ud800"
codecs.register_error("edgelite.transcode", lambda e: (_MARK, e.end))


def _transcode_one(b: bytes, in_enc: str, out_enc: str, errors: str, repl: int, control: bool) -> bytes:
    try:
        text = b.decode(in_enc, errors="strict" if errors == "strict" else "edgelite.transcode")
    except UnicodeDecodeError:
        raise su.invalid("Invalid formatting on input string") from None
    text = text.replace(_MARK, "" if errors == "ignore" else chr(repl))
    if control:
        # Only the C0 controls (U+0000..U+001F), as TF documents.
        text = "".join(chr(repl) if ord(c) < 0x20 else c for c in text)
    return text.encode(out_enc)


def _transcode_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    a = ctx.attrs
    in_enc, out_enc = a["input_encoding"].lower(), a["output_encoding"].lower()
    return su.map_strings(x, lambda b: _transcode_one(b, in_enc, out_enc, a["errors"], a["replacement_char"],
                                                      a["replace_control_characters"]))


register_op("UnicodeTranscode", inputs=["input: string"], outputs=["output: string"],
            attrs={"input_encoding": "UTF-8", "output_encoding": "UTF-8", "errors": "replace",
                   "replacement_char": 65533, "replace_control_characters": False},
            kernel=_transcode_kernel, shape_fn=lambda op: [op.inputs[0].shape])
ops.NoGradient("UnicodeEncode")
ops.NoGradient("UnicodeTranscode")


def _check_encoding(name: str, value: str) -> None:
    if value not in _ENCODINGS:
        raise ValueError(f"Value for attr '{name}' of {value!r} is not in the list of allowed values: "
                         + ", ".join(f'"{e}"' for e in _ENCODINGS))


def unicode_encode(input: Any, output_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, name: Optional[str] = None) -> ops.Tensor:
    """Strings from int32 code points along the last dimension (invalid ones replaced, dropped or refused)."""
    _check_encoding("output_encoding", output_encoding)
    with ops.name_scope(name, "UnicodeEncode", [input]):
        x = ops.convert_to_tensor(input, dtype=dtypes.int32)
        if x.shape.ndims is None:
            raise ValueError("Rank of input_tensor must be statically known.")
        if x.shape.ndims == 0:
            raise ValueError("input_tensor's rank must be at least 1.")
        shape = array_ops.shape(x, out_type=dtypes.int64)
        width = shape[-1]
        rows = math_ops.reduce_prod(shape[:-1])
        splits = math_ops.range(rows + 1, dtype=dtypes.int64) * width
        flat = ops.apply_op("UnicodeEncode", [array_ops.reshape(x, [-1]), splits],
                            {"errors": errors, "output_encoding": output_encoding,
                             "replacement_char": int(replacement_char)})
        out = array_ops.reshape(flat, shape[:-1])
        out.set_shape(x.shape[:-1])
        return out


def unicode_transcode(input: Any, input_encoding: str, output_encoding: str, errors: str = "replace",  # noqa: A002
                      replacement_char: int = 65533, replace_control_characters: bool = False,
                      name: Optional[str] = None) -> ops.Tensor:
    """Strings re-encoded from input_encoding to output_encoding, invalid input replaced, dropped or refused."""
    _check_encoding("output_encoding", output_encoding)
    return ops.apply_op("UnicodeTranscode", [ops.convert_to_tensor(input, dtypes.string)],
                        {"input_encoding": input_encoding, "output_encoding": output_encoding, "errors": errors,
                         "replacement_char": int(replacement_char),
                         "replace_control_characters": replace_control_characters},
                        name=name or "UnicodeTranscode")
