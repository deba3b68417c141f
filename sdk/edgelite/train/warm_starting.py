"""tf.compat.v1.train.warm_start: initialize chosen variables from a checkpoint, optionally under old names.

The values are read when the variables' initializers run (it is built on init_from_checkpoint). Remapping
embedding rows through vocabularies (var_name_to_vocab_info) is not offered: such a request is refused.
"""
from __future__ import annotations

import logging
from typing import Any, Dict, List, Optional

from ..framework import ops
from . import checkpoint_utils
from .checkpoint_reader import CheckpointReader
from .saver import OBJECT_GRAPH_PROTO_KEY

_log = logging.getLogger("edgelite")


def _var_name(group: List[Any]) -> str:
    """Checkpoint name of a variable, or of the full variable a list of partitions belongs to."""
    names = set()
    for v in group:
        parts = list(v._get_variable_list()) if hasattr(v, "_get_variable_list") else [v]
        for p in parts:
            info = getattr(p, "_save_slice_info", None)
            names.add(info.full_name if info is not None else p.op.name)
    if len(names) > 1:
        raise TypeError(f"`var` = {group} passed as arg violates the constraints.  name_to_var_dict = {sorted(names)}")
    return names.pop()


def _grouped_variables(vars_to_warm_start: Any) -> Dict[str, List[Any]]:
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        _log.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        found = ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            found = []
            for scope in vars_to_warm_start:
                found += ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=scope)
        elif all(checkpoint_utils._is_variable(v) for v in vars_to_warm_start):
            found = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or all `str`.  Given "
                             "types are {}".format([type(v) for v in vars_to_warm_start]))
    else:
        raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is {}".format(
            type(vars_to_warm_start)))
    grouped: Dict[str, List[Any]] = {}
    for v in found:
        grouped.setdefault(_var_name(v if isinstance(v, list) else [v]), []).append(v)
    return grouped


def _object_checkpoint_renames(path: Any, names: List[str]) -> Dict[str, str]:
    """For an object-based checkpoint, variable name -> checkpoint key; {} for a name-based one."""
    from ..checkpoint.protos import TrackableObjectGraph
    reader = CheckpointReader(checkpoint_utils._checkpoint_filename(path))
    try:
        if not reader.has_tensor(OBJECT_GRAPH_PROTO_KEY):
            return {}
        graph = TrackableObjectGraph.decode(bytes(reader.get_tensor(OBJECT_GRAPH_PROTO_KEY)))
    finally:
        reader.close()
    keys = {a.full_name: a.checkpoint_key for node in graph.nodes for a in node.attributes}
    missing = set(names) - set(keys)
    if missing:
        raise ValueError("Attempting to warm-start from an object-based checkpoint, but found that the checkpoint "
                         "did not contain values for all variables. The following variables were missing: "
                         f"{missing}")
    return {name: keys[name] for name in names}


def warm_start(ckpt_to_initialize_from: Any, vars_to_warm_start: Any = ".*",
               var_name_to_vocab_info: Optional[dict] = None,
               var_name_to_prev_var_name: Optional[Dict[str, str]] = None) -> None:
    """Makes the selected variables' initializers load their values from the checkpoint.

    vars_to_warm_start: a regex over TRAINABLE_VARIABLES, a list of regexes over GLOBAL_VARIABLES, or a list
    of variables; None warm-starts nothing (TensorFlow's code does the same).
    """
    if var_name_to_vocab_info:
        raise ValueError("var_name_to_vocab_info is not supported by edgelite: vocabulary remapping of "
                         f"{sorted(var_name_to_vocab_info)} cannot be done; warm-start them without vocab info")
    _log.info("Warm-starting from: %s", ckpt_to_initialize_from)
    grouped = _grouped_variables(vars_to_warm_start)
    if not var_name_to_prev_var_name:
        var_name_to_prev_var_name = _object_checkpoint_renames(ckpt_to_initialize_from, list(grouped))
    used = set()
    pending: Dict[str, Any] = {}
    count = 0
    for var_name, group in grouped.items():
        prev = var_name_to_prev_var_name.get(var_name)
        if prev:
            used.add(var_name)
        if not vars_to_warm_start:
            continue
        count += 1
        target = group[0] if len(group) == 1 else group
        if hasattr(target, "_get_variable_list"):
            target = list(target._get_variable_list())
        elif not (checkpoint_utils._is_variable(target) or isinstance(target, list)):
            raise TypeError("var MUST be one of the following: a Variable, list of Variable or PartitionedVariable, "
                            f"but is {type(target)}")
        key = prev or var_name
        if key in pending:
            checkpoint_utils.init_from_checkpoint(ckpt_to_initialize_from, pending)
            pending = {}
        pending[key] = target
    if pending:
        checkpoint_utils.init_from_checkpoint(ckpt_to_initialize_from, pending)
    _log.info("Warm-started %d variables.", count)
    unused = set(var_name_to_prev_var_name) - used
    if unused:
        raise ValueError("You provided the following variables in var_name_to_prev_var_name that were not used: "
                         f"{unused}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")
