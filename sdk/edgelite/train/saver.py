"""tf.compat.v1.train.Saver: name-based checkpoints of graph variables in the tensor-bundle V2 format."""
from __future__ import annotations

import logging
import os
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..checkpoint.bundle import BundleWriter
from ..checkpoint.protos import SaverDef, TensorSlice, TrackableObjectGraph
from ..framework import errors, meta_graph, ops
from ..framework.meta_graph_protos import SaverDef as SaverDefProto
from . import _variable_io as vio
from . import checkpoint_management as cm
from .checkpoint_reader import CheckpointReader

OBJECT_GRAPH_PROTO_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"

_log = logging.getLogger("edgelite")


class _Saveable:
    """One tensor of the checkpoint: a variable, or one partition of a partitioned variable."""

    def __init__(self, name: str, var: Any, slice_info: Any = None) -> None:
        self.name = name
        self.var = var
        self.slice_info = slice_info

    @property
    def device(self) -> str:
        return getattr(self.var, "device", "") or ""

    def tensor_slice(self) -> Optional[TensorSlice]:
        if self.slice_info is None:
            return None
        return TensorSlice(tuple(zip((int(o) for o in self.slice_info.var_offset),
                                     (int(n) for n in self.slice_info.var_shape))))


def _partitions(value: Any) -> Optional[List[Any]]:
    """The parts of a partitioned variable (list of parts or a PartitionedVariable), else None."""
    if hasattr(value, "_get_variable_list"):
        return list(value._get_variable_list())
    if isinstance(value, (list, tuple)) and value and all(getattr(v, "_save_slice_info", None) for v in value):
        return list(value)
    return None


def _saveables_from(var_list: Any) -> List[_Saveable]:
    """Checks and flattens a Saver var_list (dict or list) into named saveables, TensorFlow's rules."""
    out: List[_Saveable] = []
    seen_vars: set = set()
    seen_names: set = set()

    def add(name: str, var: Any) -> None:
        parts = _partitions(var)
        if parts is not None:
            for p in parts:
                add_one(name, p, p._save_slice_info)
        elif vio.is_variable(var):
            add_one(name, var, None)
        elif vio.variable_op_tensor(var) is not None:
            add_one(name, vio.variable_op_tensor(var), None)
        else:
            raise TypeError(f"Variables to save should be variables or partitioned variables, got {var!r}")

    def add_one(name: str, var: Any, info: Any) -> None:
        if id(var) in seen_vars:
            raise ValueError(f"The same saveable will be restored with two names: {name}")
        seen_vars.add(id(var))
        out.append(_Saveable(name, var, info))

    if isinstance(var_list, dict):
        for name, var in var_list.items():
            if not isinstance(name, str):
                raise TypeError(f"names_to_saveables must be a dict mapping string names to saveable objects; "
                                f"got key {name!r}")
            add(name, var)
        return out
    if not isinstance(var_list, (list, tuple, set)):
        raise TypeError(f"Variables to save should be passed in a dict or a list: {var_list!r}")
    for var in sorted(var_list, key=lambda v: getattr(v, "name", "")):
        parts = _partitions(var)
        if parts is not None:
            name = parts[0]._save_slice_info.full_name
        elif vio.is_variable(var):
            name = vio.variable_name(var)
            info = getattr(var, "_save_slice_info", None)
            if info is not None:
                name = info.full_name
        else:
            raise TypeError(f"Variables to save should be passed in a dict or a list: {var_list!r}")
        if name in seen_names and parts is None and getattr(var, "_save_slice_info", None) is None:
            raise ValueError(f"At least two variables have the same name: {name}")
        seen_names.add(name)
        if parts is None and getattr(var, "_save_slice_info", None) is not None:
            add_one(name, var, var._save_slice_info)
        else:
            add(name, var)
    return out


