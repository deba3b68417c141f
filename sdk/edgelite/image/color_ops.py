"""Photometric image ops: convert_image_dtype, adjust_brightness, adjust_contrast, per_image_standardization."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes, dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops, math_ops

from . import _checks


def convert_image_dtype(image: Any, dtype: Any, saturate: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """Cast between image dtypes, rescaling float [0, 1) to integer [0, MAX] and back (as TF does)."""
    image = ops.convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    src = image.dtype.base_dtype
    if not src.is_floating and not src.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == src:
        return array_ops.identity(image, name=name)
    with ops.name_scope(name, "convert_image", [image]) as name:
        cast = math_ops.saturate_cast if saturate else math_ops.cast
        if src.is_integer and dtype.is_integer:
            if src.max > dtype.max:
                # Divide first so that src.max lands in [dtype.max, dtype.max + 1).
                scaled = math_ops.floordiv(image, (src.max + 1) // (dtype.max + 1))
                return cast(scaled, dtype, name=name)
            # Multiply after the cast: src.max does not reach dtype.max, but the round trip is exact.
            return math_ops.multiply(cast(image, dtype), (dtype.max + 1) // (src.max + 1), name=name)
        if src.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=name)
        if src.is_integer:
            return math_ops.multiply(math_ops.cast(image, dtype), 1.0 / src.max, name=name)
        # The extra half keeps values just below 1.0 from truncating one step low.
        scaled = math_ops.multiply(image, dtype.max + 0.5)
        return cast(scaled, dtype, name=name)


def _to_float(image: ops.Tensor) -> ops.Tensor:
    if image.dtype.base_dtype in (dtypes.float16, dtypes.float32):
        return image
    return convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image: Any, delta: Any) -> ops.Tensor:
    """image + delta on the float [0, 1) scale, converted back to the image's dtype (saturating)."""
    with ops.name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = ops.convert_to_tensor(image, name="image")
        flt = _to_float(image)
        adjusted = math_ops.add(flt, math_ops.cast(delta, flt.dtype), name=name)
        return convert_image_dtype(adjusted, image.dtype.base_dtype, saturate=True)


def _adjust_contrast_kernel(ctx: Any, images: np.ndarray, factor: np.ndarray) -> np.ndarray:
    if images.ndim < 3:
        raise ValueError(f"input must be at least 3-D, got shape{list(images.shape)}")
    mean = images.mean(axis=(-3, -2), keepdims=True, dtype=np.float32)
    return (images - mean) * np.float32(factor) + mean


register_op("AdjustContrastv2", inputs=["images: T", "contrast_factor: float"], outputs=["output: T"],
            attrs={"T": dtypes.float32}, kernel=_adjust_contrast_kernel, shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"T": [dtypes.float16, dtypes.float32]})


@ops.RegisterGradient("AdjustContrastv2")
def _adjust_contrast_grad(op: Any, grad: Any) -> list:
    """out = f * x + (1 - f) * mean(x) per image and channel, so dx = f * g + (1 - f) * mean(g)."""
    x, factor = op.inputs
    factor = math_ops.cast(factor, x.dtype)
    mean_g = math_ops.reduce_mean(grad, axis=[-3, -2], keepdims=True)
    dx = factor * grad + (1.0 - factor) * mean_g
    mean_x = math_ops.reduce_mean(x, axis=[-3, -2], keepdims=True)
    dfactor = math_ops.reduce_sum(grad * (x - mean_x))
    return [dx, math_ops.cast(dfactor, dtypes.float32)]


def adjust_contrast(images: Any, contrast_factor: Any) -> ops.Tensor:
    """(x - mean) * contrast_factor + mean per image and channel, on the float scale, back in the images' dtype."""
    with ops.name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = ops.convert_to_tensor(images, name="images")
        flt = _to_float(images)
        adjusted = ops.apply_op("AdjustContrastv2", [flt, contrast_factor], name=name)
        return convert_image_dtype(adjusted, images.dtype.base_dtype, saturate=True)


def per_image_standardization(image: Any) -> ops.Tensor:
    """(x - mean) / max(stddev, 1/sqrt(N)) over each image's last three dimensions (float32 result)."""
    with ops.name_scope(None, "per_image_standardization", [image]) as scope:
        image = _checks.assert_at_least_3d(ops.convert_to_tensor(image, name="image"))
        image = math_ops.cast(image, dtypes.float32)
        num_pixels = math_ops.reduce_prod(array_ops.shape(image)[-3:])
        mean = math_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = math_ops.reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, dtypes.float32))
        adjusted = math_ops.maximum(stddev, min_stddev)
        return math_ops.divide(image - mean, adjusted, name=scope)
