"""tf.import_graph_def: add the nodes of a GraphDef (edgelite's or TensorFlow's) to the default graph."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import op_def_registry
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.graph_def import _SCALAR_FIELDS as _VALUE_FIELDS



def _shape(proto: Any) -> tensor_shape.TensorShape:
    if proto.unknown_rank:
        return tensor_shape.unknown_shape()
    return tensor_shape.TensorShape([None if d.size < 0 else d.size for d in proto.dim])


def _tensor(proto: Any) -> np.ndarray:
    dt = dtypes.as_dtype(proto.dtype)
    shape = _shape(proto.tensor_shape).as_list()
    n = int(np.prod(shape, dtype=np.int64))
    if dt == dtypes.string:
        vals = list(proto.string_val)
        arr = np.empty(n, dtype=object)
        arr[:] = (vals + vals[-1:] * (n - len(vals)))[:n] if vals else b""
    elif proto.tensor_content:
        arr = np.frombuffer(proto.tensor_content, dtype=np.dtype(dt.as_numpy_dtype).newbyteorder("<"))
        arr = arr.astype(dt.as_numpy_dtype)
    else:
        field = _VALUE_FIELDS.get(dt)
        if field is None:
            raise ValueError(f"Cannot import a {dt.name} constant given by value lists")
        vals = list(getattr(proto, field))
        fill = vals[-1] if vals else 0
        arr = np.array((vals + [fill] * (n - len(vals)))[:n], dtype=dt.as_numpy_dtype)
    arr = arr.reshape(shape)
    arr.setflags(write=False)
    return arr


def _attr(value: Any) -> Any:
    kind = value.WhichOneof("value")
    if kind is None:
        return []
    if kind == "type":
        return dtypes.as_dtype(value.type)
    if kind == "shape":
        return _shape(value.shape)
    if kind == "tensor":
        return _tensor(value.tensor)
    if kind == "s":
        try:
            return value.s.decode()
        except UnicodeDecodeError:
            return value.s
    if kind in ("i", "f", "b"):
        return getattr(value, kind)
    if kind == "list":
        lv = value.list
        for field, conv in (("type", dtypes.as_dtype), ("shape", _shape), ("i", int), ("f", float), ("b", bool),
                            ("s", bytes), ("tensor", _tensor)):
            items = list(getattr(lv, field))
            if items:
                return [conv(x) for x in items]
        return []
    raise ValueError(f"Attribute kind '{kind}' (functions) cannot be imported")


def _as_graph_def(graph_def: Any) -> Any:
    from edgelite.framework.graph_def import GraphDef
    if isinstance(graph_def, GraphDef):
        return graph_def
    if isinstance(graph_def, (bytes, bytearray)):
        return GraphDef.FromString(bytes(graph_def))
    if hasattr(graph_def, "SerializeToString"):
        return GraphDef.FromString(graph_def.SerializeToString())
    raise TypeError("graph_def must be a GraphDef proto.")


def _split_input(name: str) -> tuple:
    if name.startswith("^"):
        return name[1:], None
    if ":" in name:
        op_name, idx = name.rsplit(":", 1)
        return op_name, int(idx)
    return name, 0


def _order(nodes: list) -> list:
    """Nodes in an order where every input precedes its consumers (GraphDefs need not be sorted)."""
    by_name = {n.name: n for n in nodes}
    done: set = set()
    order = []
    for root in nodes:
        stack = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                if node.name not in done:
                    done.add(node.name)
                    order.append(node)
                continue
            if node.name in done:
                continue
            stack.append((node, True))
            for inp in node.input:
                dep = by_name.get(_split_input(inp)[0])
                if dep is not None and dep.name not in done:
                    stack.append((dep, False))
    return order


def ensure_training_op_types() -> None:
    """Registers the op types a TF1 training graph uses that live outside the core modules (optimizer updates,
    Saver ops, resource variables): they load with their Python modules, which a process that only imports a
    GraphDef has not imported."""
    import edgelite.ops.resource_variable_ops  # noqa: F401
    import edgelite.train.saver_ops  # noqa: F401
    import edgelite.train.training_ops  # noqa: F401


def _check_op_types(gd: Any) -> None:
    """One ValueError naming every op type of gd edgelite does not have (and a node of each), before any import."""
    if not all(op_def_registry.is_registered(node.op) for node in gd.node):
        ensure_training_op_types()
    unknown: dict = {}
    for node in gd.node:
        if not op_def_registry.is_registered(node.op):
            unknown.setdefault(node.op, node.name)
    if not unknown:
        return
    names = ", ".join(f"'{op}'" for op in sorted(unknown))
    where = ", ".join(f"'{unknown[op]}' ({op})" for op in sorted(unknown))
    kind = "Op type" if len(unknown) == 1 else f"{len(unknown)} op types"
    raise ValueError(f"{kind} not registered {names} in binary. Make sure the Op and Kernel are registered in the "
                     f"binary running in this process. First node of each: {where}.")


def import_graph_def(graph_def: Any, input_map: Optional[dict] = None, return_elements: Optional[list] = None,
                     name: Optional[str] = None, op_dict: Any = None, producer_op_list: Any = None) -> Optional[list]:
    """Import graph_def into the default graph under name scope name ('import' by default)."""
    gd = _as_graph_def(graph_def)
    input_map = dict(input_map or {})
    if not all(isinstance(k, str) for k in input_map):
        raise TypeError("input_map must be a dictionary mapping strings to Tensor objects.")
    if return_elements is not None and not all(isinstance(e, str) for e in return_elements):
        raise TypeError("return_elements must be a list of strings.")
    mapped = {}
    for key, value in input_map.items():
        op_name, idx = _split_input(key)
        mapped[(op_name, idx)] = ops.convert_to_tensor(value)
    _check_op_types(gd)
    used: set = set()
    g = ops.get_default_graph()
    created: dict = {}
    with ops.name_scope(name, "import", list(mapped.values())) as scope:
        for node in _order(list(gd.node)):
            inputs, controls = [], []
            for inp in node.input:
                op_name, idx = _split_input(inp)
                if idx is not None and (op_name, idx) in mapped:
                    inputs.append(mapped[(op_name, idx)])
                    used.add((op_name, idx))
                    continue
                if op_name not in created:
                    raise ValueError(f"Node '{node.name}': Unknown input node '{inp}'")
                if idx is None:
                    controls.append(created[op_name])
                else:
                    inputs.append(created[op_name].outputs[idx])
            attrs = {key: _attr(value) for key, value in node.attr.items() if key != "_output_shapes"}
            full_name = scope + node.name
            if full_name in g._nodes_by_name:
                raise ValueError(f"Node '{full_name}' already exists in the graph; import under another name.")
            op = g.create_op(node.op, inputs, None, name=full_name + "/", attrs=attrs)
            if node.device:
                op._set_device(node.device)
            for c in controls:
                op._add_control_input(c)
            created[node.name] = op
    unused = [f"{k[0]}:{k[1]}" for k in mapped if k not in used]
    if unused:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: [{', '.join(sorted(unused))}]")
    if return_elements is None:
        return None
    out = []
    for el in return_elements:
        op_name, idx = _split_input(el)
        if op_name not in created:
            raise ValueError(f"Requested return_element '{el}' not found in graph_def.")
        out.append(created[op_name] if ":" not in el else created[op_name].outputs[idx])
    return out
