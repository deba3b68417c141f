"""Runs one kernel on the numpy and the native path and compares the results."""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, List

import numpy as np

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


def assert_close(ref: Any, out: Any, rtol: float = 2e-5, scale_atol: float = 2e-5, atol_floor: float = 0.0) -> None:
    """Same shapes and dtypes; values within float32 rounding relative to the result's magnitude (or atol_floor)."""
    refs = ref if isinstance(ref, tuple) else (ref,)
    outs = out if isinstance(out, tuple) else (out,)
    assert len(refs) == len(outs)
    for r, o in zip(refs, outs):
        r, o = np.asarray(r), np.asarray(o)
        assert r.shape == o.shape and r.dtype == o.dtype, (r.shape, o.shape, r.dtype, o.dtype)
        finite = np.abs(r[np.isfinite(r)])
        atol = max(scale_atol * (float(finite.max()) if finite.size else 1.0), atol_floor)
        np.testing.assert_allclose(o, r, rtol=rtol, atol=atol, equal_nan=True)


def randn(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


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
    native_lib._cache["handle"] = native_lib.Handle(h.ffi, h.lib, h.ffi.gc(out[0], h.lib.el_train_kernels_destroy))
    try:
        yield
    finally:
        native_lib._cache["handle"] = saved
