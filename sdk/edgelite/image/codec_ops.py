"""Image codec ops (DecodeJpeg, DecodeAndCropJpeg, EncodeJpeg(VariableQuality), DecodePng, EncodePng, DecodeGif,
DecodeBmp, DecodeWebP, DecodeImage, ExtractJpegShape), their wrappers, and adjust/random_jpeg_quality."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import math_ops, random_ops
from edgelite.ops import string_ops  # noqa: F401 - registers Substr, which is_jpeg uses

from . import codec_kernels as ck
from . import jpeg_codec
from .color_ops import convert_image_dtype
from ._checks import input_ranks as _ranks


def _scalar_input(op: Any) -> None:
    _ranks(op, [0])


def _image_shape(op: Any) -> list:
    _scalar_input(op)
    channels = op.get_attr("channels")
    return [[None, None, channels or None]]


def _str(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def _channels(ctx: Any, allowed: tuple) -> int:
    channels = int(ctx.attrs["channels"])
    if channels not in allowed:
        raise ck._invalid(f"channels must be {', '.join(map(str, allowed[:-1]))}, or {allowed[-1]}, got {channels}")
    return channels


def _jpeg_options(ctx: Any) -> dict:
    """DecodeJpeg's decoder attributes, as jpeg_codec.decode_jpeg takes them."""
    a = ctx.attrs
    return {"ratio": int(a["ratio"]), "fancy_upscaling": bool(a["fancy_upscaling"]),
            "dct_method": _str(a["dct_method"]), "try_recover_truncated": bool(a["try_recover_truncated"]),
            "acceptable_fraction": float(a["acceptable_fraction"])}


def _decode_jpeg(ctx: Any, contents: Any) -> Any:
    return ck.decode_any(ck.as_bytes(contents), "DecodeJpeg", _channels(ctx, (0, 1, 3)), np.uint8,
                         jpeg=_jpeg_options(ctx))


_JPEG_ATTRS = {"channels": 0, "ratio": 1, "fancy_upscaling": True, "try_recover_truncated": False,
               "acceptable_fraction": 1.0, "dct_method": ""}
register_op("DecodeJpeg", inputs=["contents: string"], outputs=["image: uint8"], attrs=dict(_JPEG_ATTRS),
            kernel=_decode_jpeg, shape_fn=_image_shape)


def _cropped_shape(op: Any) -> list:
    _ranks(op, [0, 1])
    window = constant_value(op.inputs[1])
    hw = [int(window[2]), int(window[3])] if window is not None and window.shape == (4,) else [None, None]
    return [hw + [op.get_attr("channels") or None]]


def _decode_and_crop(ctx: Any, contents: Any, window: Any) -> Any:
    data = ck.as_bytes(contents)
    if ck.sniff(data) != "jpeg":
        raise ck._invalid(jpeg_codec.FAILED)
    return jpeg_codec.decode_jpeg(data, _channels(ctx, (0, 1, 3)), crop=np.asarray(window), **_jpeg_options(ctx))


register_op("DecodeAndCropJpeg", inputs=["contents: string", "crop_window: int32"], outputs=["image: uint8"],
            attrs=dict(_JPEG_ATTRS), kernel=_decode_and_crop, shape_fn=_cropped_shape)


def _decode_png(ctx: Any, contents: Any) -> Any:
    dtype = ctx.attrs["dtype"]
    return ck.decode_any(ck.as_bytes(contents), "DecodePng", _channels(ctx, (0, 1, 2, 3, 4)),
                         dtypes.as_dtype(dtype).as_numpy_dtype)


register_op("DecodePng", inputs=["contents: string"], outputs=["image: dtype"],
            attrs={"channels": 0, "dtype": dtypes.uint8}, kernel=_decode_png, shape_fn=_image_shape,
            allowed_dtypes={"dtype": [dtypes.uint8, dtypes.uint16]})
register_op("DecodeGif", inputs=["contents: string"], outputs=["image: uint8"],
            kernel=lambda ctx, c: ck.decode_any(ck.as_bytes(c), "DecodeGif", 3, np.uint8),
            shape_fn=lambda op: (_scalar_input(op), [[None, None, None, 3]])[1])
