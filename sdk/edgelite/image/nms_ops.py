"""Non-maximum suppression: NonMaxSuppressionV3/V5, WithOverlaps, Combined, the padded variant, and wrappers.

The kernels are edgelite_runtime.preprocessing's, shared with deployed models.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import array_ops

from ._checks import input_ranks as _ranks
from .shared_kernels import call

_FLOATS = {"T": [dtypes.float16, dtypes.float32], "T_threshold": [dtypes.float16, dtypes.float32]}


def _nms_shape(op: Any) -> list:
    _ranks(op, [2, 1, 0, 0, 0, 0])
    return [[None]] * len(op.outputs)


_nms = call("non_max_suppression")


def _v3(ctx: Any, boxes: Any, scores: Any, max_size: Any, iou: Any, score: Any) -> Any:
    return _nms(boxes, scores, int(max_size), float(iou), float(score))[0]


def _v5(ctx: Any, boxes: Any, scores: Any, max_size: Any, iou: Any, score: Any, sigma: Any) -> tuple:
    idx, kept = _nms(boxes, scores, int(max_size), float(iou), float(score), float(sigma))
    count = len(idx)
    if ctx.attrs["pad_to_max_output_size"]:
        idx = _pad(idx, int(max_size))
        kept = _pad(kept, int(max_size))
    return idx, kept.astype(scores.dtype), count


def _pad(x: Any, size: int) -> Any:
    out = np.zeros(max(size, len(x)), x.dtype)
    out[:len(x)] = x
    return out


def _overlaps(ctx: Any, overlaps: Any, scores: Any, max_size: Any, thr: Any, score: Any) -> Any:
    return _nms(None, scores, int(max_size), float(thr), float(score), overlaps=overlaps)[0]


register_op("NonMaxSuppressionV3", inputs=["boxes: T", "scores: T", "max_output_size: int32",
                                           "iou_threshold: T_threshold", "score_threshold: T_threshold"],
            outputs=["selected_indices: int32"], attrs={"T": dtypes.float32, "T_threshold": dtypes.float32},
            kernel=_v3, shape_fn=_nms_shape, allowed_dtypes=_FLOATS)
register_op("NonMaxSuppressionV5", inputs=["boxes: T", "scores: T", "max_output_size: int32", "iou_threshold: T",
                                           "score_threshold: T", "soft_nms_sigma: T"],
            outputs=["selected_indices: int32", "selected_scores: T", "valid_outputs: int32"],
            attrs={"T": dtypes.float32, "pad_to_max_output_size": False}, kernel=_v5,
            shape_fn=lambda op: _nms_shape(op)[:2] + [[]], allowed_dtypes={"T": _FLOATS["T"]})
register_op("NonMaxSuppressionWithOverlaps", inputs=["overlaps: float", "scores: float", "max_output_size: int32",
                                                     "overlap_threshold: float", "score_threshold: float"],
            outputs=["selected_indices: int32"], kernel=_overlaps, shape_fn=_nms_shape)


def _padded_shape(op: Any) -> list:
    size = constant_value(op.inputs[2])
    batch = op.inputs[0].shape
    lead = batch.as_list()[:-2] if batch.ndims is not None else None
    if lead is None:
        return [None, None]
    return [lead + [int(size) if size is not None else None], lead]


def _padded(ctx: Any, boxes: Any, scores: Any, max_size: Any, iou: Any, score: Any) -> tuple:
    return call("non_max_suppression_padded")(boxes, scores, int(max_size), float(iou), float(score))


# TensorFlow builds this one from ordinary ops in a function marked "non_max_suppression_padded_v2";
# here it is one op with that algorithm's exact selection rules.
register_op("NonMaxSuppressionPaddedV2", inputs=["boxes: T", "scores: T", "max_output_size: int32",
                                                 "iou_threshold: float", "score_threshold: float"],
            outputs=["selected_indices: int32", "valid_outputs: int32"], attrs={"T": dtypes.float32},
            kernel=_padded, shape_fn=_padded_shape, allowed_dtypes={"T": _FLOATS["T"]})


def _combined_shape(op: Any) -> list:
    _ranks(op, [4, 3, 0, 0, 0, 0])
    total = constant_value(op.inputs[3])
    per_class = constant_value(op.inputs[2])
    if total is not None and int(total) <= 0:
        raise ValueError(
            f"max_total_size should be > 0  for '{op.name}' (op: '{op.type}') with input shapes: "
            f"{[x.shape.as_list() for x in op.inputs]}.")
    batch = op.inputs[0].shape.as_list()[0] if op.inputs[0].shape.ndims else None
    classes = op.inputs[1].shape.as_list()[2] if op.inputs[1].shape.ndims else None
    size = None if total is None else int(total)
    if op.get_attr("pad_per_class") and size is not None:
        size = None if per_class is None or classes is None else min(size, int(per_class) * classes)
    return [[batch, size, 4], [batch, size], [batch, size], [batch]]


def _combined(ctx: Any, boxes: Any, scores: Any, per_class: Any, total: Any, iou: Any, score: Any) -> tuple:
    return call("combined_non_max_suppression")(boxes, scores, int(per_class), int(total), float(iou), float(score),
                                                bool(ctx.attrs["pad_per_class"]), bool(ctx.attrs["clip_boxes"]))


register_op("CombinedNonMaxSuppression", inputs=["boxes: float", "scores: float", "max_output_size_per_class: int32",
                                                 "max_total_size: int32", "iou_threshold: float",
                                                 "score_threshold: float"],
            outputs=["nmsed_boxes: float", "nmsed_scores: float", "nmsed_classes: float",
                     "valid_detections: int32"],
            attrs={"pad_per_class": False, "clip_boxes": True}, kernel=_combined, shape_fn=_combined_shape)

for _name in ("NonMaxSuppressionV3", "NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps",
              "NonMaxSuppressionPaddedV2", "CombinedNonMaxSuppression"):
    ops.NoGradient(_name)


def _thresholds(iou_threshold: Any, score_threshold: Any) -> tuple:
    return (ops.convert_to_tensor(iou_threshold, name="iou_threshold"),
            ops.convert_to_tensor(score_threshold, name="score_threshold"))


def non_max_suppression(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                        score_threshold: Any = float("-inf"), name: Optional[str] = None) -> ops.Tensor:
    """Indices of the boxes greedy NMS keeps, best score first (at most max_output_size)."""
    with ops.name_scope(name, "non_max_suppression"):
        iou, score = _thresholds(iou_threshold, score_threshold)
        return ops.apply_op("NonMaxSuppressionV3", [boxes, scores, max_output_size, iou, score])


def non_max_suppression_with_scores(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                                    score_threshold: Any = float("-inf"), soft_nms_sigma: Any = 0.0,
                                    name: Optional[str] = None) -> tuple:
    """(indices, scores) of greedy NMS, or of Gaussian soft-NMS when soft_nms_sigma > 0 (decayed scores)."""
    with ops.name_scope(name, "non_max_suppression_with_scores"):
        iou, score = _thresholds(iou_threshold, score_threshold)
        sigma = ops.convert_to_tensor(soft_nms_sigma, name="soft_nms_sigma")
        idx, kept, _ = ops.apply_op("NonMaxSuppressionV5", [boxes, scores, max_output_size, iou, score, sigma],
                                    attrs={"pad_to_max_output_size": False})
        return idx, kept


def non_max_suppression_with_overlaps(overlaps: Any, scores: Any, max_output_size: Any,
                                      overlap_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                                      name: Optional[str] = None) -> ops.Tensor:
    """Greedy NMS with a given [N, N] overlap matrix in place of box IoU."""
    with ops.name_scope(name, "non_max_suppression_overlaps"):
        thr = ops.convert_to_tensor(overlap_threshold, name="overlap_threshold")
        score = ops.convert_to_tensor(score_threshold, name="score_threshold")
        return ops.apply_op("NonMaxSuppressionWithOverlaps", [overlaps, scores, max_output_size, thr, score])


def non_max_suppression_padded(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                               score_threshold: Any = float("-inf"), pad_to_max_output_size: bool = False,
                               name: Optional[str] = None, sorted_input: bool = False,
                               canonicalized_coordinates: bool = False, tile_size: int = 512) -> tuple:
    """(indices, number valid) of NMS over [..., N, 4] boxes; indices padded with 0 to max_output_size if asked.

    sorted_input, canonicalized_coordinates and tile_size only change how TensorFlow computes the same
    selection, so they are accepted and do not change the result.
    """
    with ops.name_scope(name, "non_max_suppression_padded"):
        boxes = ops.convert_to_tensor(boxes, name="boxes")
        if not pad_to_max_output_size and boxes.shape.ndims is not None and boxes.shape.ndims > 2:
            raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for "
                             "batched input")
        idx, valid = ops.apply_op("NonMaxSuppressionPaddedV2", [boxes, scores, max_output_size,
                                                                ops.convert_to_tensor(iou_threshold, dtypes.float32),
                                                                ops.convert_to_tensor(score_threshold,
                                                                                      dtypes.float32)])
        if not pad_to_max_output_size:
            idx = array_ops.slice(idx, [0], array_ops.reshape(valid, [1]))
        return idx, valid


def combined_non_max_suppression(boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                                 iou_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                                 pad_per_class: bool = False, clip_boxes: bool = True,
                                 name: Optional[str] = None) -> tuple:
    """Per-class NMS over a batch, then the best max_total_size detections: boxes, scores, classes, counts."""
    with ops.name_scope(name, "combined_non_max_suppression"):
        iou = ops.convert_to_tensor(iou_threshold, dtype=dtypes.float32, name="iou_threshold")
        score = ops.convert_to_tensor(score_threshold, dtype=dtypes.float32, name="score_threshold")
        total = ops.convert_to_tensor(max_total_size)
        return tuple(ops.apply_op("CombinedNonMaxSuppression",
                                  [boxes, scores, max_output_size_per_class, total, iou, score],
                                  attrs={"pad_per_class": pad_per_class, "clip_boxes": clip_boxes}))
