"""tf.keras.preprocessing.sequence: pad_sequences (variable-length sequences as one padded array)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np


def pad_sequences(sequences: Any, maxlen: Optional[int] = None, dtype: Any = "int32", padding: str = "pre",
                  truncating: str = "pre", value: Any = 0.0) -> np.ndarray:
    """Sequences of different lengths as one [n, maxlen, ...] array: shorter ones padded with `value`, longer ones
    cut, both at the start ('pre') or the end ('post'); maxlen defaults to the longest sequence. Checks happen as
    Keras makes them: the modes and shapes only on non-empty sequences."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape, shape_known = [], (), False
    for seq in sequences:
        try:
            lengths.append(len(seq))
        except TypeError as exc:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {seq}") from exc
        if not shape_known and len(seq):
            sample_shape, shape_known = np.asarray(seq).shape[1:], True
    if maxlen is None:
        maxlen = np.max(lengths)
    string_dtype = np.issubdtype(dtype, np.str_)
    if isinstance(value, str) and dtype != object and not string_dtype:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou should set "
                         "`dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating not in ("pre", "post"):
            raise ValueError(f'Truncating type "{truncating}" not understood')
        # seq[-0:] is the whole sequence: maxlen=0 fails on the assignment below, as in Keras
        kept = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} is different from "
                             f"expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        elif padding == "pre":
            out[i, -len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out
