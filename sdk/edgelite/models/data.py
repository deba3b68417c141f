"""Data for the recipes: the real 8x8 digits set from scikit-learn, and clearly labelled synthetic stand-ins.

The digits are the UCI "Optical Recognition of Handwritten Digits" test set (1797 8x8 images, 10 classes) that
scikit-learn ships. The synthetic generators make shape-correct, learnable data for recipes whose real data
(speech commands, CIFAR-10, Visual Wake Words, machine sounds) does not come with a package: each class is a
smooth random prototype, and each sample is its class prototype, randomly scaled, plus Gaussian noise. They
exercise training, conversion and quantization end to end; accuracy on them says nothing about real data.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from edgelite.models.recipe import Dataset

DIGITS_SOURCE = "scikit-learn digits (UCI optical recognition of handwritten digits, 1797 8x8 images)"


def _load_digits() -> Tuple[np.ndarray, np.ndarray]:
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise RuntimeError("the digits data set comes with scikit-learn: pip install scikit-learn") from None
    digits = load_digits()
    return (digits.images / 16.0).astype(np.float32), digits.target.astype(np.int64)


def _stratified_split(y: np.ndarray, test_fraction: float, seed: int) -> Tuple[np.ndarray, np.ndarray]:
    """Train/test indices with each class split in the same proportion (a fixed seed gives a fixed split)."""
    rng = np.random.default_rng(seed)
    train, test = [], []
    for label in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == label))
        n_test = int(round(len(idx) * test_fraction))
        test.append(idx[:n_test])
        train.append(idx[n_test:])
    return rng.permutation(np.concatenate(train)), rng.permutation(np.concatenate(test))


def digits(seed: int = 0, image_size: int = 8, flatten: bool = False) -> Dataset:
    """The digits scaled to [0, 1], 80/20 stratified split; NHWC [N, size, size, 1], or [N, size*size] if flatten."""
    images, labels = _load_digits()
    if image_size != 8:
        images = resize_bilinear(images, image_size)
    x = images.reshape(len(images), -1) if flatten else images[..., None]
    train, test = _stratified_split(labels, 0.2, seed)
    source = DIGITS_SOURCE if image_size == 8 else f"{DIGITS_SOURCE}, resized to {image_size}x{image_size}"
    return Dataset(x[train], labels[train], x[test], labels[test], source=source, synthetic=False)


def resize_bilinear(images: np.ndarray, size: int) -> np.ndarray:
    """Resize [N, H, W] images to [N, size, size] by bilinear interpolation with aligned corners."""
    n, h, w = images.shape
    ys = np.linspace(0.0, h - 1.0, size)
    xs = np.linspace(0.0, w - 1.0, size)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1 = np.minimum(y0 + 1, h - 1)
    x1 = np.minimum(x0 + 1, w - 1)
    fy = (ys - y0)[None, :, None]
    fx = (xs - x0)[None, None, :]
    top = images[:, y0][:, :, x0] * (1 - fx) + images[:, y0][:, :, x1] * fx
    bottom = images[:, y1][:, :, x0] * (1 - fx) + images[:, y1][:, :, x1] * fx
    return (top * (1 - fy) + bottom * fy).astype(np.float32)


def _smooth_field(rng: np.random.Generator, shape: Tuple[int, ...]) -> np.ndarray:
    """A random field that varies slowly along the two leading axes (a coarse noise grid, nearest-upsampled)."""
    coarse_shape = tuple(max(2, (d + 3) // 4) for d in shape[:2]) + tuple(shape[2:])
    coarse = rng.standard_normal(coarse_shape)
    idx = [np.minimum((np.arange(d) * coarse_shape[k]) // d, coarse_shape[k] - 1) for k, d in enumerate(shape[:2])]
    field = coarse[idx[0]][:, idx[1]] if len(shape) > 1 else coarse[idx[0]]
    return field.astype(np.float32)


def synthetic_classes(shape: Tuple[int, ...], num_classes: int, n_train: int = 512, n_test: int = 128,
                      noise: float = 0.5, seed: int = 0) -> Dataset:
    """SYNTHETIC classification data of per-sample `shape`: class prototype * U(0.7, 1.3) + N(0, noise^2)."""
    rng = np.random.default_rng(seed)
    prototypes = np.stack([_smooth_field(rng, shape) for _ in range(num_classes)])
    labels = rng.integers(0, num_classes, n_train + n_test).astype(np.int64)
    scale = rng.uniform(0.7, 1.3, (n_train + n_test,) + (1,) * len(shape)).astype(np.float32)
    x = prototypes[labels] * scale + noise * rng.standard_normal((n_train + n_test, *shape)).astype(np.float32)
    source = (f"SYNTHETIC stand-in data: {num_classes} classes of shape {list(shape)}, class prototype plus "
              f"noise (not real data)")
    return Dataset(x[:n_train], labels[:n_train], x[n_train:], labels[n_train:], source=source, synthetic=True)


def synthetic_manifold(dim: int, latent: int = 8, n_train: int = 1024, n_test: int = 256, noise: float = 0.05,
                       seed: int = 0) -> Dataset:
    """SYNTHETIC reconstruction data: tanh of a random linear map of `latent`-dimensional Gaussians, plus noise."""
    rng = np.random.default_rng(seed)
    mixing = rng.standard_normal((latent, dim)).astype(np.float32) / np.sqrt(latent)
    z = rng.standard_normal((n_train + n_test, latent)).astype(np.float32)
    x = np.tanh(z @ mixing) + noise * rng.standard_normal((n_train + n_test, dim)).astype(np.float32)
    x = x.astype(np.float32)
    source = f"SYNTHETIC stand-in data: {dim}-dim vectors near a {latent}-dim manifold (not real machine sounds)"
    return Dataset(x[:n_train], x[:n_train], x[n_train:], x[n_train:], source=source, synthetic=True)


def synthetic_keywords(frames: int, features: int, num_classes: int, n_train: int = 512, n_test: int = 128,
                       max_shift: int = 4, noise: float = 1.0, seed: int = 0) -> Dataset:
    """SYNTHETIC keyword-spotting sequences [frames, features]: each class a smooth time x feature prototype,
    each sample that prototype delayed or advanced by up to `max_shift` frames (zero-filled), scaled by
    U(0.7, 1.3), plus N(0, noise^2)."""
    rng = np.random.default_rng(seed)
    prototypes = np.stack([_smooth_field(rng, (frames, features)) for _ in range(num_classes)])
    n = n_train + n_test
    labels = rng.integers(0, num_classes, n).astype(np.int64)
    shifts = rng.integers(-max_shift, max_shift + 1, n)
    source_frame = np.arange(frames)[None, :] - shifts[:, None]
    inside = (source_frame >= 0) & (source_frame < frames)
    x = prototypes[labels[:, None], np.clip(source_frame, 0, frames - 1)] * inside[:, :, None]
    x = x * rng.uniform(0.7, 1.3, (n, 1, 1)) + noise * rng.standard_normal((n, frames, features))
    x = x.astype(np.float32)
    source = (f"SYNTHETIC stand-in data: {num_classes} keywords of {frames} frames x {features} features, a class "
              f"prototype shifted by up to {max_shift} frames plus noise (not real speech)")
    return Dataset(x[:n_train], labels[:n_train], x[n_train:], labels[n_train:], source=source, synthetic=True)
