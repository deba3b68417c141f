"""tf.keras.utils: to_categorical and normalize."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np


def to_categorical(y: Any, num_classes: Optional[int] = None, dtype: str = "float32") -> np.ndarray:
    """One-hot rows for integer class ids (classes 0 .. max(y) unless num_classes is given)."""
    y = np.array(y, dtype="int")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    y = y.ravel()
    if num_classes is None:
        num_classes = int(np.max(y)) + 1
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype)
    categorical[np.arange(y.shape[0]), y] = 1
    return categorical.reshape(shape + (num_classes,))


def normalize(x: Any, axis: int = -1, order: int = 2) -> np.ndarray:
    """x divided by its `order`-norm along `axis` (zero norms left as 1)."""
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def pad_sequences(sequences: Any, maxlen: Optional[int] = None, dtype: str = "int32", padding: str = "pre",
                  truncating: str = "pre", value: float = 0.0) -> np.ndarray:
    """Sequences of different lengths as one [n, maxlen] array: shorter ones padded with `value`, longer ones
    cut, both at the start ('pre') or the end ('post'); maxlen defaults to the longest sequence."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], ()
    for seq in sequences:
        if not hasattr(seq, "__len__"):
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {seq}")
        lengths.append(len(seq))
        if len(seq) and not sample_shape:
            sample_shape = np.asarray(seq).shape[1:]
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    if padding not in ("pre", "post"):
        raise ValueError(f'`padding` type "{padding}" not understood')
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood')
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq) or not maxlen:
            continue
        kept = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if padding == "post":
            out[i, :len(kept)] = kept
        else:
            out[i, -len(kept):] = kept
    return out
