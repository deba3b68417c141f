"""The SavedModel message (saved_model.proto): a schema version and one MetaGraphDef per tag set."""
from __future__ import annotations

from edgelite.framework.meta_graph_protos import MetaGraphDef
from edgelite.summary._wire import Field, Message, declare


class SavedModel(Message):
    """What saved_model.pb holds."""


declare(SavedModel, [Field("saved_model_schema_version", 1, "int64"),
                     Field("meta_graphs", 2, MetaGraphDef, repeated=True)])
