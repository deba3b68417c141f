"""Window crops and pads: crop_to_bounding_box, pad_to_bounding_box and the resize-to-target helpers built on them.

Offsets and sizes given as Python numbers are checked at build time with TensorFlow's ValueError texts;
tensor offsets are checked by the Slice/Pad kernels at run time.
"""
from __future__ import annotations

from typing import Any, Callable, Tuple

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.ops import array_ops, control_flow_ops, logging_ops, math_ops

from . import _checks
from . import resize_ops

_RANK_3_OR_4 = "'image' (shape {shape}) must have either 3 or 4 dimensions."


def _as_batch(image: Any) -> Tuple[ops.Tensor, bool]:
    """The image as a 4-D batch and whether it was one already (TF's rank rules and texts)."""
    image = ops.convert_to_tensor(image, name="image")
    ndims = image.shape.ndims
    if ndims == 4:
        return image, True
    if ndims not in (3, None):
        raise ValueError(_RANK_3_OR_4.format(shape=image.shape))
    batch = array_ops.expand_dims(image, 0)
    if ndims is None:
        batch.set_shape([None] * 4)
    return batch, False


def _dims(image: ops.Tensor) -> list:
    """Static dims where known, else scalar tensors of the dynamic shape."""
    static = image.shape.as_list()
    if None not in static:
        return static
    dynamic = array_ops.shape(image)
    return [s if s is not None else dynamic[k] for k, s in enumerate(static)]


def _static(x: Any) -> bool:
    return not isinstance(x, ops.Tensor)


def _guard(image: ops.Tensor, checks: list) -> ops.Tensor:
    """ValueError for a static check that fails; the image behind run-time Asserts for the tensor ones (as TF)."""
    asserts = []
    for cond, message in checks:
        if _static(cond):
            if not cond:
                raise ValueError(message)
        else:
            asserts.append(logging_ops.Assert(cond, [message]))
    return control_flow_ops.with_dependencies(asserts, image) if asserts else image


def _unbatch(image: ops.Tensor, is_batch: bool) -> ops.Tensor:
    return image if is_batch else array_ops.squeeze(image, axis=[0])


def crop_to_bounding_box(image: Any, offset_height: Any, offset_width: Any, target_height: Any,
                         target_width: Any) -> ops.Tensor:
    """The target_height x target_width window of the image(s) whose top-left corner is at the offsets."""
    with ops.name_scope(None, "crop_to_bounding_box", [image]):
        image, is_batch = _as_batch(image)
        _checks.at_least_3d(image)
        batch, height, width, depth = _dims(image)
        image = _guard(image, [(_ge(offset_width, 0), "offset_width must be >= 0."),
                               (_ge(offset_height, 0), "offset_height must be >= 0."),
                               (_gt(target_width, 0), "target_width must be > 0."),
                               (_gt(target_height, 0), "target_height must be > 0."),
                               (_ge(width, _add(target_width, offset_width)), "width must be >= target + offset."),
                               (_ge(height, _add(target_height, offset_height)), "height must be >= target + offset.")])
        shape = array_ops.shape(image)
        cropped = array_ops.slice(image, array_ops.stack([0, offset_height, offset_width, 0]),
                                  array_ops.stack([shape[0], target_height, target_width, shape[3]]))
        cropped.set_shape([d if _static(d) else None for d in (batch, target_height, target_width, depth)])
        return _unbatch(cropped, is_batch)


def pad_to_bounding_box(image: Any, offset_height: Any, offset_width: Any, target_height: Any,
                        target_width: Any) -> ops.Tensor:
    """The image(s) placed at the offsets in a zero target_height x target_width canvas."""
    with ops.name_scope(None, "pad_to_bounding_box", [image]):
        image, is_batch = _as_batch(image)
        batch, height, width, depth = _dims(image)
        after_width = _sub(_sub(target_width, offset_width), width)
        after_height = _sub(_sub(target_height, offset_height), height)
        _checks.at_least_3d(image)
        image = _guard(image, [(_ge(offset_height, 0), "offset_height must be >= 0"),
                               (_ge(offset_width, 0), "offset_width must be >= 0"),
                               (_ge(after_width, 0), "width must be <= target - offset"),
                               (_ge(after_height, 0), "height must be <= target - offset")])
        paddings = array_ops.reshape(array_ops.stack([0, 0, offset_height, after_height, offset_width, after_width,
                                                      0, 0]), [4, 2])
        padded = array_ops.pad(image, paddings)
        padded.set_shape([d if _static(d) else None for d in (batch, target_height, target_width, depth)])
        return _unbatch(padded, is_batch)


