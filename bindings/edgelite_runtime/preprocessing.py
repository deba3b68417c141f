"""Image pre- and post-processing for deployed models, in numpy only (no SDK, no TensorFlow).

The same functions are the kernels of edgelite's tf.image ops, so a model's input pipeline and detector
post-processing give the same numbers on the device as in training. Images are NHWC batches; the resizes
follow TensorFlow's kernels in float32 arithmetic:

- source scale = (in - 1) / (out - 1) with align_corners (and out > 1), else in / out;
- bilinear samples at (i + 0.5) * scale - 0.5 with half_pixel_centers, else at i * scale;
- nearest takes floor (round with align_corners) of (i + 0.5) * scale or i * scale;
- bicubic uses Keys' kernel (a = -0.5, zero weight outside the image) with half_pixel_centers, else
  a = -0.75 with edge replication, both with weights looked up in a 1024-step table as TensorFlow does;
- area averages the source pixels each output pixel covers, weighted by the covered fraction.

Bad arguments raise ValueError with TensorFlow's kernel text (the SDK turns it into InvalidArgumentError).
"""
from __future__ import annotations

import heapq
from typing import Optional, Sequence, Tuple

import numpy as np

_F = np.float32
_TABLE = 1024


# ---------------------------------------------------------------------------------------------- checks

def check_flags(align_corners: bool, half_pixel_centers: bool) -> None:
    """TensorFlow refuses the two sampling conventions together."""
    if align_corners and half_pixel_centers:
        raise ValueError("If half_pixel_centers is True, align_corners must be False.")


def check_size(size: Sequence[int]) -> Tuple[int, int]:
    """(height, width) from a size argument; ValueError unless it is two positive numbers."""
    size = np.asarray(size)
    if size.shape != (2,):
        raise ValueError(f"shape_t must be 1-dimensional with 2 elements (new_height, new_width), got {size.shape}")
    h, w = int(size[0]), int(size[1])
    if h <= 0 or w <= 0:
        raise ValueError("output dimensions must be positive")
    return h, w


def check_images(x: np.ndarray) -> None:
    """ValueError unless x is a non-empty NHWC batch."""
    if x.ndim != 4:
        raise ValueError(f"input must be 4-dimensional{list(x.shape)}")
    if x.shape[1] <= 0 or x.shape[2] <= 0:
        raise ValueError(f"input image must be of non-zero size, got {list(x.shape)}")


def _batched(images: np.ndarray) -> Tuple[np.ndarray, bool]:
    images = np.asarray(images)
    return (images[None], True) if images.ndim == 3 else (images, False)


def _resize_args(images: np.ndarray, size: Sequence[int], align_corners: bool = False,
                 half_pixel_centers: bool = False) -> tuple:
    """The checked NHWC batch, whether it was one HWC image, and the output height and width."""
    check_flags(align_corners, half_pixel_centers)
    x, single = _batched(images)
    check_images(x)
    return x, single, *check_size(size)


# ---------------------------------------------------------------------------------------- sample grids

def _scale(in_size: int, out_size: int, align_corners: bool) -> np.float32:
    if align_corners and out_size > 1:
        return _F(in_size - 1) / _F(out_size - 1)
    return _F(in_size) / _F(out_size)


def _bilinear_axis(out_size: int, in_size: int, align_corners: bool, half_pixel: bool) -> tuple:
    """Lower and upper source indices and the weight of the upper one, per output index."""
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=_F)
    pos = (i + _F(0.5)) * scale - _F(0.5) if half_pixel else i * scale
    floor = np.floor(pos)
    lower = np.maximum(floor, 0).astype(np.int64)
    upper = np.minimum(np.ceil(pos), in_size - 1).astype(np.int64)
    return lower, upper, (pos - floor).astype(_F)


def _nearest_axis(out_size: int, in_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=_F)
    pos = (i + _F(0.5)) * scale if half_pixel else i * scale
    # roundf rounds halves away from zero; positions are never negative here
    idx = np.floor(pos + _F(0.5)) if align_corners else np.floor(pos)
    idx = np.minimum(idx.astype(np.int64), in_size - 1)
    return np.maximum(idx, 0) if half_pixel else idx


def _cubic_table(a: float) -> np.ndarray:
    """Kernel values at distance t and 1 + t for t = k / 1024, k = 0..1024 (TensorFlow's lookup table)."""
    t = np.arange(_TABLE + 1, dtype=np.float64) / _TABLE
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a
    return np.stack([near, far], axis=1).astype(_F)


_CUBIC = {True: _cubic_table(-0.5), False: _cubic_table(-0.75)}


