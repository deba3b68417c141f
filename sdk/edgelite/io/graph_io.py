"""tf.io.write_graph: a GraphDef (or any proto message) written atomically as text or binary, byte for byte
as TensorFlow writes it (deterministic serialization, text with sorted map keys)."""
from __future__ import annotations

import os
from typing import Any

from ..checkpoint.fileio import atomic_write_bytes


def _as_wire_message(proto: Any) -> Any:
    """An edgelite wire-codec message for proto (edgelite's own, or a protobuf GraphDef/MetaGraphDef/SavedModel)."""
    from ..summary._wire import Message
    if isinstance(proto, Message):
        return proto
    from ..framework.graph_def import GraphDef
    from ..framework.meta_graph_protos import MetaGraphDef
    from ..saved_model.protos import SavedModel
    by_name = {"GraphDef": GraphDef, "MetaGraphDef": MetaGraphDef, "SavedModel": SavedModel}
    kind = by_name.get(type(proto).__name__)
    return kind.FromString(proto.SerializeToString()) if kind is not None else None


def write_graph(graph_or_graph_def: Any, logdir: str, name: str, as_text: bool = True) -> str:
    """Writes a graph's GraphDef (or a proto message) to logdir/name, creating logdir; returns the path.

    The file is replaced atomically, so a reader sees the old or the new content, never a partial write.
    """
    from ..framework import ops
    from ..framework.text_format import message_to_string
    if isinstance(graph_or_graph_def, ops.Graph):
        graph_def = graph_or_graph_def.as_graph_def()
    else:
        graph_def = graph_or_graph_def
    if not hasattr(graph_def, "SerializeToString"):
        raise TypeError(f"graph_or_graph_def must be a Graph or a GraphDef proto, got {type(graph_or_graph_def)}")
    message = _as_wire_message(graph_def)
    logdir = os.fspath(logdir)
    if logdir and not os.path.isdir(logdir):
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, os.fspath(name))
    if message is None:
        if as_text:
            raise TypeError(f"Cannot write a {type(graph_def).__name__} as text")
        data = graph_def.SerializeToString()
    else:
        # Every map field serializes and prints in key order, the deterministic form TensorFlow writes.
        data = message_to_string(message).encode("utf-8") if as_text else message.SerializeToString()
    atomic_write_bytes(path, data)
    return path
