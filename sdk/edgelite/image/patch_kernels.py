"""numpy kernels of ExtractImagePatches (and its gradient), ExtractGlimpse and DrawBoundingBoxes(V2)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from edgelite.framework import errors


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _patch_index(in_size: int, k: int, stride: int, rate: int, padding: str) -> tuple:
    """[out, k] source indices along one axis (-1 where the window is in the padding) and the output size."""
    eff = k + (k - 1) * (rate - 1)
    if padding == "VALID":
        out = (in_size - eff + stride) // stride
        before = 0
    else:
        out = -(-in_size // stride)
        before = max((out - 1) * stride + eff - in_size, 0) // 2
    idx = np.arange(max(out, 0))[:, None] * stride - before + np.arange(k)[None, :] * rate
    return np.where((idx >= 0) & (idx < in_size), idx, -1), max(out, 0)


def patch_geometry(shape: Sequence[int], ksizes: Sequence[int], strides: Sequence[int], rates: Sequence[int],
                   padding: str) -> tuple:
    """Row and column index tables of the patches of an NHWC image of this shape."""
    rows, oh = _patch_index(shape[1], ksizes[1], strides[1], rates[1], padding)
    cols, ow = _patch_index(shape[2], ksizes[2], strides[2], rates[2], padding)
    return rows, cols, oh, ow


def extract_patches(images: np.ndarray, ksizes: Sequence[int], strides: Sequence[int], rates: Sequence[int],
                    padding: str) -> np.ndarray:
    """[N, out_rows, out_cols, kh * kw * C] patches, zero where a window reaches past the image."""
    if images.ndim != 4:
        raise _invalid(f"input must be 4-dimensional{list(images.shape)}")
    n, _, _, c = images.shape
    rows, cols, oh, ow = patch_geometry(images.shape, ksizes, strides, rates, padding)
    padded = np.pad(images, ((0, 0), (0, 1), (0, 1), (0, 0)))  # index -1 reads the zero row/column
    r = rows[:, None, :, None]
    q = cols[None, :, None, :]
    out = padded[:, r, q]  # [N, oh, ow, kh, kw, C]
    return out.reshape(n, oh, ow, -1)


def extract_patches_grad(grads: np.ndarray, image_shape: Sequence[int], ksizes: Sequence[int],
                         strides: Sequence[int], rates: Sequence[int], padding: str) -> np.ndarray:
    """Each patch element's gradient added back to the pixel it was read from."""
    n, h, w, c = (int(v) for v in image_shape)
    rows, cols, oh, ow = patch_geometry((n, h, w, c), ksizes, strides, rates, padding)
    g = grads.reshape(n, oh, ow, ksizes[1], ksizes[2], c)
    out = np.zeros((n, h + 1, w + 1, c), grads.dtype)
    r = np.broadcast_to(rows[:, None, :, None], (oh, ow, ksizes[1], ksizes[2]))
    q = np.broadcast_to(cols[None, :, None, :], (oh, ow, ksizes[1], ksizes[2]))
    np.add.at(out, (slice(None), r, q), g)
    return out[:, :h, :w]