def _bicubic_matrix(out_size: int, in_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """[out, in] weights of the four taps of each output sample (repeated edge taps add up)."""
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=_F)
    pos = (i + _F(0.5)) * scale - _F(0.5) if half_pixel else i * scale
    base = np.floor(pos).astype(np.int64)
    offset = np.rint((pos - base.astype(_F)) * _F(_TABLE)).astype(np.int64)
    table = _CUBIC[half_pixel]
    weights = np.stack([table[offset, 1], table[offset, 0], table[_TABLE - offset, 0],
                        table[_TABLE - offset, 1]], axis=1)
    taps = base[:, None] + np.arange(-1, 3)[None, :]
    bounded = np.clip(taps, 0, in_size - 1)
    if half_pixel:
        # Keys' variant gives taps outside the image no weight and renormalises the rest.
        weights = np.where(bounded == taps, weights, _F(0))
        total = weights.sum(axis=1, dtype=_F, keepdims=True)
        ok = np.abs(total) >= 1000.0 * np.finfo(_F).tiny
        weights = np.where(ok, weights * (_F(1) / np.where(ok, total, _F(1))), weights)
    mat = np.zeros((out_size, in_size), dtype=_F)
    np.add.at(mat, (np.repeat(np.arange(out_size), 4), bounded.ravel()), weights.ravel())
    return mat


def _area_matrix(out_size: int, in_size: int, align_corners: bool) -> np.ndarray:
    """[out, in] fraction of each source pixel inside each output pixel's footprint."""
    scale = np.float64(_scale(in_size, out_size, align_corners))
    start = np.arange(out_size) * scale
    end = start + scale
    src = np.arange(in_size)
    # source pixel j spans [j, j + 1); past the image the last pixel repeats
    lo = np.maximum(src[None, :], start[:, None])
    hi = np.minimum(src[None, :] + 1.0, end[:, None])
    mat = np.maximum(hi - lo, 0.0)
    over = np.maximum(np.ceil(end) - in_size, 0).astype(np.int64)
    for k in np.nonzero(over)[0]:
        extra = np.arange(in_size, int(np.ceil(end[k])))
        mat[k, in_size - 1] += np.maximum(np.minimum(extra + 1.0, end[k]) - np.maximum(extra, start[k]), 0).sum()
    return (mat / scale).astype(_F)


