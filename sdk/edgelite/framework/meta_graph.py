"""MetaGraphDef export and import: a graph, its saver and its collections, in TensorFlow's format.

`export_meta_graph` / `import_meta_graph` follow TensorFlow's meta_graph.py rules: variable collections are
serialized VariableDefs, the savers collection holds SaverDefs, other collections hold node names, byte strings,
int64s or floats (chosen from the first item), and anything else is dropped with a warning.
"""
from __future__ import annotations

import logging
import os
import re
from typing import Any, Callable, Dict, List, Optional

from edgelite.framework import dtypes, ops
from edgelite.framework.graph_def import GraphDef, graph_to_graph_def, _attr_value
from edgelite.framework.meta_graph_protos import (AnyProto, CollectionDef, MetaGraphDef, SaverDef,
                                                  SaveSliceInfoDef, VariableDef)

_log = logging.getLogger("edgelite")

UNBOUND_INPUT_PREFIX = "$unbound_inputs_"
_VARIABLE_PROTO_COLLECTIONS = (
    ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.TRAINABLE_VARIABLES, ops.GraphKeys.MOVING_AVERAGE_VARIABLES,
    ops.GraphKeys.LOCAL_VARIABLES, ops.GraphKeys.MODEL_VARIABLES, ops.GraphKeys.GLOBAL_STEP,
    ops.GraphKeys.METRIC_VARIABLES,
)
# Collections whose items TensorFlow stores as protos edgelite has no objects for (v1 control-flow contexts,
# queue runners): skipped on import with a warning rather than filled with raw proto bytes.
_UNREBUILDABLE_COLLECTIONS = (ops.GraphKeys.COND_CONTEXT, ops.GraphKeys.WHILE_CONTEXT, ops.GraphKeys.QUEUE_RUNNERS)
_EXPORT_KWARGS = ("unbound_inputs_col_name",)
_IMPORT_KWARGS = ("graph", "input_map", "unbound_inputs_col_name", "restore_collections_predicate")


# ---- names ---------------------------------------------------------------------------------------------
def strip_name_scope(name: Any, export_scope: Optional[str]) -> Any:
    """`name` without the leading `export_scope/` (also after '^' or 'loc:@')."""
    if not export_scope:
        return name
    scope = export_scope[:-1] if export_scope.endswith("/") else export_scope
    text = name.decode() if isinstance(name, bytes) else name
    return re.sub(r"([\^]|loc:@|^)" + re.escape(scope) + r"[\/]+(.*)", r"\1\2", text, count=1)


def prepend_name_scope(name: Any, import_scope: Optional[str]) -> Any:
    """`import_scope/name` (keeping a leading '^' or 'loc:@' in front)."""
    if not import_scope:
        return name
    scope = import_scope[:-1] if import_scope.endswith("/") else import_scope
    text = name.decode() if isinstance(name, bytes) else name
    return re.sub(r"([\^]|loc:@|^)(.*)", lambda m: m.group(1) + scope + "/" + m.group(2), text, count=1)


# ---- variables <-> VariableDef ------------------------------------------------------------------------
def variable_to_def(var: Any, export_scope: Optional[str] = None) -> Optional[VariableDef]:
    """VariableDef of a (reference) Variable, or None when it lies outside export_scope."""
    if export_scope is not None and not var.name.startswith(export_scope):
        return None
    vd = VariableDef(variable_name=strip_name_scope(var._variable.name, export_scope),
                     initializer_name=strip_name_scope(var._initializer_op.name, export_scope),
                     snapshot_name=strip_name_scope(var._snapshot.name, export_scope),
                     trainable=bool(var.trainable), synchronization=var.synchronization.value,
                     aggregation=var.aggregation.value)
    if var._initial_value is not None:
        vd.initial_value_name = strip_name_scope(var._initial_value.name, export_scope)
    info = var._save_slice_info
    if info is not None:
        vd.save_slice_info_def = SaveSliceInfoDef(
            full_name=strip_name_scope(info.full_name, export_scope), full_shape=[int(d) for d in info.full_shape],
            var_offset=[int(d) for d in info.var_offset], var_shape=[int(d) for d in info.var_shape])
    return vd