_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                            [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def draw_bounding_boxes(images: np.ndarray, boxes: np.ndarray, colors: Any = None) -> np.ndarray:
    """One-pixel outlines of normalised boxes [y_min, x_min, y_max, x_max] drawn on NHWC images, box k in colour
    k mod len(colors); inverted boxes and boxes wholly outside are skipped."""
    if images.ndim != 4:
        raise _invalid(f"The rank of the images should be 4")
    n, h, w, depth = images.shape
    if depth not in (1, 3, 4):
        raise _invalid("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.ndim != 3 or boxes.shape[2] != 4:
        raise _invalid(f"boxes must be a 3-D tensor with last dimension 4, got {list(boxes.shape)}")
    if boxes.shape[0] != n:
        raise _invalid("The batch sizes of images and boxes must match")
    table = None
    if colors is not None:
        colors = np.asarray(colors, np.float32)
        if colors.ndim != 2:
            raise _invalid(f"colors must be a 2-D matrix{list(colors.shape)}")
        if colors.shape[1] < depth:
            dims = ",".join(str(d) for d in colors.shape)
            raise _invalid(f"colors must have equal or more channels than the image provided: [{dims}]")
        if colors.size:
            table = colors
    if table is None:
        table = _DEFAULT_COLORS.copy()
        if depth == 1:
            table[:, 0] = 1
    canvas = images.copy()
    for b in range(n):
        for k in range(boxes.shape[1]):
            color = table[k % len(table), :depth].astype(images.dtype)
            # float products truncated toward zero, as the kernel's int64 conversions
            top, left, bottom, right = (int(np.float32(boxes[b, k, j]) * np.float32(size - 1))
                                        for j, size in ((0, h), (1, w), (2, h), (3, w)))
            if top > bottom or left > right:
                continue
            if top >= h or bottom < 0 or left >= w or right < 0:
                continue
            top_c, bottom_c = max(top, 0), min(bottom, h - 1)
            left_c, right_c = max(left, 0), min(right, w - 1)
            if top >= 0:
                canvas[b, top, left_c:right_c + 1] = color
            if bottom < h:
                canvas[b, bottom, left_c:right_c + 1] = color
            if left >= 0:
                canvas[b, top_c:bottom_c + 1, left] = color
            if right < w:
                canvas[b, top_c:bottom_c + 1, right] = color
    return canvas


def extract_glimpse(images: np.ndarray, size: np.ndarray, offsets: np.ndarray, centered: bool, normalized: bool,
                    noise: str, rng: np.random.Generator) -> np.ndarray:
    """[N, gh, gw, C] windows at offsets ([N, 2], y then x) of NHWC images; the parts past the image hold noise:
    uniform between the image's min and max, Gaussian with each channel's mean and deviation, or zero."""
    if images.ndim != 4:
        raise _invalid(f"input must be 4-dimensional{list(images.shape)}")
    size = np.asarray(size)
    if size.shape != (2,):
        raise _invalid(f"input must be a vector of size 2 (height, width), got {size.shape}")
    gh, gw = int(size[0]), int(size[1])
    n, h, w, c = images.shape
    offsets = np.asarray(offsets, np.float32)
    if offsets.shape != (n, 2):
        raise _invalid(f"offsets must be [batch_size, 2], got {list(offsets.shape)}")
    out = np.zeros((n, gh, gw, c), np.float32)
    for b in range(n):
        y, x = np.float32(offsets[b, 0]), np.float32(offsets[b, 1])
        if normalized:
            x, y = x * np.float32(w), y * np.float32(h)
        if centered:
            x = x / np.float32(2) + np.float32(w) / np.float32(2)
            y = y / np.float32(2) + np.float32(h) / np.float32(2)
        x, y = int(x - np.float32(gw) / np.float32(2)), int(y - np.float32(gh) / np.float32(2))
        img = images[b].astype(np.float32)
        partial = x < 0 or y < 0 or x + gw >= w or y + gh >= h
        if partial:
            out[b] = _noise(img, (gh, gw, c), noise, rng)
        # the window's overlap with the image, in image and in window coordinates
        y0, y1 = max(y, 0), min(y + gh, h)
        x0, x1 = max(x, 0), min(x + gw, w)
        if y1 > y0 and x1 > x0:
            out[b, y0 - y:y1 - y, x0 - x:x1 - x] = img[y0:y1, x0:x1]
    return out


def _noise(img: np.ndarray, shape: tuple, noise: str, rng: np.random.Generator) -> np.ndarray:
    if noise == "zero":
        return np.zeros(shape, np.float32)
    if noise == "gaussian":
        mean = img.mean(axis=(0, 1))
        sigma = img.std(axis=(0, 1))
        return (mean + rng.standard_normal(shape) * sigma).astype(np.float32)
    lo = img.min()
    return (lo + rng.random(shape) * (img.max() - lo)).astype(np.float32)