def _ge(a: Any, b: Any) -> Any:
    return a >= b if _static(a) and _static(b) else math_ops.greater_equal(a, b)


def _gt(a: Any, b: Any) -> Any:
    return a > b if _static(a) and _static(b) else math_ops.greater(a, b)


def _add(a: Any, b: Any) -> Any:
    return a + b if _static(a) and _static(b) else math_ops.add(a, b)


def _sub(a: Any, b: Any) -> Any:
    return a - b if _static(a) and _static(b) else math_ops.subtract(a, b)


def _max(a: Any, b: Any) -> Any:
    return max(a, b) if _static(a) and _static(b) else math_ops.maximum(a, b)


def _min(a: Any, b: Any) -> Any:
    return min(a, b) if _static(a) and _static(b) else math_ops.minimum(a, b)


def _target_batch(image: Any, target_height: Any, target_width: Any) -> Tuple[ops.Tensor, bool]:
    """_as_batch plus the checks of a positive target size."""
    image, is_batch = _as_batch(image)
    _checks.at_least_3d(image)
    image = _guard(image, [(_gt(target_width, 0), "target_width must be > 0."),
                           (_gt(target_height, 0), "target_height must be > 0.")])
    return image, is_batch


def resize_image_with_crop_or_pad(image: Any, target_height: Any, target_width: Any) -> ops.Tensor:
    """Centre-crop or zero-pad the image(s) to target_height x target_width."""
    with ops.name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image, is_batch = _target_batch(image, target_height, target_width)
        _, height, width, _ = _dims(image)
        width_diff = _sub(target_width, width)
        height_diff = _sub(target_height, height)
        crop_w = _max(_floordiv(_neg(width_diff), 2), 0)
        pad_w = _max(_floordiv(width_diff, 2), 0)
        crop_h = _max(_floordiv(_neg(height_diff), 2), 0)
        pad_h = _max(_floordiv(height_diff, 2), 0)
        cropped = crop_to_bounding_box(image, crop_h, crop_w, _min(target_height, height), _min(target_width, width))
        return _unbatch(pad_to_bounding_box(cropped, pad_h, pad_w, target_height, target_width), is_batch)


def _neg(a: Any) -> Any:
    return -a if _static(a) else math_ops.negative(a)


def _floordiv(a: Any, b: int) -> Any:
    return a // b if _static(a) else math_ops.floordiv(a, b)


def _pad_common(image: Any, target_height: Any, target_width: Any, resize: Callable) -> ops.Tensor:
    with ops.name_scope(None, "resize_image_with_pad", [image]):
        image, is_batch = _target_batch(image, target_height, target_width)
        _, height, width, _ = _dims(image)
        f = [math_ops.cast(v, dtypes.float32) for v in (height, width, target_height, target_width)]
        ratio = math_ops.maximum(f[1] / f[3], f[0] / f[2])
        new_h_f, new_w_f = f[0] / ratio, f[1] / ratio
        new_h = math_ops.cast(math_ops.floor(new_h_f), dtypes.int32)
        new_w = math_ops.cast(math_ops.floor(new_w_f), dtypes.int32)
        pad_h = math_ops.maximum(0, math_ops.cast(math_ops.floor((f[2] - new_h_f) / 2), dtypes.int32))
        pad_w = math_ops.maximum(0, math_ops.cast(math_ops.floor((f[3] - new_w_f) / 2), dtypes.int32))
        resized = resize(image, array_ops.stack([new_h, new_w]))
        return _unbatch(pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width), is_batch)


def resize_image_with_pad(image: Any, target_height: Any, target_width: Any,
                          method: Any = resize_ops.ResizeMethod.BILINEAR, align_corners: bool = False) -> ops.Tensor:
    """Resize keeping the aspect ratio so the image(s) fit target_height x target_width, then zero-pad centred."""
    return _pad_common(image, target_height, target_width,
                       lambda im, size: resize_ops.resize_images(im, size, method, align_corners=align_corners))
