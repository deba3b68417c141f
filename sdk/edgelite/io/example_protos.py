"""tf.train.Example, SequenceExample and their parts as protobuf messages with TensorFlow's wire format.

The descriptors are built here with the field numbers of TensorFlow's feature.proto and example.proto
(package `tensorflow`), in a private descriptor pool so that they coexist with TensorFlow's own
classes when both are imported; the protobuf runtime then serializes exactly as TensorFlow does.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "tensorflow"


def _field(msg: descriptor_pb2.DescriptorProto, name: str, number: int, ftype: int, label: int = _F.LABEL_OPTIONAL,
           type_name: str = "", oneof: int = -1) -> None:
    f = msg.field.add(name=name, number=number, type=ftype, label=label, json_name=_json_name(name))
    if type_name:
        f.type_name = type_name
    if oneof >= 0:
        f.oneof_index = oneof


def _json_name(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def _map(msg: descriptor_pb2.DescriptorProto, name: str, entry: str, value_type: str) -> None:
    """A map<string, value_type> field numbered 1, spelled as protoc spells maps (a nested *Entry message)."""
    nested = msg.nested_type.add(name=entry)
    nested.options.map_entry = True
    _field(nested, "key", 1, _F.TYPE_STRING)
    _field(nested, "value", 2, _F.TYPE_MESSAGE, type_name=value_type)
    _field(msg, name, 1, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, f".{_PACKAGE}.{msg.name}.{entry}")


def _feature_file() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/example/feature.proto", package=_PACKAGE,
                                            syntax="proto3")
    for name, ftype in (("BytesList", _F.TYPE_BYTES), ("FloatList", _F.TYPE_FLOAT), ("Int64List", _F.TYPE_INT64)):
        _field(fd.message_type.add(name=name), "value", 1, ftype, _F.LABEL_REPEATED)
    feature = fd.message_type.add(name="Feature")
    feature.oneof_decl.add(name="kind")
    for number, (name, typ) in enumerate((("bytes_list", "BytesList"), ("float_list", "FloatList"),
                                          ("int64_list", "Int64List")), start=1):
        _field(feature, name, number, _F.TYPE_MESSAGE, type_name=f".{_PACKAGE}.{typ}", oneof=0)
    _map(fd.message_type.add(name="Features"), "feature", "FeatureEntry", f".{_PACKAGE}.Feature")
    _field(fd.message_type.add(name="FeatureList"), "feature", 1, _F.TYPE_MESSAGE, _F.LABEL_REPEATED,
           f".{_PACKAGE}.Feature")
    _map(fd.message_type.add(name="FeatureLists"), "feature_list", "FeatureListEntry", f".{_PACKAGE}.FeatureList")
    return fd


def _example_file() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/example/example.proto", package=_PACKAGE,
                                            syntax="proto3", dependency=["tensorflow/core/example/feature.proto"])
    _field(fd.message_type.add(name="Example"), "features", 1, _F.TYPE_MESSAGE, type_name=f".{_PACKAGE}.Features")
    seq = fd.message_type.add(name="SequenceExample")
    _field(seq, "context", 1, _F.TYPE_MESSAGE, type_name=f".{_PACKAGE}.Features")
    _field(seq, "feature_lists", 2, _F.TYPE_MESSAGE, type_name=f".{_PACKAGE}.FeatureLists")
    return fd


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_feature_file())
_POOL.Add(_example_file())


def _cls(name: str) -> type:
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.{name}"))


BytesList = _cls("BytesList")
FloatList = _cls("FloatList")
Int64List = _cls("Int64List")
Feature = _cls("Feature")
Features = _cls("Features")
FeatureList = _cls("FeatureList")
FeatureLists = _cls("FeatureLists")
Example = _cls("Example")
SequenceExample = _cls("SequenceExample")
