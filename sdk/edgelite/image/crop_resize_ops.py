"""CropAndResize and its two gradients (image and boxes), with tf.compat.v1.image.crop_and_resize.

The kernels are edgelite_runtime.preprocessing's (shared with deployed detectors' ROI crops).
"""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import array_ops

from ._checks import input_ranks as _ranks
from .shared_kernels import call

_REAL = [dtypes.uint8, dtypes.uint16, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.float16,
         dtypes.float32, dtypes.float64]
_METHODS = ("bilinear", "nearest")


def _method(ctx: Any) -> str:
    method = ctx.attrs["method"]
    method = method.decode() if isinstance(method, bytes) else method
    if method not in _METHODS:
        raise ValueError(f"method must be 'bilinear' or 'nearest'{method}")
    return method


def _crop_shape(op: Any) -> list:
    _ranks(op, [4, 2, 1, 1])
    image, boxes = op.inputs[0].shape, op.inputs[1].shape
    size = constant_value(op.inputs[3])
    n = boxes.as_list()[0] if boxes.ndims is not None else None
    depth = image.as_list()[3] if image.ndims is not None else None
    hw = [int(size[0]), int(size[1])] if size is not None and size.shape == (2,) else [None, None]
    return [[n] + hw + [depth]]


register_op("CropAndResize", inputs=["image: T", "boxes: float", "box_ind: int32", "crop_size: int32"],
            outputs=["crops: float"], attrs={"method": "bilinear", "extrapolation_value": 0.0},
            kernel=lambda ctx, x, b, i, s: call("crop_and_resize")(x, b, i, s, _method(ctx),
                                                                   float(ctx.attrs["extrapolation_value"])),
            shape_fn=_crop_shape, allowed_dtypes={"T": _REAL})
register_op("CropAndResizeGradImage", inputs=["grads: float", "boxes: float", "box_ind: int32",
                                              "image_size: int32"],
            outputs=["output: T"], attrs={"T": dtypes.float32, "method": "bilinear"},
            kernel=lambda ctx, g, b, i, s: call("crop_and_resize_grad_image")(g, b, i, s, _method(ctx)),
            shape_fn=lambda op: [constant_value(op.inputs[3]).tolist() if constant_value(op.inputs[3]) is not None
                                 else [None] * 4],
            allowed_dtypes={"T": [dtypes.float16, dtypes.float32, dtypes.float64]})
register_op("CropAndResizeGradBoxes", inputs=["grads: float", "image: T", "boxes: float", "box_ind: int32"],
            outputs=["output: float"], attrs={"method": "bilinear"},
            kernel=lambda ctx, g, x, b, i: call("crop_and_resize_grad_boxes")(g, x, b, i),
            shape_fn=lambda op: [op.inputs[2].shape], allowed_dtypes={"T": _REAL})
ops.NoGradient("CropAndResizeGradImage")
ops.NoGradient("CropAndResizeGradBoxes")


@ops.RegisterGradient("CropAndResize")
def _crop_and_resize_grad(op: Any, grad: Any) -> list:
    """Image gradient (float images only) with the op's method; boxes gradient always bilinear, as TF."""
    image = op.inputs[0]
    shape = image.shape.as_list() if image.shape.is_fully_defined() else array_ops.shape(image)
    grad_image = None
    if image.dtype.base_dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
        grad_image = ops.apply_op("CropAndResizeGradImage",
                                  [grad, op.inputs[1], op.inputs[2], ops.convert_to_tensor(shape, dtypes.int32)],
                                  attrs={"T": image.dtype.base_dtype, "method": op.get_attr("method")})
    grad_boxes = ops.apply_op("CropAndResizeGradBoxes", [grad, image, op.inputs[1], op.inputs[2]])
    return [grad_image, grad_boxes, None, None]


def crop_and_resize(image: Any, boxes: Any, box_ind: Any = None, crop_size: Any = None, method: str = "bilinear",
                    extrapolation_value: float = 0.0, name: Optional[str] = None,
                    box_indices: Any = None) -> ops.Tensor:
    """Crop normalised boxes [y1, x1, y2, x2] out of image[box_ind] and resize each crop to crop_size (float32)."""
    if box_ind is None:
        box_ind = box_indices
    if box_ind is None or crop_size is None:
        raise TypeError("crop_and_resize() missing required arguments: 'box_ind' and 'crop_size'")
    if method not in _METHODS:
        raise ValueError(f"Attr 'method' of 'CropAndResize' Op passed string '{method}' not in: \"bilinear\", "
                         "\"nearest\".")
    return ops.apply_op("CropAndResize", [image, boxes, box_ind, crop_size], name=name,
                        attrs={"method": method, "extrapolation_value": float(extrapolation_value)})
