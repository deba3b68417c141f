"""tf.compat.v1.saved_model.simple_save: a serving SavedModel from a session in one call."""
from __future__ import annotations

from typing import Any, Dict

from edgelite.framework import ops
from edgelite.saved_model import signature_constants, tag_constants
from edgelite.saved_model.builder import SavedModelBuilder
from edgelite.saved_model.signature_def_utils import predict_signature_def


def simple_save(session: Any, export_dir: str, inputs: Dict[str, Any], outputs: Dict[str, Any],
                legacy_init_op: Any = None) -> None:
    """Writes the session's graph and variables tagged 'serve' with a 'serving_default' predict signature
    over inputs/outputs ({name: tensor}); devices are cleared."""
    signatures = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs, outputs)}
    builder = SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(session, tags=[tag_constants.SERVING], signature_def_map=signatures,
                                         assets_collection=ops.get_collection(ops.GraphKeys.ASSET_FILEPATHS),
                                         main_op=legacy_init_op, clear_devices=True)
    builder.save()
