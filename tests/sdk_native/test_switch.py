"""The switch between the compiled and the numpy kernels, and the silent fallback to numpy."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from edgelite.kernels import backend, conv
from support.child_env import child_env

def _run(code: str, **env: str) -> str:
    full = {k: v for k, v in child_env(env).items() if k != "EDGELITE_SDK_KERNELS" or k in env}
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, check=True,
                          timeout=120).stdout.strip()


def test_select_rejects_unknown_names_and_using_restores():
    before = backend.selected()
    with pytest.raises(ValueError, match="native"):
        backend.select("blas")
    with backend.using("numpy"):
        assert backend.selected() == "numpy"
    assert backend.selected() == before


def test_numpy_switch_never_reaches_the_library(monkeypatch):
    monkeypatch.setattr("edgelite.kernels.native.window_op", lambda *a, **k: pytest.fail("compiled kernel ran"))
    x = np.ones((1, 5, 5, 2), np.float32)
    with backend.using("numpy"):
        assert conv.conv2d(x, np.ones((3, 3, 2, 1), np.float32), (1, 1), (1, 1), "VALID").shape == (1, 3, 3, 1)


def test_environment_variable_sets_the_starting_choice():
    code = "from edgelite.kernels import backend; print(backend.selected())"
    assert _run(code, EDGELITE_SDK_KERNELS="numpy") == "numpy"
    assert _run(code, EDGELITE_SDK_KERNELS="native") == "native"


def test_unloadable_library_falls_back_to_numpy_silently(tmp_path):
    code = ("import numpy as np; import edgelite as tf; from edgelite.kernels import backend\n"
            "x = tf.constant(np.ones((1, 4, 4, 2), np.float32)); w = tf.constant(np.ones((3, 3, 2, 3), np.float32))\n"
            "y = tf.Session().run(tf.nn.conv2d(x, w, [1, 1, 1, 1], 'SAME'))\n"
            "print(backend.selected(), backend.native_available(), float(y.sum()))")
    assert _run(code, EDGELITE_LIBRARY=str(tmp_path / "missing.so")) == "native False 600.0"