register_op("DecodeBmp", inputs=["contents: string"], outputs=["image: uint8"], attrs={"channels": 0},
            kernel=lambda ctx, c: ck.decode_any(ck.as_bytes(c), "DecodeBmp", _channels(ctx, (0, 3, 4)), np.uint8),
            shape_fn=_image_shape)


def _decode_image(ctx: Any, contents: Any) -> Any:
    dtype = dtypes.as_dtype(ctx.attrs["dtype"])
    data = ck.as_bytes(contents)
    if dtype != dtypes.uint8 and ck.sniff(data) == "jxl":
        raise ck._invalid("JXL only supports uint8 for dtype")
    native = ck.decode_any(data, "DecodeImage", _channels(ctx, (0, 1, 3, 4)),
                           np.uint16 if dtype == dtypes.uint16 else np.uint8,
                           expand_animations=bool(ctx.attrs["expand_animations"]))
    if dtype in (dtypes.uint8, dtypes.uint16):
        return native
    # float results are the integer pixels scaled to [0, 1]
    return (native.astype(np.float64) / np.iinfo(native.dtype).max).astype(dtype.as_numpy_dtype)


register_op("DecodeImage", inputs=["contents: string"], outputs=["image: dtype"],
            attrs={"channels": 0, "dtype": dtypes.uint8, "expand_animations": True}, kernel=_decode_image,
            shape_fn=lambda op: (_scalar_input(op), [None if op.get_attr("expand_animations") else
                                                     [None, None, op.get_attr("channels") or None]])[1],
            allowed_dtypes={"dtype": [dtypes.uint8, dtypes.uint16, dtypes.float32]})
register_op("DecodeWebP", inputs=["contents: string"], outputs=["image: dtype"],
            attrs={"channels": 0, "dtype": dtypes.uint8},
            kernel=lambda ctx, c: ck.decode_any(ck.as_bytes(c), "DecodeWebP", int(ctx.attrs["channels"]), np.uint8),
            shape_fn=lambda op: (_scalar_input(op), [[None, None, None, op.get_attr("channels") or None]])[1],
            allowed_dtypes={"dtype": [dtypes.uint8]})


def _decode_jxl(ctx: Any, contents: Any) -> Any:
    channels = int(ctx.attrs["channels"])
    if channels not in (0, 1, 3, 4):
        raise ck._invalid(f"`channels` must be 0, 1, 3 or 4 but got {channels}")
    return ck.decode_any(ck.as_bytes(contents), "DecodeJxl", channels, np.uint8)


register_op("DecodeJxl", inputs=["contents: string"], outputs=["image: dtype"],
            attrs={"channels": 0, "dtype": dtypes.uint8}, kernel=_decode_jxl, shape_fn=_image_shape,
            allowed_dtypes={"dtype": [dtypes.uint8]})
register_op("ExtractJpegShape", inputs=["contents: string"], outputs=["image_shape: output_type"],
            attrs={"output_type": dtypes.int32}, kernel=lambda ctx, c: jpeg_codec.jpeg_shape(ck.as_bytes(c)),
            shape_fn=lambda op: (_scalar_input(op), [[3]])[1],
            allowed_dtypes={"output_type": [dtypes.int32, dtypes.int64]})


def _encode_jpeg(ctx: Any, image: Any, quality: Any = None) -> Any:
    a = ctx.attrs
    q = int(a["quality"]) if quality is None else int(quality)
    if not 0 <= q <= 100:
        raise ck._invalid(f"quality must be in [0,100], got {q}")
    data = jpeg_codec.encode_jpeg(image, _str(a["format"]), q, bool(a["progressive"]), bool(a["optimize_size"]),
                                  bool(a["chroma_downsampling"]), _str(a["density_unit"]), int(a["x_density"]),
                                  int(a["y_density"]), _str(a["xmp_metadata"]))
    return np.asarray(data, dtype=object)


_ENCODE_JPEG_ATTRS = {"format": "", "quality": 95, "progressive": False, "optimize_size": False,
                      "chroma_downsampling": True, "density_unit": "in", "x_density": 300, "y_density": 300,
                      "xmp_metadata": ""}


def _encoded_shape(op: Any) -> list:
    nd = op.inputs[0].shape.ndims
    if nd is not None and nd < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {nd} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {[t.shape.as_list() for t in op.inputs]}.")
    return [[]]


