"""Image file codecs for the decode_*/encode_* ops: Pillow (zlib, GIF, BMP, WebP) plus a small PNG reader and
writer in numpy for what Pillow cannot do exactly (16-bit colour PNGs, TF's channel conversions). JPEG is in
jpeg_codec.
"""
from __future__ import annotations

import io
import struct
import zlib
from typing import Any, Optional

import numpy as np

from .codec_common import invalid as _invalid, pil
from . import jpeg_codec

_PNG_SIG = b"\x89PNG\r\n\x1a\n"
_JXL_CONTAINER = b"\x00\x00\x00\x0cJXL \r\n\x87\n"
_UNKNOWN = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."


def sniff(data: bytes) -> Optional[str]:
    """The format of an encoded image by its magic bytes (TF's order of checks), or None."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == _PNG_SIG:
        return "png"
    if data[:3] == b"GIF":
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:2] == b"\xff\x0a" or data[:12] == _JXL_CONTAINER:
        return "jxl"
    return None


def as_bytes(contents: Any) -> bytes:
    value = contents.item() if isinstance(contents, np.ndarray) else contents
    return value.encode() if isinstance(value, str) else bytes(value)


# ------------------------------------------------------------------------------------------------- PNG

def _png_chunks(data: bytes) -> tuple:
    """IHDR fields and the concatenated IDAT payload; ValueError on a malformed file."""
    pos, ihdr, idat = 8, None, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise ValueError("truncated chunk")
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            return ihdr, b"".join(idat)
        pos += 12 + length
    raise ValueError("no IEND")


def _unfilter(rows: np.ndarray, bpp: int) -> np.ndarray:
    """Undo PNG's per-row filters (None, Sub, Up, Average, Paeth) on [h, 1 + stride] bytes."""
    h, stride = rows.shape[0], rows.shape[1] - 1
    out = np.zeros((h, stride), np.uint8)
    prev = np.zeros(stride, np.int32)
    for y in range(h):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) & 255
        elif kind == 1:
            cur = np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) & 255
        elif kind in (3, 4):
            cur = line.copy()
            for x in range(0, stride, bpp):
                left = cur[x - bpp:x] if x else np.zeros(bpp, np.int32)
                up = prev[x:x + bpp]
                if kind == 3:
                    pred = (left + up) >> 1
                else:
                    ul = prev[x - bpp:x] if x else np.zeros(bpp, np.int32)
                    p = left + up - ul
                    pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - ul)
                    pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, ul))
                cur[x:x + bpp] = (cur[x:x + bpp] + pred) & 255
        else:
            raise ValueError("bad filter")
        out[y] = cur
        prev = cur
    return out


def _png_16bit(data: bytes) -> Optional[tuple]:
    """(pixels [h, w, c] uint16, colour type) of a non-interlaced 16-bit PNG; None for other PNGs."""
    ihdr, idat = _png_chunks(data)
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 16 or interlace or ctype not in (0, 2, 4, 6):
        return None
    c = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = np.frombuffer(zlib.decompress(idat), np.uint8)[:h * (1 + w * c * 2)].reshape(h, -1)
    pixels = _unfilter(raw, c * 2).reshape(h, w, c, 2).astype(np.uint16)
    return (pixels[..., 0] << 8) | pixels[..., 1], ctype


def _png_pixels(data: bytes) -> np.ndarray:
    """[h, w, c] uint8 or uint16 pixels of a PNG with its stored channels (palette expanded, with alpha if any)."""
    sixteen = _png_16bit(data)
    if sixteen is not None:
        return sixteen[0]
    img = pil().open(io.BytesIO(data))
    if img.mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif img.mode in ("1",):
        img = img.convert("L")
    elif img.mode in ("I;16", "I;16B", "I"):
        arr = np.asarray(img).astype(np.uint16)
        return arr[..., None]
    arr = np.asarray(img)
    return arr[..., None] if arr.ndim == 2 else arr


def _to_gray(rgb: np.ndarray) -> np.ndarray:
    """libpng's rgb_to_gray with TF's weights 0.299 / 0.587 in 15-bit fixed point (truncated for 8-bit
    samples, rounded for 16-bit ones, as libpng does)."""
    r, g, b = (rgb[..., k].astype(np.int64) for k in range(3))
    rc, gc = 29900 * 32768 // 100000, 58700 * 32768 // 100000
    bc = 32768 - rc - gc
    gray = (rc * r + gc * g + bc * b + (16384 if rgb.dtype == np.uint16 else 0)) >> 15
    return np.where((r == g) & (r == b), r, gray).astype(rgb.dtype)[..., None]


