"""Loading and comparing against the TensorFlow fixtures recorded by fixtures/generate.py."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TOL = {"float64": dict(rtol=1e-9, atol=1e-12), "float32": dict(rtol=2e-5, atol=2e-6)}


@lru_cache(maxsize=None)
def values() -> dict:
    with np.load(FIXTURES / "tf_values.npz") as z:
        return dict(z)


@lru_cache(maxsize=None)
def meta() -> dict:
    return json.loads((FIXTURES / "tf_meta.json").read_text())


def value_params(cases: list) -> list:
    """pytest params (case, dtype) for every recorded sweep of the given cases."""
    return [pytest.param(c, dt, id=f"{c[0]}-{dt}") for c in cases for dt in c[3]]


def _close(got: np.ndarray, want: np.ndarray, what: str, tol: dict) -> None:
    assert got.shape == want.shape, f"{what}: shape {got.shape} != TF {want.shape}"
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, err_msg=what, **tol)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def check_value_case(case: tuple, dtype: str, tol: dict = None) -> None:
    """Build the case in edgelite on TF's inputs; compare outputs, dtypes, static shapes and gradients."""
    name, fn, specs, _ = case
    key = f"{name}|{dtype}"
    ref, info = values(), meta()["values"][key]
    tol = tol or TOL.get(dtype, TOL["float64"])
    inputs = [ref[f"{key}|in{i}"] for i in range(len(specs))]
    g = tf.Graph()
    with g.as_default():
        phs = [tf.placeholder(tf.as_dtype(x.dtype), x.shape, name=f"in{i}") for i, x in enumerate(inputs)]
        outs = fn(tf, *phs)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        assert [o.dtype.name for o in outs] == info["dtypes"]
        assert [None if o.shape.ndims is None else o.shape.as_list() for o in outs] == info["shapes"]
        diff = [p for p, s in zip(phs, specs) if s[0] in ("f", "fv") and p.dtype.is_floating]
        float_outs = [o for o in outs if o.dtype.is_floating]
        gys = [ref[f"{key}|gy{i}"] for i in range(len(float_outs))]
        if info.get("grad_error"):
            with pytest.raises(LookupError) as err:
                tf.gradients(float_outs, diff, grad_ys=gys)
            assert _op_type(info["grad_error"]) == _op_type(str(err.value)), str(err.value)
            grads = []
        else:
            grads = tf.gradients(float_outs, diff, grad_ys=gys) if float_outs and diff else []
        assert [gr is None for gr in grads] == info["grad_none"]
        grads = [tf.convert_to_tensor(gr) for gr in grads if gr is not None]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run(outs + grads, dict(zip(phs, inputs)))
    for i in range(len(outs)):
        _close(np.asarray(got[i]), ref[f"{key}|out{i}"], f"{key} output {i}", tol)
    names = [f"{key}|grad{i}" for i, none in enumerate(info["grad_none"]) if not none]
    for gv, gname in zip(got[len(outs):], names):
        _close(np.asarray(gv), ref[gname], gname, tol)


def _op_type(message: str) -> str:
    """The op type named by a 'No gradient defined for operation ... (op type: X)' message."""
    found = re.search(r"op type: (\w+)", message)
    return found.group(1) if found else message


def _normalise(message: str) -> str:
    """Comparable form of a message: up to a Tensor's repr (const names differ between the two graphs), and
    an allowed-dtype list as a sorted set without TF's quantized types (edgelite computes in numpy)."""
    message = re.split(r"Tensor\(|\nTraceback|\n\noriginally defined at", message)[0]
    message = re.sub(r"pyfunc_\d+", "pyfunc_N", message)
    head, sep, listed = message.partition("not in list of allowed values: ")
    if sep:
        names = sorted(n for n in listed.split(", ") if not n.startswith(("qint", "quint")))
        message = head + sep + ", ".join(names)
    return message


def check_error_case(name: str, build) -> None:
    """edgelite raises TF's error type, at the same stage, with TF's message inside its own."""
    want = meta()["errors"][name]
    g = tf.Graph()
    with g.as_default():
        if want["when"] is None:
            # TF neither fails to build nor to run this (e.g. it returns NaN): neither may edgelite
            fetches = build()
            with tf.Session() as sess:
                sess.run(fetches)
            return
        if want["when"] == "build":
            with pytest.raises(Exception) as info:
                build()
        else:
            fetches = build()
            with tf.Session() as sess:
                with pytest.raises(Exception) as info:
                    sess.run(fetches)
    assert type(info.value).__name__ == want["type"], f"{name}: {info.value!r}"
    assert _normalise(want["message"]) in _normalise(str(info.value)), f"{name}: {info.value}"
