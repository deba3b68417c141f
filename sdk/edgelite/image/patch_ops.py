"""ExtractImagePatches (extract_patches / extract_image_patches), ExtractGlimpse and DrawBoundingBoxes(V2)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, errors
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value, constant_value_as_shape
from edgelite.ops import array_ops

from . import patch_kernels as pk
from ._checks import input_ranks as _ranks

_NUMERIC = [dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64,
            dtypes.bfloat16, dtypes.uint16, dtypes.float16, dtypes.uint32, dtypes.uint64]
_PATCH_ATTRS = {"ksizes": [1, 1, 1, 1], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"}


def _patch_attrs(get: Any) -> tuple:
    padding = get("padding")
    return (list(get("ksizes")), list(get("strides")), list(get("rates")),
            padding.decode() if isinstance(padding, bytes) else padding)


def _patches_shape(op: Any) -> list:
    _ranks(op, [4])
    ks, st, rt, padding = _patch_attrs(op.get_attr)
    shape = op.inputs[0].shape
    if shape.ndims is None:
        return [[None] * 4]
    n, h, w, c = shape.as_list()
    oh = None if h is None else pk.patch_geometry((n, h, 1, c), ks, st, rt, padding)[2]
    ow = None if w is None else pk.patch_geometry((n, 1, w, c), ks, st, rt, padding)[3]
    return [[n, oh, ow, None if c is None else ks[1] * ks[2] * c]]


def _patches_kernel(ctx: Any, x: Any) -> Any:
    attrs = _patch_attrs(ctx.attrs.get)
    for what, v in zip(("ksizes", "strides", "rates"), attrs[:3]):
        if v[0] != 1 or v[3] != 1:
            raise errors.UnimplementedError(None, None, f"Only support {what} across space.")
    return pk.extract_patches(x, *attrs)


register_op("ExtractImagePatches", inputs=["images: T"], outputs=["patches: T"], attrs=dict(_PATCH_ATTRS),
            kernel=_patches_kernel,
            shape_fn=_patches_shape, allowed_dtypes={"T": _NUMERIC})
# TensorFlow differentiates ExtractImagePatches by building a scatter from ordinary ops; here the
# scatter is one op.
register_op("ExtractImagePatchesGrad", inputs=["grads: T", "image_shape: int32"], outputs=["output: T"],
            attrs=dict(_PATCH_ATTRS),
            kernel=lambda ctx, g, s: pk.extract_patches_grad(g, s, *_patch_attrs(ctx.attrs.get)),
            shape_fn=lambda op: [constant_value_as_shape(op.inputs[1]).with_rank(4)])
ops.NoGradient("ExtractImagePatchesGrad")


@ops.RegisterGradient("ExtractImagePatches")
def _extract_patches_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    attrs = {k: op.get_attr(k) for k in _PATCH_ATTRS}
    shape = x.shape.as_list() if x.shape.is_fully_defined() else array_ops.shape(x)
    return [ops.apply_op("ExtractImagePatchesGrad", [grad, shape], attrs=attrs)]


def extract_image_patches(images: Any, ksizes: Any = None, strides: Any = None, rates: Any = None,
                          padding: Any = None, name: Optional[str] = None, sizes: Any = None) -> ops.Tensor:
    """[batch, out_rows, out_cols, ksize_rows * ksize_cols * depth] patches of the images (as a convolution sees
    them: SAME or VALID padding, strides, dilation rates)."""
    ksizes = ksizes if ksizes is not None else sizes
    return ops.apply_op("ExtractImagePatches", [images], name=name,
                        attrs={"ksizes": list(ksizes), "strides": list(strides), "rates": list(rates),
                               "padding": padding})


def extract_patches(images: Any, sizes: Any, strides: Any, rates: Any, padding: Any,
                    name: Optional[str] = None) -> ops.Tensor:
    """extract_image_patches with the size argument called sizes."""
    return extract_image_patches(images, sizes, strides, rates, padding, name=name)


def _glimpse_kernel(ctx: Any, x: Any, size: Any, offsets: Any) -> Any:
    noise = ctx.attrs["noise"]
    noise = noise.decode() if isinstance(noise, bytes) else noise
    uniform = bool(ctx.attrs["uniform_noise"])
    if uniform and noise not in ("", "uniform"):
        raise pk._invalid("The uniform_noise and noise should not be specified at the same time")
    mode = "uniform" if uniform else ("zero" if noise == "zero" else "gaussian")
    return pk.extract_glimpse(x, size, offsets, bool(ctx.attrs["centered"]), bool(ctx.attrs["normalized"]), mode,
                              ctx.rng)


def _glimpse_shape(op: Any) -> list:
    _ranks(op, [4, 1, 2])
    size = constant_value(op.inputs[1])
    shape = op.inputs[0].shape
    n, c = (shape.as_list()[0], shape.as_list()[3]) if shape.ndims is not None else (None, None)
    hw = [int(size[0]), int(size[1])] if size is not None else [None, None]
    return [[n] + hw + [c]]


register_op("ExtractGlimpse", inputs=["input: float", "size: int32", "offsets: float"], outputs=["glimpse: float"],
            attrs={"centered": True, "normalized": True, "uniform_noise": True, "noise": "uniform"},
            kernel=_glimpse_kernel, shape_fn=_glimpse_shape, stateful=True)
ops.NoGradient("ExtractGlimpse")


def extract_glimpse(input: Any, size: Any, offsets: Any, centered: bool = True,  # noqa: A002
                    normalized: bool = True, uniform_noise: bool = True, name: Optional[str] = None) -> ops.Tensor:
    """Windows of size [h, w] at offsets [batch, 2] (y, x; normalised and centred by default); parts past the
    image are noise (uniform in the image's range, else Gaussian with its channel statistics)."""
    return ops.apply_op("ExtractGlimpse", [input, size, offsets], name=name,
                        attrs={"centered": centered, "normalized": normalized, "uniform_noise": uniform_noise})


def _draw_shape(op: Any) -> list:
    _ranks(op, [4, 3, 2][:len(op.inputs)])
    shape = op.inputs[0].shape
    depth = shape.as_list()[3] if shape.ndims is not None else None
    if depth is not None and depth not in (1, 3, 4):
        raise ValueError(f"Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA) for '{op.name}' "
                         f"(op: '{op.type}') with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
    return [shape]


_DRAW_T = {"T": [dtypes.float32, dtypes.float16]}
register_op("DrawBoundingBoxes", inputs=["images: T", "boxes: float"], outputs=["output: T"],
            attrs={"T": dtypes.float32}, kernel=lambda ctx, x, b: pk.draw_bounding_boxes(x, b),
            shape_fn=_draw_shape, allowed_dtypes=_DRAW_T)
register_op("DrawBoundingBoxesV2", inputs=["images: T", "boxes: float", "colors: float"], outputs=["output: T"],
            attrs={"T": dtypes.float32}, kernel=lambda ctx, x, b, c: pk.draw_bounding_boxes(x, b, c),
            shape_fn=_draw_shape, allowed_dtypes=_DRAW_T)
ops.NoGradient("DrawBoundingBoxes")
ops.NoGradient("DrawBoundingBoxesV2")


def draw_bounding_boxes(images: Any, boxes: Any, name: Optional[str] = None, colors: Any = None) -> ops.Tensor:
    """Images with one-pixel outlines of the normalised boxes [batch, num_boxes, 4] drawn on them."""
    if colors is None:
        return ops.apply_op("DrawBoundingBoxes", [images, boxes], name=name)
    return ops.apply_op("DrawBoundingBoxesV2", [images, boxes, colors], name=name)
