"""tf.strings.ngrams for dense string tensors: n-grams along the last dimension, optionally padded."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import string_util as su


def _row_ngrams(row: list, widths: list, a: dict) -> list:
    sep, left, right = su.to_bytes(a["separator"]), su.to_bytes(a["left_pad"]), su.to_bytes(a["right_pad"])
    out = []
    for w in widths:
        pad = w - 1 if a["pad_width"] < 0 else min(a["pad_width"], w - 1)
        padded = [left] * pad + row + [right] * pad
        out.extend(sep.join(padded[j:j + w]) for j in range(max(0, len(padded) - w + 1)))
    if not out and a["preserve_short_sequences"] and row:
        pad = max(a["pad_width"], 0)
        out.append(sep.join([left] * pad + row + [right] * pad))
    return out


def _ngrams_kernel(ctx: Any, data: np.ndarray, splits: np.ndarray) -> tuple:
    values = su.as_bytes_array(data).tolist()
    widths = list(ctx.attrs["ngram_widths"])
    rows = [_row_ngrams(values[splits[i]:splits[i + 1]], widths, ctx.attrs) for i in range(splits.size - 1)]
    out = np.empty(sum(len(r) for r in rows), dtype=object)
    out[:] = [g for r in rows for g in r]
    return out, np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(splits.dtype)


register_op("StringNGrams", inputs=["data: string", "data_splits: Tsplits"],
            outputs=["ngrams: string", "ngrams_splits: Tsplits"],
            attrs={"separator": " ", "ngram_widths": [], "left_pad": "", "right_pad": "", "pad_width": 0,
                   "preserve_short_sequences": False, "Tsplits": dtypes.int64},
            kernel=_ngrams_kernel, shape_fn=lambda op: [[None], op.inputs[1].shape])
ops.NoGradient("StringNGrams")


def ngrams(data: Any, ngram_width: Any, separator: str = " ", pad_values: Any = None, padding_width: Any = None,
           preserve_short_sequences: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """The n-grams (for each width) of every row of a dense string tensor, joined with separator."""
    with ops.name_scope(name, "StringNGrams", [data]):
        if pad_values is None:
            if padding_width is not None:
                raise ValueError("pad_values must be provided if padding_width is set.")
            left, right, pad = "", "", 0
        elif isinstance(pad_values, (list, tuple)):
            if len(pad_values) != 2 or not all(isinstance(p, str) for p in pad_values):
                raise ValueError("pad_values must be a string, tuple or list of length 2.")
            left, right = pad_values
            pad = -1 if padding_width is None else padding_width
        elif isinstance(pad_values, str):
            left = right = pad_values
            pad = -1 if padding_width is None else padding_width
        else:
            raise ValueError("pad_values must be a string, tuple or list of length 2.")
        if padding_width is not None and padding_width < 1:
            raise ValueError("padding_width must be greater than 0.")
        widths = [ngram_width] if isinstance(ngram_width, int) else list(ngram_width)
        x = ops.convert_to_tensor(data, dtype=dtypes.string, name="data")
        if x.shape.ndims is None:
            raise ValueError("Rank of data must be known.")
        if x.shape.ndims == 0:
            raise ValueError("Data must have rank>0")
        shape = array_ops.shape(x, out_type=dtypes.int64)
        rows = math_ops.reduce_prod(shape[:-1])
        splits = math_ops.range(rows + 1, dtype=dtypes.int64) * shape[-1]
        grams, _ = ops.apply_op("StringNGrams", [array_ops.reshape(x, [-1]), splits],
                                {"separator": separator, "ngram_widths": widths, "left_pad": left,
                                 "right_pad": right, "pad_width": int(pad),
                                 "preserve_short_sequences": preserve_short_sequences})
        if x.shape.ndims == 1:
            return grams
        out = array_ops.reshape(grams, array_ops.concat([shape[:-1], [-1]], 0))
        out.set_shape(x.shape[:-1].concatenate([None]))
        return out
