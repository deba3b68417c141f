"""Resize ops (ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic, ResizeArea, the gradients) and their wrappers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value, constant_value_as_shape
from edgelite.ops import array_ops, math_ops

from . import shared_kernels as k

_REAL = [dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.int32, dtypes.int64, dtypes.bfloat16,
         dtypes.float16, dtypes.float32, dtypes.float64]
_ATTRS = {"align_corners": False, "half_pixel_centers": False}


def _rank(op: Any, index: int, rank: int) -> list:
    """The dims of op's input (None for unknown), ValueError with TF's text unless it has the rank."""
    shape = op.inputs[index].shape
    if shape.ndims is None:
        return [None] * rank
    if shape.ndims != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {shape.ndims} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
    return shape.as_list()


def _resized_shape(op: Any) -> list:
    images = _rank(op, 0, 4)
    count = _rank(op, 1, 1)[0]
    if count is not None and count != 2:
        raise ValueError(f"Dimension must be 2 but is {count} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
    size = constant_value_as_shape(op.inputs[1]).with_rank(2).as_list()
    return [[images[0], size[0], size[1], images[3]]]


def _flags(ctx: Any) -> tuple:
    return bool(ctx.attrs["align_corners"]), bool(ctx.attrs["half_pixel_centers"])


register_op("ResizeBilinear", inputs=["images: T", "size: int32"], outputs=["resized_images: float"], attrs=_ATTRS,
            kernel=lambda ctx, x, size: k.resize_bilinear(x, size, *_flags(ctx)), shape_fn=_resized_shape,
            allowed_dtypes={"T": _REAL})
register_op("ResizeBilinearGrad", inputs=["grads: float", "original_image: T"], outputs=["output: T"],
            attrs=_ATTRS, kernel=lambda ctx, g, x: k.resize_bilinear_grad(g, x, *_flags(ctx)),
            shape_fn=lambda op: [op.inputs[1].shape],
            allowed_dtypes={"T": [dtypes.float32, dtypes.bfloat16, dtypes.float16, dtypes.float64]})
register_op("ResizeNearestNeighbor", inputs=["images: T", "size: int32"], outputs=["resized_images: T"],
            attrs=_ATTRS, kernel=lambda ctx, x, size: k.resize_nearest(x, size, *_flags(ctx)),
            shape_fn=_resized_shape, allowed_dtypes={"T": _REAL})
register_op("ResizeNearestNeighborGrad", inputs=["grads: T", "size: int32"], outputs=["output: T"], attrs=_ATTRS,
            kernel=lambda ctx, g, size: k.resize_nearest_grad(g, size, *_flags(ctx)), shape_fn=_resized_shape,
            allowed_dtypes={"T": [dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.float16, dtypes.float32,
                                  dtypes.float64, dtypes.bfloat16]})
register_op("ResizeBicubic", inputs=["images: T", "size: int32"], outputs=["resized_images: float"], attrs=_ATTRS,
            kernel=lambda ctx, x, size: k.resize_bicubic(x, size, *_flags(ctx)), shape_fn=_resized_shape,
            allowed_dtypes={"T": _REAL})
register_op("ResizeBicubicGrad", inputs=["grads: float", "original_image: T"], outputs=["output: T"],
            attrs=_ATTRS, kernel=lambda ctx, g, x: k.resize_bicubic_grad(g, x, *_flags(ctx)),
            shape_fn=lambda op: [op.inputs[1].shape], allowed_dtypes={"T": [dtypes.float32, dtypes.float64]})
register_op("ResizeArea", inputs=["images: T", "size: int32"], outputs=["resized_images: float"],
            attrs={"align_corners": False},
            kernel=lambda ctx, x, size: k.resize_area(x, size, bool(ctx.attrs["align_corners"])),
            shape_fn=_resized_shape, allowed_dtypes={"T": _REAL})


def _attrs_of(op: Any) -> dict:
    return {"align_corners": op.get_attr("align_corners"), "half_pixel_centers": op.get_attr("half_pixel_centers")}


@ops.RegisterGradient("ResizeBilinear")
def _resize_bilinear_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    if not x.dtype.base_dtype.is_floating:
        return [None, None]
    return [ops.apply_op("ResizeBilinearGrad", [grad, x], attrs=_attrs_of(op)), None]


@ops.RegisterGradient("ResizeNearestNeighbor")
def _resize_nearest_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    size = x.shape[1:3] if x.shape[1:3].is_fully_defined() else array_ops.shape(x)[1:3]
    if isinstance(size, tensor_shape.TensorShape):
        size = size.as_list()
    return [ops.apply_op("ResizeNearestNeighborGrad", [grad, ops.convert_to_tensor(size, dtypes.int32)],
                         attrs=_attrs_of(op)), None]


@ops.RegisterGradient("ResizeBicubic")
def _resize_bicubic_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    if not x.dtype.base_dtype.is_floating:
        return [None, None]
    return [ops.apply_op("ResizeBicubicGrad", [grad, x], attrs=_attrs_of(op)), None]


ops.NoGradient("ResizeBilinearGrad")
ops.NoGradient("ResizeNearestNeighborGrad")


def resize_bilinear(images: Any, size: Any, align_corners: bool = False, name: Optional[str] = None,
                    half_pixel_centers: bool = False) -> ops.Tensor:
    """Bilinear resize of a batch of images to size = [new_height, new_width] (float32 result)."""
    return ops.apply_op("ResizeBilinear", [images, size], name=name,
                        attrs={"align_corners": align_corners, "half_pixel_centers": half_pixel_centers})


def resize_nearest_neighbor(images: Any, size: Any, align_corners: bool = False, name: Optional[str] = None,
                            half_pixel_centers: bool = False) -> ops.Tensor:
    """Nearest-neighbour resize of a batch of images to size = [new_height, new_width] (same dtype)."""
    return ops.apply_op("ResizeNearestNeighbor", [images, size], name=name,
                        attrs={"align_corners": align_corners, "half_pixel_centers": half_pixel_centers})


def resize_bicubic(images: Any, size: Any, align_corners: bool = False, name: Optional[str] = None,
                   half_pixel_centers: bool = False) -> ops.Tensor:
    """Bicubic resize of a batch of images to size = [new_height, new_width] (float32 result)."""
    return ops.apply_op("ResizeBicubic", [images, size], name=name,
                        attrs={"align_corners": align_corners, "half_pixel_centers": half_pixel_centers})


def resize_area(images: Any, size: Any, align_corners: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """Area-averaging resize of a batch of images to size = [new_height, new_width] (float32 result)."""
    return ops.apply_op("ResizeArea", [images, size], name=name, attrs={"align_corners": align_corners})


class ResizeMethod:
    """Resize methods of tf.compat.v1.image.resize_images."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_METHODS = {ResizeMethod.BILINEAR: resize_bilinear, "bilinear": resize_bilinear,
            ResizeMethod.NEAREST_NEIGHBOR: resize_nearest_neighbor, "nearest": resize_nearest_neighbor,
            ResizeMethod.BICUBIC: resize_bicubic, "bicubic": resize_bicubic,
            ResizeMethod.AREA: resize_area, "area": resize_area}