def variable_from_def_fields(variable_def: Any, import_scope: Optional[str]) -> Dict[str, Any]:
    """The graph elements a VariableDef names, looked up in the default graph (for Variable(variable_def=))."""
    from edgelite.ops.variable_scope import _SaveSliceInfo
    if not isinstance(variable_def, VariableDef):
        variable_def = VariableDef.FromString(variable_def.SerializeToString())
    if variable_def.is_resource:
        raise ValueError(f"Variable {variable_def.variable_name} is a resource variable; edgelite graphs hold "
                         "reference variables only")
    g = ops.get_default_graph()

    def element(name: str) -> Any:
        return g.as_graph_element(prepend_name_scope(name, import_scope))

    info = None
    if variable_def.HasField("save_slice_info_def"):
        sd = variable_def.save_slice_info_def
        info = _SaveSliceInfo(prepend_name_scope(sd.full_name, import_scope), list(sd.full_shape),
                              list(sd.var_offset), list(sd.var_shape))
    trainable = bool(variable_def.trainable)
    if variable_def.synchronization == 3 and trainable:
        raise ValueError("Synchronization value can be set to VariableSynchronization.ON_READ only for "
                         f"non-trainable variables. You have specified trainable=True and synchronization="
                         f"VariableSynchronization.ON_READ for variable {variable_def.variable_name}.")
    return {"variable": element(variable_def.variable_name), "initializer": element(variable_def.initializer_name),
            "snapshot": element(variable_def.snapshot_name),
            "initial_value": element(variable_def.initial_value_name) if variable_def.initial_value_name else None,
            "trainable": trainable, "save_slice_info": info, "synchronization": variable_def.synchronization,
            "aggregation": variable_def.aggregation}


def _variable_from_proto(proto: bytes, import_scope: Optional[str]) -> Any:
    from edgelite.ops.variables import Variable
    return Variable.from_proto(VariableDef.FromString(proto), import_scope=import_scope)


def _saver_from_proto(proto: bytes, import_scope: Optional[str]) -> Any:
    from edgelite.train.saver import Saver
    return Saver.from_proto(SaverDef.FromString(proto), import_scope=import_scope)


def _proto_functions(key: str) -> Optional[tuple]:
    """(to_proto, from_proto) for collections whose items are stored as serialized protos."""
    if key in _VARIABLE_PROTO_COLLECTIONS:
        return (lambda v, scope: v.to_proto(export_scope=scope)), _variable_from_proto
    if key == ops.GraphKeys.SAVERS:
        return (lambda s, scope: s.to_proto(export_scope=scope)), _saver_from_proto
    return None


def as_saver_def(saver_def: Any) -> SaverDef:
    """A SaverDef message from any SaverDef-like proto (edgelite's checkpoint SaverDef, TensorFlow's)."""
    if isinstance(saver_def, SaverDef):
        return saver_def
    if not hasattr(saver_def, "SerializeToString"):
        raise TypeError(f"saver_def must be of type SaverDef. Received type: {type(saver_def)}.")
    return SaverDef.FromString(saver_def.SerializeToString())


# ---- collections -----------------------------------------------------------------------------------------
def _item_name(item: Any) -> Optional[str]:
    if isinstance(item, str):
        return item
    name = getattr(item, "name", None)
    return name if isinstance(name, str) else None


def _include(item: Any, export_scope: Optional[str], exclude: Optional[set]) -> bool:
    name = _item_name(item)
    if name is None:
        return True
    if exclude and name in exclude:
        return False
    return name.startswith(UNBOUND_INPUT_PREFIX) or not export_scope or name.startswith(export_scope)


def _kind_of(item: Any) -> str:
    if isinstance(item, AnyProto):
        return "any_list"
    if isinstance(item, (str, bytes)):
        return "bytes_list"
    if isinstance(item, int):
        return "int64_list"
    if isinstance(item, float):
        return "float_list"
    return "node_list"


