"""tf.compat's string and number-type helpers: bytes/str conversion as TensorFlow's as_bytes/as_text do."""
from __future__ import annotations

import codecs
import numbers
from typing import Any

import numpy as np

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)


def as_bytes(bytes_or_text: Any, encoding: str = "utf-8") -> bytes:
    """bytes, encoding str with `encoding`; TypeError for anything but bytes, bytearray or str."""
    encoding = codecs.lookup(encoding).name
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text: Any, encoding: str = "utf-8") -> str:
    """str, decoding bytes with `encoding`; TypeError for anything but bytes or str."""
    encoding = codecs.lookup(encoding).name
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    """str(value), decoding bytes with `encoding`."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path: Any) -> Any:
    """A path-like object as its str; anything else unchanged."""
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path
