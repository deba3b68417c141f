"""Colour spaces and colour adjustments: grayscale, HSV, YIQ, YUV; adjust_gamma/hue/saturation; random_* jitter.

HSV conversion, hue and saturation changes are numpy-kernel ops (color_kernels.py, TF's CPU arithmetic);
the linear colour spaces are a 3x3 matrix product over the channel axis, as TF defines them.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes, dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops, math_ops, random_ops

from . import color_kernels
from .color_ops import adjust_brightness, adjust_contrast, convert_image_dtype

_FLOAT = {"T": [dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]}
_HALF_FLOAT = {"T": [dtypes.float16, dtypes.float32]}


def _three_channels(op: Any) -> list:
    shape = op.inputs[0].shape
    if shape.ndims is not None:
        if shape.ndims < 1:
            raise ValueError(f"Shape must be at least rank 1 but is rank 0 for '{op.name}' (op: '{op.type}') "
                             f"with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
        last = shape.as_list()[-1]
        if last is not None and last != 3:
            raise ValueError(f"Dimension must be 3 but is {last} for '{op.name}' (op: '{op.type}') "
                             f"with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
    return common_shapes.unchanged_shape(op)


register_op("RGBToHSV", inputs=["images: T"], outputs=["output: T"], attrs={"T": dtypes.float32},
            kernel=lambda ctx, x: color_kernels.rgb_to_hsv(x), shape_fn=_three_channels, allowed_dtypes=_FLOAT)
register_op("HSVToRGB", inputs=["images: T"], outputs=["output: T"], attrs={"T": dtypes.float32},
            kernel=lambda ctx, x: color_kernels.hsv_to_rgb(x), shape_fn=_three_channels, allowed_dtypes=_FLOAT)
def _at_least_3d(op: Any) -> list:
    shape = op.inputs[0].shape
    if shape.ndims is not None and shape.ndims < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {shape.ndims} for '{op.name}' "
                         f"(op: '{op.type}') with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
    return common_shapes.unchanged_shape(op)


register_op("AdjustHue", inputs=["images: T", "delta: float"], outputs=["output: T"], attrs={"T": dtypes.float32},
            kernel=lambda ctx, x, d: color_kernels.adjust_hue(x, d), shape_fn=_at_least_3d,
            allowed_dtypes=_HALF_FLOAT)
register_op("AdjustSaturation", inputs=["images: T", "scale: float"], outputs=["output: T"],
            attrs={"T": dtypes.float32}, kernel=lambda ctx, x, s: color_kernels.adjust_saturation(x, s),
            shape_fn=_at_least_3d, allowed_dtypes=_HALF_FLOAT)
ops.NoGradient("HSVToRGB")




@ops.RegisterGradient("RGBToHSV")
def _rgb_to_hsv_grad(op: Any, grad: Any) -> ops.Tensor:
    """TensorFlow's piecewise derivative of (h, s, v) with respect to (r, g, b), branch by largest/smallest channel."""
    x, hsv = op.inputs[0], op.outputs[0]
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    s, v = hsv[..., 1], hsv[..., 2]
    dt = x.dtype.base_dtype

    def f(cond: Any) -> ops.Tensor:
        return math_ops.cast(cond, dt)

    def inv(t: Any) -> ops.Tensor:
        return math_ops.div_no_nan(math_ops.cast(1.0, dt), t)

    big = {"r": f((r >= b) & (r >= g)), "g": f((g > r) & (g >= b)), "b": f((b > r) & (b > g))}
    small = {"r": f((r < b) & (r < g)), "g": f((g <= r) & (g < b)), "b": f((b <= r) & (b <= g))}
    pos = {"r": f(r > 0), "g": f(g > 0), "b": f(b > 0)}
    val = {"r": r, "g": g, "b": b}
    sv = inv(math_ops.square(s)) * inv(math_ops.square(v))

    def channel(c: str, o1: str, o2: str) -> tuple:
        """Derivatives of s and h by channel c; (c, o1, o2) is r, g, b rotated to start at c."""
        ds = pos[c] * (big[c] * (small[o1] * val[o1] + small[o2] * val[o2]) * inv(math_ops.square(val[c]))
                       - small[c] * inv(big[o1] * val[o1] + big[o2] * val[o2]))
        dh = 60.0 * (pos[c] * big[c] * -1.0 * (val[o1] - val[o2]) * sv)
        for m, n, sign in ((o1, o2, -1.0), (o2, o1, 1.0)):
            # m is the largest channel; either c is the smallest (squared term) or n is (reciprocal term)
            dh += 60.0 * (pos[m] * big[m] * small[c] * (val[o2] - val[o1]) * inv(math_ops.square(val[m] - val[c])))
            dh += 60.0 * (pos[m] * big[m] * small[n] * sign * inv(val[m] - val[n]))
        return ds, dh / 360.0

    ds_r, dh_r = channel("r", "g", "b")
    ds_g, dh_g = channel("g", "b", "r")
    ds_b, dh_b = channel("b", "r", "g")
    dv = [big["r"], big["g"], big["b"]]
    parts = [grad[..., 2] * dv[k] + grad[..., 1] * ds + grad[..., 0] * dh
             for k, (ds, dh) in enumerate(((ds_r, dh_r), (ds_g, dh_g), (ds_b, dh_b)))]
    return array_ops.stack(parts, axis=-1)


