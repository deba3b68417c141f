"""Text of tensor values as TensorFlow's kernels print them (Tensor::SummarizeValue, v1 and v2 layouts)."""
from __future__ import annotations

import numpy as np


def format_element(v: object) -> str:
    """One value as TF's StrCat prints it: shortest of 6/9 (float) or 15/17 (double) significant digits that
    round-trips, integers plainly, bools as 1/0, bytes as text."""
    if isinstance(v, (bytes, np.bytes_)):
        return v.decode("utf-8", "replace")
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (np.floating, float)):
        if np.isnan(v):
            return "nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        short, long_ = (6, 9) if np.asarray(v).dtype.itemsize <= 4 else (15, 17)
        text = f"{float(v):.{short}g}"
        if np.asarray(v).dtype.type(float(text)) != v:
            text = f"{float(v):.{long_}g}"
        return text
    if isinstance(v, (np.complexfloating, complex)):
        return f"({format_element(np.real(v))},{format_element(np.imag(v))})"
    return str(v)


_C_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
              ord("\\"): "\\\\"}


def _c_escape(raw: bytes) -> str:
    """absl's CEscape: quotes, backslash and \\n \\r \\t escaped, other unprintable bytes as 3-digit octal."""
    return "".join(_C_ESCAPES.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}") for b in raw)


def _v1_element(v: object) -> str:
    """One value in the v1 layout: strings C-escaped, as TF's SummarizeValue prints them."""
    if isinstance(v, (bytes, np.bytes_)):
        return _c_escape(bytes(v))
    if isinstance(v, str):
        return _c_escape(v.encode("utf-8"))
    return format_element(v)


def summarize_v1(value: np.ndarray, summarize: int) -> str:
    """The v1 layout (Assert, Print): the first `summarize` entries in row-major order, '...' after a cut."""
    value = np.asarray(value)
    if value.ndim == 0:
        return _v1_element(value[()])
    limit = value.size if summarize < 0 else min(summarize, value.size)
    flat = value.reshape(-1)
    if value.ndim == 1:
        text = " ".join(_v1_element(x) for x in flat[:limit])
        return text + ("..." if limit < value.size else "")
    counter = [0]
    last = value.ndim - 1

    def dim(level: int) -> str:
        # rows follow each other without spaces; a cut inside a row ends it with '...', the rest stops silently
        text = ""
        for i in range(value.shape[level]):
            if counter[0] >= limit:
                return text + ("..." if level == last else "")
            if level == last:
                text += (" " if i else "") + _v1_element(flat[counter[0]])
                counter[0] += 1
            else:
                text += "[" + dim(level + 1) + "]"
        return text

    return dim(0) + ("..." if limit < value.size else "")


def summarize_v2(value: np.ndarray, summarize: int, quote_strings: bool = True) -> str:
    """The v2 layout (tf.print): numpy-like nested brackets, `summarize` entries at each end of every dim."""
    value = np.asarray(value)

    def element(x: object) -> str:
        if quote_strings and isinstance(x, (bytes, np.bytes_, str)):
            return '"' + format_element(x) + '"'
        return format_element(x)

    if value.ndim == 0:
        return element(value[()])

    def dim(arr: np.ndarray, depth: int) -> str:
        n = arr.shape[0]
        cut = 0 <= summarize and 2 * summarize < n
        idx = list(range(summarize)) + [None] + list(range(n - summarize, n)) if cut else list(range(n))
        if arr.ndim == 1:
            return "[" + " ".join("..." if i is None else element(arr[i]) for i in idx) + "]"
        sep = "\n" * (arr.ndim - 1) + " " * (depth + 1)
        return "[" + sep.join("..." if i is None else dim(arr[i], depth + 1) for i in idx) + "]"

    return dim(value, 0)
