"""invoke through edgelite_runtime._fastcall (the compiled abi3 trampoline a wheel carries) and
through cffi's ABI mode: the same outputs, the same errors, and EDGELITE_FASTCALL=0 switches the
trampoline off."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from .test_errors import _gather

ROOT = Path(__file__).resolve().parents[2]


def _lib_module():
    import edgelite_runtime  # noqa: F401  (the package binds the name _lib to the cffi lib)

    return sys.modules["edgelite_runtime._lib"]


@pytest.fixture()
def fastcall():
    """The trampoline's lib; a visible skip where the binding runs without it."""
    lib_module = _lib_module()
    if lib_module.FASTCALL is None:
        pytest.skip("edgelite_runtime._fastcall is not loaded (source tree, no Python headers at build time, "
                    "or EDGELITE_FASTCALL=0): invoke uses cffi's ABI mode")
    return lib_module.FASTCALL


def test_installed_package_has_the_trampoline():
    """CI sets EDGELITE_REQUIRE_FASTCALL=1: the wheel it built must carry and load the module."""
    if os.environ.get("EDGELITE_REQUIRE_FASTCALL") != "1":
        pytest.skip("EDGELITE_REQUIRE_FASTCALL is not set (only CI's installed wheel must have the module)")
    import edgelite_runtime

    package = Path(edgelite_runtime.__file__).resolve().parent
    assert package != (ROOT / "bindings" / "edgelite_runtime").resolve(), "imported the source tree, not the wheel"
    assert list(package.glob("_fastcall*")), f"no _fastcall module in {package}"
    assert _lib_module().FASTCALL is not None


def _abi_mode(monkeypatch) -> None:
    monkeypatch.setattr(_lib_module(), "FASTCALL", None)


def test_interpreters_use_the_trampoline(rt, fastcall, hello_world, monkeypatch):
    it = rt.Interpreter(model_path=str(hello_world))
    assert it._c_invoke == fastcall.el_fast_invoke
    _abi_mode(monkeypatch)
    assert rt.Interpreter(model_path=str(hello_world))._c_invoke != fastcall.el_fast_invoke


@pytest.mark.parametrize("name", ["cnn_int8", "mlp_f32", "lstm_f32"])
def test_same_outputs_both_ways(rt, fastcall, corpus_dir, monkeypatch, name):
    model = str(corpus_dir / name / "model.tflite")
    inputs = [np.load(corpus_dir / name / "input_0.npy")]

    def run():
        it = rt.Interpreter(model_path=model)
        it.allocate_tensors()
        details = it.get_input_details()
        it.set_tensor(details[0]["index"], inputs[0].astype(details[0]["dtype"]).reshape(details[0]["shape"]))
        outs = []
        for _ in range(2):  # stateful models (LSTM) change between invokes
            it.invoke()
            outs.append([it.get_tensor(d["index"]) for d in it.get_output_details()])
        return it._c_invoke, outs

    fast_call, fast = run()
    _abi_mode(monkeypatch)
    abi_call, abi = run()
    assert fast_call == fastcall.el_fast_invoke and abi_call != fast_call
    for a, b in zip(fast, abi):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_same_kernel_error_both_ways(rt, fastcall, monkeypatch):
    texts = []
    for abi in (False, True):
        if abi:
            _abi_mode(monkeypatch)
        with pytest.raises(RuntimeError) as info:
            _gather(rt, [0, 9])
        texts.append(str(info.value))
        np.testing.assert_array_equal(_gather(rt, [3, 1]), np.array([[30.0, 10.0]], np.float32))
    assert texts[0] == texts[1] == "gather index out of boundsNode number 0 (GATHER) failed to invoke."


def test_switch_off_with_environment(fastcall):
    import edgelite_runtime

    env = dict(os.environ, EDGELITE_FASTCALL="0")
    code = "import sys, edgelite_runtime; print(sys.modules['edgelite_runtime._lib'].FASTCALL is None)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                         cwd=str(Path(edgelite_runtime.__file__).resolve().parents[1]))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