def _collection_def(graph: Any, key: str, export_scope: Optional[str], exclude: Optional[set],
                    override: Optional[list] = None) -> Optional[CollectionDef]:
    """CollectionDef of one collection, or None when it is empty or cannot be serialized (then a warning)."""
    items = [x for x in (override if override is not None else graph.get_collection(key))
             if _include(x, export_scope, exclude)]
    if not items:
        return None
    col = CollectionDef()
    try:
        funcs = _proto_functions(key)
        if funcs is not None:
            values = []
            for x in items:
                proto = funcs[0](x, export_scope)
                if proto is not None:
                    values.append(proto.SerializeToString())
            col.bytes_list = CollectionDef.BytesList(value=values)
            return col
        kind = _kind_of(items[0])
        if kind == "any_list":
            if not all(isinstance(x, AnyProto) for x in items):
                raise TypeError("items are not all Any protos")
            col.any_list = CollectionDef.AnyList(value=list(items))
        elif kind == "node_list":
            names = []
            for x in items:
                name = x.name
                if not isinstance(name, str):
                    raise TypeError(f"{x!r} has no graph element name")
                if not export_scope or name.startswith(export_scope):
                    names.append(strip_name_scope(name, export_scope))
            col.node_list = CollectionDef.NodeList(value=names)
        elif kind == "bytes_list":
            if not all(isinstance(x, (str, bytes)) for x in items):
                raise TypeError("items are not all strings")
            col.bytes_list = CollectionDef.BytesList(value=[x.encode() if isinstance(x, str) else x for x in items])
        elif kind == "int64_list":
            if not all(isinstance(x, int) for x in items):
                raise TypeError("items are not all integers")
            col.int64_list = CollectionDef.Int64List(value=[int(x) for x in items])
        else:
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
                raise TypeError("items are not all numbers")
            col.float_list = CollectionDef.FloatList(value=[float(x) for x in items])
    except Exception as exc:  # noqa: BLE001 - TensorFlow drops any collection it cannot serialize
        _log.warning("Issue encountered when serializing %s.\nType is unsupported, or the types of the items don't "
                     "match field type in CollectionDef. Note this is a warning and probably safe to ignore.\n%s",
                     key, exc)
        return None
    return col


def collection_defs(meta_graph_def: MetaGraphDef) -> Dict[str, CollectionDef]:
    """The collection_def map of a MetaGraphDef as a plain dict."""
    return dict(meta_graph_def.collection_def)


def add_collection_def(meta_graph_def: MetaGraphDef, key: Any, graph: Any = None, export_scope: Optional[str] = None,
                       exclude_nodes: Any = None, override_contents: Optional[list] = None) -> None:
    """Adds collection `key` of the graph to meta_graph_def (string keys only, as TensorFlow)."""
    if not isinstance(key, (str, bytes)):
        _log.warning("Only collections with string type keys will be serialized. This key has %s", type(key))
        return
    key = key.decode() if isinstance(key, bytes) else key
    graph = graph or ops.get_default_graph()
    col = _collection_def(graph, key, export_scope, set(exclude_nodes or ()) or None, override_contents)
    if col is not None:
        meta_graph_def.collection_def[key] = col


# ---- graph_def rewriting ---------------------------------------------------------------------------------
def _scoped_node(node: Any, export_scope: Optional[str], unbound: List[str], clear_devices: bool) -> Any:
    from edgelite.framework.graph_def import AttrValue, NodeDef
    out = NodeDef.FromString(node.SerializeToString())
    inputs = []
    for inp in node.input:
        if export_scope and not inp.lstrip("^").startswith(export_scope):
            rewritten = ("^" + UNBOUND_INPUT_PREFIX + inp[1:]) if inp.startswith("^") else UNBOUND_INPUT_PREFIX + inp
            unbound.append(rewritten)
            inputs.append(rewritten)
        else:
            inputs.append(strip_name_scope(inp, export_scope))
    out.input = inputs
    out.name = strip_name_scope(node.name, export_scope)
    colocation = out.attr.get("_class")
    if colocation is not None and export_scope:
        kept = [strip_name_scope(s, export_scope).encode() for s in colocation.list.s
                if s.decode().split("@", 1)[-1].startswith(export_scope)]
        out.attr["_class"].CopyFrom(AttrValue(list=AttrValue.ListValue(s=kept)))
    if clear_devices:
        out.device = ""
    return out


_SAVE_RESTORE_OPS = ("SaveV2", "Save", "SaveSlice", "RestoreV2", "Restore", "RestoreSlice")


def _scope_of(name: str) -> str:
    name = name[1:] if name.startswith("^") else name
    return name.rsplit("/", 1)[0] if "/" in name else ""


