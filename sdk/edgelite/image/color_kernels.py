"""numpy kernels of RGBToHSV, HSVToRGB, AdjustHue and AdjustSaturation, following TensorFlow's CPU kernels.

RGBToHSV/HSVToRGB are TF's Eigen expressions (hue in [0, 1), hsv->rgb through clamped triangle waves);
AdjustHue works on the hue sextant (0..6) between each pixel's min and max channel; AdjustSaturation
goes through TF's per-pixel rgb<->hsv helpers. All in the input's float type.
"""
from __future__ import annotations

import numpy as np

from edgelite.framework import errors


def _channels(x: np.ndarray, hsv_op: bool = False) -> None:
    """InvalidArgumentError with the op's own text unless the last dimension is 3."""
    n = x.shape[-1] if x.ndim else 0
    if n != 3:
        text = f"but input only has {n} channels." if hsv_op else f"but instead has {n} channels."
        raise errors.InvalidArgumentError(None, None, f"input must have 3 channels {text}")


def rgb_to_hsv(images: np.ndarray) -> np.ndarray:
    """[..., 3] RGB in [0, 1] to hue, saturation, value (hue as a fraction of a turn)."""
    _channels(images, hsv_op=True)
    dt = images.dtype.type
    r, g, b = images[..., 0], images[..., 1], images[..., 2]
    v = images.max(axis=-1)
    rng = v - images.min(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / v, dt(0))
        norm = (dt(1) / rng) * (dt(1) / dt(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + dt(2) / dt(6), norm * (r - g) + dt(4) / dt(6)))
    h = np.where(rng > 0, h, dt(0))
    h = np.where(h < 0, h + dt(1), h)
    return np.stack([h, s, v], axis=-1).astype(images.dtype, copy=False)


def hsv_to_rgb(images: np.ndarray) -> np.ndarray:
    """[..., 3] hue, saturation, value back to RGB."""
    _channels(images, hsv_op=True)
    dt = images.dtype.type
    h, s, v = images[..., 0], images[..., 1], images[..., 2]
    dh = h * dt(6)
    dr = np.clip(np.abs(dh - dt(3)) - dt(1), 0, 1)
    dg = np.clip(-np.abs(dh - dt(2)) + dt(2), 0, 1)
    db = np.clip(-np.abs(dh - dt(4)) + dt(2), 0, 1)
    one_s = -s + dt(1)
    return np.stack([(one_s + s * c) * v for c in (dr, dg, db)], axis=-1).astype(images.dtype, copy=False)


# (max, mid, min) channel of each hue sextant, and whether the hue rises with the mid channel there
_SEXTANT_CHANNELS = np.array([[0, 1, 2], [1, 0, 2], [1, 2, 0], [2, 1, 0], [2, 0, 1], [0, 2, 1]])


def adjust_hue(images: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Rotate each pixel's hue by delta (a fraction of a turn), keeping its min and max channel."""
    _channels(images)
    x = images.astype(np.float32, copy=False)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    # the sextant by channel order, with TF's tie rules
    cat = np.where(r < g, np.where(b < r, 1, np.where(b > g, 3, 2)), np.where(b < g, 0, np.where(b > r, 4, 5)))
    order = _SEXTANT_CHANNELS[cat]
    vmax = np.take_along_axis(x, order[..., :1], axis=-1)[..., 0]
    vmid = np.take_along_axis(x, order[..., 1:2], axis=-1)[..., 0]
    vmin = np.take_along_axis(x, order[..., 2:], axis=-1)[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (vmid - vmin) / (vmax - vmin)
    rising = (cat & 1) == 0
    h = np.where(vmax == vmin, np.float32(0), cat + np.where(rising, ratio, 1 - ratio)).astype(np.float32)
    h = h + np.float32(delta) * np.float32(6)
    h = np.where(h < 0, h + np.float32(6) * np.ceil(-h / np.float32(6)), h)
    h = np.where(h >= 6, h - np.float32(6) * np.floor(h / np.float32(6)), h).astype(np.float32)
    cat2 = h.astype(np.int64)
    frac = h - cat2
    frac = np.where((cat2 & 1) == 0, frac, 1 - frac)
    mid = vmin + frac * (vmax - vmin)
    out = np.empty_like(x)
    order2 = _SEXTANT_CHANNELS[np.minimum(cat2, 5)]
    np.put_along_axis(out, order2[..., :1], vmax[..., None], axis=-1)
    np.put_along_axis(out, order2[..., 1:2], mid[..., None], axis=-1)
    np.put_along_axis(out, order2[..., 2:], vmin[..., None], axis=-1)
    return out.astype(images.dtype, copy=False)


def adjust_saturation(images: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Scale each pixel's HSV saturation by scale (clamped to [0, 1]), keeping hue and value."""
    _channels(images)
    x = images.astype(np.float32, copy=False)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = x.max(axis=-1)
    rng = v - x.min(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / v, np.float32(0))
        norm = np.float32(1) / (np.float32(6) * rng)
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + np.float32(2.0 / 6.0), norm * (r - g) + np.float32(4.0 / 6.0)))
    h = np.where(rng <= 0, np.float32(0), h)
    h = np.where(h < 0, h + 1, h).astype(np.float32)
    s = np.clip(s * np.float32(scale), 0, 1).astype(np.float32)
    c = s * v
    m = v - c
    dh = h * np.float32(6)
    cat = dh.astype(np.int64)
    fm = np.mod(dh, np.float32(2))
    xx = c * (1 - np.abs(fm - 1))
    zero = np.zeros_like(c)
    table = {0: (c, xx, zero), 1: (xx, c, zero), 2: (zero, c, xx), 3: (zero, xx, c), 4: (xx, zero, c),
             5: (c, zero, xx)}
    rgb = [np.select([cat == k for k in range(6)], [table[k][ch] for k in range(6)], zero) + m for ch in range(3)]
    return np.stack(rgb, axis=-1).astype(images.dtype, copy=False)