def _separable(x: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """out[n, i, j, c] = sum rows[i, y] * cols[j, x] * x[n, y, x, c], columns first as TensorFlow's kernels."""
    img = x.astype(_F, copy=False)
    n, y, w, c = img.shape
    # two large BLAS products: over columns with (n, y, c) as rows, then over rows with (c, out_w) as columns
    tmp = img.transpose(0, 1, 3, 2).reshape(-1, w) @ cols.T  # [(n, y, c), out_w]
    out = np.matmul(rows, tmp.reshape(n, y, -1))  # [n, out_h, (c, out_w)]
    return np.ascontiguousarray(out.reshape(n, rows.shape[0], c, cols.shape[0]).transpose(0, 1, 3, 2))


# -------------------------------------------------------------------------------------------- resizes

def resize_bilinear(images: np.ndarray, size: Sequence[int], align_corners: bool = False,
                    half_pixel_centers: bool = False) -> np.ndarray:
    """Bilinear resize of NHWC (or HWC) images to size = (height, width); float32 result."""
    x, single, oh, ow = _resize_args(images, size, align_corners, half_pixel_centers)
    img = x.astype(_F, copy=False)
    y0, y1, wy = _bilinear_axis(oh, x.shape[1], align_corners, half_pixel_centers)
    x0, x1, wx = _bilinear_axis(ow, x.shape[2], align_corners, half_pixel_centers)
    wx = wx[None, None, :, None]
    rows0, rows1 = img[:, y0], img[:, y1]
    top = rows0[:, :, x0] + (rows0[:, :, x1] - rows0[:, :, x0]) * wx
    bottom = rows1[:, :, x0] + (rows1[:, :, x1] - rows1[:, :, x0]) * wx
    out = top + (bottom - top) * wy[None, :, None, None]
    return out[0] if single else out


def resize_bilinear_grad(grads: np.ndarray, original: np.ndarray, align_corners: bool = False,
                         half_pixel_centers: bool = False) -> np.ndarray:
    """The gradient of resize_bilinear with respect to its NHWC images (in the images' dtype)."""
    check_flags(align_corners, half_pixel_centers)
    n, ih, iw, c = original.shape
    oh, ow = grads.shape[1:3]
    y0, y1, wy = _bilinear_axis(oh, ih, align_corners, half_pixel_centers)
    x0, x1, wx = _bilinear_axis(ow, iw, align_corners, half_pixel_centers)
    g = grads.astype(_F, copy=False)
    # Collapse columns first (W), then rows (H), each a scatter-add with the two lerp weights.
    cols = np.zeros((n, oh, iw, c), dtype=_F)
    np.add.at(cols, (slice(None), slice(None), x0), g * (1 - wx)[None, None, :, None])
    np.add.at(cols, (slice(None), slice(None), x1), g * wx[None, None, :, None])
    out = np.zeros((n, ih, iw, c), dtype=_F)
    np.add.at(out, (slice(None), y0), cols * (1 - wy)[None, :, None, None])
    np.add.at(out, (slice(None), y1), cols * wy[None, :, None, None])
    return out.astype(original.dtype, copy=False)


def resize_nearest(images: np.ndarray, size: Sequence[int], align_corners: bool = False,
                   half_pixel_centers: bool = False) -> np.ndarray:
    """Nearest-neighbour resize of NHWC (or HWC) images (same dtype)."""
    x, single, oh, ow = _resize_args(images, size)
    ys = _nearest_axis(oh, x.shape[1], align_corners, half_pixel_centers)
    xs = _nearest_axis(ow, x.shape[2], align_corners, half_pixel_centers)
    out = x[:, ys][:, :, xs]
    return out[0] if single else out


def resize_nearest_grad(grads: np.ndarray, size: Sequence[int], align_corners: bool = False,
                        half_pixel_centers: bool = False) -> np.ndarray:
    """The gradient of resize_nearest: each output gradient added to the pixel it was copied from."""
    ih, iw = check_size(size)
    n, oh, ow, c = grads.shape
    ys = _nearest_axis(oh, ih, align_corners, half_pixel_centers)
    xs = _nearest_axis(ow, iw, align_corners, half_pixel_centers)
    cols = np.zeros((n, oh, iw, c), dtype=grads.dtype)
    np.add.at(cols, (slice(None), slice(None), xs), grads)
    out = np.zeros((n, ih, iw, c), dtype=grads.dtype)
    np.add.at(out, (slice(None), ys), cols)
    return out


def resize_bicubic(images: np.ndarray, size: Sequence[int], align_corners: bool = False,
                   half_pixel_centers: bool = False) -> np.ndarray:
    """Bicubic resize of NHWC (or HWC) images; float32 result."""
    x, single, oh, ow = _resize_args(images, size, align_corners, half_pixel_centers)
    rows = _bicubic_matrix(oh, x.shape[1], align_corners, half_pixel_centers)
    cols = _bicubic_matrix(ow, x.shape[2], align_corners, half_pixel_centers)
    out = _separable(x, rows, cols)
    return out[0] if single else out


def resize_bicubic_grad(grads: np.ndarray, original: np.ndarray, align_corners: bool = False,
                        half_pixel_centers: bool = False) -> np.ndarray:
    """The gradient of resize_bicubic with respect to its NHWC images (in the images' dtype)."""
    check_flags(align_corners, half_pixel_centers)
    rows = _bicubic_matrix(grads.shape[1], original.shape[1], align_corners, half_pixel_centers)
    cols = _bicubic_matrix(grads.shape[2], original.shape[2], align_corners, half_pixel_centers)
    return _separable(grads, rows.T, cols.T).astype(original.dtype, copy=False)


def resize_area(images: np.ndarray, size: Sequence[int], align_corners: bool = False) -> np.ndarray:
    """Area (box-average) resize of NHWC (or HWC) images; float32 result."""
    x, single, oh, ow = _resize_args(images, size)
    out = _separable(x, _area_matrix(oh, x.shape[1], align_corners), _area_matrix(ow, x.shape[2], align_corners))
    return out[0] if single else out


# ------------------------------------------------------------------------------------ crops and scaling

def crop(images: np.ndarray, offset_height: int, offset_width: int, target_height: int,
         target_width: int) -> np.ndarray:
    """The target_height x target_width window at (offset_height, offset_width) of HWC or NHWC images."""
    x, single = _batched(images)
    if offset_height < 0 or offset_width < 0:
        raise ValueError("offset_height must be >= 0." if offset_height < 0 else "offset_width must be >= 0.")
    if target_height <= 0 or target_width <= 0:
        raise ValueError("target_height must be > 0." if target_height <= 0 else "target_width must be > 0.")
    if x.shape[2] < target_width + offset_width:
        raise ValueError("width must be >= target + offset.")
    if x.shape[1] < target_height + offset_height:
        raise ValueError("height must be >= target + offset.")
    out = x[:, offset_height:offset_height + target_height, offset_width:offset_width + target_width]
    return out[0] if single else out


def central_crop(images: np.ndarray, central_fraction: float) -> np.ndarray:
    """The centre of HWC or NHWC images keeping central_fraction in (0, 1] of height and width."""
    if not 0.0 < central_fraction <= 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    x, single = _batched(images)
    h, w = x.shape[1:3]
    top = int((h - h * central_fraction) / 2)
    left = int((w - w * central_fraction) / 2)
    out = x[:, top:h - top, left:w - left]
    return out[0] if single else out


def normalize(images: np.ndarray, mean: Sequence[float] = 0.0, std: Sequence[float] = 1.0) -> np.ndarray:
    """(images - mean) / std per channel in float32: the usual model input scaling."""
    x = np.asarray(images).astype(_F)
    return (x - np.asarray(mean, dtype=_F)) / np.asarray(std, dtype=_F)


def per_image_standardization(images: np.ndarray) -> np.ndarray:
    """(x - mean) / max(stddev, 1 / sqrt(N)) over each image's last three dimensions (float32)."""
    x = np.asarray(images).astype(_F)
    axes = (-3, -2, -1)
    n = np.prod(x.shape[-3:])
    mean = x.mean(axis=axes, keepdims=True, dtype=_F)
    std = np.sqrt(np.maximum(np.square(x - mean).mean(axis=axes, keepdims=True, dtype=_F), 0))
    return (x - mean) / np.maximum(std, _F(1.0 / np.sqrt(n)))


# ------------------------------------------------------------------------------------------------- NMS

def _corners(boxes: np.ndarray) -> tuple:
    """ymin, xmin, ymax, xmax and area of [..., 4] boxes given with either corner first."""
    b = boxes.astype(_F, copy=False)
    ymin, ymax = np.minimum(b[..., 0], b[..., 2]), np.maximum(b[..., 0], b[..., 2])
    xmin, xmax = np.minimum(b[..., 1], b[..., 3]), np.maximum(b[..., 1], b[..., 3])
    return ymin, xmin, ymax, xmax, (ymax - ymin) * (xmax - xmin)


def box_iou(boxes: np.ndarray, one: int, others: np.ndarray) -> np.ndarray:
    """IoU of box `one` with boxes `others` (indices), 0 where either box is empty, as TensorFlow's kernel."""
    ymin, xmin, ymax, xmax, area = _corners(boxes)
    iy = np.maximum(np.minimum(ymax[one], ymax[others]) - np.maximum(ymin[one], ymin[others]), _F(0))
    ix = np.maximum(np.minimum(xmax[one], xmax[others]) - np.maximum(xmin[one], xmin[others]), _F(0))
    inter = iy * ix
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[one] + area[others] - inter)
    return np.where((area[one] <= 0) | (area[others] <= 0), _F(0), iou).astype(_F)


