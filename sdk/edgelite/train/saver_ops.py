"""SaveV2 / RestoreV2 graph ops and the save/restore subgraph a Saver adds, named as TensorFlow names it.

The subgraph is what a SaverDef points at: TensorFlow (or edgelite) can import an exported MetaGraphDef and
save or restore through it by feeding the filename tensor, without the Python objects that built it.
"""
from __future__ import annotations

import os
import re
from typing import Any, List, Optional, Sequence

import numpy as np

from ..checkpoint.bundle import BundleReader, BundleWriter, index_filename
from .checkpoint_management import delete_checkpoint_files
from ..checkpoint.io_ops import parse_shape_and_slice
from ..framework import dtypes, errors, ops
from ..framework.op_def_registry import is_registered, register_op


def _strings(value: Any) -> List[str]:
    flat = np.asarray(value, dtype=object).reshape(-1)
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in flat]


def _save_v2_kernel(ctx: Any, prefix: Any, tensor_names: Any, shape_and_slices: Any, *tensors: Any) -> tuple:
    names, specs = _strings(tensor_names), _strings(shape_and_slices)
    if not (len(names) == len(specs) == len(tensors)):
        raise errors.InvalidArgumentError(
            None, None, f"Expected {len(names)} tensors and shape_and_slices, got {len(tensors)} tensors and "
            f"{len(specs)} shape_and_slices")
    path = _strings(prefix)[0]
    _makedirs_for(path)
    writer = BundleWriter(path)
    try:
        for name, spec, value in zip(names, specs, tensors):
            full, tensor_slice = parse_shape_and_slice(spec)
            if tensor_slice is None:
                writer.add(name, np.asarray(value))
            else:
                writer.add_slice(name, full, tensor_slice, np.asarray(value))
    except BaseException:
        writer.abort()
        raise
    writer.finish()
    return ()


def _restore_v2_kernel(ctx: Any, prefix: Any, tensor_names: Any, shape_and_slices: Any) -> Any:
    names, specs = _strings(tensor_names), _strings(shape_and_slices)
    want = list(ctx.attrs["dtypes"])
    if not (len(names) == len(specs) == len(want)):
        raise errors.InvalidArgumentError(
            None, None, f"Expected {len(want)} tensor names and shape_and_slices, got {len(names)} and {len(specs)}")
    path = _strings(prefix)[0]
    out = []
    with BundleReader(path) as reader:
        for name, spec, dt in zip(names, specs, want):
            if not reader.contains(name):
                raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
            full, tensor_slice = parse_shape_and_slice(spec)
            value = reader.get(name) if tensor_slice is None else reader.get_slice(name, tensor_slice)
            dt = dtypes.as_dtype(dt)
            want_np = np.dtype(object) if dt == dtypes.string else np.dtype(dt.as_numpy_dtype)
            if value.dtype != want_np:
                got = "string" if value.dtype == object else dtypes.as_dtype(value.dtype).name
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {name}; expected dtype {dt.name} does not equal original dtype {got}")
            out.append(value)
    return out[0] if len(out) == 1 else tuple(out)


