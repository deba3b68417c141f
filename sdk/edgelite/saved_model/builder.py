"""tf.compat.v1.saved_model.builder.SavedModelBuilder: write meta graphs, variables and assets as a SavedModel.

Layout, as TensorFlow writes it: export_dir/saved_model.pb (or .pbtxt), export_dir/variables/variables.index
and .data-00000-of-00001 (a V2 checkpoint written by a sharded Saver), export_dir/assets/ (copied asset files).
"""
from __future__ import annotations

import logging
import os
import shutil
from typing import Any, Dict, List, Optional

from edgelite.framework import ops
from edgelite.framework.meta_graph_protos import AnyProto, AssetFileDef, MetaGraphDef, SignatureDef, TensorInfo
from edgelite.saved_model import constants
from edgelite.saved_model.protos import SavedModel

_log = logging.getLogger("edgelite")
_ASSET_TYPE_URL = "type.googleapis.com/tensorflow.AssetFileDef"


def _asset_path(path_tensor: Any) -> bytes:
    """The file path a scalar string Const holds (what an asset tensor must be)."""
    from edgelite.framework import dtypes
    if not isinstance(path_tensor, ops.Tensor):
        raise TypeError(f"Asset path tensor {path_tensor} must be a Tensor.")
    if path_tensor.op.type != "Const":
        raise TypeError(f"Asset path tensor {path_tensor} must be of type constant.Has type {path_tensor.op.type} "
                        "instead.")
    if path_tensor.dtype != dtypes.string:
        raise TypeError(f"Asset path tensor {path_tensor}` must be of dtype string.Has type {path_tensor.dtype} "
                        "instead.")
    value = path_tensor.op.get_attr("value")
    if value.size != 1:
        raise TypeError(f"Asset path tensor {path_tensor} must be a scalar.")
    item = value.reshape(-1)[0]
    return item if isinstance(item, bytes) else str(item).encode()


