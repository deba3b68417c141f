"""JPEG decoding and encoding with the libjpeg-turbo settings TensorFlow's kernels use.

TensorFlow decodes with libjpeg-turbo: the "ifast" integer DCT unless dct_method="INTEGER_ACCURATE", interpolating
("fancy") chroma upsampling unless fancy_upscaling=False, and libjpeg's 1/ratio DCT scaling. simplejpeg, a
binding of libjpeg-turbo's TurboJPEG API, exposes all three and gives TensorFlow's pixels; without it Pillow
decodes, always with the "islow" DCT and fancy upsampling (TensorFlow's INTEGER_ACCURATE exactly, a few levels off
otherwise). Encoding goes through Pillow's libjpeg-turbo with TensorFlow's parameters: the same file, byte for byte.
"""
from __future__ import annotations

import io
import struct
from typing import Any, Optional

import numpy as np

from .codec_common import invalid, pil

FAILED = "jpeg::Uncompress failed. Invalid JPEG data or crop window."
_DCT_METHODS = ("", "INTEGER_FAST", "INTEGER_ACCURATE")
# libjpeg's warning when the data ends before the image does; TF's memory source turns it into a fake EOI
# (try_recover_truncated) or a failure.
_TRUNCATED = "Premature end of JPEG file"


def turbo() -> Optional[Any]:
    """The simplejpeg module when installed (edgelite[image] brings it), else None."""
    try:
        import simplejpeg
    except ImportError:
        return None
    return simplejpeg


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _scale_ambiguous(height: int, width: int, ratio: int) -> bool:
    """Whether a TurboJPEG scale k/8 below 1/ratio gives the same output size as 1/ratio (images under 8x8), so
    asking simplejpeg for that size could pick the other scale and its other IDCT."""
    want = (_ceil_div(height, ratio), _ceil_div(width, ratio))
    return any((_ceil_div(height * k, 8), _ceil_div(width * k, 8)) == want for k in range(1, 8 // ratio))


def _adobe_marker(data: bytes) -> bool:
    """Whether the header holds an Adobe APP14 segment (libjpeg's saw_Adobe_marker: CMYK stored inverted)."""
    pos = 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker, length = data[pos + 1], struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker == 0xEE and data[pos + 4:pos + 9] == b"Adobe":
            return True
        if marker == 0xDA:
            return False
        pos += 2 + length
    return False


def _cmyk_to_rgb(cmyk: np.ndarray, adobe: bool) -> np.ndarray:
    """TF's own CMYK -> RGB integer formula (libjpeg hands it CMYK for a 3-channel output)."""
    c, m, y, k = (cmyk[..., j].astype(np.int32) for j in range(4))
    if adobe:
        rgb = [k * c // 255, k * m // 255, k * y // 255]
    else:
        rgb = [(255 - k) * (255 - v) // 255 for v in (c, m, y)]
    return np.stack(rgb, axis=-1).astype(np.uint8)


def _rows_before_cut(sj: Any, data: bytes, args: dict, subsampling: str, ratio: int, gray_out: bool) -> int:
    """How many rows libjpeg hands TF before it suspends in the iMCU row where truncated data ends.

    That iMCU row is found as the first output row that changes with what follows the cut; libjpeg gives the rows
    above it, less the last chroma row pair when fancy upsampling of 4:2:0/4:4:0 still needs the next row."""
    filled = [sj.decode_jpeg(data + tail, strict=False, **args).astype(np.int16)
              for tail in (b"", b"\x00" * 512, b"\xaa" * 512)]
    changed = np.zeros(filled[0].shape[0], bool)
    for other in filled[1:]:
        changed |= np.any(other != filled[0], axis=tuple(range(1, other.ndim)))
    first = int(np.argmax(changed)) if changed.any() else filled[0].shape[0]
    tall = subsampling in ("420", "440")
    imcu = 16 // ratio if tall else 8 // ratio
    held = 2 if tall and ratio == 1 and not gray_out and not args["fastupsample"] else 0
    return max((first + held // 2) // imcu * imcu - held, 0)


def _decode_turbo(sj: Any, data: bytes, channels: int, ratio: int, fancy: bool, fast_dct: bool,
                  recover: bool) -> Optional[tuple]:
    """(TF's pixels through TurboJPEG, the rows libjpeg reads before a cut or None when it reads them all); None
    where TurboJPEG cannot promise TF's pixels (Pillow decides then)."""
    try:
        height, width, colorspace, subsampling = sj.decode_jpeg_header(data)
    except ValueError:
        return None  # a header libjpeg only warns about, or a broken one: Pillow tolerates or refuses it
    cmyk = colorspace in ("CMYK", "YCCK")
    gray_out = channels == 1 or (channels == 0 and colorspace == "Gray")
    if gray_out and cmyk:
        raise invalid(FAILED)  # libjpeg converts no CMYK to grayscale
    scale: dict = {}
    if ratio > 1:
        if _scale_ambiguous(height, width, ratio):
            return None
        scale = {"min_height": _ceil_div(height, ratio), "min_width": _ceil_div(width, ratio), "min_factor": ratio}
    args = dict(colorspace="GRAY" if gray_out else "CMYK" if cmyk else "RGB", fastdct=fast_dct,
                fastupsample=not fancy, **scale)
    kept = None
    try:
        pixels = sj.decode_jpeg(data, strict=True, **args)
    except ValueError as e:
        try:
            # libjpeg's warnings (corrupt or missing scan data, filled as libjpeg fills it) are no failure for TF
            pixels = sj.decode_jpeg(data, strict=False, **args)
        except ValueError:
            raise invalid(FAILED) from None
        if str(e) == _TRUNCATED and not recover:
            kept = _rows_before_cut(sj, data, args, subsampling, ratio, gray_out)
    if cmyk:
        pixels = _cmyk_to_rgb(pixels, _adobe_marker(data))
    return pixels, kept


def _decode_pillow(data: bytes, channels: int, ratio: int) -> np.ndarray:
    """Pillow's decode: islow DCT, fancy upsampling, libjpeg scale 1/ratio for images of at least ratio pixels."""
    try:
        img = pil().open(io.BytesIO(data))
        mode = "L" if channels == 1 or (channels == 0 and img.mode == "L") else "RGB"
        w, h = img.size
        # Pillow picks the largest libjpeg scale 1/k with k <= min(w // width, h // height)
        img.draft(mode, (max(w // ratio, 1), max(h // ratio, 1)))
        img.load()
        arr = np.asarray(img.convert(mode))
    except Exception:  # noqa: BLE001 - libjpeg's failures are all TF's one message
        raise invalid(FAILED) from None
    arr = arr[..., None] if arr.ndim == 2 else arr
    return np.repeat(arr, 3, axis=-1) if channels == 3 and arr.shape[-1] == 1 else arr


def decode_jpeg(data: bytes, channels: int, ratio: int = 1, fancy_upscaling: bool = True, dct_method: str = "",
                try_recover_truncated: bool = False, acceptable_fraction: float = 1.0,
                crop: Optional[np.ndarray] = None) -> np.ndarray:
    """[h, w, c] uint8 of a JPEG as TF's DecodeJpeg gives it: scaled by 1/ratio, then cropped to [y, x, h, w].

    Truncated data: with try_recover_truncated libjpeg fills the missing blocks; without, the rows decoded before
    the cut are kept and the rest zeroed if they make acceptable_fraction of the image, else it fails."""
    if ratio not in (1, 2, 4, 8):
        raise invalid(f"ratio must be 1, 2, 4, or 8, got {ratio}")
    if dct_method not in _DCT_METHODS:
        raise invalid("dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}")
    sj = turbo()
    decoded = None
    if sj is not None:
        decoded = _decode_turbo(sj, data, channels, ratio, fancy_upscaling, dct_method != "INTEGER_ACCURATE",
                                try_recover_truncated)
    arr, kept = decoded if decoded is not None else (_decode_pillow(data, channels, ratio), None)
    arr = arr[..., None] if arr.ndim == 2 else arr
    top = 0
    if crop is not None:
        top, x, ch, cw = (int(v) for v in crop)
        if top < 0 or x < 0 or ch <= 0 or cw <= 0 or top + ch > arr.shape[0] or x + cw > arr.shape[1]:
            raise invalid(FAILED)
        arr = arr[top:top + ch, x:x + cw]
    if kept is not None:
        # TF's Uncompress: libjpeg cannot skip through missing data to a window below the cut; too few rows read
        # (of the window) is a failure; else the unread rows are black
        rows = min(kept - top, arr.shape[0])
        if rows < 0 or rows < min(1.0, acceptable_fraction) * arr.shape[0]:
            raise invalid(FAILED)
        arr = arr.copy()
        arr[rows:] = 0
    return np.ascontiguousarray(arr)


def jpeg_shape(data: bytes) -> np.ndarray:
    """[height, width, channels] from a JPEG's header, without decoding."""
    if data[:3] != b"\xff\xd8\xff":
        raise invalid(f"Invalid JPEG data, size {len(data)}")
    try:
        img = pil().open(io.BytesIO(data))
    except Exception:  # noqa: BLE001
        raise invalid(f"Invalid JPEG data, size {len(data)}") from None
    return np.array([img.size[1], img.size[0], len(img.getbands())])


# JFIF APP0 segment: SOI, FFE0, length, "JFIF\0", version, then the density unit byte
_JFIF_UNIT_OFFSET = 13


def encode_jpeg(image: np.ndarray, fmt: str, quality: int, progressive: bool, optimize_size: bool,
                chroma_downsampling: bool, density_unit: str, x_density: int, y_density: int,
                xmp_metadata: str = "") -> bytes:
    """TF's EncodeJpeg file of [h, w, 1 or 3] uint8 pixels: libjpeg-turbo's defaults at the quality, 4:2:0 or
    4:4:4 chroma, JFIF densities, an XMP APP1 segment when given."""
    if image.ndim != 3:
        raise invalid(f"image must be 3-dimensional{list(image.shape)}")
    c = image.shape[-1]
    want = {"": c, "grayscale": 1, "rgb": 3}[fmt]
    if c not in (1, 3) or want != c:
        raise invalid(f"image must have 1 or 3 channels, got {list(image.shape)}" if c not in (1, 3) else
                      f"format {fmt} does not match the image's {c} channels")
    img = pil().fromarray(np.ascontiguousarray(image[..., 0] if c == 1 else image), "L" if c == 1 else "RGB")
    extra = {"xmp": xmp_metadata.encode()} if xmp_metadata else {}
    if c == 3:
        # libjpeg's default is 4:2:0; a grayscale file keeps its 1x1 sampling
        extra["subsampling"] = 2 if chroma_downsampling else 0
    out = io.BytesIO()
    img.save(out, "JPEG", quality=int(quality), progressive=progressive, optimize=optimize_size,
             dpi=(int(x_density), int(y_density)), **extra)
    data = bytearray(out.getvalue())
    # Pillow always writes dots per inch; libjpeg's unit code 2 is dots per cm
    data[_JFIF_UNIT_OFFSET] = 1 if density_unit == "in" else 2
    return bytes(data)
