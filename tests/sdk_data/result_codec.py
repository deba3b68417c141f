"""Turns Session.run results (arrays, bytes, SparseTensorValues, nested dicts/lists) into JSON-able data."""
from __future__ import annotations

import re

import numpy as np


def encode(value):
    """JSON-able form of a fetched value; bytes are kept as latin-1 text so nothing is lost."""
    if isinstance(value, dict):
        return {"dict": {str(k): encode(v) for k, v in sorted(value.items())}}
    if hasattr(value, "indices") and hasattr(value, "dense_shape") and hasattr(value, "values"):
        return {"sparse": [encode(value.indices), encode(value.values), encode(value.dense_shape)]}
    if isinstance(value, (list, tuple)):
        return {"list": [encode(v) for v in value]}
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind == "S":
        flat = [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in arr.ravel().tolist()]
        return {"dtype": "string", "shape": list(arr.shape), "values": flat}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "values": arr.ravel().tolist()}


def error_core(message: str) -> str:
    """The kernel's own text out of a TensorFlow run-time error message (without node and trace decoration)."""
    m = re.search(r"\nNode: '[^']*'\n(.*?)\n\t \[\[", message, re.S)
    if m:
        return m.group(1)
    return message.split("\n\t [[")[0]
