"""decode_jpeg/encode_jpeg against TensorFlow's recorded libjpeg-turbo outputs (jpeg_cases.py): exact pixels with
simplejpeg, the documented bound with the Pillow fallback, TF's files byte for byte, TF's errors."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.image import jpeg_codec
from . import jpeg_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
pytest.importorskip("PIL", reason="JPEG needs Pillow (edgelite[image])")


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "jpeg_cases.npz") as z:
        arrays = dict(z)
    return json.loads((FIXTURES / "jpeg_cases.json").read_text()), arrays


def _run(fn, data: bytes):
    contents = tf.placeholder(tf.string, [])
    out = fn(tf, contents)
    with tf.Session() as sess:
        return out, sess.run(out, {contents: data})


def _file(arrays, name) -> bytes:
    return arrays[f"file/{name}"].tobytes()


def _diff(got, want) -> int:
    assert got.dtype == want.dtype and got.shape == want.shape, f"{got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    return int(np.abs(got.astype(np.int16) - want.astype(np.int16)).max(initial=0))


def _exact_rows(name, arrays) -> int:
    """All rows, or for a recovered truncated file the rows TF keeps without recovery (see jpeg_cases)."""
    want = arrays[f"decode/{name}"]
    if name not in jpeg_cases.TRUNCATED_EXACT_ROWS:
        return want.shape[0]
    kept = arrays[f"decode/{jpeg_cases.TRUNCATED_EXACT_ROWS[name]}"]
    return int(np.argmax(kept.max(axis=(1, 2)) == 0))


@pytest.mark.parametrize("name,fn,fname", jpeg_cases.DECODE_CASES, ids=[c[0] for c in jpeg_cases.DECODE_CASES])
def test_decode_equals_tensorflow(name, fn, fname, recorded):
    pytest.importorskip("simplejpeg", reason="TF's exact JPEG pixels need simplejpeg (edgelite[image])")
    meta, arrays = recorded
    out, got = _run(fn, _file(arrays, fname))
    assert (out.shape.as_list() if out.shape.ndims is not None else None) == meta["decode"][name]["static_shape"]
    assert out.dtype.name == meta["decode"][name]["dtype"]
    rows = _exact_rows(name, arrays)
    assert rows > 0
    assert _diff(got[:rows], arrays[f"decode/{name}"][:rows]) <= jpeg_cases.LEVELS.get(name, 0)
    assert got.shape == arrays[f"decode/{name}"].shape


@pytest.mark.parametrize("name,fn,fname", [c for c in jpeg_cases.DECODE_CASES
                                           if jpeg_cases.PILLOW_LEVELS.get(c[0], 0) is not None],
                         ids=[c[0] for c in jpeg_cases.DECODE_CASES
                              if jpeg_cases.PILLOW_LEVELS.get(c[0], 0) is not None])
def test_pillow_fallback_within_documented_levels(name, fn, fname, recorded, monkeypatch):
    monkeypatch.setattr(jpeg_codec, "turbo", lambda: None)
    _, arrays = recorded
    _, got = _run(fn, _file(arrays, fname))
    assert _diff(got, arrays[f"decode/{name}"]) <= jpeg_cases.PILLOW_LEVELS.get(name, 0)


@pytest.mark.parametrize("name,fn,fname", jpeg_cases.ENCODE_CASES, ids=[c[0] for c in jpeg_cases.ENCODE_CASES])
def test_encode_is_tensorflows_file(name, fn, fname, recorded):
    _, arrays = recorded
    _, got = _run(fn, _file(arrays, fname))
    assert got == arrays[f"encode/{name}"].tobytes()


@pytest.mark.parametrize("name,fn,fname", jpeg_cases.RUN_ERRORS, ids=[c[0] for c in jpeg_cases.RUN_ERRORS])
def test_errors_match_tensorflow(name, fn, fname, recorded):
    pytest.importorskip("simplejpeg", reason="TF's truncated-file rules need simplejpeg (edgelite[image])")
    meta, arrays = recorded
    want = meta["errors"][name]
    try:
        _run(fn, _file(arrays, fname))
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        assert (type(e).__name__, str(e).splitlines()[0]) == (want["error"], want["message"])
    else:
        assert want["error"] is None
