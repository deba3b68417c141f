"""Hash table models for the differential tests: HASHTABLE -> HASHTABLE_IMPORT of constant keys
and values -> HASHTABLE_FIND of the model input, and HASHTABLE_SIZE; and TFLite's string buffer
layout for their string constants."""
from __future__ import annotations

import struct

import numpy as np

from support.tflite_builder import ModelBuilder, options, tensor_type


def string_buffer(strings) -> bytes:
    """TFLite's layout: int32 count, count + 1 int32 offsets from the buffer start, the bytes."""
    head = 4 * (len(strings) + 2)
    offsets = [head]
    for s in strings:
        offsets.append(offsets[-1] + len(s))
    return struct.pack(f"<{len(strings) + 2}i", len(strings), *offsets) + b"".join(strings)


def constant(g, mb, values, name):
    """A constant vector of int64 values or (bytes values) strings."""
    if isinstance(values[0], bytes):
        return g.tensor([len(values)], "STRING", name=name, buffer=mb.buffer(string_buffer(values)))
    return g.tensor([len(values)], np.int64, name=name, data=np.array(values, np.int64))


def table_model(keys, values, default, query_shape, key_dtype, value_dtype, table_id=3) -> bytes:
    """HASHTABLE -> HASHTABLE_IMPORT(constant keys, values) -> HASHTABLE_FIND(query input, default)
    and HASHTABLE_SIZE; outputs: the found values and the size."""
    mb = ModelBuilder()
    g = mb.subgraph("main")
    h = g.tensor([], "RESOURCE", name="table")
    k = constant(g, mb, keys, "keys")
    v = constant(g, mb, values, "values")
    d = g.tensor([], "STRING", name="default", buffer=mb.buffer(string_buffer([default]))) \
        if isinstance(default, bytes) else g.tensor([], np.int64, name="default", data=np.array(default, np.int64))
    q = g.tensor(query_shape, key_dtype, name="query")
    out = g.tensor(query_shape, value_dtype, name="found")
    size = g.tensor([1], np.int64, name="size")
    g.op("HASHTABLE", [], [h], options=options("Hashtable", table_id=table_id, key_dtype=tensor_type(key_dtype),
                                                value_dtype=tensor_type(value_dtype)))
    g.op("HASHTABLE_IMPORT", [h, k, v], [])
    g.op("HASHTABLE_FIND", [h, q, d], [out])
    g.op("HASHTABLE_SIZE", [h], [size])
    g.set_io([q], [out, size])
    return mb.build()