def convert_channels(pixels: np.ndarray, channels: int) -> np.ndarray:
    """TF's channel conversions: drop or add alpha (opaque), gray <-> RGB (gray by luma weights)."""
    have = pixels.shape[-1]
    if channels in (0, have):
        return pixels
    colour = pixels[..., :3] if have >= 3 else np.repeat(pixels[..., :1], 3, axis=-1)
    if channels == 1:
        return pixels[..., :1] if have <= 2 else _to_gray(colour)
    if channels == 3:
        return colour
    opaque = np.full(pixels.shape[:-1] + (1,), np.iinfo(pixels.dtype).max, pixels.dtype)
    alpha = pixels[..., -1:] if have in (2, 4) else opaque
    if channels == 2:
        return np.concatenate([convert_channels(pixels, 1), alpha], axis=-1)
    return np.concatenate([colour, alpha], axis=-1)


def _depth(pixels: np.ndarray, dtype: Any) -> np.ndarray:
    """8 <-> 16 bits as libpng: the high byte going down, x * 257 going up."""
    dtype = np.dtype(dtype)
    if pixels.dtype == dtype:
        return pixels
    if dtype == np.uint8:
        return (pixels >> 8).astype(np.uint8)
    return pixels.astype(np.uint16) * np.uint16(257)


def decode_png(data: bytes, channels: int, dtype: Any) -> np.ndarray:
    """[h, w, c] pixels of a PNG (uint8 or uint16)."""
    try:
        pixels = _png_pixels(data)
    except Exception:  # noqa: BLE001 - any failure of the PNG reader is TF's "Invalid PNG data"
        raise _invalid(f"Invalid PNG data, size {len(data)}") from None
    return _depth(convert_channels(pixels, channels), dtype)


def encode_png(image: np.ndarray, compression: int) -> bytes:
    """A PNG of [h, w, c] uint8/uint16 pixels (c = 1..4), unfiltered, zlib level compression (-1 = default)."""
    if image.ndim != 3:
        raise _invalid(f"image must be 3-dimensional{list(image.shape)}")
    h, w, c = image.shape
    if c not in (1, 2, 3, 4):
        raise _invalid(f"image must have 1, 2, 3, or 4 channels, got {c}")
    depth = 16 if image.dtype == np.uint16 else 8
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    body = image.astype(">u2").tobytes() if depth == 16 else image.astype(np.uint8).tobytes()
    stride = w * c * depth // 8
    rows = np.frombuffer(body, np.uint8).reshape(h, stride)
    raw = np.concatenate([np.zeros((h, 1), np.uint8), rows], axis=1).tobytes()

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    ihdr = struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0)
    return _PNG_SIG + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, compression)) + chunk(b"IEND", b"")


# ---------------------------------------------------------------------------------------- GIF, BMP, any

def decode_gif(data: bytes) -> np.ndarray:
    """[frames, h, w, 3] uint8: every frame of a GIF composed as displayed."""
    image_mod = pil()
    try:
        img = image_mod.open(io.BytesIO(data))
        frames = []
        for k in range(getattr(img, "n_frames", 1)):
            img.seek(k)
            frames.append(np.asarray(img.convert("RGB")))
    except Exception:  # noqa: BLE001
        raise _invalid("Failed to decode gif.") from None
    return np.stack(frames)


def _bmp_direct(data: bytes) -> Optional[np.ndarray]:
    """RGB(A) pixels of an uncompressed 24- or 32-bit BMP (alpha kept, as TF does); None for other BMPs."""
    offset, = struct.unpack("<I", data[10:14])
    width, height, _, bits, compression = struct.unpack("<iiHHI", data[18:34])
    if bits not in (24, 32) or compression not in (0, 3) or (bits == 24 and compression != 0):
        return None
    c = bits // 8
    stride = (width * c + 3) // 4 * 4
    rows = np.frombuffer(data, np.uint8, count=stride * abs(height), offset=offset).reshape(abs(height), stride)
    pixels = rows[:, :width * c].reshape(abs(height), width, c)
    pixels = pixels[::-1] if height > 0 else pixels  # positive height: stored bottom-up
    order = [2, 1, 0, 3][:c]
    return np.ascontiguousarray(pixels[..., order])