register_op("EncodeJpeg", inputs=["image: uint8"], outputs=["contents: string"], attrs=dict(_ENCODE_JPEG_ATTRS),
            kernel=_encode_jpeg, shape_fn=_encoded_shape)
register_op("EncodeJpegVariableQuality", inputs=["images: uint8", "quality: int32"],
            outputs=["contents: string"], attrs=dict(_ENCODE_JPEG_ATTRS), kernel=_encode_jpeg,
            shape_fn=_encoded_shape)
register_op("EncodePng", inputs=["image: T"], outputs=["contents: string"], attrs={"T": dtypes.uint8,
                                                                                   "compression": -1},
            kernel=lambda ctx, x: np.asarray(ck.encode_png(x, int(ctx.attrs["compression"])), dtype=object),
            shape_fn=_encoded_shape, allowed_dtypes={"T": [dtypes.uint8, dtypes.uint16]})


for _name in ("DecodeJpeg", "DecodeAndCropJpeg", "DecodePng", "DecodeGif", "DecodeBmp", "DecodeImage", "DecodeWebP",
              "DecodeJxl", "ExtractJpegShape", "EncodeJpeg", "EncodeJpegVariableQuality", "EncodePng"):
    ops.NoGradient(_name)


def decode_jpeg(contents: Any, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
                try_recover_truncated: bool = False, acceptable_fraction: float = 1, dct_method: str = "",
                name: Optional[str] = None) -> ops.Tensor:
    """[h, w, c] uint8 pixels of an encoded JPEG (PNG, GIF and BMP are decoded too, as TF does)."""
    return ops.apply_op("DecodeJpeg", [contents], name=name,
                        attrs={"channels": channels, "ratio": ratio, "fancy_upscaling": fancy_upscaling,
                               "try_recover_truncated": try_recover_truncated,
                               "acceptable_fraction": float(acceptable_fraction), "dct_method": dct_method})


def decode_and_crop_jpeg(contents: Any, crop_window: Any, channels: int = 0, ratio: int = 1,
                         fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                         acceptable_fraction: float = 1, dct_method: str = "",
                         name: Optional[str] = None) -> ops.Tensor:
    """decode_jpeg cropped to crop_window = [y, x, height, width]."""
    return ops.apply_op("DecodeAndCropJpeg", [contents, crop_window], name=name,
                        attrs={"channels": channels, "ratio": ratio, "fancy_upscaling": fancy_upscaling,
                               "try_recover_truncated": try_recover_truncated,
                               "acceptable_fraction": float(acceptable_fraction), "dct_method": dct_method})


def decode_png(contents: Any, channels: int = 0, dtype: Any = dtypes.uint8, name: Optional[str] = None) -> ops.Tensor:
    """[h, w, c] uint8 or uint16 pixels of an encoded PNG (exact for 8- and 16-bit files)."""
    return ops.apply_op("DecodePng", [contents], name=name, attrs={"channels": channels,
                                                                   "dtype": dtypes.as_dtype(dtype)})


def decode_gif(contents: Any, name: Optional[str] = None) -> ops.Tensor:
    """[frames, h, w, 3] uint8 of a GIF (other formats as one frame)."""
    return ops.apply_op("DecodeGif", [contents], name=name)


def decode_webp(contents: Any, channels: int = 0, dtype: Any = dtypes.uint8, name: Optional[str] = None) -> ops.Tensor:
    """[frames, h, w, c] uint8 of a WebP file (animated or not; c = 3, or 4 with alpha)."""
    return ops.apply_op("DecodeWebP", [contents], name=name, attrs={"channels": channels,
                                                                    "dtype": dtypes.as_dtype(dtype)})


def decode_jxl(contents: Any, channels: int = 0, dtype: Any = dtypes.uint8, name: Optional[str] = None) -> ops.Tensor:
    """[h, w, c] uint8 of a JPEG XL file (c = the file's 1, 3 or 4 channels); other formats decode as decode_image."""
    return ops.apply_op("DecodeJxl", [contents], name=name, attrs={"channels": channels,
                                                                   "dtype": dtypes.as_dtype(dtype)})


