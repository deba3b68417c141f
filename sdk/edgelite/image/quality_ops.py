"""Image quality and difference measures: psnr, ssim, ssim_multiscale, total_variation, image_gradients, sobel_edges.

Built from ordinary ops exactly as TensorFlow composes them (Gaussian window by softmax, depthwise VALID
convolution, 2x2 average pooling between MS-SSIM scales), so gradients come for free.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.nn import activation_ops
from edgelite.nn import conv_ops, pooling_ops
from edgelite.ops import array_ops, control_flow_ops, math_ops

from .color_ops import convert_image_dtype

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _compatible(img1: ops.Tensor, img2: ops.Tensor) -> None:
    """ValueError with TF's text unless both are images (rank >= 3) of matching or broadcastable shapes."""
    shape1 = img1.shape.with_rank_at_least(3)
    shape2 = img2.shape.with_rank_at_least(3)
    shape1[-3:].assert_is_compatible_with(shape2[-3:])
    if shape1.ndims is not None and shape2.ndims is not None:
        for d1, d2 in zip(reversed(shape1.dims[:-3]), reversed(shape2.dims[:-3])):
            if not (d1.value == 1 or d2.value == 1 or d1.is_compatible_with(d2)):
                raise ValueError(f"Two images are not compatible: {shape1} and {shape2}")


def _broadcastable(a: ops.Tensor, b: ops.Tensor, op_type: str) -> None:
    """TF's build-time text for two statically unbroadcastable operands of an elementwise op."""
    if a.shape.ndims is None or b.shape.ndims is None:
        return
    for x, y in zip(reversed(a.shape.as_list()), reversed(b.shape.as_list())):
        if x is not None and y is not None and x != y and 1 not in (x, y):
            scope = ops.get_default_graph().get_name_scope()
            raise ValueError(f"Dimensions must be equal, but are {x} and {y} for '{scope}/{op_type}' "
                             f"(op: '{op_type}') with input shapes: {a.shape.as_list()}, {b.shape.as_list()}.")


def psnr(a: Any, b: Any, max_val: Any, name: Optional[str] = None) -> ops.Tensor:
    """Peak signal-to-noise ratio in dB over each image's last three dimensions (float32)."""
    with ops.name_scope(name, "PSNR", [a, b]):
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b")
        max_val = convert_image_dtype(math_ops.cast(max_val, a.dtype), dtypes.float32)
        a = convert_image_dtype(a, dtypes.float32)
        b = convert_image_dtype(b, dtypes.float32)
        _broadcastable(a, b, "SquaredDifference")
        mse = math_ops.reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
        value = math_ops.subtract(20 * math_ops.log(max_val) / math_ops.log(10.0),
                                  np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")
        _compatible(a, b)
        return array_ops.identity(value)


def _gauss(size: int, sigma: Any, dtype: Any) -> ops.Tensor:
    """[size, size, 1, 1] Gaussian window normalised by softmax, as TF's _fspecial_gauss."""
    sigma = ops.convert_to_tensor(sigma, dtype)
    coords = math_ops.cast(math_ops.range(size), dtype) - math_ops.cast(size - 1, dtype) / 2.0
    g = math_ops.square(coords) * (-0.5 / math_ops.square(sigma))
    g = array_ops.reshape(g, [1, -1]) + array_ops.reshape(g, [-1, 1])
    g = activation_ops.softmax(array_ops.reshape(g, [1, -1]))
    return array_ops.reshape(g, [size, size, 1, 1])


def _ssim_per_channel(img1: ops.Tensor, img2: ops.Tensor, max_val: Any, filter_size: int, filter_sigma: float,
                      k1: float, k2: float, return_index_map: bool = False) -> tuple:
    """Per-channel SSIM and contrast-structure term (means over the window positions unless index maps)."""
    kernel = _gauss(filter_size, filter_sigma, img1.dtype.base_dtype)
    kernel = array_ops.tile(kernel, array_ops.stack([1, 1, array_ops.shape(img1)[-1], 1]))

    def reducer(x: ops.Tensor) -> ops.Tensor:
        small = [d for d in (x.shape.as_list()[-3:-1] if x.shape.ndims else []) if d is not None and d < filter_size]
        if small:
            raise ValueError(f"Negative dimension size caused by subtracting {filter_size} from {small[0]} for "
                             f"'{ops.get_default_graph().get_name_scope()}/depthwise' (op: 'DepthwiseConv2dNative')")
        shape = array_ops.shape(x)
        flat = array_ops.reshape(x, array_ops.concat([[-1], shape[-3:]], 0))
        y = conv_ops.depthwise_conv2d(flat, kernel, strides=[1, 1, 1, 1], padding="VALID")
        out = array_ops.reshape(y, array_ops.concat([shape[:-3], array_ops.shape(y)[1:]], 0))
        if x.shape.ndims is not None:
            dims = x.shape.as_list()
            window = [None if d is None else d - filter_size + 1 for d in dims[-3:-1]]
            out.set_shape(dims[:-3] + window + dims[-1:])
        return out

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(math_ops.square(img1) + math_ops.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if return_index_map:
        return luminance * cs, cs
    return math_ops.reduce_mean(luminance * cs, [-3, -2]), math_ops.reduce_mean(cs, [-3, -2])


def _prepare(img1: Any, img2: Any, max_val: Any) -> tuple:
    img1 = ops.convert_to_tensor(img1, name="img1")
    img2 = ops.convert_to_tensor(img2, name="img2")
    _compatible(img1, img2)
    max_val = convert_image_dtype(math_ops.cast(max_val, img1.dtype), dtypes.float32)
    return convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32), max_val


def ssim(img1: Any, img2: Any, max_val: Any, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
         k2: float = 0.03, return_index_map: bool = False) -> ops.Tensor:
    """Structural similarity of each image pair (Gaussian 11x11 window, sigma 1.5), averaged over channels."""
    with ops.name_scope(None, "SSIM", [img1, img2]):
        img1, img2, max_val = _prepare(img1, img2, max_val)
        per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map)
        return math_ops.reduce_mean(per_channel, [-1])


