"""GraphDef pruning as tf.compat.v1.graph_util does it: keep what reaches some nodes, drop training-only nodes."""
from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.graph_def import GraphDef, NodeDef
from edgelite.framework.tensor_shape import TensorShape

# Ops that read or write variable state: pinned to the CPU by must_run_on_cpu(pin_variables_on_cpu=True).
_VARIABLE_OPS = frozenset({"Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub", "ScatterUpdate",
                           "TruncatedNormal", "Variable", "VariableV2"})


def as_graph_def_message(graph_def: Any, what: str = "graph_def") -> GraphDef:
    """graph_def as an edgelite GraphDef (a protobuf GraphDef is re-read from its bytes); TypeError otherwise."""
    if isinstance(graph_def, GraphDef):
        return graph_def
    if type(graph_def).__name__ == "GraphDef" and hasattr(graph_def, "SerializeToString"):
        return GraphDef.FromString(graph_def.SerializeToString())
    raise TypeError(f"{what} must be a graph_pb2.GraphDef proto, but got type {type(graph_def)}.")


def node_name(name: str) -> str:
    """The node a NodeDef input string refers to ('^a' and 'a:1' both name node 'a')."""
    return name[1:] if name.startswith("^") else name.split(":")[0]


def _attrs(node: NodeDef) -> Dict[str, Any]:
    return dict(node.attr)


def _colocated(node: NodeDef) -> List[str]:
    """Names in the node's '_class' colocation attribute, without their 'loc:@' prefix."""
    value = _attrs(node).get("_class")
    if value is None:
        return []
    names = []
    for raw in value.list.s:
        text = raw.decode("utf-8")
        names.append(text[5:] if text.startswith("loc:@") else text)
    return names


def _copy(node: NodeDef) -> NodeDef:
    return NodeDef.FromString(node.SerializeToString())


def extract_sub_graph(graph_def: Any, dest_nodes: Iterable[str]) -> GraphDef:
    """The nodes of graph_def that dest_nodes depend on (data, control and colocation edges), in graph order."""
    graph_def = as_graph_def_message(graph_def)
    if isinstance(dest_nodes, str):
        raise TypeError(f"dest_nodes must be an iterable of strings, but got type {type(dest_nodes)}.")
    dest_nodes = list(dest_nodes)
    inputs: Dict[str, List[str]] = {}
    by_name: Dict[str, NodeDef] = {}
    order: Dict[str, int] = {}
    for seq, node in enumerate(graph_def.node):
        name = node_name(node.name)
        by_name[name] = node
        inputs[name] = [node_name(x) for x in node.input] + _colocated(node)
        order[name] = seq
    for dest in dest_nodes:
        assert dest in by_name, "%s is not in graph" % dest
    keep: set = set()
    queue = list(dest_nodes)
    while queue:
        name = queue.pop(0)
        if name in keep:
            continue
        keep.add(name)
        queue.extend(inputs.get(name, ()))
    out = GraphDef()
    out.node.extend(_copy(by_name[n]) for n in sorted(keep, key=lambda n: order[n]))
    # Copied even when empty, so both fields are present in the output, as TensorFlow writes it.
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _strip_caret(name: str) -> str:
    return re.sub(r"^\^", "", name)


def remove_training_nodes(input_graph: Any, protected_nodes: Optional[List[str]] = None) -> GraphDef:
    """input_graph without CheckNumerics nodes and with Identity/StopGradient nodes spliced out, except
    protected ones and those involved in control edges or colocation."""
    input_graph = as_graph_def_message(input_graph, "input_graph")
    protected = set(protected_nodes or [])
    removed = {n.name for n in input_graph.node if n.op == "CheckNumerics" and n.name not in protected}
    after_removal = []
    for node in input_graph.node:
        if node.name in removed:
            continue
        copy = _copy(node)
        copy.input = [x for x in node.input if _strip_caret(x) not in removed]
        after_removal.append(copy)
    control_inputs, with_control_inputs, colocated = set(), set(), set()
    for node in after_removal:
        for inp in node.input:
            if "^" in inp:
                control_inputs.add(inp.replace("^", ""))
                with_control_inputs.add(node.name)
        colocated.update(_colocated(node))
    splice = {node.name: node.input[0] for node in after_removal
              if node.op in ("Identity", "StopGradient") and node.name not in protected
              and node.name not in colocated and node.name not in with_control_inputs
              and node.name not in control_inputs}
    out = GraphDef()
    for node in after_removal:
        if node.name in splice:
            continue
        copy = _copy(node)
        rewired = []
        for full in node.input:
            name = _strip_caret(full)
            while name in splice:
                full = splice[name]
                name = _strip_caret(full)
            rewired.append(full)
        copy.input = rewired
        out.node.append(copy)
    return out


def tensor_shape_from_node_def_name(graph: Any, input_name: str) -> TensorShape:
    """Static shape of the tensor a NodeDef input string names ('op' means 'op:0') in graph."""
    canonical = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(canonical).get_shape()


def must_run_on_cpu(node: Any, pin_variables_on_cpu: bool = False) -> bool:
    """True for nodes TensorFlow keeps on the CPU: int32/string constants, int32 stitches and casts from int32,
    and variable ops when pin_variables_on_cpu."""
    if isinstance(node, ops.Operation):
        node_def = node.node_def
        attrs = dict(node_def.attr)
        op_type = node_def.op

        def dtype_of(key: str) -> Any:
            value = attrs.get(key)
            return dtypes.as_dtype(value) if value is not None else None
    else:
        assert isinstance(node, NodeDef) or type(node).__name__ == "NodeDef"
        values = dict(node.attr)
        op_type = node.op

        def dtype_of(key: str) -> Any:
            value = values.get(key)
            return dtypes.as_dtype(value.type) if value is not None and value.type else None
    if pin_variables_on_cpu and op_type in _VARIABLE_OPS:
        return True
    if op_type == "Const":
        return dtype_of("dtype") in (dtypes.string, dtypes.int32)
    if op_type in ("DynamicStitch", "ParallelDynamicStitch"):
        return dtype_of("T") == dtypes.int32
    if op_type == "Cast":
        return dtype_of("SrcT") == dtypes.int32
    return False