def _object_graph_keys(reader: CheckpointReader) -> Dict[str, str]:
    """For object-based checkpoints: variable name -> checkpoint key, so a name-based Saver can restore them."""
    if not reader.has_tensor(OBJECT_GRAPH_PROTO_KEY):
        return {}
    try:
        graph = TrackableObjectGraph.decode(bytes(reader.get_tensor(OBJECT_GRAPH_PROTO_KEY)))
    except ValueError as exc:
        raise errors.DataLossError(None, None, f"Unparseable object graph in checkpoint {reader.prefix}: {exc}") from None
    return {a.full_name: a.checkpoint_key for node in graph.nodes for a in node.attributes
            if a.full_name and not reader.has_tensor(a.full_name)}


def _global_step_value(sess: Any, global_step: Any) -> int:
    """Integer value of a global step given as a Variable, Tensor or tensor name."""
    if isinstance(global_step, str):
        global_step = sess.graph.as_graph_element(global_step)
    return int(np.asarray(sess.run(global_step)))


def _create_checkpoint_dir(save_dir: str, save_path: str, sharded: bool) -> None:
    """Create the missing directory of a checkpoint prefix the way TensorFlow's save op does.

    The unsharded SaveV2 kernel makes the prefix's own directory (one level, not its parents); the sharded
    save first writes into a temporary directory beside the prefix, so it needs the directory to exist.
    """
    parent = os.path.dirname(os.path.normpath(save_dir))
    if sharded or (parent and not os.path.isdir(parent)):
        raise ValueError("Parent directory of {} doesn't exist, can't save.".format(save_path))
    os.makedirs(save_dir, exist_ok=True)


