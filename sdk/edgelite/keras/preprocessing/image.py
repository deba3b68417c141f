"""tf.keras.preprocessing.image file helpers: load_img, img_to_array, array_to_img and save_img on Pillow images,
with tf-keras 2.21's conversions, crops, scaling and errors (also exported under tf.keras.utils)."""
from __future__ import annotations

import io
import pathlib
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from .. import backend

# Keras's names for Pillow's resampling filters, in Keras's order (the order shows in its error text).
_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil_image(caller: str) -> Any:
    """PIL.Image imported on first use, so Pillow stays an optional dependency (the `image` extra)."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{caller}` requires PIL.") from None
    return Image


def array_to_img(x: Any, data_format: Optional[str] = None, scale: bool = True,
                 dtype: Optional[str] = None) -> Any:
    """A rank-3 array as a PIL image (RGBA, RGB, L, or I when a grayscale value exceeds 255); `scale` maps
    the array's min..max onto 0..255 first."""
    data_format = data_format or backend.image_data_format()
    dtype = dtype or backend.floatx()
    image = _pil_image("array_to_img")
    x = np.asarray(x, dtype=dtype)
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Invalid data_format: {data_format}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        peak = np.max(x)
        if peak != 0:
            x /= peak
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img: Any, data_format: Optional[str] = None, dtype: Optional[str] = None) -> np.ndarray:
    """A PIL image (or anything array-like) as a rank-3 array, a channel axis added to grayscale images."""
    data_format = data_format or backend.image_data_format()
    dtype = dtype or backend.floatx()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    x = np.asarray(img, dtype=dtype)
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x[np.newaxis] if data_format == "channels_first" else x[:, :, np.newaxis]
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path: Any, x: Any, data_format: Optional[str] = None, file_format: Optional[str] = None,
             scale: bool = True, **kwargs: Any) -> None:
    """Writes an array as an image file; RGBA drops its alpha channel (with Keras's warning) for JPEG."""
    img = array_to_img(x, data_format=data_format or backend.image_data_format(), scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def _center_crop_box(size: tuple[int, int], target: tuple[int, int]) -> list[int]:
    """The largest centred (left, top, right, bottom) box of `size` with the aspect ratio of `target` (w, h)."""
    width, height = size
    target_width, target_height = target
    crop_height = min(height, (width * target_height) // target_width)
    crop_width = min(width, (height * target_width) // target_height)
    top = (height - crop_height) // 2
    left = (width - crop_width) // 2
    return [left, top, left + crop_width, top + crop_height]


def load_img(path: Any, grayscale: bool = False, color_mode: str = "rgb",
             target_size: Optional[Sequence[int]] = None, interpolation: str = "nearest",
             keep_aspect_ratio: bool = False) -> Any:
    """An image file (path or BytesIO) as a PIL image in `color_mode`, resized to `target_size` (height, width)."""
    if grayscale:
        warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"')
        color_mode = "grayscale"
    image = _pil_image("load_img")
    if isinstance(path, io.BytesIO):
        img = image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            img = image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    # Keras keeps 16- and 32-bit grayscale as they are and converts every other mode.
    keep = {"grayscale": ("L", "I;16", "I"), "rgba": ("RGBA",), "rgb": ("RGB",)}
    if color_mode not in keep:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if img.mode not in keep[color_mode]:
        img = img.convert({"grayscale": "L", "rgba": "RGBA", "rgb": "RGB"}[color_mode])
    if target_size is None:
        return img
    width_height = (target_size[1], target_size[0])
    if img.size == width_height:
        return img
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                         f"{', '.join(_INTERPOLATIONS)}")
    resample = getattr(image.Resampling, interpolation.upper())
    if keep_aspect_ratio:
        return img.resize(width_height, resample, box=_center_crop_box(img.size, width_height))
    return img.resize(width_height, resample)
