"""MetaGraphDef, CollectionDef, SaverDef, VariableDef, SignatureDef, TensorInfo and AssetFileDef declared for
the wire codec.

Field numbers follow TensorFlow's meta_graph.proto, saver.proto and variable.proto, so TensorFlow reads the
bytes edgelite writes and the other way round. The stripped op list is kept as raw OpDef bytes; fields edgelite
has no use for (any_info, object graphs, composite tensors, function aliases) are skipped when read.
"""
from __future__ import annotations

from edgelite.framework.graph_def import GraphDef
from edgelite.summary._wire import Field, Message, declare
from edgelite.summary.protos import TensorProto, TensorShapeProto


class SaverDef(Message):
    """How a Saver was configured: the names of its filename tensor, save tensor and restore op, and retention."""

    LEGACY, V1, V2 = 0, 1, 2


class SaveSliceInfoDef(Message):
    """Where one partition sits inside its full variable."""


class VariableDef(Message):
    """The graph names of one variable's ref tensor, initializer, snapshot and initial value."""


class CollectionDef(Message):
    """One graph collection: node names, byte strings (also serialized protos), int64s or floats."""

    class NodeList(Message):
        """Names of tensors or operations."""

    class BytesList(Message):
        """Byte strings: user strings, or serialized VariableDef/SaverDef protos."""

    class Int64List(Message):
        """Integers."""

    class FloatList(Message):
        """Floats."""

    class AnyList(Message):
        """Any-wrapped messages (the SavedModel asset list)."""


class AnyProto(Message):
    """google.protobuf.Any: a serialized message and its type URL (SavedModel assets are stored so)."""


class OpList(Message):
    """The op definitions a graph uses, kept as raw OpDef bytes."""


class TensorInfo(Message):
    """A signature's tensor: its graph name (or the three names of a sparse tensor), dtype and shape."""

    class CooSparse(Message):
        """The values, indices and dense-shape tensor names of a SparseTensor."""


class SignatureDef(Message):
    """Named input and output tensors of one way to run the graph, and the method name serving uses."""

    class InputsEntry(Message):
        """A map<string, TensorInfo> entry."""

    class OutputsEntry(Message):
        """A map<string, TensorInfo> entry."""

    class DefaultsEntry(Message):
        """A map<string, TensorProto> entry."""


class AssetFileDef(Message):
    """An asset file of a SavedModel: the tensor that holds its path and its file name under assets/."""


class MetaGraphDef(Message):
    """A graph with what is needed to resume it elsewhere: its saver, collections, signatures and assets."""

    class MetaInfoDef(Message):
        """Versions and tags of the exported graph."""

    class CollectionDefEntry(Message):
        """A map<string, CollectionDef> entry."""

    class SignatureDefEntry(Message):
        """A map<string, SignatureDef> entry."""


declare(SaverDef, [
    Field("filename_tensor_name", 1, "string"), Field("save_tensor_name", 2, "string"),
    Field("restore_op_name", 3, "string"), Field("max_to_keep", 4, "int32"), Field("sharded", 5, "bool"),
    Field("keep_checkpoint_every_n_hours", 6, "float"), Field("version", 7, "enum"),
])
declare(SaveSliceInfoDef, [
    Field("full_name", 1, "string"), Field("full_shape", 2, "int64", repeated=True, packed=True),
    Field("var_offset", 3, "int64", repeated=True, packed=True),
    Field("var_shape", 4, "int64", repeated=True, packed=True),
])
declare(VariableDef, [
    Field("variable_name", 1, "string"), Field("initializer_name", 2, "string"),
    Field("snapshot_name", 3, "string"), Field("save_slice_info_def", 4, SaveSliceInfoDef),
    Field("is_resource", 5, "bool"), Field("initial_value_name", 6, "string"), Field("trainable", 7, "bool"),
    Field("synchronization", 8, "enum"), Field("aggregation", 9, "enum"),
])
declare(CollectionDef.NodeList, [Field("value", 1, "string", repeated=True)])
declare(CollectionDef.BytesList, [Field("value", 1, "bytes", repeated=True)])
declare(CollectionDef.Int64List, [Field("value", 1, "int64", repeated=True, packed=True)])
declare(CollectionDef.FloatList, [Field("value", 1, "float", repeated=True, packed=True)])
declare(AnyProto, [Field("type_url", 1, "string"), Field("value", 2, "bytes")])
declare(CollectionDef.AnyList, [Field("value", 1, AnyProto, repeated=True)])
declare(CollectionDef, [
    Field("node_list", 1, CollectionDef.NodeList, oneof="kind"),
    Field("bytes_list", 2, CollectionDef.BytesList, oneof="kind"),
    Field("int64_list", 3, CollectionDef.Int64List, oneof="kind"),
    Field("float_list", 4, CollectionDef.FloatList, oneof="kind"),
    Field("any_list", 5, CollectionDef.AnyList, oneof="kind"),
])
declare(OpList, [Field("op", 1, "bytes", repeated=True)])
declare(TensorInfo.CooSparse, [Field("values_tensor_name", 1, "string"), Field("indices_tensor_name", 2, "string"),
                               Field("dense_shape_tensor_name", 3, "string")])
declare(TensorInfo, [
    Field("name", 1, "string", oneof="encoding"), Field("dtype", 2, "enum"),
    Field("tensor_shape", 3, TensorShapeProto), Field("coo_sparse", 4, TensorInfo.CooSparse, oneof="encoding"),
])
declare(SignatureDef.InputsEntry, [Field("key", 1, "string"), Field("value", 2, TensorInfo)])
declare(SignatureDef.OutputsEntry, [Field("key", 1, "string"), Field("value", 2, TensorInfo)])
declare(SignatureDef.DefaultsEntry, [Field("key", 1, "string"), Field("value", 2, TensorProto)])
declare(SignatureDef, [
    Field("inputs", 1, SignatureDef.InputsEntry, repeated=True, is_map=True),
    Field("outputs", 2, SignatureDef.OutputsEntry, repeated=True, is_map=True), Field("method_name", 3, "string"),
    Field("defaults", 4, SignatureDef.DefaultsEntry, repeated=True, is_map=True),
])
declare(AssetFileDef, [Field("tensor_info", 1, TensorInfo), Field("filename", 2, "string")])
declare(MetaGraphDef.MetaInfoDef, [
    Field("meta_graph_version", 1, "string"), Field("stripped_op_list", 2, OpList),
    Field("tags", 4, "string", repeated=True),
    Field("tensorflow_version", 5, "string"), Field("tensorflow_git_version", 6, "string"),
    Field("stripped_default_attrs", 7, "bool"),
])
declare(MetaGraphDef.CollectionDefEntry, [Field("key", 1, "string"), Field("value", 2, CollectionDef)])
declare(MetaGraphDef, [
    Field("meta_info_def", 1, MetaGraphDef.MetaInfoDef), Field("graph_def", 2, GraphDef),
    Field("saver_def", 3, SaverDef), Field("collection_def", 4, MetaGraphDef.CollectionDefEntry, repeated=True, is_map=True),
    Field("signature_def", 5, MetaGraphDef.SignatureDefEntry, repeated=True, is_map=True),
    Field("asset_file_def", 6, AssetFileDef, repeated=True),
])
declare(MetaGraphDef.SignatureDefEntry, [Field("key", 1, "string"), Field("value", 2, SignatureDef)])