class Saver:
    """Saves and restores variables by name; keeps the newest `max_to_keep` checkpoints and the state file."""

    def __init__(self, var_list: Any = None, reshape: bool = False, sharded: bool = False, max_to_keep: int = 5,
                 keep_checkpoint_every_n_hours: float = 10000.0, name: Optional[str] = None,
                 restore_sequentially: bool = False, saver_def: Optional[SaverDef] = None, builder: Any = None,
                 defer_build: bool = False, allow_empty: bool = False, write_version: int = SaverDef.V2,
                 pad_step_number: bool = False, save_relative_paths: bool = False,
                 filename: Optional[str] = None) -> None:
        if builder is not None:
            raise ValueError("edgelite's Saver writes through its own bundle writer; `builder` must be None")
        self._imported_def: Optional[SaverDefProto] = None
        if saver_def is not None:
            if not isinstance(saver_def, (SaverDef, SaverDefProto)):
                raise ValueError(f"saver_def must be a saver_pb2.SaverDef: {saver_def!r}")
            saver_def = meta_graph.as_saver_def(saver_def)
            max_to_keep = saver_def.max_to_keep
            keep_checkpoint_every_n_hours = saver_def.keep_checkpoint_every_n_hours or 10000.0
            sharded = saver_def.sharded
            write_version = saver_def.version or SaverDef.V2
            if saver_def.restore_op_name and saver_def.filename_tensor_name:
                self._imported_def = saver_def
        if write_version != SaverDef.V2:
            raise ValueError("Only the V2 checkpoint format (tf.train.SaverDef.V2) can be written")
        self._var_list = var_list
        self._reshape = reshape
        self._sharded = sharded
        self._name = name or "save"
        self._restore_sequentially = restore_sequentially
        self._allow_empty = allow_empty
        self._pad_step_number = pad_step_number
        self._save_relative_paths = save_relative_paths
        self._filename = filename or "model"
        self.saver_def = SaverDefProto(max_to_keep=max_to_keep or 0, sharded=sharded,
                                       keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                                       version=SaverDef.V2)
        if self._imported_def is not None:
            for field in ("filename_tensor_name", "save_tensor_name", "restore_op_name"):
                setattr(self.saver_def, field,
                        meta_graph.prepend_name_scope(getattr(self._imported_def, field), name))
        self._last_checkpoints: List[Tuple[str, float]] = []
        self._checkpoints_to_be_deleted: List[Tuple[str, float]] = []
        self._next_checkpoint_time = time.time() + keep_checkpoint_every_n_hours * 3600
        self._saveables: List[_Saveable] = []
        self._is_built = False
        self._is_empty = True
        if not defer_build:
            self.build()

    def build(self) -> None:
        """Resolves the variables to save (all global variables and saveable objects when var_list is None)
        and adds TensorFlow's save/restore ops, which the SaverDef names, to their graph.

        A Saver made from an imported SaverDef uses the save/restore ops already in the graph.
        """
        if self._is_built:
            return
        if self._imported_def is not None:
            self._is_empty = False
            self._is_built = True
            return
        var_list = self._var_list
        if var_list is None:
            var_list = ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES) + \
                ops.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS)
        self._saveables = _saveables_from(var_list)
        self._is_empty = not self._saveables
        if self._is_empty and not self._allow_empty:
            raise ValueError("No variables to save")
        self._add_graph_ops()
        self._is_built = True

    def _add_graph_ops(self) -> None:
        """Adds the save/restore subgraph when the saveables are reference variables of a graph still open."""
        from . import saver_ops
        if not self._saveables or not all(hasattr(s.var, "_ref") for s in self._saveables):
            return
        graph = self._saveables[0].var.graph
        if graph.finalized or any(s.var.graph is not graph for s in self._saveables):
            return
        entries = [(s.name, s.slice_info.spec if s.slice_info is not None else "", s.var) for s in self._saveables]
        with graph.as_default():
            filename, save, restore = saver_ops.build_save_restore_graph(entries, self._name, self._filename)
        self.saver_def.filename_tensor_name = filename.name
        self.saver_def.save_tensor_name = save.name
        self.saver_def.restore_op_name = restore.name

    # -- bookkeeping (TensorFlow's retention rules) ---------------------------------------------------------
    @property
    def last_checkpoints(self) -> List[str]:
        """Not-yet-deleted checkpoint prefixes, oldest first."""
        return [p for p, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints: List[str]) -> None:
        """DEPRECATED: sets the checkpoint list with timestamp +inf, so they are never preserved by age."""
        assert isinstance(last_checkpoints, list)
        self._last_checkpoints = [(s, np.inf) for s in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time: List[Tuple[str, float]]) -> None:
        """Sets the list of (checkpoint prefix, timestamp) pairs, oldest first."""
        assert isinstance(last_checkpoints_with_time, list)
        self._last_checkpoints = last_checkpoints_with_time

    def recover_last_checkpoints(self, checkpoint_paths: Sequence[str]) -> None:
        """Rebuilds the checkpoint list after a crash from the files that still exist (mtime as timestamp)."""
        found = []
        for path in checkpoint_paths:
            mtime = cm.get_checkpoint_mtimes([path])
            if mtime:
                found.append((path, mtime[0]))
        self.set_last_checkpoints_with_time(found)

    def _record_last_checkpoint(self, latest_save_path: str) -> None:
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [p for p in self._last_checkpoints if p[0] != latest_save_path]
        self._last_checkpoints.append((latest_save_path, time.time()))
        if len(self._last_checkpoints) > self.saver_def.max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _maybe_delete_old_checkpoints(self, meta_graph_suffix: str = "meta") -> None:
        if not self._checkpoints_to_be_deleted:
            return
        path, stamp = self._checkpoints_to_be_deleted.pop(0)
        if stamp > self._next_checkpoint_time:
            self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
            return
        try:
            cm.remove_checkpoint(path, SaverDef.V2, meta_graph_suffix)
        except OSError as exc:
            _log.warning("Ignoring: %s", exc)

    def as_saver_def(self) -> SaverDefProto:
        """The SaverDef: the names of the filename tensor, save tensor and restore op, and retention settings."""
        return self.saver_def

    def to_proto(self, export_scope: Optional[str] = None) -> Optional[SaverDefProto]:
        """The SaverDef with export_scope stripped from its names (None if they lie outside export_scope)."""
        if export_scope is None:
            return self.saver_def
        names = ("filename_tensor_name", "save_tensor_name", "restore_op_name")
        if not all(getattr(self.saver_def, n).startswith(export_scope) for n in names):
            return None
        out = SaverDefProto.FromString(self.saver_def.SerializeToString())
        for n in names:
            setattr(out, n, meta_graph.strip_name_scope(getattr(out, n), export_scope))
        return out

    @staticmethod
    def from_proto(saver_def: Any, import_scope: Optional[str] = None) -> "Saver":
        """A Saver that saves and restores through the ops a SaverDef names (import_scope prefixed)."""
        return Saver(saver_def=saver_def, name=import_scope)

    def export_meta_graph(self, filename: Optional[str] = None, collection_list: Optional[list] = None,
                          as_text: bool = False, export_scope: Optional[str] = None, clear_devices: bool = False,
                          clear_extraneous_savers: bool = False, strip_default_attrs: bool = False,
                          save_debug_info: bool = False) -> Any:
        """Writes the default graph with this saver's SaverDef and the collections as a MetaGraphDef.

        A saver built on an already finalized graph has no save/restore ops to name, so its SaverDef is left
        out; import_meta_graph then makes a new Saver over the imported variables.
        """
        saver_def = self.saver_def if self.saver_def.restore_op_name else None
        return meta_graph.export_meta_graph(
            filename=filename, saver_def=saver_def, collection_list=collection_list, as_text=as_text,
            export_scope=export_scope, clear_devices=clear_devices, clear_extraneous_savers=clear_extraneous_savers,
            strip_default_attrs=strip_default_attrs, save_debug_info=save_debug_info)

    # -- save / restore -------------------------------------------------------------------------------------
    def _write_bundle(self, sess: Any, prefix: str) -> None:
        values = vio.read_values(sess, [s.var for s in self._saveables])
        devices: Dict[str, int] = {}
        if self._sharded:
            for s in self._saveables:
                devices.setdefault(s.device, len(devices))
        writer = BundleWriter(prefix, num_shards=max(1, len(devices)))
        try:
            for s, value in zip(self._saveables, values):
                shard = devices.get(s.device, 0)
                tensor_slice = s.tensor_slice()
                if tensor_slice is None:
                    writer.add(s.name, value, shard_id=shard)
                else:
                    writer.add_slice(s.name, s.slice_info.full_shape, tensor_slice, value, shard_id=shard)
        except BaseException:
            writer.abort()
            raise
        writer.finish()

    def save(self, sess: Any, save_path: str, global_step: Any = None, latest_filename: Optional[str] = None,
             meta_graph_suffix: str = "meta", write_meta_graph: bool = True, write_state: bool = True,
             strip_default_attrs: bool = False, save_debug_info: bool = False) -> Optional[str]:
        """Writes a checkpoint of the variables' current values; returns its prefix (None for an empty saver).

        The data and index files appear atomically, and the state file is rewritten only once both are
        durable, so a crash at any moment leaves the previous checkpoint intact and referenced. With
        write_meta_graph, `<prefix>.<meta_graph_suffix>` (the MetaGraphDef) is then replaced atomically on
        every call, as TensorFlow does.
        """
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        latest_filename = latest_filename or "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if global_step is not None:
            if not isinstance(global_step, (int, np.integer)):
                global_step = _global_step_value(sess, global_step)
            checkpoint_file = "%s-%d" % (save_path, global_step)
            if self._pad_step_number:
                checkpoint_file = "%s-%s" % (save_path, "{:08d}".format(int(global_step)))
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError("'latest_filename' collides with 'save_path': '%s' and '%s'"
                                 % (latest_filename, save_path))
        if not (hasattr(sess, "run") and hasattr(sess, "graph")):
            raise TypeError("'sess' must be a Session; %s" % (sess,))
        save_dir = os.path.dirname(save_path)
        if not self._is_empty:
            if save_dir and not os.path.isdir(save_dir):
                _create_checkpoint_dir(save_dir, save_path, self._sharded)
            if self._imported_def is not None:
                written = sess.run(self.saver_def.save_tensor_name,
                                   {self.saver_def.filename_tensor_name: checkpoint_file})
                written = np.asarray(written).reshape(-1)[0] if np.ndim(written) else written
                checkpoint_file = written.decode() if isinstance(written, bytes) else str(written)
            else:
                self._write_bundle(sess, checkpoint_file)
            if write_state:
                self._record_last_checkpoint(checkpoint_file)
                cm.update_checkpoint_state_internal(
                    save_dir=save_dir, model_checkpoint_path=checkpoint_file,
                    all_model_checkpoint_paths=self.last_checkpoints, latest_filename=latest_filename,
                    save_relative_paths=self._save_relative_paths)
                self._maybe_delete_old_checkpoints(meta_graph_suffix)
        if write_meta_graph:
            with sess.graph.as_default():
                self.export_meta_graph(cm.meta_graph_filename(checkpoint_file, meta_graph_suffix),
                                       strip_default_attrs=strip_default_attrs, save_debug_info=save_debug_info)
        return None if self._is_empty else checkpoint_file

    def restore(self, sess: Any, save_path: Optional[str]) -> None:
        """Assigns every saved variable its value from the checkpoint at `save_path`.

        Raises ValueError if save_path is None or no checkpoint; NotFoundError naming every variable the
        checkpoint lacks; InvalidArgumentError on dtype or shape mismatch; DataLossError on damaged files.
        """
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        save_path = os.fspath(save_path)
        if not cm.checkpoint_exists(save_path):
            raise ValueError("The passed save_path is not a valid checkpoint: " + save_path)
        _log.info("Restoring parameters from %s", save_path)
        if self._imported_def is not None:
            self._restore_through_graph(sess, save_path)
            return
        reader = CheckpointReader(save_path)
        try:
            key_of = _object_graph_keys(reader)
            missing = sorted({s.name for s in self._saveables if not reader.has_tensor(key_of.get(s.name, s.name))})
            if missing:
                raise errors.NotFoundError(
                    None, None, "Restoring from checkpoint failed. This is most likely due to a Variable name or "
                    "other graph key that is missing from the checkpoint. Please ensure that you have not altered "
                    "the graph expected based on the checkpoint. Original error:\n\nKey "
                    + ", ".join(missing) + f" not found in checkpoint {save_path}")
            pairs = []
            for s in self._saveables:
                tensor_slice = s.tensor_slice()
                key = key_of.get(s.name, s.name)
                if tensor_slice is None:
                    value = reader.get_tensor(key)
                else:
                    value = reader._get_slice(key, tensor_slice)
                value = vio.check_and_cast(s.var, s.name, np.asarray(value, dtype=object)
                                           if isinstance(value, bytes) else np.asarray(value), self._reshape)
                pairs.append((s.var, value))
        finally:
            reader.close()
        vio.assign_values(sess, pairs)

    def _restore_through_graph(self, sess: Any, save_path: str) -> None:
        """Runs the restore op the SaverDef names, feeding the checkpoint prefix to its filename tensor."""
        try:
            sess.run(self.saver_def.restore_op_name, {self.saver_def.filename_tensor_name: save_path})
        except errors.NotFoundError as exc:
            raise errors.NotFoundError(
                None, None, "Restoring from checkpoint failed. This is most likely due to a Variable name or other "
                "graph key that is missing from the checkpoint. Please ensure that you have not altered the graph "
                "expected based on the checkpoint. Original error:\n\n" + exc.message) from None