def _check_nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> None:
    if boxes.ndim != 2:
        raise ValueError(f"boxes must be 2-D{list(boxes.shape)}")
    if boxes.shape[1] != 4:
        raise ValueError(f"boxes must have 4 columns (Dimension must be 4 but is {boxes.shape[1]})")
    if scores.ndim != 1:
        raise ValueError(f"scores must be 1-D{list(scores.shape)}")
    if scores.shape[0] != boxes.shape[0]:
        raise ValueError("scores has incompatible shape (Dimensions must be equal, but are "
                         f"{boxes.shape[0]} and {scores.shape[0]})")
    if not 0.0 <= iou_threshold <= 1.0:
        raise ValueError("iou_threshold must be in [0, 1]")


def _score_order(scores: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Indices of the kept scores, highest first, ties in index order."""
    idx = np.nonzero(keep)[0]
    return idx[np.argsort(-scores[idx], kind="stable")]


def non_max_suppression(boxes: np.ndarray, scores: np.ndarray, max_output_size: int, iou_threshold: float = 0.5,
                        score_threshold: float = float("-inf"), soft_nms_sigma: float = 0.0,
                        overlaps: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Greedy (or, with soft_nms_sigma > 0, Gaussian soft) NMS: selected indices (int32) and their scores.

    A box is dropped when its IoU with a selected box exceeds iou_threshold or its score falls to
    score_threshold or below. With `overlaps` ([N, N]) the given similarities replace the IoU.
    """
    boxes = np.asarray(boxes)
    scores = np.asarray(scores, dtype=_F)
    if overlaps is None:
        _check_nms(boxes, scores, iou_threshold)
    if soft_nms_sigma < 0:
        raise ValueError("soft_nms_sigma_val must be >= 0")
    thr, score_thr = _F(iou_threshold), _F(score_threshold)
    soft = soft_nms_sigma > 0
    scale = _F(-0.5 / soft_nms_sigma) if soft else _F(0)

    def similarity(i: int, selected: list) -> np.ndarray:
        sel = np.asarray(selected, dtype=np.int64)
        return overlaps[i, sel].astype(_F) if overlaps is not None else box_iou(boxes, i, sel)

    order = _score_order(scores, scores > score_thr)
    selected: list = []
    selected_scores: list = []
    if not soft:
        for i in order:
            if len(selected) >= max_output_size:
                break
            if not selected or not np.any(similarity(int(i), selected) > thr):
                selected.append(int(i))
                selected_scores.append(scores[i])
        return np.asarray(selected, np.int32), np.asarray(selected_scores, _F)
    # Soft NMS: a candidate decayed by a selected box goes back into the queue with its new score.
    queue = [(-scores[i], int(i), 0) for i in order]  # (negated score, index, first selected box not yet applied)
    heapq.heapify(queue)
    while queue and len(selected) < max_output_size:
        neg, i, begin = heapq.heappop(queue)
        score = original = _F(-neg)
        if begin < len(selected):
            sims = similarity(i, selected[begin:])[::-1]
            for s in sims:
                score = _F(score * (np.exp(scale * s * s, dtype=_F) if s <= thr else _F(0)))
                if score <= score_thr:
                    break
        if score == original:
            selected.append(i)
            selected_scores.append(score)
        elif score > score_thr:
            heapq.heappush(queue, (-score, i, len(selected)))
    return np.asarray(selected, np.int32), np.asarray(selected_scores, _F)


def non_max_suppression_padded(boxes: np.ndarray, scores: np.ndarray, max_output_size: int,
                               iou_threshold: float = 0.5, score_threshold: float = float("-inf")
                               ) -> Tuple[np.ndarray, np.ndarray]:
    """TensorFlow's batched padded NMS over [..., N, 4] boxes: indices [..., max_output_size] (0 past the
    valid ones) and the number valid per batch.

    It orders by score, zeroes boxes at or under score_threshold, suppresses at IoU >= iou_threshold
    (union + 1e-8), and counts a kept box only if one of its coordinates is positive.
    """
    boxes = np.asarray(boxes, dtype=_F)
    scores = np.asarray(scores, dtype=_F)
    batch_shape = boxes.shape[:-2]
    n = boxes.shape[-2]
    b = boxes.reshape(-1, n, 4)
    s = scores.reshape(-1, n)
    if score_threshold != float("-inf"):
        mask = (s > _F(score_threshold)).astype(_F)
        s = s * mask
        b = b * mask[..., None]
    if b.shape[0] and n:
        # the corner order is decided by the first box of the first batch, as TensorFlow does
        if not b[0, 0, 0] <= b[0, 0, 2]:
            b = b[..., [2, 1, 0, 3]]
        if not b[0, 0, 1] <= b[0, 0, 3]:
            b = b[..., [0, 3, 2, 1]]
    thr = _F(iou_threshold)
    out = np.zeros((b.shape[0], max_output_size), np.int32)
    valid = np.zeros(b.shape[0], np.int32)
    for k in range(b.shape[0]):
        order = np.argsort(-s[k], kind="stable")
        bs = b[k, order]
        area = (bs[:, 2] - bs[:, 0]) * (bs[:, 3] - bs[:, 1])
        alive = np.ones(n, bool)
        picked = []
        for i in range(n):
            if len(picked) >= max_output_size:
                break
            prev = np.nonzero(alive[:i])[0]
            if prev.size:
                iy = np.maximum(np.minimum(bs[i, 2], bs[prev, 2]) - np.maximum(bs[i, 0], bs[prev, 0]), _F(0))
                ix = np.maximum(np.minimum(bs[i, 3], bs[prev, 3]) - np.maximum(bs[i, 1], bs[prev, 1]), _F(0))
                inter = ix * iy
                iou = inter / (area[i] + area[prev] - inter + _F(1e-8))
                if np.any(iou >= thr):
                    alive[i] = False
                    continue
            if np.any(bs[i] > 0):
                picked.append(int(order[i]))
        valid[k] = len(picked)
        out[k, :len(picked)] = picked
    return out.reshape(batch_shape + (max_output_size,)), valid.reshape(batch_shape)


def combined_non_max_suppression(boxes: np.ndarray, scores: np.ndarray, max_output_size_per_class: int,
                                 max_total_size: int, iou_threshold: float = 0.5,
                                 score_threshold: float = float("-inf"), pad_per_class: bool = False,
                                 clip_boxes: bool = True) -> tuple:
    """Per-class greedy NMS then the best max_total_size over all classes, per batch element.

    boxes [B, N, q, 4] (q is 1 or the number of classes), scores [B, N, classes]. Returns boxes
    [B, T, 4], scores [B, T], classes [B, T] (float) and the valid count [B] (int32), zero-padded.
    """
    boxes = np.asarray(boxes, dtype=_F)
    scores = np.asarray(scores, dtype=_F)
    if max_total_size <= 0:
        raise ValueError("max_total_size must be > 0")
    if not 0.0 <= iou_threshold <= 1.0:
        raise ValueError("iou_threshold must be in [0, 1]")
    batch, _, q, _ = boxes.shape
    classes = scores.shape[2]
    total = min(max_total_size, max_output_size_per_class * classes) if pad_per_class else max_total_size
    out_boxes = np.zeros((batch, total, 4), _F)
    out_scores = np.zeros((batch, total), _F)
    out_classes = np.zeros((batch, total), _F)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        picks = []  # (score, class, box index)
        for c in range(classes):
            cls_boxes = boxes[b, :, c if q > 1 else 0]
            sel, sel_scores = non_max_suppression(cls_boxes, scores[b, :, c], max_output_size_per_class,
                                                  iou_threshold, score_threshold)
            picks += [(float(sc), c, int(i)) for i, sc in zip(sel, sel_scores)]
        picks.sort(key=lambda p: -p[0])
        picks = picks[:total]
        valid[b] = len(picks)
        for k, (sc, c, i) in enumerate(picks):
            box = boxes[b, i, c if q > 1 else 0]
            out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_scores[b, k] = sc
            out_classes[b, k] = c
    return out_boxes, out_scores, out_classes, valid


# ------------------------------------------------------------------------------------------ crop_and_resize

def _round_half_away(x: np.ndarray) -> np.ndarray:
    """C's roundf for non-negative x, exactly (adding 0.5 in float32 can carry)."""
    f = np.floor(x)
    return (f + ((x - f) >= 0.5)).astype(np.int64)


def _crop_axis(lo: np.ndarray, hi: np.ndarray, size: int, in_size: int) -> np.ndarray:
    """[boxes, size] float32 source coordinates of each box's samples along one axis."""
    lo = lo.astype(_F)[:, None]
    hi = hi.astype(_F)[:, None]
    if size > 1:
        scale = (hi - lo) * _F(in_size - 1) / _F(size - 1)
        return lo * _F(in_size - 1) + np.arange(size, dtype=_F)[None, :] * scale
    return np.broadcast_to(_F(0.5) * (lo + hi) * _F(in_size - 1), (lo.shape[0], 1)).astype(_F)


def _check_crop(image: np.ndarray, boxes: np.ndarray, box_indices: np.ndarray, crop_size: Sequence[int]) -> tuple:
    if image.ndim != 4:
        raise ValueError(f"input image must be 4-D{list(image.shape)}")
    if image.shape[1] <= 0 or image.shape[2] <= 0:
        raise ValueError("image dimensions must be positive")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"boxes must be 2-D[num_boxes, 4]{list(boxes.shape)}")
    if box_indices.ndim != 1 or box_indices.shape[0] != boxes.shape[0]:
        raise ValueError(f"box_index has incompatible shape{list(box_indices.shape)}")
    size = np.asarray(crop_size)
    if size.shape != (2,):
        raise ValueError(f"crop_size must be 1-D with 2 elements{list(size.shape)}")
    ch, cw = int(size[0]), int(size[1])
    if ch <= 0 or cw <= 0:
        raise ValueError("crop dimensions must be positive")
    if np.any((box_indices < 0) | (box_indices >= image.shape[0])):
        raise IndexError("box_index has values outside [0, batch_size)")
    return ch, cw