def rgb_to_hsv(images: Any, name: Optional[str] = None) -> ops.Tensor:
    """RGB in [0, 1] to HSV (hue as a fraction of a turn), over the last dimension."""
    return ops.apply_op("RGBToHSV", [images], name=name)


def hsv_to_rgb(images: Any, name: Optional[str] = None) -> ops.Tensor:
    """HSV (hue as a fraction of a turn) back to RGB, over the last dimension."""
    return ops.apply_op("HSVToRGB", [images], name=name)


def _float_of(image: ops.Tensor) -> ops.Tensor:
    """The image itself if half or single float, else converted to float32 on the [0, 1] scale."""
    if image.dtype.base_dtype in (dtypes.float16, dtypes.float32):
        return image
    return convert_image_dtype(image, dtypes.float32)


def adjust_hue(image: Any, delta: Any, name: Optional[str] = None) -> ops.Tensor:
    """Rotate the hue of RGB image(s) by delta turns (in [-1, 1]), back in the image's dtype."""
    with ops.name_scope(name, "adjust_hue", [image]):
        image = ops.convert_to_tensor(image, name="image")
        out = ops.apply_op("AdjustHue", [_float_of(image), delta])
        return convert_image_dtype(out, image.dtype.base_dtype)


def adjust_saturation(image: Any, saturation_factor: Any, name: Optional[str] = None) -> ops.Tensor:
    """Scale the HSV saturation of RGB image(s) by saturation_factor, back in the image's dtype."""
    with ops.name_scope(name, "adjust_saturation", [image]):
        image = ops.convert_to_tensor(image, name="image")
        out = ops.apply_op("AdjustSaturation", [_float_of(image), saturation_factor])
        return convert_image_dtype(out, image.dtype.base_dtype)


def adjust_gamma(image: Any, gamma: Any = 1, gain: Any = 1) -> ops.Tensor:
    """gain * image ** gamma on the float scale, back in the image's dtype (saturating)."""
    with ops.name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = ops.convert_to_tensor(image, name="image")
        if not isinstance(gamma, ops.Tensor) and gamma < 0:
            raise ValueError("Gamma should be a non-negative real number.")
        flt = _float_of(image)
        adjusted = gain * flt ** gamma
        return convert_image_dtype(adjusted, image.dtype.base_dtype, saturate=True)


def rgb_to_grayscale(images: Any, name: Optional[str] = None) -> ops.Tensor:
    """Luma 0.2989 R + 0.5870 G + 0.1140 B as a one-channel image in the input's dtype."""
    with ops.name_scope(name, "rgb_to_grayscale", [images]) as name:
        images = ops.convert_to_tensor(images, name="images")
        flt = convert_image_dtype(images, dtypes.float32)
        gray = array_ops.expand_dims(_mix(flt, np.array([[0.2989], [0.5870], [0.1140]], np.float32))[..., 0], -1)
        return convert_image_dtype(gray, images.dtype.base_dtype, name=name)