def _halve(images: list, tails: list) -> list:
    """One MS-SSIM scale down: symmetric-pad odd height/width by one, then 2x2 average pooling."""
    flat = [array_ops.reshape(x, array_ops.concat([[-1], t], 0)) for x, t in zip(images, tails)]
    remainder = tails[0] % ops.convert_to_tensor([2, 2, 1], dtypes.int32)
    padding = array_ops.pad(array_ops.expand_dims(remainder, -1), [[1, 0], [1, 0]])
    need = math_ops.reduce_any(math_ops.not_equal(remainder, 0))
    padded = control_flow_ops.cond(need, lambda: [array_ops.pad(x, padding, mode="SYMMETRIC") for x in flat],
                                   lambda: flat)
    return [pooling_ops.avg_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID") for x in padded]


def ssim_multiscale(img1: Any, img2: Any, max_val: Any, power_factors: Sequence[float] = _MSSSIM_WEIGHTS,
                    filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                    k2: float = 0.03) -> ops.Tensor:
    """Multi-scale SSIM: contrast-structure terms of the first scales and SSIM of the last, raised to the
    power factors and multiplied (one scale per factor, halving between scales)."""
    with ops.name_scope(None, "MS-SSIM", [img1, img2]):
        img1, img2, max_val = _prepare(img1, img2, max_val)
        imgs = [img1, img2]
        shapes = [array_ops.shape(img1), array_ops.shape(img2)]
        heads = [s[:-3] for s in shapes]
        tails = [s[-3:] for s in shapes]
        mcs = []
        per_channel = None
        for k in range(len(power_factors)):
            with ops.name_scope(None, f"Scale{k}", imgs):
                if k > 0:
                    down = _halve(imgs, tails)
                    tails = [array_ops.shape(x)[1:] for x in down]
                    imgs = [array_ops.reshape(x, array_ops.concat([h, t], 0)) for x, h, t in zip(down, heads, tails)]
                per_channel, cs = _ssim_per_channel(imgs[0], imgs[1], max_val, filter_size, filter_sigma, k1, k2)
                mcs.append(activation_ops.relu(cs))
        mcs.pop()
        stacked = array_ops.stack(mcs + [activation_ops.relu(per_channel)], axis=-1)
        factors = ops.convert_to_tensor(np.asarray(power_factors, np.float32))
        return math_ops.reduce_mean(math_ops.reduce_prod(math_ops.pow(stacked, factors), [-1]), [-1])


def total_variation(images: Any, name: Optional[str] = None) -> ops.Tensor:
    """Sum of absolute differences between neighbouring pixels (per image for a batch)."""
    with ops.name_scope(name, "total_variation"):
        images = ops.convert_to_tensor(images, name="images")
        ndims = images.shape.ndims
        if ndims == 3:
            dif1 = images[1:, :, :] - images[:-1, :, :]
            dif2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif ndims == 4:
            dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return math_ops.reduce_sum(math_ops.abs(dif1), axis=axis) + math_ops.reduce_sum(math_ops.abs(dif2), axis=axis)


def image_gradients(image: Any) -> tuple:
    """(dy, dx): forward differences down and across, zero in the last row / column; NHWC input."""
    image = ops.convert_to_tensor(image, name="image")
    if image.shape.ndims != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}.")
    shape = array_ops.shape(image)
    batch, height, width, depth = array_ops.unstack(shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = array_ops.concat([dy, array_ops.zeros(array_ops.stack([batch, 1, width, depth]), image.dtype)], 1)
    dx = array_ops.concat([dx, array_ops.zeros(array_ops.stack([batch, height, 1, depth]), image.dtype)], 2)
    return array_ops.reshape(dy, shape), array_ops.reshape(dx, shape)


def sobel_edges(image: Any) -> ops.Tensor:
    """[batch, h, w, d, 2]: vertical then horizontal 3x3 Sobel responses, with reflected borders."""
    image = ops.convert_to_tensor(image, name="image")
    static = image.shape
    shape = array_ops.shape(image)
    kernels = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
    kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)
    filters = array_ops.tile(ops.convert_to_tensor(kernels, dtype=image.dtype),
                             array_ops.stack([1, 1, shape[-1], 1]), name="sobel_filters")
    padded = array_ops.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = conv_ops.depthwise_conv2d(padded, filters, [1, 1, 1, 1], "VALID")
    out = array_ops.reshape(out, array_ops.concat([shape, [2]], 0))
    if static.ndims is not None:
        out.set_shape(static.as_list() + [2])
    return out