def _extraneous_saver_nodes(graph_def: GraphDef, saver_def: Optional[SaverDef]) -> set:
    """Names of save/restore nodes of savers other than saver_def's (every node under their name scopes)."""
    keep = _scope_of(saver_def.filename_tensor_name.split(":")[0]) if saver_def is not None else None
    scopes = {_scope_of(n.name) for n in graph_def.node if n.op in _SAVE_RESTORE_OPS}
    scopes.discard(keep)
    return {n.name for n in graph_def.node if any(n.name == s or n.name.startswith(s + "/") for s in scopes if s)}


def _strip_default_attrs(graph_def: GraphDef) -> None:
    """Drops attrs equal to their op's default. Type attrs stay: edgelite's registry gives type attrs such as
    StridedSlice's Index a fallback dtype where TensorFlow's OpDef has no default, so TensorFlow needs them."""
    from edgelite.framework import op_def_registry
    for node in graph_def.node:
        if not op_def_registry.is_registered(node.op):
            continue
        defaults = op_def_registry.get_op_def(node.op).attrs
        for key, value in list(node.attr.items()):
            if key in defaults and not isinstance(defaults[key], dtypes.DType):
                default = _attr_value(defaults[key])
                if default is not None and default == value:
                    del node.attr[key]


# ---- export ---------------------------------------------------------------------------------------------------
def export_scoped_meta_graph(filename: Optional[str] = None, graph_def: Any = None, graph: Any = None,
                             export_scope: Optional[str] = None, as_text: bool = False,
                             unbound_inputs_col_name: str = "unbound_inputs", clear_devices: bool = False,
                             saver_def: Any = None, clear_extraneous_savers: bool = False,
                             strip_default_attrs: bool = False, save_debug_info: bool = False,
                             meta_info_def: Any = None, collection_list: Optional[list] = None) -> tuple:
    """(MetaGraphDef, {name: variable}) of the graph or of the subgraph under export_scope."""
    from edgelite.framework.importer import _as_graph_def
    if save_debug_info:
        raise ValueError("save_debug_info=True is not supported: edgelite records no creation stack traces for "
                         "its operations, so there is no GraphDebugInfo to write")
    if meta_info_def is not None and not isinstance(meta_info_def, MetaGraphDef.MetaInfoDef):
        raise TypeError(f"meta_info_def must be of type MetaInfoDef. Received type: {type(meta_info_def)}.")
    graph = graph or ops.get_default_graph()
    if not isinstance(graph, ops.Graph):
        raise TypeError(f"graph must be of type Graph. Received type: {type(graph)}.")
    saver_def = as_saver_def(saver_def) if saver_def is not None else None
    gd = _as_graph_def(graph_def) if graph_def is not None else graph_to_graph_def(graph, add_shapes=True)
    exclude = None
    if export_scope or clear_extraneous_savers or clear_devices:
        if clear_extraneous_savers:
            exclude = _extraneous_saver_nodes(gd, saver_def)
        unbound: List[str] = []
        scoped = GraphDef(versions=gd.versions)
        for node in gd.node:
            if _include(node.name, export_scope, exclude):
                scoped.node.append(_scoped_node(node, export_scope, unbound, clear_devices))
        gd = scoped
        if unbound_inputs_col_name:
            graph.clear_collection(unbound_inputs_col_name)
            for name in unbound:
                graph.add_to_collection(unbound_inputs_col_name, name)
    mgd = MetaGraphDef()
    info = MetaGraphDef.MetaInfoDef.FromString(meta_info_def.SerializeToString()) if meta_info_def else \
        MetaGraphDef.MetaInfoDef()
    if strip_default_attrs:
        _strip_default_attrs(gd)
        info.stripped_default_attrs = True
    mgd.meta_info_def = info
    mgd.graph_def = gd
    if saver_def is not None:
        mgd.saver_def = saver_def
    keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
    for key in keys:
        override = None
        if clear_extraneous_savers and key == ops.GraphKeys.SAVERS:
            if saver_def is None:
                continue
            from edgelite.train.saver import Saver
            override = [Saver.from_proto(saver_def)]
        add_collection_def(mgd, key, graph=graph, export_scope=export_scope, exclude_nodes=exclude,
                           override_contents=override)
    var_list = {strip_name_scope(v.name, export_scope): v
                for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=export_scope)
                if _include(v, export_scope, exclude)}
    if filename:
        from edgelite.io.graph_io import write_graph
        write_graph(mgd, os.path.dirname(filename), os.path.basename(filename), as_text=as_text)
    return mgd, var_list