def _aspect_size(images: ops.Tensor, size: ops.Tensor) -> ops.Tensor:
    """The largest size with the images' aspect ratio that fits in size (float32, rounded half to even as TF)."""
    static = images.shape.as_list()
    wanted = constant_value(size)
    if wanted is not None and None not in static[1:3]:
        h, w = np.float32(static[1]), np.float32(static[2])
        scale = min(np.float32(wanted[0]) / h, np.float32(wanted[1]) / w)
        return ops.convert_to_tensor([int(np.round(scale * h)), int(np.round(scale * w))], dtypes.int32,
                                     name="size")
    dims = array_ops.shape(images)
    height = static[1] if static[1] is not None else dims[1]
    width = static[2] if static[2] is not None else dims[2]
    height_f = math_ops.cast(height, dtypes.float32)
    width_f = math_ops.cast(width, dtypes.float32)
    scale = math_ops.minimum(math_ops.cast(size[0], dtypes.float32) / height_f,
                             math_ops.cast(size[1], dtypes.float32) / width_f)
    new_h = math_ops.cast(math_ops.round(scale * height_f), dtypes.int32)
    new_w = math_ops.cast(math_ops.round(scale * width_f), dtypes.int32)
    return array_ops.stack([new_h, new_w], name="size")


def resize_images(images: Any, size: Any, method: Any = ResizeMethod.BILINEAR, align_corners: bool = False,
                  preserve_aspect_ratio: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """Resize 3-D or 4-D images (tf.compat.v1.image.resize_images); unchanged if the size already matches."""
    with ops.name_scope(name, "resize", [images, size]):
        images = ops.convert_to_tensor(images, name="images")
        if images.shape.ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = images.shape.ndims == 4
        if images.shape.ndims == 3:
            images = array_ops.expand_dims(images, 0)
        elif images.shape.ndims != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.shape.as_list()
        try:
            size = ops.convert_to_tensor(size, dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.shape.is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        if preserve_aspect_ratio:
            size = _aspect_size(images, size)
        new_h, new_w = constant_value_as_shape(size).with_rank(2).as_list()
        if None not in (new_h, new_w, height, width) and (new_h, new_w) == (height, width):
            return images if is_batch else array_ops.squeeze(images, axis=[0])
        if method not in _METHODS:  # checked where TF checks it: after the shapes, before resizing
            raise ValueError(f"Resize method is not implemented: {method}")
        out = _METHODS[method](images, size, align_corners=align_corners)
        out.set_shape([None, new_h, new_w, None])
        return out if is_batch else array_ops.squeeze(out, axis=[0])


resize = resize_images
