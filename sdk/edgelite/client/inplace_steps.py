"""Steps that write an elementwise op's result into an input buffer nobody else can see any more.

When a step reads an intermediate for the last time, the array is owned by this run alone (the executor just
dropped it from the value list) and its reference count proves no view, variable, feed, fetch or queue holds
it, the op's result can overwrite it instead of a fresh allocation: a bias-add followed by a relu then runs as
one buffer written twice. The in-place form uses the same numpy ufunc as the op's kernel on operands of the
result's dtype and shape, so the values are bit-identical; anything else (broadcasting that grows the operand,
mixed dtypes, a view, a shared array, an error case) goes through the op's own kernel.
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Optional

import numpy as np

from edgelite.client.compiled_steps import StepSpec, as_output

_ndarray = np.ndarray
_refcount = sys.getrefcount

BINARY_UFUNCS = {"AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "Maximum": np.maximum,
                  "Minimum": np.minimum}


# Below this size a fresh allocation is cheaper than the ownership checks (measured: in place wins from about
# 4096 float32 elements, and by 2x on 1 MiB arrays).
_MIN_BYTES = 8192
# Inside _reusable, an input array only the run holds is referenced by the step's `args` list, by the attempt's
# local name, by _reusable's parameter and by getrefcount's argument.
_SOLE_OWNER = 4


def _reusable(x: Any, dt: np.dtype) -> bool:
    """x is a large enough, plain, writable, self-owned array of the result dtype that nobody else references."""
    return (type(x) is _ndarray and x.nbytes >= _MIN_BYTES and _refcount(x) == _SOLE_OWNER and x.dtype == dt
            and x.flags.owndata and x.flags.writeable and x.flags.aligned)


def _fits_into(other: Any, x: np.ndarray) -> bool:
    """Broadcasting other against x gives x's shape (so the result fits x) with the same dtype."""
    if type(other) is not _ndarray or other.dtype != x.dtype:
        return False
    n = other.ndim
    return n <= x.ndim and other.shape == x.shape[x.ndim - n:]


def _statically_small(op: Any, dt: np.dtype) -> bool:
    """The op's output shape is known and below _MIN_BYTES (so no run could reuse a buffer)."""
    shape = op.outputs[0].shape
    return shape.is_fully_defined() and int(np.prod(shape.as_list(), dtype=np.int64)) * dt.itemsize < _MIN_BYTES


def inplace_step(spec: StepSpec) -> Optional[Callable[[list], None]]:
    """An in-place step for spec's op if it is an elementwise op with an input dying here, else None."""
    op_type = spec.op.type
    if op_type not in _ATTEMPTS or spec.deref or len(spec.out_slots) != 1:
        return None
    dt = spec.out_dtypes[0]
    if dt is None or not any(s in spec.release for s in spec.in_slots) or _statically_small(spec.op, dt):
        return None
    attempt = _ATTEMPTS[op_type](spec, dt)
    if attempt is None:
        return None
    kernel, ctx, in_slots, out_slot = spec.kernel, spec.ctx, spec.in_slots, spec.out_slots[0]
    dying = tuple(dict.fromkeys(s for s in in_slots if s in spec.release))
    release = tuple(s for s in spec.release if s not in dying)
    as_list = spec.groups is not None

    def step(vals: list) -> None:
        args = [vals[s] for s in in_slots]
        for s in dying:
            vals[s] = None
        out = attempt(args)
        if out is None:
            out = as_output(kernel(ctx, args) if as_list else kernel(ctx, *args), dt)
        vals[out_slot] = out
        for s in release:
            vals[s] = None
    return step


def _binary(spec: StepSpec, dt: np.dtype) -> Optional[Callable[[list], Any]]:
    ufunc = BINARY_UFUNCS[spec.op.type]
    a, b = spec.in_slots
    if a == b:
        return None
    dead_a, dead_b = a in spec.release, b in spec.release

    def attempt(args: list) -> Any:
        x, y = args
        if dead_a and _reusable(x, dt) and _fits_into(y, x):
            return ufunc(x, y, out=x)
        if dead_b and _reusable(y, dt) and _fits_into(x, y):
            return ufunc(x, y, out=y)
        return None
    return attempt


def _relu(spec: StepSpec, dt: np.dtype) -> Optional[Callable[[list], Any]]:
    zero = np.zeros((), dtype=dt)

    def attempt(args: list) -> Any:
        x = args[0]
        if _reusable(x, dt):
            return np.maximum(x, zero, out=x)
        return None
    return attempt


def _relu6(spec: StepSpec, dt: np.dtype) -> Optional[Callable[[list], Any]]:
    zero, six = np.zeros((), dtype=dt), np.asarray(6, dtype=dt)

    def attempt(args: list) -> Any:
        x = args[0]
        if _reusable(x, dt):
            return np.clip(x, zero, six, out=x)
        return None
    return attempt


def _bias_add(spec: StepSpec, dt: np.dtype) -> Optional[Callable[[list], Any]]:
    """Channels-last BiasAdd into its dying value input (NCHW and every error case use the kernel)."""
    fmt = spec.op._attrs.get("data_format", "NHWC")
    fmt = fmt.decode() if isinstance(fmt, bytes) else fmt
    a, b = spec.in_slots
    if a == b or not (fmt.startswith("N") and fmt.endswith("C")) or a not in spec.release:
        return None

    def attempt(args: list) -> Any:
        x, bias = args
        if (_reusable(x, dt) and x.ndim >= 2 and type(bias) is _ndarray
                and bias.ndim == 1 and bias.dtype == x.dtype and bias.shape[0] == x.shape[-1]):
            return np.add(x, bias, out=x)
        return None
    return attempt


def _add_n(spec: StepSpec, dt: np.dtype) -> Optional[Callable[[list], Any]]:
    """AddN accumulating into its first input when that input dies here (the kernel adds in the same order)."""
    slots = spec.in_slots
    if len(slots) < 2 or slots[0] not in spec.release or slots[0] in slots[1:]:
        return None

    def attempt(args: list) -> Any:
        x = args[0]
        if not _reusable(x, dt):
            return None
        others = args[1:]
        if not all(type(o) is _ndarray and o.shape == x.shape and o.dtype == x.dtype for o in others):
            return None
        for o in others:
            x += o
        return x
    return attempt


_ATTEMPTS: dict = {name: _binary for name in BINARY_UFUNCS}
_ATTEMPTS.update({"Relu": _relu, "Relu6": _relu6, "BiasAdd": _bias_add, "AddN": _add_n})
