"""Helpers shared by the TF fixture generator and the edgelite tests of tests/sdk_sparse.

A case is (name, build) with build(tf) -> (fetches, feed_dict): fetches is any structure of tensors and
SparseTensors. The generator runs each case under tensorflow.compat.v1 and records, per case, either the
flattened fetched values (a SparseTensorValue counts as its three arrays) with their static shapes, or the
error type and message; the test runs the same build under edgelite and compares.
"""
from __future__ import annotations

import numpy as np


def flatten(tf, fetches) -> list:
    """The leaves of a fetch structure (a SparseTensor or SparseTensorValue gives its three parts)."""
    if isinstance(fetches, (tf.SparseTensor, tf.SparseTensorValue)):
        return [fetches.indices, fetches.values, fetches.dense_shape]
    if isinstance(fetches, dict):
        return [x for k in sorted(fetches) for x in flatten(tf, fetches[k])]
    if isinstance(fetches, (list, tuple)):
        return [x for f in fetches for x in flatten(tf, f)]
    return [fetches]


def static_shapes(tf, fetches) -> list:
    """The static shape (list with None, or None for unknown rank) of each top-level tensor/SparseTensor leaf."""
    out = []
    for f in (fetches if isinstance(fetches, (list, tuple)) else [fetches]):
        if isinstance(f, (list, tuple, dict)):
            continue
        shape = f.shape
        out.append(None if shape.ndims is None else [None if d is None else int(d) for d in shape.as_list()])
    return out


def encode(value) -> dict:
    """A fetched array as JSON: dtype, shape and flat data (bytes as hex)."""
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind == "S":
        data = [bytes(x).hex() for x in arr.ravel()]
        return {"dtype": "bytes", "shape": list(arr.shape), "data": data}
    if arr.dtype.kind == "f" or arr.dtype.kind == "c":
        data = [None if not np.isfinite(x) else float(x) for x in arr.ravel().astype(np.float64)]
        nonfinite = [str(x) for x in arr.ravel()] if not np.isfinite(arr).all() else None
        return {"dtype": arr.dtype.name, "shape": list(arr.shape), "data": data, "nonfinite": nonfinite}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "data": arr.ravel().tolist()}


def decode(rec: dict) -> np.ndarray:
    """The array an encode() record describes."""
    if rec["dtype"] == "bytes":
        flat = np.empty(len(rec["data"]), dtype=object)
        flat[:] = [bytes.fromhex(x) for x in rec["data"]]
        return flat.reshape(rec["shape"])
    if rec.get("nonfinite"):
        return np.array([float(x) for x in rec["nonfinite"]], dtype=rec["dtype"]).reshape(rec["shape"])
    return np.array(rec["data"], dtype=rec["dtype"]).reshape(rec["shape"])


def op_message(err: Exception) -> str:
    """The op's own message of an error (TF wraps run-time ones with node context we do not mimic)."""
    msg = getattr(err, "message", None) or str(err)
    if "\nNode: '" in msg:
        msg = msg.split("\nNode: '", 1)[1].split("\n", 1)[1]
    return msg.split("\n\t [[")[0].strip()
