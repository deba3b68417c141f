"""Every case of the sdk_sparse case modules gives TensorFlow's recorded values, shapes, or error type and text."""
from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import case_tools  # noqa: E402

MODULES = [p.stem for p in sorted((HERE / "fixtures").glob("*_cases.json"))]


def _cases():
    for mod_name in MODULES:
        fixture = json.loads((HERE / "fixtures" / f"{mod_name}.json").read_text())
        for name, build in importlib.import_module(mod_name).CASES:
            yield pytest.param(build, fixture[name], id=f"{mod_name}:{name}")


def _same_message(got: str, want: str) -> bool:
    # Shape-inference errors quote TF's full NodeDef; compare the text before the node.
    cut = " for '{{node "
    if cut in want:
        return got.split(cut)[0] == want.split(cut)[0]
    return got == want


def _check_error(err: Exception, want: list) -> None:
    got = [type(err).__name__, case_tools.op_message(err)]
    assert got[0] == want[0], (got, want)
    assert _same_message(got[1], want[1]), (got[1], want[1])


def _attempt(fn, want: dict, key: str):
    """fn()'s result, or None after checking its error against the recorded one under key."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - compared with TensorFlow's error below
        if key not in want:
            raise
        _check_error(e, want[key])
        return None


@pytest.mark.parametrize("build,want", list(_cases()))
def test_case_matches_tensorflow(build, want) -> None:
    with tf.Graph().as_default():
        built = _attempt(lambda: build(tf), want, "build_error")
        if built is None:
            return
        assert "build_error" not in want, f"TensorFlow raised {want['build_error']} at build time"
        fetches, feed = built
        shapes = case_tools.static_shapes(tf, fetches)
        with tf.Session() as sess:
            values = _attempt(lambda: [sess.run(fetches, feed)], want, "run_error")
        if values is None:
            return
        values = values[0]
    assert "run_error" not in want, f"TensorFlow raised {want['run_error']} at run time"
    assert shapes == want["shapes"]
    got = case_tools.flatten(tf, values)
    assert len(got) == len(want["values"])
    for g, rec in zip(got, want["values"]):
        w = case_tools.decode(rec)
        g = np.asarray(g)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype == object:
            # A scalar string fetch is bytes (as in TF); numpy would make it a fixed-width array.
            g = np.asarray(g, dtype=object) if g.ndim == 0 else g
            assert g.dtype == object and g.ravel().tolist() == w.ravel().tolist()
            continue
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        if w.dtype.kind in "fc":
            tol = 1e-5 if w.dtype == np.float32 else 1e-12
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol)
        else:
            np.testing.assert_array_equal(g, w)
