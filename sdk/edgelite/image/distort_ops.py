"""Random crops: SampleDistortedBoundingBoxV2 (sample_distorted_bounding_box) and random_crop.

The sampler follows TensorFlow's kernel: up to max_attempts draws of an aspect ratio, a height within the
area range (rounded with lrintf) and a position; a crop is kept when it covers at least
min_object_covered of one of the boxes; otherwise the whole image is returned. TF's random stream
cannot be reproduced, so results match TF in distribution and constraints, not draw for draw.
"""
from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.random_seed import get_seed
from edgelite.ops import array_ops, random_ops

from ._checks import input_ranks as _ranks


def _rint(x: float) -> int:
    """lrintf: round half to even in float32."""
    return int(np.rint(np.float32(x)))


def _random_crop(rng: np.random.Generator, width: int, height: int, min_area: float, max_area: float,
                 aspect: float) -> Optional[tuple]:
    """(x, y, w, h) of one random crop with this aspect ratio, or None when the area bounds cannot be met."""
    h = _rint(math.sqrt(min_area / aspect))
    max_h = _rint(math.sqrt(max_area / aspect))
    if _rint(max_h * aspect) > width:
        max_h = int((width + 0.5 - 1e-7) / aspect)
        if _rint(max_h * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += int(rng.integers(0, max_h - h + 1))
    w = _rint(h * aspect)
    area = float(w * h)
    if area < min_area:
        h += 1
        w = _rint(h * aspect)
        area = float(w * h)
    if area > max_area:
        h -= 1
        w = _rint(h * aspect)
        area = float(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = int(rng.integers(0, height - h)) if h < height else 0
    x = int(rng.integers(0, width - w)) if w < width else 0
    return x, y, w, h


def _covers(crop: tuple, boxes: list, min_covered: float) -> bool:
    x, y, w, h = crop
    if w * h < 1:
        return False
    for bx0, by0, bx1, by1 in boxes:
        area = (bx1 - bx0) * (by1 - by0)
        if area < 1:
            continue
        inter = max(min(x + w, bx1) - max(x, bx0), 0) * max(min(y + h, by1) - max(y, by0), 0)
        if inter / area >= min_covered:
            return True
    return False


def _sample_kernel(ctx: Any, image_size: Any, boxes: Any, min_covered: Any) -> tuple:
    image_size = np.asarray(image_size)
    if image_size.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"image_size must be 1-dimensional{list(image_size.shape)}")
    if image_size.shape[0] != 3:
        raise errors.InvalidArgumentError(None, None, f"image_size must contain 3 values{list(image_size.shape)}")
    height, width = int(image_size[0]), int(image_size[1])
    boxes = np.asarray(boxes, np.float32)
    if boxes.ndim != 3 or boxes.shape[2] != 4:
        raise errors.InvalidArgumentError(None, None, f"input boxes must be 3-dimensional [batch, num_boxes, "
                                                      f"coords]: {list(boxes.shape)}")
    rects = [(int(b[1] * width), int(b[0] * height), int(b[3] * width), int(b[2] * height))
             for b in boxes.reshape(-1, 4)]
    attrs = ctx.attrs
    for key, what in (("aspect_ratio_range", "Aspect ratio"), ("area_range", "Area")):
        if len(attrs[key]) != 2:
            raise errors.InvalidArgumentError(None, None, f"{what} range field must specify 2 dimensions")
    if not rects:
        if not attrs["use_image_if_no_bounding_boxes"]:
            raise errors.InvalidArgumentError(None, None, "No bounding boxes provided as input. One must enable "
                                                          "use_image_if_no_bounding_boxes if you wish to not "
                                                          "provide any bounding boxes.")
        rects = [(0, 0, width, height)]
    lo_ratio, hi_ratio = (float(v) for v in attrs["aspect_ratio_range"])
    lo_area, hi_area = (float(v) * width * height for v in attrs["area_range"])
    min_covered = float(min_covered)
    crop = None
    for _ in range(int(attrs["max_attempts"])):
        aspect = float(np.float32(ctx.rng.random()) * np.float32(hi_ratio - lo_ratio) + np.float32(lo_ratio))
        candidate = _random_crop(ctx.rng, width, height, lo_area, hi_area, aspect)
        if candidate is not None and _covers(candidate, rects, min_covered):
            crop = candidate
            break
    x, y, w, h = crop if crop is not None else (0, 0, width, height)
    begin = np.array([y, x, 0], image_size.dtype)
    size = np.array([h, w, -1], image_size.dtype)
    bbox = np.array([[[y / height, x / width, (y + h) / height, (x + w) / width]]], np.float32)
    return begin, size, bbox


def _sample_shape(op: Any) -> list:
    _ranks(op, [1, 3, 0])
    return [[3], [3], [1, 1, 4]]


register_op("SampleDistortedBoundingBoxV2", inputs=["image_size: T", "bounding_boxes: float",
                                                    "min_object_covered: float"],
            outputs=["begin: T", "size: T", "bboxes: float"],
            attrs={"T": dtypes.int32, "seed": 0, "seed2": 0, "aspect_ratio_range": [0.75, 1.33],
                   "area_range": [0.05, 1.0], "max_attempts": 100, "use_image_if_no_bounding_boxes": False},
            kernel=_sample_kernel, shape_fn=_sample_shape, stateful=True,
            allowed_dtypes={"T": [dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64]})
ops.NoGradient("SampleDistortedBoundingBoxV2")


def sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any, seed: Optional[int] = None,
                                  seed2: Optional[int] = None, min_object_covered: Any = 0.1,
                                  aspect_ratio_range: Any = None, area_range: Any = None,
                                  max_attempts: Optional[int] = None,
                                  use_image_if_no_bounding_boxes: Optional[bool] = None,
                                  name: Optional[str] = None) -> tuple:
    """(begin, size, bboxes) of a random crop of an image of shape image_size that covers enough of one of
    bounding_boxes ([batch, N, 4] normalised); feed begin and size to tf.slice."""
    attrs = {}
    for key, value in (("aspect_ratio_range", aspect_ratio_range), ("area_range", area_range),
                       ("max_attempts", max_attempts),
                       ("use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes)):
        if value is not None:
            attrs[key] = [float(v) for v in value] if key.endswith("range") else value
    if "max_attempts" in attrs and attrs["max_attempts"] < 1:
        raise ValueError(f"max_attempts must be >= 1, got {attrs['max_attempts']}")
    s1, s2 = get_seed(seed)
    attrs.update(seed=s1 or 0, seed2=seed2 if seed2 is not None else (s2 or 0))
    with ops.name_scope(name, "sample_distorted_bounding_box"):
        covered = ops.convert_to_tensor(min_object_covered, dtypes.float32, name="min_object_covered")
        return tuple(ops.apply_op("SampleDistortedBoundingBoxV2", [image_size, bounding_boxes, covered],
                                  attrs=attrs, name=name))


def random_crop(value: Any, size: Any, seed: Optional[int] = None, name: Optional[str] = None) -> ops.Tensor:
    """A uniformly placed window of shape size out of value (size <= value's shape in every dimension)."""
    with ops.name_scope(name, "random_crop", [value, size]) as name:
        value = ops.convert_to_tensor(value, name="value")
        size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = array_ops.shape(value)
        limit = shape - size + 1
        offset = random_ops.random_uniform(array_ops.shape(shape), dtype=size.dtype, maxval=size.dtype.max,
                                           seed=seed) % limit
        return array_ops.slice(value, offset, size, name=name)
