"""Session-side hash tables for the lookup ops: a per-session table of sorted keys and their values, filled once
by an initializer op and searched with np.searchsorted."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.framework import dtypes, errors

# TextFileIndex values TensorFlow uses for "the whole line" and "the line number" as a key or value column.
WHOLE_LINE = -2
LINE_NUMBER = -1


class TableState:
    """Keys sorted ascending with their values; None until an initializer has run."""

    def __init__(self, key_dtype: dtypes.DType, value_dtype: dtypes.DType) -> None:
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype
        self.keys = None
        self.values = None

    def insert(self, keys: np.ndarray, values: np.ndarray) -> None:
        """Store the pairs; re-running with the same pairs is a no-op, a key with two values is an error (as TF)."""
        keys, values = np.asarray(keys).reshape(-1), np.asarray(values).reshape(-1)
        if keys.shape != values.shape:
            raise errors.InvalidArgumentError(None, None, f"Expected shape {list(keys.shape)} for keys, got "
                                                          f"{list(values.shape)}")
        order = np.argsort(keys, kind="stable")
        keys, values = keys[order], values[order]
        same = keys[1:] == keys[:-1]
        clash = np.flatnonzero(same & (values[1:] != values[:-1]))
        if clash.size:
            i = clash[0]
            raise errors.FailedPreconditionError(
                None, None, f"HashTable has different value for same key. Key {_text(keys[i])} has "
                            f"{_text(values[i])} and trying to add value {_text(values[i + 1])}")
        keep = np.concatenate([[True], ~same])
        keys, values = keys[keep], values[keep]
        if self.keys is not None:
            if not (self.keys.shape == keys.shape and np.array_equal(self.keys, keys)
                    and np.array_equal(self.values, values)):
                raise errors.FailedPreconditionError(None, None, "Table already initialized.")
            return
        self.keys, self.values = keys, values

    def _ready(self) -> None:
        if self.keys is None:
            raise errors.FailedPreconditionError(None, None, "Table not initialized.")

    def find(self, keys: np.ndarray, default: np.ndarray) -> np.ndarray:
        """Values of keys (any shape), default where a key is absent."""
        self._ready()
        flat = np.asarray(keys).reshape(-1)
        out = np.full(flat.shape, default, dtype=self.values.dtype)
        if self.keys.size:
            pos = np.minimum(np.searchsorted(self.keys, flat), self.keys.size - 1)
            hit = self.keys[pos] == flat
            out[hit] = self.values[pos[hit]]
        return out.reshape(np.shape(keys))

    def size(self) -> np.int64:
        """Number of distinct keys (0 before initialization, as TF)."""
        return np.int64(0 if self.keys is None else self.keys.size)

    def export(self) -> tuple:
        self._ready()
        return self.keys.copy(), self.values.copy()


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def _parse(field: bytes, dtype: dtypes.DType, path: str, line_no: int) -> Any:
    if dtype == dtypes.string:
        return field
    try:
        return int(field) if dtype.is_integer else float(field)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Field {_text(field)} in line {line_no} is not a valid {dtype.name}.") from None


def read_text_file(path: str, key_index: int, value_index: int, key_dtype: dtypes.DType,
                   value_dtype: dtypes.DType, vocab_size: int, delimiter: str, offset: int) -> tuple:
    """Keys and values of a vocabulary file, column by column as TF's InitializeTableFromTextFile reads them."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from e
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if vocab_size > 0:
        if len(lines) < vocab_size:
            raise errors.InvalidArgumentError(None, None, f"Invalid vocab_size in {path}: expected {vocab_size} "
                                                          f"but got {len(lines)}")
        lines = lines[:vocab_size]
    sep = delimiter.encode("utf-8")
    keys, values, position = [], [], 0
    for n, raw in enumerate(lines):
        line = raw[:-1] if raw.endswith(b"\r") else raw
        # TF reports the byte offset just past the offending line's newline.
        position += len(raw) + 1
        if not line:
            raise errors.InvalidArgumentError(None, None, f"Invalid content in {path}: empty line found at "
                                                          f"position {position}.")
        cols = line.split(sep) if sep else line.split()
        need = max(key_index, value_index) + 1
        if len(cols) < need:
            raise errors.InvalidArgumentError(
                None, None, f"Invalid number of columns in {path} line {n} ({_text(line)}) : expected at least "
                            f"{need} got {len(cols)}")

        def column(index: int, dtype: dtypes.DType) -> Any:
            if index == WHOLE_LINE:
                return line
            if index == LINE_NUMBER:
                return n + offset
            return _parse(cols[index], dtype, path, n)
        keys.append(column(key_index, key_dtype))
        values.append(column(value_index, value_dtype))
    return (np.array(keys, dtype=_np(key_dtype)), np.array(values, dtype=_np(value_dtype)))


def _np(dtype: dtypes.DType) -> Any:
    return object if dtype == dtypes.string else dtype.as_numpy_dtype
