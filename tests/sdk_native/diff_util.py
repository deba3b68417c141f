"""Runs one kernel on the numpy and the native path and compares the results."""
from __future__ import annotations

import contextlib
import subprocess
import sys
from typing import Any, Callable, Dict, Iterator, List, Optional

import numpy as np
import pytest

from edgelite.kernels import backend, native


@contextlib.contextmanager
def counting_native_calls() -> Iterator[List[int]]:
    """Counts calls into the compiled kernels' wrappers (edgelite.kernels.native) inside the block."""
    calls = [0]
    names = [n for n, f in vars(native).items()
             if callable(f) and not n.startswith("_") and getattr(f, "__module__", "") == native.__name__]
    saved = {n: getattr(native, n) for n in names}

    def counted(f: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **k: Any) -> Any:
            calls[0] += 1
            return f(*a, **k)
        return wrapper

    for n in names:
        setattr(native, n, counted(saved[n]))
    try:
        yield calls
    finally:
        for n, f in saved.items():
            setattr(native, n, f)


def both(fn: Callable[..., Any], *args: Any, **kwargs: Any):
    """(numpy result, native result) of the same call; fails if the native path did not run."""
    with backend.using("numpy"), counting_native_calls() as calls:
        ref = fn(*args, **kwargs)
    assert calls[0] == 0, "the numpy switch still reached the compiled kernels"
    with backend.using("native"), counting_native_calls() as calls:
        out = fn(*args, **kwargs)
    assert calls[0] > 0, f"{fn.__name__} did not run on the compiled kernels"
    return ref, out


def assert_close(ref: Any, out: Any, rtol: Optional[float] = None, scale_atol: Optional[float] = None,
                 atol_floor: float = 0.0) -> None:
    """Same shapes and dtypes; values within the rounding of their dtype (float64: 1e-12, else float32's 2e-5)
    relative to the result's magnitude (or atol_floor)."""
    refs = ref if isinstance(ref, tuple) else (ref,)
    outs = out if isinstance(out, tuple) else (out,)
    assert len(refs) == len(outs)
    for r, o in zip(refs, outs):
        r, o = np.asarray(r), np.asarray(o)
        assert r.shape == o.shape and r.dtype == o.dtype, (r.shape, o.shape, r.dtype, o.dtype)
        wide = r.dtype == np.float64
        finite = np.abs(r[np.isfinite(r)])
        scale = scale_atol if scale_atol is not None else (1e-13 if wide else 2e-5)
        atol = max(scale * (float(finite.max()) if finite.size else 1.0), atol_floor)
        np.testing.assert_allclose(o, r, rtol=rtol if rtol is not None else (1e-12 if wide else 2e-5), atol=atol,
                                   equal_nan=True)


def randn(rng: np.random.Generator, *shape: int, dtype: Any = np.float32) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


def _has_f64() -> bool:
    from edgelite.kernels import native_lib
    h = native_lib.handle()
    return h is not None and h.f64


# The float types with compiled kernels (float64 skipped with a library that predates them).
FLOATS = pytest.mark.parametrize("dtype", [
    np.float32, pytest.param(np.float64, marks=pytest.mark.skipif(not _has_f64(), reason="no float64 kernels"))])


def isa_levels() -> List[str]:
    """The kernels' ISA levels this CPU runs among scalar / avx2 / avx512 (each has its own code paths)."""
    from edgelite.kernels import native_lib
    h = native_lib.handle()
    if h is None:
        return []
    levels = []
    for isa in ("scalar", "avx2", "avx512"):
        out = h.ffi.new("el_train_kernels **")
        if h.lib.el_train_kernels_create(isa.encode(), 1, out) == 0:
            h.lib.el_train_kernels_destroy(out[0])
            levels.append(isa)
    return levels


@contextlib.contextmanager
def kernels_at(isa: str) -> Iterator[None]:
    """Runs a block with the compiled kernels at one ISA level (one thread), restoring the loaded ones after it."""
    from edgelite.kernels import native_lib
    h = native_lib.handle()
    out = h.ffi.new("el_train_kernels **")
    assert h.lib.el_train_kernels_create(isa.encode(), 1, out) == 0, isa
    saved = native_lib._cache["handle"]
    native_lib._cache["handle"] = native_lib.Handle(h.ffi, h.lib, h.ffi.gc(out[0], h.lib.el_train_kernels_destroy),
                                                     h.f64)
    try:
        yield
    finally:
        native_lib._cache["handle"] = saved


def digests_by_thread_count(script: str, counts=("1", "3")) -> Dict[str, str]:
    """Runs `script` (printing the kernels' thread count and a digest) in a child per thread count."""
    from support.child_env import child_env
    env = child_env({"EDGELITE_SDK_KERNELS": "native"})
    digests = {}
    for n in counts:
        out = subprocess.run([sys.executable, "-c", script], env=dict(env, EDGELITE_SDK_THREADS=n),
                             capture_output=True, text=True, check=True, timeout=120).stdout.split()
        assert out[0] == n, "the thread count did not reach the kernels"
        digests[n] = out[1]
    return digests
