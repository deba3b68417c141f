"""Estimator.export_saved_model: the model_fn's PREDICT graph over a serving input receiver, with the variables of a
checkpoint, written as a SavedModel under <export_dir_base>/<timestamp> with one signature per servable export
output."""
from __future__ import annotations

import os
import shutil
import time
from typing import Any, Callable, Dict, Optional

from edgelite import tf_logging
from edgelite.client.session import Session
from edgelite.framework import ops, random_seed
from edgelite.saved_model import signature_def_utils, tag_constants
from edgelite.saved_model.builder import SavedModelBuilder
from edgelite.train import training_util
from edgelite.train.monitored_session import Scaffold
from edgelite.train.saver import Saver

from .export.export_output import PredictOutput
from .export.serving_input import SINGLE_RECEIVER_DEFAULT_NAME
from .model_fn import ModeKeys

logger = tf_logging.get_logger()


def timestamped_export_dir(export_dir_base: str) -> str:
    """<export_dir_base>/<seconds since the epoch>, waiting out a second when that name is taken (TF's 10 tries)."""
    for _ in range(10):
        candidate = os.path.join(os.fsdecode(export_dir_base), str(int(time.time())))
        if not os.path.exists(candidate):
            return candidate
        time.sleep(1)
        logger.warning("Directory %s already exists; retrying (attempt %s/10)", candidate, _ + 1)
    raise RuntimeError("Failed to obtain a unique export directory name after 10 attempts.")


def build_all_signature_defs(receiver_tensors: Any, export_outputs: Dict[str, Any],
                             receiver_tensors_alternatives: Optional[dict] = None) -> dict:
    """One servable SignatureDef per export output (and per alternative receiver, keyed '<receiver>:<output>');
    outputs that cannot serve from these receiver tensors are left out and logged."""
    if not isinstance(receiver_tensors, dict):
        receiver_tensors = {SINGLE_RECEIVER_DEFAULT_NAME: receiver_tensors}
    if not isinstance(export_outputs, dict):
        raise ValueError(f"export_outputs must be a dict and not {type(export_outputs)}")
    receivers = [("", receiver_tensors)] + list((receiver_tensors_alternatives or {}).items())
    signatures, excluded = {}, {}
    for receiver_name, tensors in receivers:
        if not isinstance(tensors, dict):
            tensors = {SINGLE_RECEIVER_DEFAULT_NAME: tensors}
        for output_key, export_output in export_outputs.items():
            name = f"{receiver_name}:{output_key or 'None'}" if receiver_name else f"{output_key or 'None'}"
            try:
                signatures[name] = export_output.as_signature_def(tensors)
            except ValueError as e:
                excluded[name] = str(e)
    for name, reason in sorted(excluded.items()):
        logger.warning("Signature %r EXCLUDED from export because it cannot be served via TensorFlow Serving "
                       "APIs: %s", name, reason)
    if "serving_default" not in signatures:
        logger.warning("Export includes no default signature!")
    return {k: v for k, v in signatures.items() if signature_def_utils.is_valid_signature(v)}


def export_saved_model(estimator: Any, export_dir_base: str, serving_input_receiver_fn: Callable,
                       assets_extra: Optional[dict] = None, as_text: bool = False,
                       checkpoint_path: Optional[str] = None) -> bytes:
    """Writes the SavedModel (tag 'serve') and returns its directory as bytes, as TensorFlow does."""
    if not serving_input_receiver_fn:
        raise ValueError("An input_receiver_fn must be defined.")
    checkpoint_path = checkpoint_path or estimator.latest_checkpoint()
    if not checkpoint_path:
        raise ValueError(f"Couldn't find trained model at {estimator.model_dir}.")
    export_dir = timestamped_export_dir(export_dir_base)
    temp_dir = os.path.join(os.path.dirname(export_dir), "temp-" + os.path.basename(export_dir))
    builder = SavedModelBuilder(temp_dir)
    with ops.Graph().as_default():
        if estimator.config.tf_random_seed is not None:
            random_seed.set_random_seed(estimator.config.tf_random_seed)
        training_util.create_global_step()
        receiver = serving_input_receiver_fn()
        spec = estimator._call_model_fn(receiver.features, None, ModeKeys.PREDICT)
        export_outputs = spec.export_outputs or {"serving_default": PredictOutput(spec.predictions)}
        signatures = build_all_signature_defs(receiver.receiver_tensors, export_outputs,
                                              receiver.receiver_tensors_alternatives)
        scaffold = spec.scaffold or Scaffold()
        saver = scaffold.saver or Saver(sharded=True)
        local_init_op = scaffold.local_init_op or Scaffold.default_local_init_op()
        with Session(config=estimator.config.session_config) as session:
            saver.restore(session, checkpoint_path)
            builder.add_meta_graph_and_variables(
                session, [tag_constants.SERVING], signature_def_map=signatures,
                assets_collection=ops.get_collection(ops.GraphKeys.ASSET_FILEPATHS), main_op=local_init_op,
                saver=saver, strip_default_attrs=True)
        builder.save(as_text)
    for destination, source in (assets_extra or {}).items():
        target = os.path.join(temp_dir, "assets.extra", destination)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)
    os.rename(temp_dir, export_dir)
    logger.info("SavedModel written to: %s", export_dir)
    return os.fsencode(export_dir)
