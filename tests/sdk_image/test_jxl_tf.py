"""decode_jxl (and JPEG XL data through the other decode ops) against TensorFlow 2.21's recordings (jxl_cases.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from . import jxl_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# 16-bit files: libjxl renders them to 8 bits inside TF's kernel; imagecodecs hands 16 bits, rounded here
LEVELS = {"sixteen_bit": 1}


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "jxl_cases.npz") as z:
        arrays = dict(z)
    return json.loads((FIXTURES / "jxl_cases.json").read_text()), arrays


def _run(fn, data: bytes):
    contents = tf.placeholder(tf.string, [])
    out = fn(tf, contents)
    with tf.Session() as sess:
        return out, sess.run(out, {contents: data})


@pytest.mark.parametrize("name,fn,fname", jxl_cases.DECODE_CASES, ids=[c[0] for c in jxl_cases.DECODE_CASES])
def test_decode_equals_tensorflow(name, fn, fname, recorded):
    pytest.importorskip("imagecodecs", reason="JPEG XL needs imagecodecs (edgelite[jxl])")
    meta, arrays = recorded
    out, got = _run(fn, arrays[f"file/{fname}"].tobytes())
    assert (out.shape.as_list() if out.shape.ndims is not None else None) == meta["decode"][name]["static_shape"]
    assert out.dtype.name == meta["decode"][name]["dtype"]
    want = arrays[f"decode/{name}"]
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.abs(got.astype(np.int16) - want).max() <= LEVELS.get(name, 0)


@pytest.mark.parametrize("name,fn,fname", jxl_cases.RUN_ERRORS, ids=[c[0] for c in jxl_cases.RUN_ERRORS])
def test_run_errors_match_tensorflow(name, fn, fname, recorded):
    pytest.importorskip("imagecodecs", reason="JPEG XL needs imagecodecs (edgelite[jxl])")
    meta, arrays = recorded
    with pytest.raises(Exception) as info:
        _run(fn, arrays[f"file/{fname}"].tobytes())
    want = meta["errors"][name]
    assert (type(info.value).__name__, str(info.value).splitlines()[0]) == (want["error"], want["message"])


@pytest.mark.parametrize("name,fn", jxl_cases.BUILD_ERRORS, ids=[c[0] for c in jxl_cases.BUILD_ERRORS])
def test_build_errors_match_tensorflow(name, fn, recorded):
    want = recorded[0]["errors"][name]
    with pytest.raises(ValueError) as info:
        fn(tf)
    assert want["error"] == "ValueError"
    assert str(info.value).startswith(want["message"].split(" for '")[0])


@pytest.mark.parametrize("name,fn", jxl_cases.STATIC_SHAPES, ids=[c[0] for c in jxl_cases.STATIC_SHAPES])
def test_static_shapes(name, fn, recorded):
    assert fn(tf).shape.as_list() == recorded[0]["static"][name]
