"""tf.io.write_graph: a GraphDef (or any proto message) written atomically as text or binary."""
from __future__ import annotations

import os
from typing import Any

from ..checkpoint.fileio import atomic_write_bytes


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
    logdir = os.fspath(logdir)
    if logdir and not os.path.isdir(logdir):
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, os.fspath(name))
    data = message_to_string(graph_def).encode("utf-8") if as_text else graph_def.SerializeToString()
    atomic_write_bytes(path, data)
    return path
