"""keras.preprocessing.image cases shared by the TF fixture generator (tf.keras under TensorFlow 2.21) and the
edgelite test: seeded synthetic PNG/BMP/JPEG files, every load/convert/save path, summarised as shapes, dtypes,
pixel hashes (small arrays where a JPEG encoder is involved) and error texts."""
from __future__ import annotations

import base64
import hashlib
import io
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np

HEIGHT, WIDTH = 12, 16
INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pixels(channels: int, dtype: str = "uint8", high: int = 256) -> np.ndarray:
    """Seeded pixel data (HEIGHT, WIDTH, channels) with structure, so resampling filters differ."""
    rng = np.random.default_rng(channels * 7 + high)
    ramp = np.linspace(0, high - 1, WIDTH)[np.newaxis, :, np.newaxis]
    noise = rng.integers(0, high // 4, size=(HEIGHT, WIDTH, channels))
    return ((ramp + noise) % high).astype(dtype)


def write_sources(directory: Path, jpeg_bytes: bytes | None = None) -> dict[str, Path]:
    """The source images; the JPEG is written from recorded bytes when given, as encoders may differ."""
    from PIL import Image

    paths = {
        "rgb.png": Image.fromarray(_pixels(3), "RGB"),
        "rgba.png": Image.fromarray(_pixels(4), "RGBA"),
        "gray.png": Image.fromarray(_pixels(1)[:, :, 0], "L"),
        "gray16.png": Image.fromarray(_pixels(1, "uint16", 4096)[:, :, 0]),
        "palette.png": Image.fromarray(_pixels(3), "RGB").quantize(colors=16),
        "rgb.bmp": Image.fromarray(_pixels(3), "RGB"),
    }
    out = {}
    for name, img in paths.items():
        out[name] = directory / name
        img.save(out[name])
    out["rgb.jpg"] = directory / "rgb.jpg"
    if jpeg_bytes is None:
        Image.fromarray(_pixels(3), "RGB").save(out["rgb.jpg"], quality=90)
    else:
        out["rgb.jpg"].write_bytes(jpeg_bytes)
    return out


def summary(value: Any, exact: bool = True) -> dict:
    """A PIL image or array as mode/shape/dtype plus a pixel hash (exact) or the pixels themselves (inexact)."""
    out: dict = {}
    if hasattr(value, "mode") and hasattr(value, "size"):
        out.update(mode=value.mode, size=list(value.size))
        value = np.asarray(value)
    arr = np.ascontiguousarray(value)
    out.update(shape=list(arr.shape), dtype=str(arr.dtype))
    if exact:
        out["sha256"] = hashlib.sha256(arr.tobytes()).hexdigest()
    else:
        out["values"] = arr.astype("int64").ravel().tolist()
    return out


def _run(fn: Callable[[], Any], exact: bool = True) -> dict:
    """Runs one case, recording its result summary, its warnings and any error's type and text."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = summary(fn(), exact)
        except Exception as err:  # noqa: BLE001 - the error itself is the recorded result
            result = {"error": type(err).__name__, "message": str(err)}
    result["warnings"] = sorted({str(w.message) for w in caught if "image" in str(w.message).lower()
                                 or "grayscale" in str(w.message) or "JPG" in str(w.message)})
    return result


def _saved_and_reloaded(image_mod: Any, directory: Path, name: str, x: np.ndarray, **kwargs: Any) -> Any:
    """save_img then Pillow's own decoding of the written file (a path or a BytesIO)."""
    from PIL import Image

    if name.startswith("bytesio"):
        buffer = io.BytesIO()
        image_mod.save_img(buffer, x, **kwargs)
        buffer.seek(0)
        return Image.open(buffer).copy()
    path = directory / name
    image_mod.save_img(str(path), x, **kwargs)
    return Image.open(path).copy()


def run_cases(image_mod: Any, directory: Path, jpeg_bytes: bytes | None = None) -> dict[str, dict]:
    """Every case by name; `image_mod` has load_img, img_to_array, array_to_img and save_img."""
    sources = write_sources(directory, jpeg_bytes)
    load, to_array, to_img = image_mod.load_img, image_mod.img_to_array, image_mod.array_to_img
    cases: dict[str, tuple[Callable[[], Any], bool]] = {}
    for name, path in sources.items():
        lossy = name.endswith(".jpg")
        for mode in ("rgb", "rgba", "grayscale"):
            cases[f"load/{name}/{mode}"] = (lambda p=path, m=mode: load(str(p), color_mode=m), not lossy)
            cases[f"array/{name}/{mode}"] = (lambda p=path, m=mode: to_array(load(p, color_mode=m)), not lossy)
    rgb = sources["rgb.png"]
    cases["load/grayscale_flag"] = (lambda: load(str(rgb), grayscale=True), True)
    cases["load/pathlib"] = (lambda: load(rgb), True)
    cases["load/bytesio"] = (lambda: load(io.BytesIO(rgb.read_bytes())), True)
    cases["load/bytes_path"] = (lambda: load(str(rgb).encode()), True)
    for interp in INTERPOLATIONS:
        cases[f"resize/{interp}"] = (lambda i=interp: load(str(rgb), target_size=(7, 10), interpolation=i), True)
        cases[f"resize_up/{interp}"] = (
            lambda i=interp: load(str(sources["gray.png"]), color_mode="grayscale", target_size=(20, 24),
                                  interpolation=i), True)
    for target in ((8, 8), (6, 14), (12, 5), (30, 20)):
        for interp in ("nearest", "bilinear"):
            cases[f"aspect/{target}/{interp}"] = (
                lambda t=target, i=interp: load(str(rgb), target_size=t, interpolation=i, keep_aspect_ratio=True),
                True)
    cases["resize/same_size_bad_interpolation"] = (
        lambda: load(str(rgb), target_size=(HEIGHT, WIDTH), interpolation="cubic"), True)
    cases["error/bad_interpolation"] = (lambda: load(str(rgb), target_size=(5, 5), interpolation="cubic"), True)
    cases["error/bad_color_mode"] = (lambda: load(str(rgb), color_mode="hsv"), True)
    cases["error/bad_path_type"] = (lambda: load(3), True)

    img = load(str(sources["rgba.png"]), color_mode="rgba")
    gray = load(str(sources["gray.png"]), color_mode="grayscale")
    cases["img_to_array/channels_first"] = (lambda: to_array(img, data_format="channels_first"), True)
    cases["img_to_array/gray_channels_first"] = (lambda: to_array(gray, data_format="channels_first"), True)
    cases["img_to_array/uint8"] = (lambda: to_array(img, dtype="uint8"), True)
    cases["img_to_array/float64"] = (lambda: to_array(gray, dtype="float64"), True)
    cases["img_to_array/gray16"] = (lambda: to_array(load(str(sources["gray16.png"]), color_mode="grayscale")), True)
    cases["error/img_to_array_data_format"] = (lambda: to_array(img, data_format="nhwc"), True)
    cases["error/img_to_array_rank"] = (lambda: to_array(np.zeros(5)), True)

    rng = np.random.default_rng(3)
    floats = {c: rng.normal(size=(5, 6, c)) * 40 for c in (1, 2, 3, 4)}
    for c in (1, 3, 4):
        cases[f"array_to_img/{c}/scale"] = (lambda c=c: to_img(floats[c]), True)
        cases[f"array_to_img/{c}/noscale"] = (lambda c=c: to_img(np.abs(floats[c]) * 2, scale=False), True)
    cases["array_to_img/channels_first"] = (
        lambda: to_img(floats[3].transpose(2, 0, 1), data_format="channels_first"), True)
    cases["array_to_img/constant"] = (lambda: to_img(np.full((4, 4, 3), 7.0)), True)
    cases["array_to_img/int32_gray"] = (lambda: to_img(np.arange(20.0).reshape(4, 5, 1) * 100, scale=False), True)
    cases["array_to_img/float64_dtype"] = (lambda: to_img(floats[3], dtype="float64"), True)
    cases["error/array_to_img_rank"] = (lambda: to_img(np.zeros((2, 4, 4, 3))), True)
    cases["error/array_to_img_channels"] = (lambda: to_img(floats[2]), True)
    cases["error/array_to_img_data_format"] = (lambda: to_img(floats[3], data_format="nchw"), True)

    for name, x, kwargs, exact in (
            ("save.png", floats[3], {}, True),
            ("save_rgba.png", floats[4], {}, True),
            ("save_gray.png", floats[1], {}, True),
            ("save.bmp", np.abs(floats[3]), {"scale": False}, True),
            ("save_cf.png", floats[3].transpose(2, 0, 1), {"data_format": "channels_first"}, True),
            ("save.jpg", floats[3], {"quality": 95}, False),
            ("save_rgba.jpg", floats[4], {"file_format": "jpeg"}, False),
            ("bytesio.png", floats[3], {"file_format": "png"}, True)):
        cases[f"save_img/{name}"] = (
            lambda n=name, x=x, k=kwargs: _saved_and_reloaded(image_mod, directory, n, x, **k), exact)
    return {name: _run(fn, exact) for name, (fn, exact) in cases.items()}


def jpeg_source_b64(directory: Path) -> str:
    """The JPEG source file's bytes as recorded by the generator."""
    return base64.b64encode((directory / "rgb.jpg").read_bytes()).decode()