def decode_bmp(data: bytes, channels: int) -> np.ndarray:
    """[h, w, c] uint8 of a BMP (c = its own 3 or 4 channels unless channels says otherwise)."""
    try:
        direct = _bmp_direct(data)
        if direct is not None:
            return convert_channels(direct, channels)
        img = pil().open(io.BytesIO(data))
        img = img.convert("RGBA" if img.mode in ("RGBA", "LA", "PA") else "RGB")
        arr = np.asarray(img)
    except Exception:  # noqa: BLE001
        raise _invalid("Invalid BMP data") from None
    return convert_channels(arr, channels)


def decode_webp(data: bytes, channels: int) -> np.ndarray:
    """[frames, h, w, c] uint8 of a WebP (c = 3, or 4 with alpha); channels must be 0 or the file's own."""
    try:
        img = pil().open(io.BytesIO(data))
        has_alpha = img.mode in ("RGBA", "LA") or "transparency" in img.info
        frames = []
        for k in range(getattr(img, "n_frames", 1)):
            img.seek(k)
            frames.append(np.asarray(img.convert("RGBA" if has_alpha else "RGB")))
    except Exception:  # noqa: BLE001
        raise _invalid("Failed to decode WebP image.") from None
    out = np.stack(frames)
    if channels not in (0, out.shape[-1]):
        raise _invalid("Number of channels requested does not match input")
    return out


def _imagecodecs() -> Any:
    """imagecodecs (its libjxl decodes JPEG XL), or ImportError saying how to get it."""
    try:
        import imagecodecs
    except ImportError:
        raise ImportError("edgelite.image's JPEG XL decoder needs imagecodecs: pip install 'edgelite[jxl]' "
                          "(or pip install imagecodecs)") from None
    return imagecodecs


def decode_jxl(data: bytes, channels: int, dtype: Any) -> np.ndarray:
    """[h, w, c] uint8 of a JPEG XL file (c = its own 1, 3 or 4 channels; channels must be 0 or that)."""
    if np.dtype(dtype) != np.uint8:
        raise _invalid("JXL only supports uint8 for dtype")
    try:
        pixels = _imagecodecs().jpegxl_decode(data)
    except ImportError:
        raise
    except Exception as e:  # noqa: BLE001 - libjxl's failures are TF's two messages
        # no frame count: libjxl could not even read the basic info
        raise _invalid("Failed to decode JXL header" if "frame count" in str(e) else
                       "Failed to decode JXL image") from None
    pixels = pixels[..., None] if pixels.ndim == 2 else pixels
    if pixels.dtype == np.uint16:
        # libjxl renders high bit depths to 8 bits itself (TF asks for uint8); the nearest level is within 1
        pixels = np.rint(pixels / 257.0).astype(np.uint8)
    if channels not in (0, pixels.shape[-1]):
        raise _invalid("Number of channels requested does not match input")
    return pixels


def decode_any(data: bytes, op: str, channels: int, dtype: Any, expand_animations: bool = True,
               jpeg: Optional[dict] = None) -> np.ndarray:
    """TensorFlow's DecodeImage dispatch: sniff the format, refuse what this op may not decode, then decode
    (jpeg: DecodeJpeg's ratio, fancy_upscaling, dct_method, try_recover_truncated; TF's defaults otherwise)."""
    kind = sniff(data)
    if kind is None:
        raise _invalid(_UNKNOWN)
    if op == "DecodeBmp" and kind != "bmp":
        raise _invalid(f"Trying to decode {kind.upper()} format using DecodeBmp op. Use `decode_{kind}` or "
                       "`decode_image` instead.")
    if kind == "webp":
        out = decode_webp(data, channels)
        # every op but DecodeImage without expand_animations keeps WebP's frame dimension
        return _depth(out[0] if op == "DecodeImage" and not expand_animations else out, dtype)
    if kind == "jxl":
        out = decode_jxl(data, channels, dtype if op != "DecodeGif" else np.uint8)
        return out[None] if op == "DecodeGif" else out
    if kind == "jpeg":
        out = jpeg_codec.decode_jpeg(data, channels, **(jpeg or {}))
    elif kind == "png":
        out = decode_png(data, channels, dtype if op != "DecodeGif" else np.uint8)
        return out[None] if op == "DecodeGif" else out
    elif kind == "gif":
        out = convert_channels(decode_gif(data), channels)
        if op == "DecodeGif" or (op == "DecodeImage" and expand_animations):
            return out
        out = out[0]
    else:
        out = decode_bmp(data, channels)
    if op == "DecodeGif":
        return out[None]
    return _depth(out, dtype)
