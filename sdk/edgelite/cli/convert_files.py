"""`edgelite convert` of model files written by TensorFlow or edgelite: a SavedModel directory, a frozen GraphDef
(.pb / .pbtxt) or a Keras .h5 file, through the matching TFLiteConverter entry point."""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, Optional

import numpy as np

from edgelite.cli.errors import UserError

GRAPH_SUFFIXES = (".pb", ".pbtxt")
KERAS_SUFFIXES = (".h5", ".hdf5")


def register_arguments(p: argparse.ArgumentParser) -> None:
    """The options that only model-file inputs use."""
    g = p.add_argument_group("model files (SavedModel directory, frozen .pb/.pbtxt, Keras .h5)")
    g.add_argument("--input-arrays", help="comma-separated input tensor names (required for a frozen graph)")
    g.add_argument("--output-arrays", help="comma-separated output tensor names (required for a frozen graph)")
    g.add_argument("--input-shape", action="append", metavar="NAME=D,D,...",
                   help="shape of an input array, e.g. input=1,96,96,3 (repeatable)")
    g.add_argument("--tag-set", default="serve", help="comma-separated SavedModel tags (default serve)")
    g.add_argument("--signature-key", default="serving_default", help="SavedModel signature (default serving_default)")
    g.add_argument("--calibration-data", metavar="NPY",
                   help="a .npy array of input samples (first axis = samples) to calibrate --mode int8")


def model_file_kind(path: str) -> Optional[str]:
    """'saved_model', 'graph' or 'keras' for a model file argument, None for a checkpoint argument."""
    from edgelite.saved_model import loader
    if os.path.isdir(path) and loader.maybe_saved_model_directory(path):
        return "saved_model"
    if os.path.isfile(path):
        suffix = Path(path).suffix.lower()
        if suffix in GRAPH_SUFFIXES:
            return "graph"
        if suffix in KERAS_SUFFIXES:
            return "keras"
    return None


def _names(text: Optional[str]) -> Optional[list]:
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


def _shapes(items: Optional[list]) -> Optional[dict]:
    if not items:
        return None
    shapes = {}
    for item in items:
        name, sep, dims = item.partition("=")
        try:
            shapes[name] = [int(d) for d in dims.split(",")] if sep else None
        except ValueError:
            raise UserError(f"--input-shape {item!r} is not NAME=D,D,...") from None
        if not sep:
            raise UserError(f"--input-shape {item!r} is not NAME=D,D,...")
    return shapes


def make_converter(args: argparse.Namespace, kind: str) -> Any:
    """The TFLiteConverter for the model file named by args.checkpoint."""
    import edgelite as tf
    path = args.checkpoint
    inputs, outputs, shapes = _names(args.input_arrays), _names(args.output_arrays), _shapes(args.input_shape)
    if kind == "saved_model":
        return tf.lite.TFLiteConverter.from_saved_model(path, inputs, shapes, outputs, set(_names(args.tag_set)),
                                                        args.signature_key)
    if kind == "graph":
        if not inputs or not outputs:
            raise UserError(f"{path} is a frozen graph: pass --input-arrays and --output-arrays")
        return tf.lite.TFLiteConverter.from_frozen_graph(path, inputs, outputs, shapes)
    return tf.lite.TFLiteConverter.from_keras_model_file(path, inputs, shapes, outputs)


def convert_model_file(args: argparse.Namespace, kind: str) -> bytes:
    """Converts the model file in args.mode / args.io; UserError with the file and the problem on failure."""
    from edgelite.framework.errors import OpError
    from edgelite.models.export import configure
    calibration = None
    if args.mode == "int8":
        if not args.calibration_data:
            raise UserError("--mode int8 of a model file needs --calibration-data samples.npy")
        calibration = np.load(args.calibration_data)[:args.calibration]
    io = args.io or ("int8" if args.mode == "int8" else "float32")
    try:
        converter = make_converter(args, kind)
        configure(converter, args.mode, io, calibration)
        return converter.convert()
    except (OSError, KeyError, ValueError, RuntimeError, ImportError, OpError) as e:
        raise UserError(f"cannot convert {args.checkpoint}: {' '.join(str(e).split())}") from None