def _crop_grid(image_shape: tuple, boxes: np.ndarray, ch: int, cw: int) -> tuple:
    ih, iw = image_shape[1:3]
    ys = _crop_axis(boxes[:, 0], boxes[:, 2], ch, ih)
    xs = _crop_axis(boxes[:, 1], boxes[:, 3], cw, iw)
    valid = ((ys >= 0) & (ys <= ih - 1))[:, :, None] & ((xs >= 0) & (xs <= iw - 1))[:, None, :]
    return ys, xs, valid


def crop_and_resize(image: np.ndarray, boxes: np.ndarray, box_indices: np.ndarray, crop_size: Sequence[int],
                    method: str = "bilinear", extrapolation_value: float = 0.0) -> np.ndarray:
    """Crops of normalised boxes [y1, x1, y2, x2] from NHWC images, each resized to crop_size (float32).

    Samples falling outside the image take extrapolation_value; box y1 > y2 flips the crop.
    """
    image = np.asarray(image)
    boxes = np.asarray(boxes, _F)
    box_indices = np.asarray(box_indices)
    ch, cw = _check_crop(image, boxes, box_indices, crop_size)
    ih, iw = image.shape[1:3]
    ys, xs, valid = _crop_grid(image.shape, boxes, ch, cw)
    src = image.astype(_F, copy=False)
    n = box_indices.astype(np.int64)[:, None, None]  # gathers read each box's own image
    if method == "nearest":
        yi = np.clip(_round_half_away(np.maximum(ys, 0)), 0, ih - 1)[:, :, None]
        xi = np.clip(_round_half_away(np.maximum(xs, 0)), 0, iw - 1)[:, None, :]
        out = src[n, yi, xi]
    else:
        yc = np.clip(ys, 0, ih - 1)
        xc = np.clip(xs, 0, iw - 1)
        y0, x0 = np.floor(yc).astype(np.int64), np.floor(xc).astype(np.int64)
        y1, x1 = np.ceil(yc).astype(np.int64), np.ceil(xc).astype(np.int64)
        wy = (ys - np.floor(ys)).astype(_F)[:, :, None, None]
        wx = (xs - np.floor(xs)).astype(_F)[:, None, :, None]
        top_l, top_r = src[n, y0[:, :, None], x0[:, None, :]], src[n, y0[:, :, None], x1[:, None, :]]
        bot_l, bot_r = src[n, y1[:, :, None], x0[:, None, :]], src[n, y1[:, :, None], x1[:, None, :]]
        top = top_l + (top_r - top_l) * wx
        bottom = bot_l + (bot_r - bot_l) * wx
        out = top + (bottom - top) * wy
    return np.where(valid[..., None], out, _F(extrapolation_value)).astype(_F)