def decode_bmp(contents: Any, channels: int = 0, name: Optional[str] = None) -> ops.Tensor:
    """[h, w, c] uint8 of a BMP."""
    return ops.apply_op("DecodeBmp", [contents], name=name, attrs={"channels": channels})


def decode_image(contents: Any, channels: Optional[int] = None, dtype: Any = dtypes.uint8,
                 name: Optional[str] = None, expand_animations: bool = True) -> ops.Tensor:
    """Decode JPEG, PNG, GIF or BMP by sniffing the bytes; GIFs are 4-D unless expand_animations is False."""
    with ops.name_scope(name, "decode_image"):
        wanted = dtypes.as_dtype(dtype)
        direct = wanted in (dtypes.uint8, dtypes.uint16, dtypes.float32)
        image = ops.apply_op("DecodeImage", [contents],
                             attrs={"channels": channels or 0, "dtype": wanted if direct else dtypes.uint16,
                                    "expand_animations": expand_animations})
        if not direct:
            image = convert_image_dtype(image, wanted)
        if not expand_animations:
            image.set_shape([None, None, channels or None])
        return image


def extract_jpeg_shape(contents: Any, output_type: Any = dtypes.int32, name: Optional[str] = None) -> ops.Tensor:
    """[height, width, channels] of an encoded JPEG, read from its header."""
    return ops.apply_op("ExtractJpegShape", [contents], name=name, attrs={"output_type": dtypes.as_dtype(output_type)})


def is_jpeg(contents: Any, name: Optional[str] = None) -> ops.Tensor:
    """Whether the bytes start like a JPEG (FF D8 FF)."""
    with ops.name_scope(name, "is_jpeg"):
        head = ops.apply_op("Substr", [contents, 0, 3])
        return math_ops.equal(head, b"\xff\xd8\xff", name=name)


def encode_jpeg(image: Any, format: str = "", quality: int = 95, progressive: bool = False,  # noqa: A002
                optimize_size: bool = False, chroma_downsampling: bool = True, density_unit: str = "in",
                x_density: int = 300, y_density: int = 300, xmp_metadata: str = "",
                name: Optional[str] = None) -> ops.Tensor:
    """A JPEG file (string scalar) of [h, w, 1 or 3] uint8 pixels."""
    return ops.apply_op("EncodeJpeg", [image], name=name,
                        attrs={"format": format, "quality": quality, "progressive": progressive,
                               "optimize_size": optimize_size, "chroma_downsampling": chroma_downsampling,
                               "density_unit": density_unit, "x_density": x_density, "y_density": y_density,
                               "xmp_metadata": xmp_metadata})


def encode_png(image: Any, compression: int = -1, name: Optional[str] = None) -> ops.Tensor:
    """A PNG file (string scalar) of [h, w, c] uint8 or uint16 pixels; compression is zlib's level (-1 default)."""
    with ops.name_scope(name, "EncodePng", [image]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        return ops.apply_op("EncodePng", [image], name=scope, attrs={"compression": compression})


def adjust_jpeg_quality(image: Any, jpeg_quality: Any, dct_method: str = "", name: Optional[str] = None) -> ops.Tensor:
    """The image after a JPEG round trip at jpeg_quality (0..100), in its own dtype."""
    with ops.name_scope(name, "adjust_jpeg_quality", [image]):
        image = ops.convert_to_tensor(image, name="image")
        orig = image.dtype.base_dtype
        as_u8 = convert_image_dtype(image, dtypes.uint8, saturate=True)
        quality = ops.convert_to_tensor(jpeg_quality, dtypes.int32, name="jpeg_quality")
        encoded = ops.apply_op("EncodeJpegVariableQuality", [as_u8, quality])
        decoded = decode_jpeg(encoded, channels=(image.shape.as_list()[-1] if image.shape.ndims else None) or 0,
                              dct_method=dct_method)
        return convert_image_dtype(decoded, orig, saturate=True)


def random_jpeg_quality(image: Any, min_jpeg_quality: int, max_jpeg_quality: int,
                        seed: Optional[int] = None) -> ops.Tensor:
    """adjust_jpeg_quality at a quality drawn uniformly from [min_jpeg_quality, max_jpeg_quality)."""
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or max_jpeg_quality > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = random_ops.random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)
