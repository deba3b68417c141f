"""freeze_graph (tensorflow/python/tools/freeze_graph.py): a GraphDef (or MetaGraphDef, or SavedModel) plus a
checkpoint in, one GraphDef with every variable replaced by a Const of its checkpointed value out, written to
output_graph. Works in the default graph and a fresh session, as TensorFlow's does."""
from __future__ import annotations

import os
import re
from typing import Any, List, Optional

from edgelite.client.session import Session
from edgelite.framework.graph_def import GraphDef
from edgelite.framework.importer import import_graph_def
from edgelite.framework.meta_graph import import_meta_graph
from edgelite.framework.meta_graph_protos import MetaGraphDef, SaverDef
from edgelite.framework.text_format import parse
from edgelite.graph_util.freeze import convert_variables_to_constants
from edgelite.saved_model import loader
from edgelite.train.checkpoint_management import checkpoint_exists
from edgelite.train.checkpoint_reader import NewCheckpointReader
from edgelite.train.saver import Saver

_SAVER_V2 = 2


def _names(text: str) -> Optional[List[str]]:
    """A comma-separated list (spaces ignored), None when empty."""
    return text.replace(" ", "").split(",") if text else None


def _has_no_variables(graph: Any) -> bool:
    return not any(op.type.startswith("Variable") or op.type.endswith("VariableOp") for op in graph.get_operations())


def _checkpoint_saver(graph: Any, input_checkpoint: str, checkpoint_version: int) -> Saver:
    """A Saver over the graph tensors named like the checkpoint's variables (TF's refusal texts when none)."""
    var_to_shape = NewCheckpointReader(input_checkpoint).get_variable_to_shape_map()
    partitioned = [t.name.split(":")[0] for op in graph.get_operations() for t in op.outputs
                   if re.search(r"/part_\d+/", t.name)]
    var_list, has_partition_var = {}, False
    for key in var_to_shape:
        try:
            tensor = graph.get_tensor_by_name(key + ":0")
        except KeyError:
            continue
        has_partition_var = has_partition_var or any(key in name for name in partitioned)
        var_list[key] = tensor
    if not var_list:
        if has_partition_var:
            raise ValueError("Models containing partition variables cannot be converted from checkpoint files. "
                             "Please pass in a SavedModel using the flag --input_saved_model_dir.")
        if _has_no_variables(graph):
            raise ValueError("No variables were found in this model. It is likely the model was frozen previously. "
                             "You cannot freeze a graph twice.")
    return Saver(var_list=var_list, write_version=checkpoint_version)


def freeze_graph_with_def_protos(input_graph_def: Optional[GraphDef], input_saver_def: Optional[SaverDef],
                                 input_checkpoint: Optional[str], output_node_names: str,
                                 restore_op_name: Optional[str], filename_tensor_name: Optional[str],
                                 output_graph: str, clear_devices: bool, initializer_nodes: str,
                                 variable_names_whitelist: str = "", variable_names_denylist: str = "",
                                 input_meta_graph_def: Optional[MetaGraphDef] = None,
                                 input_saved_model_dir: Optional[str] = None,
                                 saved_model_tags: Optional[List[str]] = None,
                                 checkpoint_version: int = _SAVER_V2, variable_names_blacklist: str = "") -> GraphDef:
    """The frozen GraphDef of the given protos and checkpoint (restore_op_name and filename_tensor_name are
    unused, as in TF); written to output_graph when it is set."""
    del restore_op_name, filename_tensor_name
    if not input_saved_model_dir and not checkpoint_exists(input_checkpoint):
        raise ValueError(f"Input checkpoint '{input_checkpoint}' doesn't exist!")
    if not output_node_names:
        raise ValueError("You need to supply the name of a node to --output_node_names.")
    if clear_devices:
        nodes = input_meta_graph_def.graph_def.node if input_meta_graph_def else (
            input_graph_def.node if input_graph_def else [])
        for node in nodes:
            node.device = ""
    if input_graph_def:
        import_graph_def(input_graph_def, name="")
    with Session() as sess:
        if input_saver_def:
            Saver(saver_def=input_saver_def, write_version=checkpoint_version).restore(sess, input_checkpoint)
        elif input_meta_graph_def:
            import_meta_graph(input_meta_graph_def, clear_devices=True).restore(sess, input_checkpoint)
            if initializer_nodes:
                sess.run(_names(initializer_nodes))
        elif input_saved_model_dir:
            loader.load(sess, saved_model_tags or [], input_saved_model_dir)
        else:
            _checkpoint_saver(sess.graph, input_checkpoint, checkpoint_version).restore(sess, input_checkpoint)
            if initializer_nodes:
                sess.run(_names(initializer_nodes))
        source = input_meta_graph_def.graph_def if input_meta_graph_def else input_graph_def
        output_graph_def = convert_variables_to_constants(
            sess, source, _names(output_node_names), variable_names_whitelist=_names(variable_names_whitelist),
            variable_names_blacklist=_names(variable_names_denylist or variable_names_blacklist))
    if output_graph:
        with open(output_graph, "wb") as f:
            f.write(output_graph_def.SerializeToString())
    return output_graph_def


def _read_proto(path: str, binary: bool, message_type: type, what: str) -> Any:
    if not os.path.exists(path):
        raise IOError(f"Input {what} file '{path}' does not exist!")
    if binary:
        with open(path, "rb") as f:
            return message_type.FromString(f.read())
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), message_type)


def freeze_graph(input_graph: Optional[str], input_saver: str, input_binary: bool, input_checkpoint: Optional[str],
                 output_node_names: str, restore_op_name: Optional[str], filename_tensor_name: Optional[str],
                 output_graph: str, clear_devices: bool, initializer_nodes: str, variable_names_whitelist: str = "",
                 variable_names_denylist: str = "", input_meta_graph: Any = None,
                 input_saved_model_dir: Optional[str] = None, saved_model_tags: str = "serve",
                 checkpoint_version: int = _SAVER_V2, variable_names_blacklist: str = "") -> GraphDef:
    """Reads the graph (.pb when input_binary, else .pbtxt), meta graph, saver or SavedModel files and freezes
    them with input_checkpoint into output_graph."""
    input_graph_def = None
    if input_saved_model_dir:
        tags = [t for t in saved_model_tags.replace(" ", "").split(",") if t]
        input_graph_def = loader.meta_graph_for_tags(loader.parse_saved_model(input_saved_model_dir), tags).graph_def
    elif input_graph:
        input_graph_def = _read_proto(input_graph, input_binary, GraphDef, "graph")
    input_meta_graph_def = None
    if input_meta_graph:
        input_meta_graph_def = _read_proto(input_meta_graph, input_binary, MetaGraphDef, "meta graph")
        print("Loaded meta graph file '" + input_meta_graph)
    input_saver_def = _read_proto(input_saver, input_binary, SaverDef, "saver") if input_saver else None
    return freeze_graph_with_def_protos(
        input_graph_def, input_saver_def, input_checkpoint, output_node_names, restore_op_name,
        filename_tensor_name, output_graph, clear_devices, initializer_nodes, variable_names_whitelist,
        variable_names_denylist, input_meta_graph_def, input_saved_model_dir,
        [t for t in saved_model_tags.replace(" ", "").split(",") if t], checkpoint_version,
        variable_names_blacklist)
