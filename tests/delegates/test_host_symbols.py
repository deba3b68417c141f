"""The host side of a plugin's ABI as LiteRT's Python package offers it: `Delegate._library` is a
ctypes handle of the plugin, and the TfLite C helpers a plugin leaves undefined are supplied by
the already loaded libedgelite (issue #9: TfLiteIntArrayCreate/Free/GetSizeInBytes and
TfLiteKernelInitFailed)."""
from __future__ import annotations

import ctypes
import subprocess
import sys

import numpy as np
import pytest

HOST_SYMBOLS = ("TfLiteIntArrayCreate", "TfLiteIntArrayFree", "TfLiteIntArrayGetSizeInBytes",
                "TfLiteKernelInitFailed")
CONV_2D = 3


def test_host_built_plugins_need_the_host(plugins):
    """Alone in a fresh process the host-built plugins cannot load: their TfLite helpers are imports."""
    for path in (plugins.failing_host, plugins.claim_host):
        done = subprocess.run([sys.executable, "-c", f"import ctypes; ctypes.CDLL({path!r})"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and "undefined symbol: TfLite" in done.stderr, done.stderr


def test_libedgelite_exports_the_helpers(plugins):
    lib = ctypes.CDLL(plugins.libedgelite)
    for name in HOST_SYMBOLS:
        assert hasattr(lib, name), name
    lib.TfLiteKernelInitFailed.restype = ctypes.c_void_p
    # TFLite's sentinel is the all-ones address, (void*)-1.
    assert lib.TfLiteKernelInitFailed() == ctypes.c_void_p(-1).value
    assert lib.TfLiteIntArrayGetSizeInBytes(3) == 4 * 4


@pytest.fixture(scope="module")
def mlp(corpus_dir):
    return str(corpus_dir / "mlp_f32" / "model.tflite"), np.load(corpus_dir / "mlp_f32" / "input_0.npy")


def test_kernel_init_failed_from_the_host_fails_the_delegation(rt, plugins, litert_optional, mlp):
    """TfLiteKernelInitFailed() taken from libedgelite is the sentinel the host acts on, with LiteRT's text."""
    model, x = mlp
    expected = "Failed to initialize kernel.Restored original execution plan after delegate application failure."
    delegate = rt.load_delegate(plugins.failing_host, {"mode": "kernel_init"})
    with pytest.raises(RuntimeError) as ours:
        rt.Interpreter(model_path=model, experimental_delegates=[delegate])
    assert str(ours.value) == expected
    if litert_optional is not None:
        # LiteRT exports no helpers, so it takes the plugin's self-contained build.
        ref_delegate = litert_optional.load_delegate(plugins.failing, {"mode": "kernel_init"})
        with pytest.raises(RuntimeError) as ref:
            litert_optional.Interpreter(
                model_path=model, experimental_delegates=[ref_delegate],
                experimental_op_resolver_type=litert_optional.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        assert str(ref.value) == expected
    # The delegation was rolled back: the same delegate object's plugin is still usable elsewhere.
    it = rt.Interpreter(model_path=model)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()


def _counters(library, delegate):
    """The claim delegate's counters read through `delegate._library`, as LiteRT's tests read theirs."""
    k, p, i = ctypes.c_long(), ctypes.c_long(), ctypes.c_long()
    library.claim_delegate_stats(ctypes.c_void_p(delegate._get_native_delegate_pointer()),
                                 ctypes.byref(k), ctypes.byref(p), ctypes.byref(i))
    return k.value, p.value, i.value


def test_delegate_library_is_a_ctypes_handle_like_litert(rt, plugins, litert_optional, corpus_dir):
    model = (corpus_dir / "mobilenet_v2_f32" / "model.tflite").read_bytes()
    x = np.load(corpus_dir / "mobilenet_v2_f32" / "input_0.npy")
    delegate = rt.load_delegate(plugins.claim_host, {"allowed_builtin_codes": f"{CONV_2D}"})
    assert isinstance(delegate._library, ctypes.CDLL)
    if litert_optional is not None:
        ref = litert_optional.load_delegate(plugins.claim, {"allowed_builtin_codes": f"{CONV_2D}"})
        assert type(delegate._library) is type(ref._library)
        assert _counters(ref._library, ref) == (0, 0, 0)
    assert _counters(delegate._library, delegate) == (0, 0, 0)
    it = rt.Interpreter(model_content=model, experimental_delegates=[delegate])
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    kernels, prepares, invokes = _counters(delegate._library, delegate)
    assert kernels > 0 and prepares >= kernels and invokes == kernels
    with pytest.raises(AttributeError):
        delegate._library.no_such_symbol_in_the_plugin