def crop_and_resize_grad_image(grads: np.ndarray, boxes: np.ndarray, box_indices: np.ndarray,
                               image_size: Sequence[int], method: str = "bilinear") -> np.ndarray:
    """The gradient of crop_and_resize with respect to the image (shape image_size = [N, H, W, C])."""
    grads = np.asarray(grads, _F)
    boxes = np.asarray(boxes, _F)
    box_indices = np.asarray(box_indices)
    b, ih, iw, c = (int(v) for v in image_size)
    if ih <= 0 or iw <= 0:
        raise ValueError("image dimensions must be positive")
    ch, cw = grads.shape[1:3]
    ys, xs, valid = _crop_grid((b, ih, iw, c), boxes, ch, cw)
    g = np.where(valid[..., None], grads, _F(0))
    out = np.zeros((b, ih, iw, c), _F)
    bi = np.broadcast_to(box_indices[:, None, None], valid.shape)
    if method == "nearest":
        yi = np.clip(_round_half_away(np.maximum(ys, 0)), 0, ih - 1)[:, :, None]
        xi = np.clip(_round_half_away(np.maximum(xs, 0)), 0, iw - 1)[:, None, :]
        np.add.at(out, (bi, np.broadcast_to(yi, valid.shape), np.broadcast_to(xi, valid.shape)), g)
        return out
    yc, xc = np.clip(ys, 0, ih - 1), np.clip(xs, 0, iw - 1)
    y0, x0 = np.floor(yc).astype(np.int64), np.floor(xc).astype(np.int64)
    y1, x1 = np.ceil(yc).astype(np.int64), np.ceil(xc).astype(np.int64)
    wy = (ys - np.floor(ys)).astype(_F)[:, :, None, None]
    wx = (xs - np.floor(xs)).astype(_F)[:, None, :, None]
    d_top, d_bottom = (1 - wy) * g, wy * g
    for rows, d in ((y0, d_top), (y1, d_bottom)):
        r = np.broadcast_to(rows[:, :, None], valid.shape)
        np.add.at(out, (bi, r, np.broadcast_to(x0[:, None, :], valid.shape)), (1 - wx) * d)
        np.add.at(out, (bi, r, np.broadcast_to(x1[:, None, :], valid.shape)), wx * d)
    return out


