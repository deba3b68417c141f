"""Serializing an ir.Graph as a .tflite flatbuffer.

One subgraph ("main") with named tensors; constant data in buffers that are deduplicated by content and
16-byte aligned, buffer 0 being the empty sentinel; one OperatorCode per (op, version, custom code) with
`deprecated_builtin_code = min(code, 127)` and the real code in `builtin_code`; a 16-byte
`min_runtime_version` metadata buffer; a `serving_default` SignatureDef with the user-facing names;
`shape_signature` (with -1) only for tensors whose shape is not fully known.
"""
from __future__ import annotations

import hashlib

import numpy as np

from edgelite.lite import ir, op_versions, schema, schema_writer

DESCRIPTION = "edgelite converted."
SIGNATURE_KEY = "serving_default"
RUNTIME_METADATA = "min_runtime_version"


def _tensor_type(dtype: np.dtype) -> int:
    name = schema.NUMPY_TENSOR_TYPES.get(np.dtype(dtype).name)
    if name is None:
        raise ValueError(f"TFLite has no tensor type for dtype {np.dtype(dtype).name}")
    return schema.TENSOR_TYPES[name]


def _quantization(q: ir.QuantParams) -> dict:
    return {"scale": np.asarray(q.scale, np.float32), "zero_point": np.asarray(q.zero_point, np.int64),
            "quantized_dimension": int(q.dim)}


class _Buffers:
    """Model buffers with the empty sentinel first and identical constant data stored once."""

    def __init__(self) -> None:
        self.buffers: list = [{}]
        self._index: dict = {}

    def add(self, data: bytes, shared: bool = True) -> int:
        key = hashlib.sha256(data).digest() + len(data).to_bytes(8, "little")
        if shared and key in self._index:
            return self._index[key]
        self.buffers.append({"data": data})
        if shared:
            self._index[key] = len(self.buffers) - 1
        return len(self.buffers) - 1


def _op_codes(ops: list) -> tuple:
    """OperatorCode tables and each op's index into them."""
    codes: list = []
    index: dict = {}
    per_op = []
    for op in ops:
        version = op_versions.op_version(op) if op.code != "CUSTOM" else 1
        key = (op.code, version, op.custom_code)
        if key not in index:
            code = schema.BUILTIN_OPERATORS[op.code]
            entry = {"deprecated_builtin_code": min(code, schema.PLACEHOLDER_FOR_GREATER_OP_CODES),
                     "builtin_code": code, "version": version}
            if op.custom_code:
                entry["custom_code"] = op.custom_code
            index[key] = len(codes)
            codes.append(entry)
        per_op.append((index[key], key))
    return codes, per_op


def _subgraph(g: ir.Graph, buffers: _Buffers, code_of: dict) -> dict:
    """One subgraph table: its tensors (constant data into the shared buffers) and operators."""
    tensors = g.tensors()
    position = {id(t): i for i, t in enumerate(tensors)}
    tensor_tables = []
    for t in tensors:
        table = {"shape": [d if d >= 0 else 1 for d in t.shape], "type": _tensor_type(t.dtype), "name": t.name}
        if not t.shape:
            table["has_rank"] = True  # an empty shape reads as unknown rank unless marked as a scalar
        if not t.static:
            table["shape_signature"] = list(t.shape)
        if t.is_variable:
            table["is_variable"] = True
        if t.is_const:
            data = np.ascontiguousarray(t.data, dtype=t.dtype.newbyteorder("<"))
            table["buffer"] = buffers.add(data.tobytes())
        if t.quant is not None:
            table["quantization"] = _quantization(t.quant)
        tensor_tables.append(table)
    operators = []
    for op in g.ops:
        table = {"opcode_index": code_of[id(op)],
                 "inputs": [-1 if t is None else position[id(t)] for t in op.inputs],
                 "outputs": [position[id(t)] for t in op.outputs]}
        if op.intermediates:
            table["intermediates"] = [position[id(t)] for t in op.intermediates]
        if op.options is not None:
            table["builtin_options"] = (op.options[0], {k: v for k, v in op.options[1].items() if v is not None})
        operators.append(table)
    return {"tensors": tensor_tables, "inputs": [position[id(t)] for t in g.inputs],
            "outputs": [position[id(t)] for t in g.outputs], "operators": operators, "name": g.name}


def serialize(g: ir.Graph) -> bytes:
    """The TFL3 bytes of a graph (and of the subgraphs its WHILE ops run)."""
    buffers = _Buffers()
    graphs = [g] + list(g.subgraphs)
    all_ops = [op for sg in graphs for op in sg.ops]
    codes, per_op = _op_codes(all_ops)
    code_of = {id(op): index for op, (index, _key) in zip(all_ops, per_op)}
    subgraphs = [_subgraph(sg, buffers, code_of) for sg in graphs]
    position = {id(t): i for i, t in enumerate(g.tensors())}
    runtime = op_versions.min_runtime_version((key[0], key[1]) for _i, key in per_op if key[0] != "CUSTOM")
    metadata = []
    if runtime and len(runtime) < 16:
        metadata.append({"name": RUNTIME_METADATA,
                         "buffer": buffers.add(runtime.encode().ljust(16, b"\0"), shared=False)})
    signature = {
        "inputs": [{"name": n, "tensor_index": position[id(t)]} for n, t in zip(g.input_names, g.inputs)],
        "outputs": [{"name": n, "tensor_index": position[id(t)]} for n, t in zip(g.output_names, g.outputs)],
        "signature_key": SIGNATURE_KEY, "subgraph_index": 0,
    }
    model = {
        "version": schema.SCHEMA_VERSION, "operator_codes": codes, "description": DESCRIPTION,
        "subgraphs": subgraphs,
        "buffers": buffers.buffers, "metadata": metadata or None, "signature_defs": [signature],
    }
    size_hint = sum(len(b.get("data", b"")) for b in buffers.buffers) + 4096 * (sum(len(sg["tensors"]) for sg in subgraphs) + 1)
    return schema_writer.write_model(model, initial_size=min(size_hint, 1 << 30))
