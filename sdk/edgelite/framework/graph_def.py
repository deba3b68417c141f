"""Graph.as_graph_def(): the graph as a TensorFlow GraphDef protocol buffer (for TensorBoard and tools)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import tensor_shape
from edgelite.summary._wire import Field, Message, declare
from edgelite.summary.protos import TensorProto, TensorShapeProto


class NameAttrList(Message):
    """A function reference: its name (and attrs)."""


class AttrValue(Message):
    """One node attribute value."""

    class ListValue(Message):
        """A list-valued attribute."""


class NodeDef(Message):
    """One operation: name, op type, input names, device and attributes."""

    class AttrEntry(Message):
        """A map<string, AttrValue> entry."""


class VersionDef(Message):
    """Producer and consumer versions of the graph."""


class FunctionDefLibrary(Message):
    """A graph's function library, kept as raw FunctionDef bytes: edgelite runs no graph functions, but a
    GraphDef read from TensorFlow keeps its (usually empty) library when written back."""


class GraphDef(Message):
    """All nodes of a graph."""


declare(NameAttrList, [Field("name", 1, "string")])
declare(AttrValue.ListValue, [
    Field("s", 2, "bytes", repeated=True), Field("i", 3, "int64", repeated=True, packed=True),
    Field("f", 4, "float", repeated=True, packed=True), Field("b", 5, "bool", repeated=True, packed=True),
    Field("type", 6, "enum", repeated=True, packed=True), Field("shape", 7, TensorShapeProto, repeated=True),
    Field("tensor", 8, TensorProto, repeated=True), Field("func", 9, NameAttrList, repeated=True),
])
declare(AttrValue, [
    Field("list", 1, AttrValue.ListValue, oneof="value"), Field("s", 2, "bytes", oneof="value"),
    Field("i", 3, "int64", oneof="value"), Field("f", 4, "float", oneof="value"),
    Field("b", 5, "bool", oneof="value"), Field("type", 6, "enum", oneof="value"),
    Field("shape", 7, TensorShapeProto, oneof="value"), Field("tensor", 8, TensorProto, oneof="value"),
    Field("func", 10, NameAttrList, oneof="value"),
])
declare(NodeDef.AttrEntry, [Field("key", 1, "string"), Field("value", 2, AttrValue)])
declare(NodeDef, [
    Field("name", 1, "string"), Field("op", 2, "string"), Field("input", 3, "string", repeated=True),
    Field("device", 4, "string"), Field("attr", 5, NodeDef.AttrEntry, repeated=True, is_map=True),
])
declare(VersionDef, [Field("producer", 1, "int32"), Field("min_consumer", 2, "int32"),
                     Field("bad_consumers", 3, "int32", repeated=True, packed=True)])
declare(FunctionDefLibrary, [Field("function", 1, "bytes", repeated=True), Field("gradient", 2, "bytes", repeated=True),
                             Field("registered_gradients", 3, "bytes", repeated=True)])
declare(GraphDef, [Field("node", 1, NodeDef, repeated=True), Field("library", 2, FunctionDefLibrary),
                   Field("versions", 4, VersionDef)])


def shape_proto(shape: Any) -> TensorShapeProto:
    """TensorShapeProto of a (partial) shape; unknown dims are -1."""
    shape = tensor_shape.as_shape(shape)
    if shape.ndims is None:
        return TensorShapeProto(unknown_rank=True)
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=-1 if d is None else d) for d in shape.as_list()])


# Value-list field of each dtype TensorFlow's make_tensor_proto fills for a tensor of at most one element.
_SCALAR_FIELDS = {
    dtypes.float32: "float_val", dtypes.float64: "double_val", dtypes.int32: "int_val", dtypes.int16: "int_val",
    dtypes.int8: "int_val", dtypes.uint8: "int_val", dtypes.uint16: "int_val", dtypes.int64: "int64_val",
    dtypes.bool: "bool_val",
}


def tensor_proto(value: np.ndarray) -> TensorProto:
    """TensorProto holding a numpy array as TensorFlow writes it: raw little-endian content for more than one
    element, the dtype's value list for a single element (or none), string_val for strings."""
    arr = np.asarray(value)
    dt = dtypes.as_dtype(arr.dtype)
    proto = TensorProto(dtype=dt.as_datatype_enum, tensor_shape=shape_proto(arr.shape))
    if dt == dtypes.string:
        proto.string_val.extend(s if isinstance(s, bytes) else str(s).encode() for s in arr.ravel())
    elif arr.size <= 1 and dt in _SCALAR_FIELDS:
        getattr(proto, _SCALAR_FIELDS[dt]).extend(arr.ravel().tolist())
    else:
        proto.tensor_content = arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
    return proto


def _attr_value(value: Any) -> Optional[AttrValue]:
    if isinstance(value, dtypes.DType):
        return AttrValue(type=value.as_datatype_enum)
    if isinstance(value, tensor_shape.TensorShape):
        return AttrValue(shape=shape_proto(value))
    if isinstance(value, bool):
        return AttrValue(b=value)
    if isinstance(value, (int, np.integer)):
        return AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, np.ndarray):
        return AttrValue(tensor=tensor_proto(value))
    if isinstance(value, (list, tuple)):
        lv = AttrValue.ListValue()
        for v in value:
            if isinstance(v, dtypes.DType):
                lv.type.append(v.as_datatype_enum)
            elif isinstance(v, tensor_shape.TensorShape):
                lv.shape.append(shape_proto(v))
            elif isinstance(v, bool):
                lv.b.append(v)
            elif isinstance(v, (int, np.integer)):
                lv.i.append(int(v))
            elif isinstance(v, (float, np.floating)):
                lv.f.append(float(v))
            elif isinstance(v, (str, bytes)):
                lv.s.append(v.encode() if isinstance(v, str) else v)
            else:
                return None
        return AttrValue(list=lv)
    name = getattr(value, "name", None)
    if isinstance(name, str) and hasattr(value, "graph"):
        return AttrValue(func=NameAttrList(name=name))
    return None


def graph_to_graph_def(graph: Any, from_version: Optional[int] = None, add_shapes: bool = False) -> GraphDef:
    """Serializable GraphDef of graph's ops (only those added after from_version, if given)."""
    gd = GraphDef(versions=VersionDef(producer=graph.graph_def_versions.producer,
                                      min_consumer=graph.graph_def_versions.min_consumer))
    for op in graph.get_operations():
        if from_version is not None and op._id <= from_version:
            continue
        nd = op.node_def
        node = NodeDef(name=nd.name, op=nd.op, device=nd.device)
        node.input.extend(nd.input)
        attrs = dict(nd.attr)
        if add_shapes:
            attrs["_output_shapes"] = [t.shape for t in op.outputs]
        for key in sorted(attrs):
            av = _attr_value(attrs[key])
            if av is not None:
                node.attr[key] = av
        gd.node.append(node)
    return gd
