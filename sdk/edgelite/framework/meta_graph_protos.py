"""MetaGraphDef, CollectionDef, SaverDef and VariableDef declared for the wire codec.

Field numbers follow TensorFlow's meta_graph.proto, saver.proto and variable.proto, so TensorFlow reads the
bytes edgelite writes and the other way round. Fields edgelite has no use for (signatures, assets, the
stripped op list, Any payloads) are skipped when read and never written.
"""
from __future__ import annotations

from edgelite.framework.graph_def import GraphDef
from edgelite.summary._wire import Field, Message, declare


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


class MetaGraphDef(Message):
    """A graph with what is needed to resume it elsewhere: its saver and its collections."""

    class MetaInfoDef(Message):
        """Versions and tags of the exported graph."""

    class CollectionDefEntry(Message):
        """A map<string, CollectionDef> entry."""


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
declare(CollectionDef, [
    Field("node_list", 1, CollectionDef.NodeList, oneof="kind"),
    Field("bytes_list", 2, CollectionDef.BytesList, oneof="kind"),
    Field("int64_list", 3, CollectionDef.Int64List, oneof="kind"),
    Field("float_list", 4, CollectionDef.FloatList, oneof="kind"),
])
declare(MetaGraphDef.MetaInfoDef, [
    Field("meta_graph_version", 1, "string"), Field("tags", 4, "string", repeated=True),
    Field("tensorflow_version", 5, "string"), Field("tensorflow_git_version", 6, "string"),
    Field("stripped_default_attrs", 7, "bool"),
])
declare(MetaGraphDef.CollectionDefEntry, [Field("key", 1, "string"), Field("value", 2, CollectionDef)])
declare(MetaGraphDef, [
    Field("meta_info_def", 1, MetaGraphDef.MetaInfoDef), Field("graph_def", 2, GraphDef),
    Field("saver_def", 3, SaverDef), Field("collection_def", 4, MetaGraphDef.CollectionDefEntry, repeated=True),
])
