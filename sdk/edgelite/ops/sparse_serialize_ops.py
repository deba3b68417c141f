"""serialize_sparse / serialize_many_sparse / deserialize_many_sparse: SparseTensors as TensorProto strings
(the components written as TF's AsProtoTensorContent writes them: raw little-endian content, string_val)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite._codec import wire
from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor, as_sparse
from edgelite.ops import sparse_checks as checks
from edgelite.ops import string_util as su
from edgelite.ops.sparse_structure_kernels import lex_order


def _field(number: int, payload: bytes) -> bytes:
    return wire.encode_key(number, 2) + wire.encode_varint(len(payload)) + payload


def tensor_proto_bytes(arr: np.ndarray, dtype: dtypes.DType) -> bytes:
    """A TensorProto of arr: dtype, shape, then tensor_content (raw numbers; for strings all lengths as varints
    followed by all the bytes, TF's string tensor encoding)."""
    out = wire.encode_key(1, 0) + wire.encode_varint(dtype.as_datatype_enum)
    dims = b"".join(_field(2, (wire.encode_key(1, 0) + wire.encode_varint(int(d))) if d else b"")
                    for d in arr.shape)
    out += _field(2, dims)
    if dtype == dtypes.string:
        items = [su.to_bytes(s) for s in np.ravel(arr)]
        if items:
            out += _field(4, b"".join(wire.encode_varint(len(x)) for x in items) + b"".join(items))
    elif arr.size:
        out += _field(4, np.ascontiguousarray(arr, dtype=np.dtype(dtype.as_numpy_dtype).newbyteorder("<")).tobytes())
    return out


def _type_string(dtype: dtypes.DType) -> str:
    """TF's DataTypeString spelling."""
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _parse_proto(b: bytes, dtype: dtypes.DType, entry: int) -> np.ndarray:
    from edgelite.summary.protos import TensorProto
    try:
        proto = TensorProto.FromString(b)
    except Exception:  # noqa: BLE001 - malformed input of any kind is one error to the caller
        raise checks.invalid("Could not parse serialized proto") from None
    if proto.dtype != dtype.as_datatype_enum:
        got = _type_string(dtypes.as_dtype(proto.dtype)) if proto.dtype else "invalid"
        raise checks.invalid(f"Requested SparseTensor of type {_type_string(dtype)} but "
                             f"SparseTensor[{entry}].values.dtype() == {got}")
    shape = tuple(int(d.size) for d in proto.tensor_shape.dim)
    if dtype == dtypes.string:
        return _decode_strings(bytes(proto.tensor_content), list(proto.string_val), shape)
    np_dt = np.dtype(dtype.as_numpy_dtype)
    return np.frombuffer(proto.tensor_content, dtype=np_dt.newbyteorder("<")).astype(np_dt).reshape(shape)


def _decode_strings(content: bytes, string_val: list, shape: tuple) -> np.ndarray:
    """Strings of a TensorProto: string_val if present, else TF's length-prefixed tensor_content."""
    n = int(np.prod(shape, dtype=np.int64))
    items = list(string_val)
    if not items and n:
        pos, lengths = 0, []
        for _ in range(n):
            length, pos = wire.decode_varint(content, pos)
            lengths.append(length)
        for length in lengths:
            items.append(content[pos:pos + length])
            pos += length
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out.reshape(shape)


def _serialize_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> np.ndarray:
    dt = dtypes.as_dtype(ctx.op.inputs[1].dtype)
    out = np.empty(3, dtype=object)
    out[:] = [tensor_proto_bytes(indices.astype(np.int64), dtypes.int64), tensor_proto_bytes(values, dt),
              tensor_proto_bytes(shape.astype(np.int64), dtypes.int64)]
    return out


def _serialize_many_kernel(ctx: Any, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> np.ndarray:
    if shape.shape[0] < 2:
        raise checks.invalid(f"Rank of input SparseTensor should be > 1, but saw rank: {shape.shape[0]}")
    dt = dtypes.as_dtype(ctx.op.inputs[1].dtype)
    n = int(shape[0])
    rows = indices[:, 0]
    bad = checks.first_true((rows < 0) | (rows >= n))
    if bad is not None:
        raise checks.invalid(f"Received unexpected column 0 value in input SparseTensor: {int(rows[bad])} < 0 or "
                             f">= N (= {n})")
    out = np.empty((n, 3), dtype=object)
    inner_shape = tensor_proto_bytes(shape[1:].astype(np.int64), dtypes.int64)
    for b in range(n):
        keep = rows == b
        out[b] = [tensor_proto_bytes(indices[keep][:, 1:].astype(np.int64), dtypes.int64),
                  tensor_proto_bytes(values[keep], dt), inner_shape]
    return out


def _deserialize_many_kernel(ctx: Any, serialized: np.ndarray) -> tuple:
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise checks.invalid(f"Serialized sparse should be a matrix with 3 columns, got shape "
                             f"{checks.fmt_index(serialized.shape)}")
    dtype = dtypes.as_dtype(ctx.attrs["dtype"])
    parts = []
    for b, (si, sv, ss) in enumerate(su.as_bytes_array(serialized).tolist()):
        ind, val, shp = (_parse_proto(si, dtypes.int64, b), _parse_proto(sv, dtype, b),
                         _parse_proto(ss, dtypes.int64, b))
        if ind.ndim != 2 or val.ndim != 1 or shp.ndim != 1:
            raise checks.invalid(f"Expected serialized_sparse[{b}] to hold a SparseTensor, got shapes "
                                 f"{checks.fmt_index(ind.shape)}, {checks.fmt_index(val.shape)}, "
                                 f"{checks.fmt_index(shp.shape)}")
        if parts and shp.shape[0] != parts[0][2].shape[0]:
            raise checks.invalid(f"Inconsistent shape across SparseTensors: rank prior to SparseTensor[{b}] was: "
                                 f"{parts[0][2].shape[0] + 1} but rank of SparseTensor[{b}] is: {shp.shape[0] + 1}")
        parts.append((ind, val, shp))
    if not parts:
        return np.zeros((0, 1), np.int64), np.zeros(0, dtype.as_numpy_dtype), np.zeros(1, np.int64)
    rank = parts[0][2].shape[0]
    ind = np.concatenate([np.hstack([np.full((p[0].shape[0], 1), b, np.int64), p[0].reshape(-1, rank)])
                          for b, p in enumerate(parts)])
    val = np.concatenate([p[1] for p in parts])
    shape = np.concatenate([[len(parts)], np.max([p[2] for p in parts], axis=0)]).astype(np.int64)
    order = lex_order(ind)
    return ind[order], val[order], shape


register_op("SerializeSparse", inputs=["sparse_indices: int64", "sparse_values: T", "sparse_shape: int64"],
            outputs=["serialized_sparse: out_type"], attrs={"out_type": dtypes.string},
            kernel=_serialize_kernel, shape_fn=lambda op: [[3]],
            allowed_dtypes={"out_type": [dtypes.string]})
register_op("SerializeManySparse", inputs=["sparse_indices: int64", "sparse_values: T", "sparse_shape: int64"],
            outputs=["serialized_sparse: out_type"], attrs={"out_type": dtypes.string},
            kernel=_serialize_many_kernel, shape_fn=lambda op: [[None, 3]],
            allowed_dtypes={"out_type": [dtypes.string]})
register_op("DeserializeManySparse", inputs=["serialized_sparse: string"],
            outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
            kernel=_deserialize_many_kernel, shape_fn=lambda op: [[None, None], [None], [None]])
for _t in ("SerializeSparse", "SerializeManySparse", "DeserializeManySparse"):
    ops.NoGradient(_t)


def serialize_sparse(sp_input: Any, name: Optional[str] = None, out_type: Any = dtypes.string) -> ops.Tensor:
    """string [3]: the indices, values and dense_shape of a SparseTensor as serialized TensorProtos."""
    sp_input = as_sparse(sp_input)
    return ops.apply_op("SerializeSparse", [sp_input.indices, sp_input.values, sp_input.dense_shape],
                        {"out_type": dtypes.as_dtype(out_type)}, name=name or "SerializeSparse")


def serialize_many_sparse(sp_input: Any, name: Optional[str] = None, out_type: Any = dtypes.string) -> ops.Tensor:
    """string [N, 3]: serialize_sparse of each minibatch entry (first dimension) of a SparseTensor."""
    sp_input = as_sparse(sp_input)
    return ops.apply_op("SerializeManySparse", [sp_input.indices, sp_input.values, sp_input.dense_shape],
                        {"out_type": dtypes.as_dtype(out_type)}, name=name or "SerializeManySparse")


def deserialize_many_sparse(serialized_sparse: Any, dtype: Any, rank: Optional[int] = None,
                            name: Optional[str] = None) -> SparseTensor:
    """The minibatch SparseTensor of N serialized ones: batch index first, dense shape the elementwise max."""
    ind, val, shape = ops.apply_op("DeserializeManySparse", [serialized_sparse], {"dtype": dtypes.as_dtype(dtype)},
                                   name=name or "DeserializeManySparse")
    ind.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(ind, val, shape)
