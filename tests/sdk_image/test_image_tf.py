"""edgelite.image against TensorFlow's recorded outputs, static shapes, gradients and errors (cases.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.image import jpeg_codec
from . import cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# float tolerances: resizes and colour maps are float32 arithmetic in a possibly different order than TF's
TOL = {"float32": dict(rtol=1e-5, atol=2e-6), "float64": dict(rtol=1e-6, atol=1e-9)}


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "cases.npz") as z:
        arrays = dict(z)
    return json.loads((FIXTURES / "cases.json").read_text()), arrays


def _close(got, want, what, tol=None):
    assert got.dtype == want.dtype and got.shape == want.shape, \
        f"{what}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, err_msg=what, **(tol or TOL.get(want.dtype.name, TOL["float32"])))
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def _outputs(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


@pytest.mark.parametrize("name,fn,specs,diff", cases.CASES, ids=[c[0] for c in cases.CASES])
def test_matches_tensorflow(name, fn, specs, diff, recorded):
    meta, arrays = recorded
    case = meta["cases"][name]
    inputs = [arrays[f"{name}/in{k}"] for k in range(len(specs))]
    phs = [tf.placeholder(tf.as_dtype(x.dtype), x.shape) for x in inputs]
    outs = _outputs(fn(tf, *phs))
    assert [o.shape.as_list() if o.shape.ndims is not None else None for o in outs] == case["static_shapes"]
    assert [o.dtype.name for o in outs] == case["dtypes"]
    fetch = list(outs)
    if diff:
        grads = tf.gradients(outs[0], phs, grad_ys=arrays[f"{name}/dy"])
        assert [k for k, g in enumerate(grads) if g is not None] == case["grads"]
        fetch += [grads[k] for k in case["grads"]]
    with tf.Session() as sess:
        vals = sess.run(fetch, dict(zip(phs, inputs)))
    tol = cases.TOLERANCES.get(name)
    for j in range(len(outs)):
        _close(np.asarray(vals[j]), arrays[f"{name}/out{j}"], f"output {j}", tol)
    for k, v in zip(case["grads"] if diff else [], vals[len(outs):]):
        _close(v, arrays[f"{name}/grad{k}"], f"gradient {k}", tol)


def _error(outcome, want):
    assert outcome["error"] == want["error"]
    if want["error"] is None:
        return
    if want["message"].startswith("No gradient defined for operation"):
        # the wording is tf.gradients' (edgelite's core), the op type is what the image op decides
        op_type = want["message"].split("(op type: ")[1].split(")")[0]
        assert outcome["message"].startswith("No gradient defined for operation")
        assert f"(op type: {op_type})" in outcome["message"]
    elif " for '{{node " in want["message"]:
        assert outcome["message"].startswith(want["message"].split(" for '")[0])
    else:
        assert outcome["message"] == want["message"]


@pytest.mark.parametrize("name,fn", cases.ERROR_CASES, ids=[c[0] for c in cases.ERROR_CASES])
def test_build_errors_match_tensorflow(name, fn, recorded):
    _error(cases.error_outcome(fn, tf), recorded[0]["errors"][name])


@pytest.mark.parametrize("name,fn", cases.RUN_ERROR_CASES, ids=[c[0] for c in cases.RUN_ERROR_CASES])
def test_run_errors_match_tensorflow(name, fn, recorded):
    t = fn(tf)
    with tf.Session() as sess:
        outcome = cases.error_outcome(lambda _: sess.run(t), None)
    _error(outcome, recorded[0]["errors"][name])


def _file(arrays, name) -> bytes:
    return arrays[f"file/{name}"].tobytes()


@pytest.mark.parametrize("name,fn,fname,levels", cases.CODEC_CASES, ids=[c[0] for c in cases.CODEC_CASES])
def test_codecs_match_tensorflow(name, fn, fname, levels, recorded):
    pytest.importorskip("PIL", reason="the JPEG/GIF/BMP/WebP codecs need Pillow (edgelite[image])")
    meta, arrays = recorded
    contents = tf.placeholder(tf.string, [])
    outs = _outputs(fn(tf, contents))
    case = meta["codecs"][name]
    assert [o.shape.as_list() if o.shape.ndims is not None else None for o in outs] == case["static_shapes"]
    assert [o.dtype.name for o in outs] == case["dtypes"]
    with tf.Session() as sess:
        vals = sess.run(outs, {contents: _file(arrays, fname)})
    if jpeg_codec.turbo() is not None:
        levels = 0  # the levels are the Pillow fallback's; simplejpeg decodes as TF does
    for j, got in enumerate(vals):
        want = arrays[f"codec/{name}/out{j}"]
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, f"{got.dtype}{got.shape} vs {want.dtype}{want.shape}"
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        assert diff.max(initial=0) <= (levels if want.dtype.kind in "iu" else 1e-6), diff.max()


@pytest.mark.parametrize("name,fn,fname", cases.CODEC_RUN_ERRORS, ids=[c[0] for c in cases.CODEC_RUN_ERRORS])
def test_codec_errors_match_tensorflow(name, fn, fname, recorded):
    pytest.importorskip("PIL", reason="the JPEG/GIF/BMP/WebP codecs need Pillow (edgelite[image])")
    meta, arrays = recorded
    contents = tf.placeholder(tf.string, [])
    t = fn(tf, contents)
    with tf.Session() as sess:
        outcome = cases.error_outcome(lambda _: sess.run(t, {contents: _file(arrays, fname)}), None)
    _error(outcome, meta["codec_errors"][name])


@pytest.mark.parametrize("name,fn", cases.CODEC_BUILD_ERRORS, ids=[c[0] for c in cases.CODEC_BUILD_ERRORS])
def test_codec_build_errors_match_tensorflow(name, fn, recorded):
    _error(cases.error_outcome(fn, tf), recorded[0]["codec_errors"][name])
