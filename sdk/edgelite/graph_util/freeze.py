"""convert_variables_to_constants: a GraphDef whose variables are Const nodes holding their session values."""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework.graph_def import GraphDef, NodeDef, tensor_proto
from edgelite.graph_util.subgraph import extract_sub_graph

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _should_convert(name: str, allowlist: Optional[List[str]], denylist: Optional[List[str]]) -> bool:
    return (allowlist is None or name in allowlist) and (denylist is None or name not in denylist)


def _const_node(node: NodeDef, value: np.ndarray) -> NodeDef:
    """A Const node with the variable's name, its dtype attribute and the value (no device, as TensorFlow)."""
    dt = dtypes.as_dtype(node.attr["dtype"].type).base_dtype
    array = np.asarray(value, dtype=dt.as_numpy_dtype)
    const = NodeDef(name=node.name, op="Const")
    const.attr["dtype"].type = dt.as_datatype_enum
    const.attr["value"].tensor.CopyFrom(tensor_proto(array))
    return const


def _identity_of_read(node: NodeDef) -> NodeDef:
    """A ReadVariableOp of a frozen resource variable becomes an Identity of the new Const."""
    ident = NodeDef(name=node.name, op="Identity")
    ident.input.append(node.input[0])
    ident.attr["T"].CopyFrom(node.attr["dtype"])
    if "_class" in node.attr:
        ident.attr["_class"].CopyFrom(node.attr["_class"])
    return ident


def convert_variables_to_constants(sess: Any, input_graph_def: Any, output_node_names: List[str],
                                   variable_names_whitelist: Optional[List[str]] = None,
                                   variable_names_blacklist: Optional[List[str]] = None) -> GraphDef:
    """The part of input_graph_def that output_node_names need, with every variable (named in the whitelist,
    not in the blacklist) replaced by a Const holding its value in sess."""
    graph_def = extract_sub_graph(input_graph_def, output_node_names)
    chosen, fetches = [], []
    for node in graph_def.node:
        if node.op in _VARIABLE_OPS and _should_convert(node.name, variable_names_whitelist,
                                                        variable_names_blacklist):
            chosen.append(node.name)
            suffix = "/Read/ReadVariableOp" if node.op == "VarHandleOp" else ""
            fetches.append(node.name + suffix + ":0")
    values = dict(zip(chosen, sess.run(fetches))) if fetches else {}
    op_types = {node.name: node.op for node in graph_def.node}
    frozen_handles = {name for name in chosen if op_types[name] == "VarHandleOp"}
    out = GraphDef(library=graph_def.library)
    if graph_def.HasField("versions"):
        out.versions = graph_def.versions
    for node in graph_def.node:
        if node.name in values:
            out.node.append(_const_node(node, values[node.name]))
        elif node.op == "ReadVariableOp" and node.input and node.input[0].split(":")[0] in frozen_handles:
            out.node.append(_identity_of_read(node))
        else:
            out.node.append(node)
    return out