def crop_and_resize_grad_boxes(grads: np.ndarray, image: np.ndarray, boxes: np.ndarray,
                               box_indices: np.ndarray) -> np.ndarray:
    """The gradient of (bilinear) crop_and_resize with respect to the boxes, [num_boxes, 4]."""
    grads = np.asarray(grads, _F)
    boxes = np.asarray(boxes, _F)
    image = np.asarray(image)
    ih, iw = image.shape[1:3]
    ch, cw = grads.shape[1:3]
    ys, xs, valid = _crop_grid(image.shape, boxes, ch, cw)
    src = image.astype(_F, copy=False)
    n = np.asarray(box_indices).astype(np.int64)[:, None, None]
    yc, xc = np.clip(ys, 0, ih - 1), np.clip(xs, 0, iw - 1)
    y0, x0 = np.floor(yc).astype(np.int64)[:, :, None], np.floor(xc).astype(np.int64)[:, None, :]
    y1, x1 = np.ceil(yc).astype(np.int64)[:, :, None], np.ceil(xc).astype(np.int64)[:, None, :]
    wy = (ys - np.floor(ys)).astype(_F)[:, :, None, None]
    wx = (xs - np.floor(xs)).astype(_F)[:, None, :, None]
    tl, tr, bl, br = src[n, y0, x0], src[n, y0, x1], src[n, y1, x0], src[n, y1, x1]
    g = np.where(valid[..., None], grads, _F(0))
    dy_img = ((1 - wx) * (bl - tl) + wx * (br - tr)) * g
    dx_img = ((1 - wy) * (tr - tl) + wy * (br - bl)) * g
    sy = dy_img.sum(axis=(2, 3), dtype=np.float64)  # [boxes, ch]
    sx = dx_img.sum(axis=(1, 3), dtype=np.float64)  # [boxes, cw]
    out = np.zeros((boxes.shape[0], 4), np.float64)
    for k_lo, k_hi, s, size, in_size in ((0, 2, sy, ch, ih), (1, 3, sx, cw, iw)):
        if size > 1:
            ratio = np.float64(in_size - 1) / np.float64(size - 1)
            pos = np.arange(size) * ratio
            out[:, k_lo] = (s * (in_size - 1 - pos)).sum(axis=1)
            out[:, k_hi] = (s * pos).sum(axis=1)
        else:
            out[:, k_lo] = out[:, k_hi] = (s * 0.5 * (in_size - 1)).sum(axis=1)
    return out.astype(_F)


# ------------------------------------------------------------------------- TF2 resize (ScaleAndTranslate)

def _lanczos(radius: float):
    def k(x: np.ndarray) -> np.ndarray:
        x = np.abs(x).astype(_F)
        pi = _F(3.14159265359)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = _F(radius) * np.sin(pi * x) * np.sin(pi * x / _F(radius)) / (pi * pi * x * x)
        return np.where(x > radius, _F(0), np.where(x <= _F(1e-3), _F(1), v)).astype(_F)
    return k, float(radius)