def grayscale_to_rgb(images: Any, name: Optional[str] = None) -> ops.Tensor:
    """The single channel repeated three times."""
    with ops.name_scope(name, "grayscale_to_rgb", [images]) as name:
        images = ops.convert_to_tensor(images, name="images")
        shape = images.shape
        if shape.ndims is not None:
            if shape.ndims < 2:
                raise ValueError(f"A grayscale image (shape {shape}) must be at least two-dimensional.")
            if shape.is_fully_defined() and shape.as_list()[-1] != 1:
                raise ValueError("Last dimension of a grayscale image should be size 1.")
        rank = array_ops.rank(images)
        multiples = array_ops.concat([array_ops.ones(array_ops.expand_dims(rank - 1, 0), dtypes.int32), [3]], 0)
        rgb = array_ops.tile(images, multiples, name=name)
        if shape.ndims is not None:
            rgb.set_shape(shape.as_list()[:-1] + [3])
        return rgb


def _mix(images: ops.Tensor, matrix: np.ndarray) -> ops.Tensor:
    """images[..., 3] times a [3, k] matrix over the channel axis (TF's tensordot over the last axis)."""
    k = matrix.shape[1]
    flat = array_ops.reshape(images, [-1, 3])
    out = math_ops.matmul(flat, ops.convert_to_tensor(matrix.astype(images.dtype.as_numpy_dtype), name="kernel"))
    shape = array_ops.concat([array_ops.shape(images)[:-1], [k]], 0)
    out = array_ops.reshape(out, shape)
    if images.shape.ndims is not None:
        out.set_shape(images.shape.as_list()[:-1] + [k])
    return out


_RGB_TO_YIQ = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                        [0.114, -0.32134392, 0.31119955]])
_YIQ_TO_RGB = np.array([[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]])
_RGB_TO_YUV = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                        [0.114, 0.43601035, -0.10001026]])
_YUV_TO_RGB = np.array([[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]])


def _linear_space(images: Any, matrix: np.ndarray) -> ops.Tensor:
    images = ops.convert_to_tensor(images, name="images")
    if images.shape.ndims is not None and images.shape.as_list()[-1] not in (None, 3):
        raise ValueError(f"Dimensions must be equal, but are {images.shape.as_list()[-1]} and 3")
    return _mix(images, matrix)


def rgb_to_yiq(images: Any) -> ops.Tensor:
    """RGB to YIQ (NTSC) by TF's 3x3 matrix."""
    return _linear_space(images, _RGB_TO_YIQ)


def yiq_to_rgb(images: Any) -> ops.Tensor:
    """YIQ back to RGB by TF's 3x3 matrix."""
    return _linear_space(images, _YIQ_TO_RGB)


def rgb_to_yuv(images: Any) -> ops.Tensor:
    """RGB to YUV by TF's 3x3 matrix."""
    return _linear_space(images, _RGB_TO_YUV)


def yuv_to_rgb(images: Any) -> ops.Tensor:
    """YUV back to RGB by TF's 3x3 matrix."""
    return _linear_space(images, _YUV_TO_RGB)


def _uniform(lower: float, upper: float, seed: Optional[int]) -> ops.Tensor:
    return random_ops.random_uniform([], lower, upper, seed=seed)


def random_brightness(image: Any, max_delta: float, seed: Optional[int] = None) -> ops.Tensor:
    """adjust_brightness by a delta drawn uniformly from [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _uniform(-max_delta, max_delta, seed))


def _factor_range(lower: float, upper: float) -> None:
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_contrast(image: Any, lower: float, upper: float, seed: Optional[int] = None) -> ops.Tensor:
    """adjust_contrast by a factor drawn uniformly from [lower, upper)."""
    _factor_range(lower, upper)
    return adjust_contrast(image, _uniform(lower, upper, seed))


def random_saturation(image: Any, lower: float, upper: float, seed: Optional[int] = None) -> ops.Tensor:
    """adjust_saturation by a factor drawn uniformly from [lower, upper)."""
    _factor_range(lower, upper)
    return adjust_saturation(image, _uniform(lower, upper, seed))


def random_hue(image: Any, max_delta: float, seed: Optional[int] = None) -> ops.Tensor:
    """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta) (max_delta at most 0.5)."""
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, _uniform(-max_delta, max_delta, seed))