def _makedirs_for(prefix: str) -> None:
    """TensorFlow's bundle writer creates the prefix's directory (sharded saves write into '<prefix>_temp/')."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)


def _merge_v2_kernel(ctx: Any, checkpoint_prefixes: Any, destination_prefix: Any) -> tuple:
    sources = _strings(checkpoint_prefixes)
    destination = _strings(destination_prefix)[0]
    present = [p for p in sources if os.path.exists(index_filename(p))]
    if len(present) != len(sources) and not ctx.attrs.get("allow_missing_files", False):
        missing = [p for p in sources if p not in present]
        raise errors.NotFoundError(None, None, f"Checkpoint prefixes not found: {missing}")
    _makedirs_for(destination)
    writer = BundleWriter(destination, num_shards=max(1, len(present)))
    try:
        for shard, source in enumerate(present):
            with BundleReader(source) as reader:
                for key in reader.keys():
                    entry = reader.entry(key)
                    if entry.slices:
                        for tensor_slice in entry.slices:
                            writer.add_slice(key, entry.shape, tensor_slice, reader.get_slice(key, tensor_slice),
                                             shard_id=shard)
                    else:
                        writer.add(key, reader.get(key), shard_id=shard)
    except BaseException:
        writer.abort()
        raise
    writer.finish()
    for source in present:
        delete_checkpoint_files(source)
        if ctx.attrs.get("delete_old_dirs", True):
            try:
                os.rmdir(os.path.dirname(source))
            except OSError:
                pass  # not empty or already gone: TensorFlow ignores this too
    return ()


def _sharded_filename_kernel(ctx: Any, basename: Any, shard: Any, num_shards: Any) -> np.ndarray:
    name = "%s-%05d-of-%05d" % (_strings(basename)[0], int(np.asarray(shard)), int(np.asarray(num_shards)))
    return np.array(name.encode("utf-8"), dtype=object)


def _string_join_kernel(ctx: Any, inputs: list) -> np.ndarray:
    sep = ctx.attrs.get("separator", "")
    sep = sep.encode("utf-8") if isinstance(sep, str) else bytes(sep)
    arrays = [np.asarray(x, dtype=object) for x in inputs]
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    flat = [np.broadcast_to(a, shape).reshape(-1) for a in arrays]
    out = np.empty(int(np.prod(shape, dtype=np.int64)), dtype=object)
    for i in range(out.size):
        out[i] = sep.join(bytes(a[i]) if not isinstance(a[i], str) else a[i].encode("utf-8") for a in flat)
    return out.reshape(shape)


def _regex_full_match_kernel(ctx: Any, value: Any) -> np.ndarray:
    pattern = re.compile(ctx.attrs["pattern"])
    arr = np.asarray(value, dtype=object)
    flat = [bool(pattern.fullmatch(v.decode("utf-8") if isinstance(v, bytes) else str(v))) for v in arr.reshape(-1)]
    return np.array(flat, dtype=bool).reshape(arr.shape)


if not is_registered("MergeV2Checkpoints"):
    register_op("MergeV2Checkpoints", inputs=["checkpoint_prefixes: string", "destination_prefix: string"],
                outputs=[], attrs={"delete_old_dirs": True, "allow_missing_files": False}, kernel=_merge_v2_kernel,
                shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)
if not is_registered("ShardedFilename"):
    register_op("ShardedFilename", inputs=["basename: string", "shard: int32", "num_shards: int32"],
                outputs=["filename: string"], kernel=_sharded_filename_kernel, shape_fn=lambda op: [[]])
if not is_registered("StringJoin"):
    register_op("StringJoin", inputs=["inputs: N * string"], outputs=["output: string"], attrs={"separator": ""},
                kernel=_string_join_kernel, shape_fn=lambda op: [None])
if not is_registered("StaticRegexFullMatch"):
    register_op("StaticRegexFullMatch", inputs=["input: string"], outputs=["output: bool"],
                kernel=_regex_full_match_kernel, shape_fn=lambda op: [op.inputs[0].shape])
if not is_registered("SaveV2"):
    register_op("SaveV2", inputs=["prefix: string", "tensor_names: string", "shape_and_slices: string"],
                outputs=[], kernel=_save_v2_kernel, shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)
if not is_registered("RestoreV2"):
    register_op("RestoreV2", inputs=["prefix: string", "tensor_names: string", "shape_and_slices: string"],
                outputs=[], kernel=_restore_v2_kernel,
                shape_fn=lambda op: [None] * len(op.get_attr("dtypes")),
                dtype_fn=lambda op: [dtypes.as_dtype(d) for d in op.get_attr("dtypes")], stateful=True)


def _string_const(value: Any, name: str) -> ops.Tensor:
    from ..framework import constant_op
    return constant_op.constant(value, dtype=dtypes.string, name=name)


def build_save_restore_graph(entries: Sequence[tuple], name: Optional[str], filename: str) -> tuple:
    """Adds TensorFlow's V2 save/restore subgraph for (checkpoint key, slice spec, variable) entries.

    Returns (filename tensor, save tensor, restore op), the three names a SaverDef records.
    """
    from ..ops import array_ops, control_flow_ops, state_ops
    refs = [var._ref() for _, _, var in entries]
    with ops.name_scope(name, "save", refs):
        with ops.control_dependencies(None):
            filename_tensor = array_ops.placeholder_with_default(filename, shape=(), name="filename")
            filename_tensor = array_ops.placeholder_with_default(filename_tensor, shape=(), name="Const")
            keys = [key for key, _, _ in entries]
            specs = [spec for _, spec, _ in entries]
            g = ops.get_default_graph()
            with ops.name_scope("SaveV2") as scope:
                inputs = [filename_tensor, _string_const(keys, "tensor_names"),
                          _string_const(specs, "shape_and_slices")]
                save_op = g.create_op("SaveV2", inputs + refs, [], name=scope,
                                      attrs={"dtypes": [r.dtype.base_dtype for r in refs]})
            with ops.control_dependencies([save_op]):
                save_tensor = array_ops.identity(filename_tensor, name="control_dependency")
            with ops.name_scope("RestoreV2") as scope:
                want = [r.dtype.base_dtype for r in refs]
                inputs = [filename_tensor, _string_const(keys, "tensor_names"),
                          _string_const(specs, "shape_and_slices")]
                restore = g.create_op("RestoreV2", inputs, want, name=scope, attrs={"dtypes": want})
            assigns = []
            for (_, _, var), ref, value in zip(entries, refs, restore.outputs):
                validate = var.get_shape().is_fully_defined()
                assigns.append(state_ops.assign(ref, value, validate_shape=validate).op)
            restore_op = control_flow_ops.group(*assigns, name="restore_all")
    return filename_tensor, save_tensor, restore_op