def _gaussian(x: np.ndarray) -> np.ndarray:
    x = np.abs(x).astype(_F)
    sigma = _F(1.5) / _F(3.0)
    return np.where(x >= _F(1.5), _F(0), np.exp(-x * x / (_F(2) * sigma * sigma))).astype(_F)


def _triangle(x: np.ndarray) -> np.ndarray:
    x = np.abs(x).astype(_F)
    return np.where(x < 1, _F(1) - x, _F(0)).astype(_F)


def _keys_cubic(x: np.ndarray) -> np.ndarray:
    x = np.abs(x).astype(_F)
    far = ((_F(-0.5) * x + _F(2.5)) * x - _F(4.0)) * x + _F(2.0)
    near = ((_F(1.5) * x - _F(2.5)) * x) * x + _F(1.0)
    return np.where(x >= 2, _F(0), np.where(x >= 1, far, near)).astype(_F)


def _mitchell_cubic(x: np.ndarray) -> np.ndarray:
    x = np.abs(x).astype(_F)
    far = (((_F(-7.0) / _F(18.0)) * x + _F(2.0)) * x - _F(10.0) / _F(3.0)) * x + _F(16.0) / _F(9.0)
    near = (((_F(7.0) / _F(6.0)) * x - _F(2.0)) * x) * x + _F(8.0) / _F(9.0)
    return np.where(x >= 2, _F(0), np.where(x >= 1, far, near)).astype(_F)


_SAMPLING_KERNELS = {"lanczos3": _lanczos(3), "lanczos5": _lanczos(5), "gaussian": (_gaussian, 1.5),
                     "triangle": (_triangle, 1.0), "keyscubic": (_keys_cubic, 2.0),
                     "mitchellcubic": (_mitchell_cubic, 2.0)}


def _span_matrix(out_size: int, in_size: int, scale: np.float32, kernel: str, antialias: bool) -> np.ndarray:
    """[out, in] normalised filter weights of TF's ScaleAndTranslate along one axis (translation 0)."""
    fn, radius = _SAMPLING_KERNELS[kernel]
    inv_scale = _F(1.0) / _F(scale)
    kernel_scale = max(inv_scale, _F(1)) if antialias else _F(1)
    sample = (np.arange(out_size, dtype=_F) + _F(0.5)) * inv_scale
    reach = _F(radius) * kernel_scale
    start = np.clip(np.ceil(sample - reach - _F(0.5)), 0, in_size - 1).astype(np.int64)
    end = np.clip(np.floor(sample + reach - _F(0.5)), 0, in_size - 1).astype(np.int64) + 1
    src = np.arange(in_size)
    inside = (src[None, :] >= start[:, None]) & (src[None, :] < end[:, None])
    pos = (src[None, :].astype(_F) + _F(0.5) - sample[:, None]) * (_F(1) / kernel_scale)
    w = np.where(inside, fn(pos), _F(0))
    total = w.sum(axis=1, dtype=_F, keepdims=True)
    ok = np.abs(total) >= _F(1000.0) * np.finfo(_F).tiny
    w = np.where(ok, w * (_F(1) / np.where(ok, total, _F(1))), _F(0))
    valid = (sample >= 0) & (sample <= in_size)
    return np.where(valid[:, None], w, _F(0)).astype(_F)


def scale_and_translate(images: np.ndarray, size: Sequence[int], kernel: str = "lanczos3",
                        antialias: bool = True) -> np.ndarray:
    """TF's ScaleAndTranslate with scale = size / input size and no translation: a separable filter resize
    (kernels lanczos3, lanczos5, gaussian, triangle, keyscubic, mitchellcubic), widened when antialias
    is set and the image shrinks. Float32 NHWC (or HWC) result."""
    if kernel not in _SAMPLING_KERNELS:
        raise ValueError(f"Unrecognized kernel type: {kernel}")
    x, single, oh, ow = _resize_args(images, size)
    ih, iw = x.shape[1:3]
    rows = _span_matrix(oh, ih, _F(oh) / _F(ih), kernel, antialias)
    cols = _span_matrix(ow, iw, _F(ow) / _F(iw), kernel, antialias)
    out = _separable(x, rows, cols)
    return out[0] if single else out


def resize(images: np.ndarray, size: Sequence[int], method: str = "bilinear", antialias: bool = False) -> np.ndarray:
    """TensorFlow 2's tf.image.resize (half-pixel centres): bilinear, nearest, bicubic, area, lanczos3, lanczos5,
    gaussian, mitchellcubic; float32 except nearest, which keeps the dtype."""
    if method == "nearest":
        return resize_nearest(images, size, half_pixel_centers=True)
    if method == "area":
        return resize_area(images, size)
    if method in ("bilinear", "bicubic") and not antialias:
        fn = resize_bilinear if method == "bilinear" else resize_bicubic
        return fn(images, size, half_pixel_centers=True)
    kernel = {"bilinear": "triangle", "bicubic": "keyscubic"}.get(method, method)
    if kernel not in _SAMPLING_KERNELS:
        raise ValueError(f"Resize method is not implemented: {method}")
    return scale_and_translate(images, size, kernel, antialias)