class SavedModelBuilder:
    """Builds a SavedModel: one add_meta_graph_and_variables(), then any add_meta_graph(), then save()."""

    def __init__(self, export_dir: str) -> None:
        self._saved_model = SavedModel(saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._export_dir = os.fsdecode(export_dir)
        if os.path.exists(self._export_dir):
            if os.listdir(self._export_dir):
                raise AssertionError(f"Export directory {self._export_dir} already exists, and isn't empty. Please "
                                     "choose a different export directory, or delete all the contents of the "
                                     "specified directory.")
        else:
            os.makedirs(self._export_dir)
        self._has_saved_variables = False
        self._saved_asset_files: set = set()

    # ---- checks --------------------------------------------------------------------------------------------
    def _validate_tensor_info(self, info: Optional[TensorInfo]) -> None:
        if info is None:
            raise AssertionError("All TensorInfo protos used in the SignatureDefs must have the name and dtype "
                                 "fields set.")
        if info.WhichOneof("encoding") is None:
            raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used in the SignatureDefs "
                                 "must have one of the 'encoding' fields (e.g., name or coo_sparse) set.")
        if info.dtype == 0:
            raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used in the SignatureDefs "
                                 "must have the dtype field set.")

    def _validate_signature_def_map(self, signature_def_map: Dict[str, SignatureDef]) -> None:
        for signature_def in signature_def_map.values():
            for info in list(signature_def.inputs.values()) + list(signature_def.outputs.values()):
                self._validate_tensor_info(info)
        for reserved, what in ((constants.INIT_OP_SIGNATURE_KEY, "initialization"),
                               (constants.TRAIN_OP_SIGNATURE_KEY, "the train op")):
            if reserved in signature_def_map:
                raise KeyError(f'SignatureDef map key "{reserved}" is reserved for {what}. Please use a different '
                               "key.")

    # ---- collections ---------------------------------------------------------------------------------------
    def _save_and_write_assets(self, assets_collection: Optional[list]) -> None:
        """Records each asset (a string Const holding a path) in the assets collection and copies its file."""
        if assets_collection is None:
            return
        filenames: Dict[bytes, bytes] = {}
        for tensor in assets_collection:
            source = _asset_path(tensor)
            if not source:
                raise ValueError(f"Asset filepath tensor {tensor} in is invalid.")
            name = _unique_asset_name(source, filenames)
            filenames[name] = source
            asset = AssetFileDef(tensor_info=TensorInfo(name=tensor.name), filename=name.decode())
            ops.add_to_collection(constants.ASSETS_KEY,
                                  AnyProto(type_url=_ASSET_TYPE_URL, value=asset.SerializeToString()))
        if not filenames:
            return
        assets_dir = os.path.join(self._export_dir, constants.ASSETS_DIRECTORY)
        os.makedirs(assets_dir, exist_ok=True)
        for name, source in filenames.items():
            destination = os.path.join(assets_dir, name.decode())
            if os.path.exists(source) and os.fsencode(destination) != source and \
                    destination not in self._saved_asset_files:
                shutil.copyfile(source, destination)
                self._saved_asset_files.add(destination)

    def _maybe_add_main_op(self, main_op: Any) -> None:
        if main_op is None:
            return
        if not isinstance(main_op, ops.Operation):
            raise TypeError(f"Expected {main_op} to be an Operation but got type {type(main_op)} instead.")
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            if ops.get_collection(key):
                raise ValueError(f"Graph already contains one or more main ops under the collection {key}.")
        ops.add_to_collection(constants.MAIN_OP_KEY, main_op)

    @staticmethod
    def _maybe_create_saver(saver: Any = None) -> Any:
        """The given saver, else a sharded V2 Saver over every saveable object (empty graphs allowed)."""
        if saver:
            return saver
        from edgelite.train.saver import Saver
        return Saver(sharded=True, allow_empty=True)

    def _tag_and_add_meta_graph(self, meta_graph_def: MetaGraphDef, tags: List[str],
                                signature_def_map: Optional[Dict[str, SignatureDef]]) -> None:
        meta_graph_def.meta_info_def.tags.extend(tags)
        for key, signature_def in (signature_def_map or {}).items():
            meta_graph_def.signature_def[key] = SignatureDef.FromString(signature_def.SerializeToString())
        self._saved_model.meta_graphs.append(MetaGraphDef.FromString(meta_graph_def.SerializeToString()))

    # ---- public API ------------------------------------------------------------------------------------------
    def add_meta_graph(self, tags: List[str], signature_def_map: Optional[Dict[str, SignatureDef]] = None,
                       assets_collection: Optional[list] = None, legacy_init_op: Any = None,
                       clear_devices: bool = False, main_op: Any = None, strip_default_attrs: bool = False,
                       saver: Any = None) -> None:
        """Adds the default graph as another meta graph sharing the variables saved before."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. Please invoke "
                                 "`add_meta_graph_and_variables()` first.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        self._save_and_write_assets(assets_collection)
        self._maybe_add_main_op(main_op if main_op is not None else legacy_init_op)
        saver = self._maybe_create_saver(saver)
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices, strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)

    def add_meta_graph_and_variables(self, sess: Any, tags: List[str],
                                     signature_def_map: Optional[Dict[str, SignatureDef]] = None,
                                     assets_collection: Optional[list] = None, legacy_init_op: Any = None,
                                     clear_devices: bool = False, main_op: Any = None,
                                     strip_default_attrs: bool = False, saver: Any = None) -> None:
        """Saves the session's variables under variables/ and adds its graph as the first meta graph."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. Please "
                                 "invoke `add_meta_graph()` instead.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        self._save_and_write_assets(assets_collection)
        self._maybe_add_main_op(main_op or legacy_init_op)
        variables_dir = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY)
        os.makedirs(variables_dir, exist_ok=True)
        saver = self._maybe_create_saver(saver)
        saver.save(sess, os.path.join(variables_dir, constants.VARIABLES_FILENAME), write_meta_graph=False,
                   write_state=False)
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices, strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)
        self._has_saved_variables = True

    def save(self, as_text: bool = False) -> bytes:
        """Writes saved_model.pb (deterministic bytes) or saved_model.pbtxt; returns its path as bytes, as TF."""
        from edgelite.checkpoint.fileio import atomic_write_bytes
        from edgelite.framework.text_format import message_to_string
        os.makedirs(self._export_dir, exist_ok=True)
        message = self._saved_model  # maps serialize in key order, protobuf's deterministic form
        if as_text:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = message_to_string(message).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = message.SerializeToString()
        atomic_write_bytes(path, data)
        _log.info("SavedModel written to: %s", path)
        return os.fsencode(path)


Builder = SavedModelBuilder


def _unique_asset_name(source: bytes, taken: Dict[bytes, bytes]) -> bytes:
    """The source's base name, suffixed _1, _2, ... when a different file already took it."""
    name = os.path.basename(source)
    if name not in taken or taken[name] == source:
        return name
    if _same_file_content(source, taken[name]):
        return name
    i, unique = 1, name
    while unique in taken:
        unique = name + b"_" + str(i).encode()
        i += 1
    return unique


def _same_file_content(a: bytes, b: bytes) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()

