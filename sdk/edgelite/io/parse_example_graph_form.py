"""ParseExampleV2 as TensorFlow writes it into a GraphDef: the feature keys and dense defaults as inputs, the types
and shapes as attrs (Tdense, dense_shapes, num_sparse, sparse_types). edgelite adds these to the ops it builds for
dense and VarLen features, so an exported graph (a SavedModel's parsing serving input) imports back, in edgelite
or TensorFlow, without edgelite's in-memory feature specs."""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from edgelite.framework import constant_op, dtypes, tensor_shape

from . import example_parser as ep

_TF_DTYPE = {"int64": dtypes.int64, "float": dtypes.float32, "string": dtypes.string}
_SHORT = {dtypes.int64: "int64", dtypes.float32: "float", dtypes.string: "string"}


def _strings(values: list, name: str) -> Any:
    return constant_op.constant(np.array(values, dtype=object).reshape([len(values)]), dtypes.string, name=name)


def graph_operands(dense: list, sparse: list) -> tuple:
    """([sparse_keys, dense_keys, ragged_keys, *dense_defaults], attrs) for dense and VarLen specs, in the current
    name scope; a required feature's default is an empty tensor, a sequence feature's its padding, as TF writes
    them."""
    operands = [_strings([s.key for s in sparse], "sparse_keys"), _strings([d.key for d in dense], "dense_keys"),
                _strings([], "ragged_keys")]
    for i, d in enumerate(dense):
        dtype = _TF_DTYPE[d.dtype]
        value = d.default
        if value is None:
            # a required feature has no default; a sequence feature's is its padding element
            empty = np.zeros([] if d.seq else [0], dtype=dtype.as_numpy_dtype if d.dtype != "string" else object)
            value = np.full(empty.shape, b"", dtype=object) if d.dtype == "string" else empty
        operands.append(constant_op.constant(value, dtype, name=f"dense_default_{i}"))
    attrs = {"Tdense": [_TF_DTYPE[d.dtype] for d in dense], "num_sparse": len(sparse),
             "sparse_types": [_TF_DTYPE[s.dtype] for s in sparse], "ragged_value_types": [],
             "ragged_split_types": [],
             "dense_shapes": [tensor_shape.TensorShape(([None] if d.seq else []) + list(d.shape)) for d in dense]}
    return operands, attrs


def _key(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def specs_from_attrs(attrs: dict, sparse_keys: Optional[Sequence] = None, dense_keys: Optional[Sequence] = None,
                     defaults: Optional[Sequence] = None) -> tuple:
    """(dense, sparse, ragged) specs of a ParseExampleV2 in TF's graph form; keys and defaults, when given, are the
    op's input values (without them the specs only serve output dtypes and shapes)."""
    if attrs.get("ragged_value_types"):
        raise ValueError("ParseExampleV2 with ragged features is not supported in a graph read back from a GraphDef")
    dense = []
    for i, (dtype, shape) in enumerate(zip(attrs["Tdense"], attrs["dense_shapes"])):
        dims = tensor_shape.TensorShape(shape).as_list()
        seq = bool(dims) and dims[0] is None
        dims = tuple(dims[1:] if seq else dims)
        default = None
        if defaults is not None and np.size(defaults[i]):
            default = np.asarray(defaults[i]).reshape(() if seq else dims)
        key = _key(dense_keys[i]) if dense_keys is not None else ""
        dense.append(ep.DenseSpec(key, _SHORT[dtypes.as_dtype(dtype)], dims, default, seq, seq))
    sparse = [ep.SparseSpec(_key(sparse_keys[i]) if sparse_keys is not None else "",
                            _SHORT[dtypes.as_dtype(dtype)]) for i, dtype in enumerate(attrs["sparse_types"])]
    return dense, sparse, []
