"""tf.compat.v1.saved_model.loader: read a SavedModel (edgelite- or TensorFlow-written) into a session."""
from __future__ import annotations

import logging
import os
from typing import Any, Dict, List, Optional

from edgelite.framework import ops
from edgelite.framework.meta_graph import collection_defs
from edgelite.framework.meta_graph_protos import AssetFileDef, MetaGraphDef
from edgelite.saved_model import constants
from edgelite.saved_model.protos import SavedModel

_log = logging.getLogger("edgelite")


def parse_saved_model(export_dir: str) -> SavedModel:
    """The SavedModel in export_dir/saved_model.pb (else .pbtxt); IOError naming the file when it is missing
    or cannot be parsed (a truncated or foreign file)."""
    export_dir = os.fsdecode(export_dir)
    pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    pbtxt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    if os.path.exists(pb):
        with open(pb, "rb") as f:
            content = f.read()
        try:
            return SavedModel.FromString(content)
        except Exception as e:  # noqa: BLE001 - any decode failure means the file is not a SavedModel
            raise IOError(f"Cannot parse file {pb}: {e}.") from None
    if os.path.exists(pbtxt):
        from edgelite.framework.text_format import ParseError, parse
        with open(pbtxt, "rb") as f:
            content = f.read()
        try:
            return parse(content.decode("utf-8"), SavedModel)
        except (ParseError, UnicodeDecodeError) as e:
            raise IOError(f"Cannot parse file {pbtxt}: {e}.") from None
    raise IOError(f"SavedModel file does not exist at: {export_dir}{os.path.sep}"
                  f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|{constants.SAVED_MODEL_FILENAME_PB}}}")


def maybe_saved_model_directory(export_dir: str) -> bool:
    """True when export_dir holds a saved_model.pb or saved_model.pbtxt (it may still fail to load)."""
    export_dir = os.fsdecode(export_dir)
    return any(os.path.exists(os.path.join(export_dir, name))
               for name in (constants.SAVED_MODEL_FILENAME_PBTXT, constants.SAVED_MODEL_FILENAME_PB))


contains_saved_model = maybe_saved_model_directory


def meta_graph_for_tags(saved_model: SavedModel, tags: List[str]) -> MetaGraphDef:
    """The MetaGraphDef whose tag set equals tags; RuntimeError listing the tag sets there are."""
    available = []
    for meta_graph_def in saved_model.meta_graphs:
        available.append(set(meta_graph_def.meta_info_def.tags))
        if set(meta_graph_def.meta_info_def.tags) == set(tags):
            return meta_graph_def
    raise RuntimeError(f"MetaGraphDef associated with tags {str(tags).strip('[]')} could not be found in "
                       f"SavedModel, with available tags '{available}'. To inspect available tag-sets in the "
                       "SavedModel, please use the SavedModel CLI: `saved_model_cli`.")


def _asset_tensors(export_dir: str, meta_graph_def: MetaGraphDef, import_scope: Optional[str]) -> Dict[str, str]:
    """{asset tensor name: path of its file under export_dir/assets} (the feeds of the init op)."""
    protos = list(meta_graph_def.asset_file_def)
    collection = collection_defs(meta_graph_def).get(constants.ASSETS_KEY)
    if not protos and collection is not None and collection.WhichOneof("kind") == "any_list":
        protos = [AssetFileDef.FromString(item.value) for item in collection.any_list.value]
    assets_dir = os.path.join(os.fsdecode(export_dir), constants.ASSETS_DIRECTORY)
    feeds = {}
    for proto in protos:
        name = proto.tensor_info.name
        feeds[f"{import_scope}/{name}" if import_scope else name] = os.path.join(assets_dir, proto.filename)
    return feeds


def _init_op(meta_graph_def: MetaGraphDef, import_scope: Optional[str]) -> Any:
    """The op to run after restoring: the init-op signature's, else the main op, else the legacy init op."""
    from edgelite.framework.meta_graph import prepend_name_scope
    graph = ops.get_default_graph()
    signature = meta_graph_def.signature_def.get(constants.INIT_OP_SIGNATURE_KEY)
    if signature is not None:
        info = signature.outputs.get(constants.INIT_OP_SIGNATURE_KEY)
        if info is not None:
            return graph.as_graph_element(prepend_name_scope(info.name, import_scope))
    for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
        collection = collection_defs(meta_graph_def).get(key)
        if collection is None:
            continue
        names = list(collection.node_list.value)
        if len(names) != 1:
            raise RuntimeError(f"Expected exactly one SavedModel init op. Found {len(names)}: {names}.")
        return ops.get_collection(key)[0]
    return None


def load(sess: Any, tags: List[str], export_dir: str, import_scope: Optional[str] = None,
         **saver_kwargs: Any) -> MetaGraphDef:
    """Imports the meta graph tagged `tags` into sess.graph, restores its variables and runs its init op;
    returns the MetaGraphDef (signatures give the tensor names to feed and fetch)."""
    from edgelite.framework.meta_graph import import_meta_graph
    from edgelite.train.saver import Saver
    export_dir = os.fsdecode(export_dir)
    meta_graph_def = meta_graph_for_tags(parse_saved_model(export_dir), tags)
    with sess.graph.as_default():
        saver = import_meta_graph(meta_graph_def, import_scope=import_scope, **saver_kwargs)
        variables_path = os.path.join(export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
        if saver is None:
            _log.info("The specified SavedModel has no variables; no checkpoints were restored.")
        elif isinstance(saver, Saver):
            saver.restore(sess, variables_path)
        init_op = _init_op(meta_graph_def, import_scope)
        if init_op is not None:
            sess.run(fetches=[init_op], feed_dict=_asset_tensors(export_dir, meta_graph_def, import_scope))
    return meta_graph_def
