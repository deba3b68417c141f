"""Convert a recipe's checkpoint to a .tflite model: the inference graph, restored, through TFLiteConverter."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import numpy as np

import edgelite as tf
import edgelite.lite  # noqa: F401  (tf.lite)
from edgelite.models.recipe import Recipe

MODES = ("float", "float16", "dynamic", "int8")
IO_TYPES = ("float32", "int8", "uint8")


def resolve_checkpoint(path: Any) -> str:
    """A checkpoint prefix from a prefix, a checkpoint directory, or a work directory holding `checkpoints/`."""
    p = Path(path)
    if p.is_dir():
        for directory in (p, p / "checkpoints"):
            latest = tf.train.latest_checkpoint(str(directory))
            if latest:
                return latest
        raise FileNotFoundError(f"no checkpoint found in directory {p}")
    if Path(str(p) + ".index").is_file():
        return str(p)
    raise FileNotFoundError(f"no checkpoint at {p} (expected a directory or a prefix with a .index file)")


def representative_dataset(x: np.ndarray, count: int = 200) -> Callable[[], Iterator[list]]:
    """Calibration samples for full-integer quantization: the first `count` rows of x, one at a time."""
    samples = np.asarray(x[:count], dtype=np.float32)

    def generator() -> Iterator[list]:
        for sample in samples:
            yield [sample[None]]

    return generator


def convert(recipe: Recipe, checkpoint: Any, mode: str = "float", io: Optional[str] = None,
            calibration: Optional[np.ndarray] = None, batch_size: int = 1) -> bytes:
    """The .tflite bytes of `recipe` with the weights of `checkpoint`, in `mode`, with `io` model inputs/outputs.

    mode: float (float32), float16 (float16 weights), dynamic (int8 weights, float activations), int8 (full
    integer, calibrated on `calibration` samples). io: the type of the model's inputs and outputs; int8 or
    uint8 need mode int8, whose default io is int8.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    io = io or ("int8" if mode == "int8" else "float32")
    if io not in IO_TYPES:
        raise ValueError(f"io must be one of {', '.join(IO_TYPES)}, got {io!r}")
    if io != "float32" and mode != "int8":
        raise ValueError(f"{io} inputs and outputs need --mode int8 (full-integer quantization)")
    if mode == "int8" and calibration is None:
        raise ValueError("int8 quantization needs calibration samples")
    prefix = resolve_checkpoint(checkpoint)
    inference = recipe.build_inference(batch_size)
    with tf.Session(graph=inference.graph) as sess:
        inference.saver.restore(sess, prefix)
        converter = tf.lite.TFLiteConverter.from_session(sess, [inference.x], [inference.outputs])
        configure(converter, mode, io, calibration)
        return converter.convert()


def configure(converter: Any, mode: str, io: str, calibration: Optional[np.ndarray]) -> None:
    """Sets a TFLiteConverter up for mode (float, float16, dynamic, int8 calibrated on `calibration`) and io."""
    if mode != "float":
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
    if mode == "float16":
        converter.target_spec.supported_types = [tf.float16]
    if mode == "int8":
        converter.representative_dataset = representative_dataset(calibration)
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        if io != "float32":
            converter.inference_input_type = tf.as_dtype(io)
            converter.inference_output_type = tf.as_dtype(io)
