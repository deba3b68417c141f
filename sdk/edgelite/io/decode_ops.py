"""Byte-level decoders of tf.io: decode_raw, decode_base64/encode_base64, decode_compressed,
decode_json_example, serialize_tensor/parse_tensor."""
from __future__ import annotations

import base64
import binascii
import json
import struct
import zlib
from typing import Any, Optional

import numpy as np
from google.protobuf import json_format

from edgelite._codec import wire
from edgelite.framework import dtypes, errors, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op

from .example_protos import Example


def _as_bytes(x: Any) -> bytes:
    return x.encode("utf-8") if isinstance(x, str) else bytes(x)


def _map_strings(fn: Any, arr: np.ndarray) -> np.ndarray:
    """Apply fn to each string of an object array, keeping the shape."""
    out = np.empty(arr.shape, dtype=object)
    out.reshape(-1)[:] = [fn(_as_bytes(s)) for s in arr.reshape(-1)]
    return out


# ---- decode_raw ------------------------------------------------------------------------------------
def _decode_raw_kernel(ctx: Any, data: np.ndarray) -> np.ndarray:
    dt = np.dtype(dtypes.as_dtype(ctx.attrs["out_type"]).as_numpy_dtype)
    dt = dt.newbyteorder("<" if ctx.attrs["little_endian"] else ">")
    flat = [_as_bytes(s) for s in data.reshape(-1)]
    size = len(flat[0]) if flat else 0
    for i, s in enumerate(flat):
        if len(s) != size:
            raise errors.InvalidArgumentError(None, None, f"DecodeRaw requires input strings to all be the same size, "
                                                          f"but element {i} has size {size} != {len(s)}")
    if size % dt.itemsize:
        raise errors.InvalidArgumentError(None, None, f"Input to DecodeRaw has length {size} that is not a multiple "
                                                      f"of {dt.itemsize}, the size of "
                                                      f"{dtypes.as_dtype(ctx.attrs['out_type']).name}")
    out = np.frombuffer(b"".join(flat), dtype=dt).astype(dt.newbyteorder("="))
    return out.reshape(data.shape + (size // dt.itemsize,))


def _decode_raw_shape(op: Any) -> list:
    s = op.inputs[0].shape
    return [None if s.ndims is None else s.as_list() + [None]]


register_op("DecodeRaw", inputs=["bytes: string"], outputs=["output: out_type"], kernel=_decode_raw_kernel,
            shape_fn=_decode_raw_shape, attrs={"little_endian": True})


def decode_raw(input_bytes: Any = None, out_type: Any = None, little_endian: bool = True,
               name: Optional[str] = None, bytes: Any = None) -> ops.Tensor:  # noqa: A002 - TF's argument
    """Reinterpret the bytes of each string as a vector of out_type numbers (all strings equally long)."""
    if input_bytes is not None and bytes is not None:
        raise ValueError("Cannot specify both 'input_bytes' and 'bytes'.")
    data = bytes if input_bytes is None else input_bytes
    return ops.apply_op("DecodeRaw", [data], {"out_type": dtypes.as_dtype(out_type),
                                              "little_endian": bool(little_endian)}, name=name)


# ---- base64 (web-safe alphabet, as TensorFlow uses) ----------------------------------------------------
def _b64decode(s: bytes) -> bytes:
    body = s.rstrip(b"=")
    if not body:
        return b""
    try:
        return base64.b64decode(body + b"=" * (-len(body) % 4), altchars=b"-_", validate=True)
    except binascii.Error:
        raise errors.InvalidArgumentError(None, None, "Invalid character found in base64.") from None


def _decode_base64_kernel(ctx: Any, data: np.ndarray) -> np.ndarray:
    return _map_strings(_b64decode, data)


def _encode_base64_kernel(ctx: Any, data: np.ndarray) -> np.ndarray:
    pad = bool(ctx.attrs["pad"])
    return _map_strings(lambda s: base64.urlsafe_b64encode(s) if pad else base64.urlsafe_b64encode(s).rstrip(b"="),
                        data)


def _same_shape(op: Any) -> list:
    return [op.inputs[0].shape]


register_op("DecodeBase64", inputs=["input: string"], outputs=["output: string"], kernel=_decode_base64_kernel,
            shape_fn=_same_shape)
register_op("EncodeBase64", inputs=["input: string"], outputs=["output: string"], kernel=_encode_base64_kernel,
            shape_fn=_same_shape, attrs={"pad": False})


def decode_base64(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Decode web-safe base64 strings (padding optional)."""
    return ops.apply_op("DecodeBase64", [input], name=name)


def encode_base64(input: Any, pad: bool = False, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Encode strings as web-safe base64, '=' padding only with pad=True."""
    return ops.apply_op("EncodeBase64", [input], {"pad": bool(pad)}, name=name)


# ---- decode_compressed ----------------------------------------------------------------------------
def _inflate(kind: str) -> Any:
    wbits = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}[kind]

    def run(s: bytes) -> bytes:
        try:
            d = zlib.decompressobj(wbits)
            out = d.decompress(s) + d.flush()
        except zlib.error as e:
            from .tf_record import _inflate_message
            raise errors.DataLossError(None, None, _inflate_message(e)) from None
        if not d.eof:
            raise errors.DataLossError(None, None, "inflate() failed with error -5: buffer error")
        return out
    return run


def _decode_compressed_kernel(ctx: Any, data: np.ndarray) -> np.ndarray:
    kind = ctx.attrs["compression_type"]
    if not kind:
        return _map_strings(lambda s: s, data)
    return _map_strings(_inflate(kind), data)


register_op("DecodeCompressed", inputs=["bytes: string"], outputs=["output: string"],
            kernel=_decode_compressed_kernel, shape_fn=_same_shape, attrs={"compression_type": ""})


def decode_compressed(bytes: Any, compression_type: str = "", name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Decompress each string ('' leaves them as they are, 'ZLIB' or 'GZIP')."""
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise ValueError(f"Invalid compression_type {compression_type!r}: expected '', 'ZLIB' or 'GZIP'")
    return ops.apply_op("DecodeCompressed", [bytes], {"compression_type": compression_type}, name=name)


# ---- decode_json_example --------------------------------------------------------------------------
def _field(number: int, payload: bytes) -> bytes:
    return wire.encode_key(number, wire.LENGTH) + wire.encode_varint(len(payload)) + payload


def _unpacked_feature(feature: Any) -> bytes:
    """A Feature's bytes with repeated numbers unpacked, as TensorFlow's JSON-to-binary conversion writes them."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return b""
    vals = getattr(feature, kind).value
    if kind == "int64_list":
        body = b"".join(wire.encode_key(1, wire.VARINT) + wire.encode_varint(v) for v in vals)
    elif kind == "float_list":
        body = b"".join(wire.encode_key(1, wire.FIXED32) + struct.pack("<f", v) for v in vals)
    else:
        body = b"".join(_field(1, v) for v in vals)
    return _field({"bytes_list": 1, "float_list": 2, "int64_list": 3}[kind], body)


def _json_to_example(s: bytes) -> bytes:
    try:
        text = s.decode("utf-8")
        msg = json_format.Parse(text, Example())
        order = list(json.loads(text).get("features", {}).get("feature", {}))
    except (json_format.ParseError, UnicodeDecodeError, ValueError, AttributeError) as e:
        raise errors.InvalidArgumentError(None, None, f"Error while parsing JSON: {e}") from None
    if not msg.HasField("features"):
        return b""
    fmap = msg.features.feature
    entries = b"".join(_field(1, _field(1, k.encode("utf-8")) + _field(2, _unpacked_feature(fmap[k])))
                       for k in order)
    return _field(1, entries)


def _decode_json_kernel(ctx: Any, data: np.ndarray) -> np.ndarray:
    return _map_strings(_json_to_example, data)


register_op("DecodeJSONExample", inputs=["json_examples: string"], outputs=["binary_examples: string"],
            kernel=_decode_json_kernel, shape_fn=_same_shape)


def decode_json_example(json_examples: Any, name: Optional[str] = None) -> ops.Tensor:
    """Convert JSON-encoded tf.train.Example records to binary protocol buffer strings."""
    return ops.apply_op("DecodeJSONExample", [json_examples], name=name)


# ---- serialize_tensor / parse_tensor ------------------------------------------------------------------
def _serialize_kernel(ctx: Any, value: np.ndarray) -> bytes:
    from edgelite.framework.graph_def import tensor_proto
    arr = np.asarray(value)
    if arr.dtype == object:
        arr = _map_strings(lambda s: s, arr)
    return np.asarray(tensor_proto(arr).SerializeToString(), dtype=object)


register_op("SerializeTensor", inputs=["tensor: T"], outputs=["serialized: string"], kernel=_serialize_kernel,
            shape_fn=lambda op: [[]])


def serialize_tensor(tensor: Any, name: Optional[str] = None) -> ops.Tensor:
    """A scalar string holding the tensor as a serialized TensorProto."""
    return ops.apply_op("SerializeTensor", [tensor], name=name)


_VALUE_FIELDS = {"float32": "float_val", "float64": "double_val", "int64": "int64_val", "bool": "bool_val"}


def _proto_array(proto: Any, dt: dtypes.DType) -> np.ndarray:
    shape = tuple(int(d.size) for d in proto.tensor_shape.dim)
    if dt == dtypes.string:
        out = np.empty(len(proto.string_val), dtype=object)
        out[:] = list(proto.string_val)
        return out.reshape(shape)
    np_dt = np.dtype(dt.as_numpy_dtype)
    if proto.tensor_content:
        return np.frombuffer(proto.tensor_content, dtype=np_dt.newbyteorder("<")).astype(np_dt).reshape(shape)
    vals = list(getattr(proto, _VALUE_FIELDS.get(dt.name, "int_val")))
    count = int(np.prod(shape, dtype=np.int64))
    arr = np.asarray(vals, dtype=np_dt)
    if len(arr) < count:
        arr = np.concatenate([arr, np.full(count - len(arr), arr[-1] if len(arr) else 0, np_dt)])
    return arr.reshape(shape)


def _parse_tensor_kernel(ctx: Any, serialized: np.ndarray) -> np.ndarray:
    from edgelite.summary.protos import TensorProto
    want = dtypes.as_dtype(ctx.attrs["out_type"])
    try:
        proto = TensorProto.FromString(_as_bytes(serialized.item()))
    except Exception:  # noqa: BLE001 - any malformed bytes are the same error to the caller
        raise errors.InvalidArgumentError(None, None, "Could not parse `serialized` as TensorProto: "
                                                      f"'{_as_bytes(serialized.item()).decode('utf-8', 'replace')}'")\
            from None
    got = dtypes.as_dtype(proto.dtype) if proto.dtype else None
    if got != want:
        raise errors.InvalidArgumentError(None, None, f"Type mismatch between parsed tensor "
                                                      f"({got.name if got else 'invalid'}) and dtype "
                                                      f"({_short_name(want)})")
    return _proto_array(proto, want)


def _short_name(dt: dtypes.DType) -> str:
    return {"float32": "float", "float64": "double"}.get(dt.name, dt.name)


register_op("ParseTensor", inputs=["serialized: string"], outputs=["output: out_type"],
            kernel=_parse_tensor_kernel, shape_fn=lambda op: [tensor_shape.unknown_shape()])


def parse_tensor(serialized: Any, out_type: Any, name: Optional[str] = None) -> ops.Tensor:
    """The tensor of out_type stored in a serialized TensorProto."""
    return ops.apply_op("ParseTensor", [serialized], {"out_type": dtypes.as_dtype(out_type)}, name=name)