def export_meta_graph(filename: Optional[str] = None, meta_info_def: Any = None, graph_def: Any = None,
                      saver_def: Any = None, collection_list: Optional[list] = None, as_text: bool = False,
                      graph: Any = None, export_scope: Optional[str] = None, clear_devices: bool = False,
                      clear_extraneous_savers: bool = False, strip_default_attrs: bool = False,
                      save_debug_info: bool = False, **kwargs: Any) -> MetaGraphDef:
    """tf.compat.v1.train.export_meta_graph: the graph, saver and collections as a MetaGraphDef (and a file)."""
    unknown = sorted(set(kwargs) - set(_EXPORT_KWARGS))
    if unknown:
        raise TypeError(f"export_meta_graph() got an unexpected keyword argument '{unknown[0]}'")
    mgd, _ = export_scoped_meta_graph(
        filename=filename, graph_def=graph_def, graph=graph, export_scope=export_scope, as_text=as_text,
        clear_devices=clear_devices, saver_def=saver_def, clear_extraneous_savers=clear_extraneous_savers,
        strip_default_attrs=strip_default_attrs, save_debug_info=save_debug_info, meta_info_def=meta_info_def,
        collection_list=collection_list, **kwargs)
    return mgd


# ---- import ----------------------------------------------------------------------------------------------------
def read_meta_graph_file(filename: str) -> MetaGraphDef:
    """The MetaGraphDef in a binary (or text format) .meta file; IOError if missing or unparseable."""
    from edgelite.io import gfile
    if not gfile.exists(filename):
        raise IOError(f"File does not exist. Received: {filename}.")
    with gfile.GFile(filename, "rb") as f:
        content = f.read()
    try:
        return MetaGraphDef.FromString(content)
    except Exception as binary_error:  # noqa: BLE001 - TensorFlow then tries the text format
        from edgelite.framework.text_format import ParseError, parse
        try:
            return parse(content.decode("utf-8"), MetaGraphDef)
        except (UnicodeDecodeError, ParseError) as exc:
            raise IOError(f"Cannot parse file {filename}: {exc} (binary: {binary_error}).") from None


def _reference_variables(key: str, values: list) -> list:
    """The serialized VariableDefs of reference variables; resource variables (which edgelite has no Variable
    objects for) are left out of the collection with a warning, their ops still imported and runnable."""
    kept = [v for v in values if not VariableDef.FromString(v).is_resource]
    if len(kept) != len(values):
        _log.warning("Collection %s: %d resource variables are not rebuilt as Variable objects (their graph ops "
                     "are imported; the SaverDef restores them).", key, len(values) - len(kept))
    return kept


