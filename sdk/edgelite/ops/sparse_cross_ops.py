"""tf.sparse.cross / cross_hashed: per batch row, every combination of one feature from each input
(last input fastest), joined as strings or chained through FingerprintCat64 as TF's SparseCross does."""
from __future__ import annotations

import itertools
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import fingerprint
from edgelite.ops import math_ops
from edgelite.ops import sparse_checks as checks
from edgelite.ops import string_util as su

DEFAULT_HASH_KEY = fingerprint.TF_HASH_SEED


def _rows(indices: np.ndarray, values: np.ndarray, batch: int) -> list:
    """The values of each batch row of a sparse input, in their stored order."""
    order = np.argsort(indices[:, 0], kind="stable") if indices.shape[0] else np.zeros(0, np.int64)
    counts = np.bincount(indices[order, 0].astype(np.int64), minlength=batch) if order.size else \
        np.zeros(batch, np.int64)
    return np.split(values[order], np.cumsum(counts)[:-1])


def _columns(indices: list, values: list, shapes: list, dense: list) -> tuple:
    batch = int(shapes[0][0]) if shapes else (dense[0].shape[0] if dense else 0)
    cols = []
    for i, (ind, val, shape) in enumerate(zip(indices, values, shapes)):
        if int(shape[0]) != batch:
            raise checks.invalid(f"Expected batch size {batch} got {int(shape[0])} at position {i}")
        cols.append(_rows(ind, val, batch))
    for i, d in enumerate(dense):
        if d.ndim != 2:
            raise checks.invalid(f"Dense inputs should be a matrix but received shape {su.shape_str(d)}")
        if d.shape[0] != batch:
            raise checks.invalid(f"Expected batch size {batch} got {d.shape[0]} at dense tensor {i}")
        cols.append(list(d))
    return batch, cols


def _string_feature(v: Any) -> bytes:
    return su.to_bytes(v) if isinstance(v, (bytes, str)) else str(int(v)).encode()


def _hash_feature(v: Any) -> int:
    return fingerprint.fingerprint64(su.to_bytes(v)) if isinstance(v, (bytes, str)) else int(v) & fingerprint.M64


def _cross(batch: int, cols: list, combine: Any) -> tuple:
    per_row = [[combine(combo) for combo in itertools.product(*[c[b] for c in cols])] for b in range(batch)]
    rows = np.repeat(np.arange(batch, dtype=np.int64), [len(r) for r in per_row])
    pos = np.concatenate([np.arange(len(r), dtype=np.int64) for r in per_row]) if per_row else np.zeros(0, np.int64)
    flat = [x for r in per_row for x in r]
    width = max((len(r) for r in per_row), default=0)
    return np.stack([rows, pos], axis=1).reshape(-1, 2), flat, np.array([batch, width], np.int64)


def _cross_kernel(ctx: Any, indices: list, values: list, shapes: list, dense: list, sep: Any = None) -> tuple:
    batch, cols = _columns(indices, values, shapes, dense)
    if ctx.attrs.get("hashed_output"):
        key, buckets = ctx.attrs["hash_key"] & fingerprint.M64, ctx.attrs["num_buckets"]
        modulus = buckets if buckets > 0 else (1 << 63) - 1

        def combine(combo: tuple) -> int:
            h = key
            for v in combo:
                h = fingerprint.fingerprint_cat64(h, _hash_feature(v))
            return h % modulus

        ind, flat, shape = _cross(batch, cols, combine)
        return ind, np.array(flat, dtype=np.int64), shape
    joiner = b"_X_" if sep is None else su.to_bytes(np.asarray(sep, dtype=object).item())
    ind, flat, shape = _cross(batch, cols, lambda combo: joiner.join(_string_feature(v) for v in combo))
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return ind, out, shape


_CROSS_IN = ["indices: N * int64", "values: N * sparse_types", "shapes: N * int64",
             "dense_inputs: M * dense_types"]
register_op("SparseCross", inputs=_CROSS_IN, outputs=["output_indices: int64", "output_values: out_type",
                                                      "output_shape: int64"],
            attrs={"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": dtypes.string,
                   "internal_type": dtypes.string},
            kernel=_cross_kernel, shape_fn=lambda op: [[None, 2], [None], [2]],
            dtype_fn=lambda op: [dtypes.int64, op.get_attr("out_type"), dtypes.int64])
register_op("SparseCrossV2", inputs=_CROSS_IN + ["sep: string"],
            outputs=["output_indices: int64", "output_values: string", "output_shape: int64"],
            kernel=_cross_kernel, shape_fn=lambda op: [[None, 2], [None], [2]])
ops.NoGradient("SparseCross")
ops.NoGradient("SparseCrossV2")


def _cross_op(inputs: Any, hashed: bool, num_buckets: int, hash_key: Optional[int], separator: Any,
              name: Optional[str]) -> SparseTensor:
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(i, (SparseTensor, ops.Tensor)) for i in inputs):
        raise TypeError("All inputs must be SparseTensors")
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, SparseTensor)]
    values = [v if v.dtype == dtypes.string else math_ops.cast(v, dtypes.int64) for v in (s.values for s in sparse)]
    dense = [d if d.dtype == dtypes.string else math_ops.cast(d, dtypes.int64) for d in dense]
    internal = dtypes.int64 if any(t.dtype != dtypes.string for t in values + dense) else dtypes.string
    flat = [s.indices for s in sparse] + values + [s.dense_shape for s in sparse] + dense
    attrs = {"N": len(sparse), "M": len(dense), "sparse_types": [v.dtype for v in values],
             "dense_types": [d.dtype for d in dense]}
    if hashed:
        op_type = "SparseCross"
        attrs.update({"hashed_output": True, "num_buckets": int(num_buckets),
                      "hash_key": int(hash_key or DEFAULT_HASH_KEY), "out_type": dtypes.int64,
                      "internal_type": internal})
    else:
        op_type = "SparseCrossV2"
        flat.append(ops.convert_to_tensor(separator, dtypes.string))
    out_dtypes = [dtypes.int64, dtypes.int64 if hashed else dtypes.string, dtypes.int64]
    with ops.name_scope(name, op_type, flat) as scope:
        op = ops.get_default_graph().create_op(op_type, flat, out_dtypes, name=scope, attrs=attrs)
    return SparseTensor(*op.outputs)


def sparse_cross(inputs: Any, name: Optional[str] = None, separator: Any = None) -> SparseTensor:
    """String crosses of sparse/dense feature columns: 'a_X_b' per combination (sparse inputs first)."""
    return _cross_op(inputs, False, 0, None, "_X_" if separator is None else separator, name)


def sparse_cross_hashed(inputs: Any, num_buckets: int = 0, hash_key: Optional[int] = None,
                        name: Optional[str] = None) -> SparseTensor:
    """Hashed crosses: FingerprintCat64 chain of the features' fingerprints, mod num_buckets (if > 0)."""
    return _cross_op(inputs, True, num_buckets, hash_key, None, name)
