"""Every way an external delegate can fail (delegate c), with the exception type and text.

Where LiteRT is installed the same plugin runs there too and the texts must match it; the one
intended difference is a missing library, where tflite raises a bare OSError and, at garbage
collection, a stray AttributeError from Delegate.__del__ (anchors §1.4, §6 item 13).
"""
from __future__ import annotations

import gc
import sys

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mlp(corpus_dir):
    return str(corpus_dir / "mlp_f32" / "model.tflite"), np.load(corpus_dir / "mlp_f32" / "input_0.npy")


def _construct(module, path, model, mode):
    delegate = module.load_delegate(path, {"mode": mode})
    kwargs = {}
    if hasattr(module.OpResolverType, "BUILTIN_WITHOUT_DEFAULT_DELEGATES"):
        kwargs["experimental_op_resolver_type"] = module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    return module.Interpreter(model_path=model, experimental_delegates=[delegate], **kwargs)


def _error(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the test compares whatever is raised
        return type(e), str(e)
    return None


def _mlp_ops(rt, model):
    return len(rt.Interpreter(model_path=model)._get_ops_details())


@pytest.mark.parametrize("mode, when, text", [
    ("prepare", "construct",
     "failing delegate: Prepare refused the graphRestored original execution plan after delegate application failure."),
    ("prepare_late", "construct",
     "failing delegate: Prepare failed after claiming the graph"
     "Restored original execution plan after delegate application failure."),
    # The kernel's init returns TfLiteKernelInitFailed(): TFLite fails the delegation there.
    ("kernel_init", "construct",
     "Failed to initialize kernel.Restored original execution plan after delegate application failure."),
    # No dynamic-tensors flag: the graph is prepared right away and the failure undoes the delegation.
    ("kernel_prepare", "construct",
     "failing delegate: kernel prepare refusedNode number {n} (FailingDelegateKernel) failed to prepare."
     "Restored original execution plan after delegate application failure."),
    ("kernel_invoke", "invoke",
     "failing delegate: kernel invoke failedNode number {n} (FailingDelegateKernel) failed to invoke."),
])
def test_delegate_failures(rt, plugins, litert_optional, mlp, mode, when, text):
    model, x = mlp
    text = text.format(n=_mlp_ops(rt, model))

    def scenario(module):
        it = _construct(module, plugins.failing, model, mode)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()

    assert _error(lambda: scenario(rt)) == (RuntimeError, text)
    if litert_optional is not None:
        assert _error(lambda: scenario(litert_optional)) == (RuntimeError, text)
    if when == "construct":
        with pytest.raises(RuntimeError):
            _construct(rt, plugins.failing, model, mode)
    else:
        _construct(rt, plugins.failing, model, mode)


@pytest.mark.parametrize("mode, reason", [
    ("null", ""),  # what libedgetpu does when no device opens: no reason given
    ("null_report", "failing delegate: cannot open the device"),
    ("bogus", "failing delegate: unknown mode 'bogus'"),
])
def test_create_returns_null(rt, plugins, litert_optional, mode, reason):
    expected = f"Failed to load delegate from {plugins.failing}\n{reason}"
    with pytest.raises(ValueError) as ours:
        rt.load_delegate(plugins.failing, {"mode": mode})
    assert str(ours.value) == expected
    if litert_optional is not None:
        with pytest.raises(ValueError) as ref:
            litert_optional.load_delegate(plugins.failing, {"mode": mode})
        assert str(ref.value) == expected


@pytest.mark.parametrize("library", ["/nonexistent/libedgetpu.so.1", "libedgetpu-not-installed.so.1"])
def test_missing_library_is_one_clean_value_error(rt, monkeypatch, library):
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with pytest.raises(ValueError) as e:
        rt.load_delegate(library)
    assert isinstance(e.value, OSError)
    assert str(e.value) == (f"Failed to load delegate from {library}\n"
                            f"{library}: cannot open shared object file: No such file or directory")
    assert e.value.__cause__ is None, "one exception, no chained noise"
    assert e.value.__context__ is None or e.value.__suppress_context__
    del e
    gc.collect()
    assert unraisable == []


def test_library_that_is_no_plugin(rt, plugins, monkeypatch):
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with pytest.raises(ValueError) as e:
        rt.load_delegate(plugins.libedgelite)
    assert str(e.value).startswith(f"Failed to load delegate from {plugins.libedgelite}\n")
    assert "is not a TFLite delegate plugin" in str(e.value) and "tflite_plugin_create_delegate" in str(e.value)
    del e
    gc.collect()
    assert unraisable == []