def import_scoped_meta_graph_with_return_elements(
        meta_graph_or_file: Any, clear_devices: bool = False, graph: Any = None, import_scope: Optional[str] = None,
        input_map: Optional[dict] = None, unbound_inputs_col_name: str = "unbound_inputs",
        restore_collections_predicate: Callable[[str], bool] = lambda key: True,
        return_elements: Optional[list] = None) -> tuple:
    """Imports the graph and collections; returns ({name: imported variable}, returned elements)."""
    from edgelite.framework.importer import import_graph_def
    mgd = meta_graph_or_file
    if not isinstance(mgd, MetaGraphDef):
        mgd = read_meta_graph_file(os.fspath(mgd)) if isinstance(mgd, (str, os.PathLike)) else \
            MetaGraphDef.FromString(mgd.SerializeToString())
    cols = collection_defs(mgd)
    if unbound_inputs_col_name and unbound_inputs_col_name in cols:
        col = cols[unbound_inputs_col_name]
        kind = col.WhichOneof("kind")
        values = [v.decode() if isinstance(v, bytes) else v for v in getattr(col, kind).value] if kind else []
        if values and (not input_map or sorted(values) != sorted(input_map)):
            missing = ",".join(v for v in values if not input_map or v not in input_map)
            raise ValueError(f"Graph contains unbound inputs: {missing}. Must provide these inputs through "
                             "input_map.")
    from edgelite.framework.importer import ensure_training_op_types
    ensure_training_op_types()
    graph = graph or ops.get_default_graph()
    with graph.as_default():
        gd = GraphDef.FromString(mgd.graph_def.SerializeToString())
        if clear_devices:
            for node in gd.node:
                node.device = ""
        scope = graph.unique_name(import_scope or "", mark_as_used=False)
        returned = import_graph_def(gd, name=import_scope or scope, input_map=input_map,
                                    return_elements=return_elements)
        ordered = sorted(cols.items(), key=lambda kv: (kv[0] != ops.GraphKeys.TRAINABLE_VARIABLES, kv[0]))
        variables: Dict[bytes, Any] = {}
        for key, col in ordered:
            if key == unbound_inputs_col_name or not restore_collections_predicate(key):
                continue
            if key in _UNREBUILDABLE_COLLECTIONS:
                _log.warning("Collection %s holds TensorFlow objects edgelite cannot rebuild; skipped.", key)
                continue
            kind = col.WhichOneof("kind")
            if kind is None:
                _log.error("Cannot identify data type for collection %s. Skipping.", key)
                continue
            funcs = _proto_functions(ops.GraphKeys.GLOBAL_VARIABLES if key == ops.GraphKeys.METRIC_VARIABLES
                                     else key)
            values = getattr(col, kind).value
            if key in _VARIABLE_PROTO_COLLECTIONS and kind == "bytes_list":
                values = _reference_variables(key, values)
            if funcs is not None and kind == "bytes_list":
                for value in values:
                    if key in _VARIABLE_PROTO_COLLECTIONS:
                        item = variables.get(value)
                        if item is None:
                            item = variables[value] = funcs[1](value, scope)
                    else:
                        item = funcs[1](value, scope)
                    graph.add_to_collection(key, item)
            elif kind == "node_list":
                for value in values:
                    graph.add_to_collection(key, graph.as_graph_element(prepend_name_scope(value, scope)))
            elif kind == "int64_list":
                for value in values:
                    graph.add_to_collection(key, int(value))
            elif kind == "float_list":
                for value in values:
                    graph.add_to_collection(key, float(value))
            elif kind == "any_list":
                for value in values:
                    graph.add_to_collection(key, value)
            else:
                for value in values:
                    graph.add_to_collection(key, prepend_name_scope(value, scope))
        var_list = {strip_name_scope(v.name, scope): v
                    for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=scope or None)}
    return var_list, returned


def import_meta_graph(meta_graph_or_file: Any, clear_devices: bool = False, import_scope: Optional[str] = None,
                      **kwargs: Any) -> Any:
    """tf.compat.v1.train.import_meta_graph: adds the graph and collections; returns the Saver to restore them.

    The Saver is the one the saver_def describes, else a new Saver over the imported variables, else None
    when there are no variables.
    """
    from edgelite.train.saver import Saver
    unknown = sorted(set(kwargs) - set(_IMPORT_KWARGS) - {"return_elements"})
    if unknown:
        raise TypeError(f"import_meta_graph() got an unexpected keyword argument '{unknown[0]}'")
    mgd = meta_graph_or_file
    if not isinstance(mgd, MetaGraphDef):
        mgd = read_meta_graph_file(os.fspath(mgd)) if isinstance(mgd, (str, os.PathLike)) else \
            MetaGraphDef.FromString(mgd.SerializeToString())
    imported, _ = import_scoped_meta_graph_with_return_elements(mgd, clear_devices=clear_devices,
                                                                import_scope=import_scope, **kwargs)
    graph = kwargs.get("graph") or ops.get_default_graph()
    with graph.as_default():
        if mgd.HasField("saver_def"):
            scope = import_scope
            if imported:
                key, var = next(iter(imported.items()))
                scope = var.name[:-len(key)]
            return Saver(saver_def=mgd.saver_def, name=scope or None)
        if graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=import_scope) or \
                graph.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS, scope=import_scope):
            return Saver()
        _log.info("Saver not created because there are no variables in the graph to restore")
        return None
