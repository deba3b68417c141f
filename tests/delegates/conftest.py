"""Fixtures for the delegate tests: the test delegates compiled once per session."""
from __future__ import annotations

import importlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
C_DIR = Path(__file__).resolve().parent / "c"
INCLUDE = ROOT / "runtime_c" / "include"
FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-fPIC", "-shared", "-fvisibility=hidden"]


@dataclass(frozen=True)
class Plugins:
    """Paths of the compiled test delegates (see tests/delegates/c/*.c)."""

    claim: str          # (a) claims chosen builtin codes, runs them through the original kernels
    claim_host: str     # (a) again, importing the TfLite helpers from the host (left undefined)
    fake_edgetpu: str   # (b) the libedgetpu stand-in
    failing: str        # (c) delegates that fail in each possible place
    failing_host: str   # (c) again, importing the TfLite helpers and TfLiteKernelInitFailed from the host
    libedgelite: str    # the library the binding loaded


@pytest.fixture(scope="session")
def rt():
    """The edgelite_runtime package under test."""
    import edgelite_runtime

    return edgelite_runtime


def _compile(compiler: str, source: str, out: Path, extra=()) -> str:
    cmd = [compiler, *FLAGS, "-I", str(INCLUDE), "-o", str(out), str(C_DIR / source), *extra]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"building {source} failed:\n{' '.join(cmd)}\n{done.stderr}")
    return str(out)


@pytest.fixture(scope="session")
def plugins(c_compiler, tmp_path_factory, rt) -> Plugins:
    """All test delegates, built once into a temporary directory."""
    # The package rebinds the name `_lib` to the cffi library object, so fetch the module itself.
    _lib = importlib.import_module("edgelite_runtime._lib")
    out = tmp_path_factory.mktemp("delegates")
    libedgelite = str(Path(_lib._library_path()).resolve())
    # Not linked with libedgelite: the helpers stay undefined symbols, resolved when the plugin is
    # loaded into a process where libedgelite is already global (as a TFLite binary provides them).
    host = ["-DPLUGIN_USE_HOST_HELPERS"]
    return Plugins(
        claim=_compile(c_compiler, "claim_delegate.c", out / "libclaim_delegate.so"),
        claim_host=_compile(c_compiler, "claim_delegate.c", out / "libclaim_delegate_host.so", host),
        fake_edgetpu=_compile(c_compiler, "fake_edgetpu.c", out / "libedgetpu.so.1"),
        failing=_compile(c_compiler, "failing_delegate.c", out / "libfailing_delegate.so"),
        failing_host=_compile(c_compiler, "failing_delegate.c", out / "libfailing_delegate_host.so", host),
        libedgelite=libedgelite,
    )


@pytest.fixture
def edgetpu_env(plugins, monkeypatch):
    """Points edgelite_runtime.edgetpu at the libedgetpu stand-in with its two default devices."""
    monkeypatch.setenv("EDGELITE_EDGETPU_LIBRARY", plugins.fake_edgetpu)
    monkeypatch.delenv("EDGELITE_FAKE_EDGETPU_DEVICES", raising=False)
    return plugins.fake_edgetpu
