"""Elementwise chains run as one step: an op followed by elementwise ops that each read the previous result
as their only reader (BiasAdd -> Relu, Mul -> AddV2, a chain of scalar updates).

The chain's intermediate never enters the value list: when the head's result is an array only this step
holds, every following op writes into it with the same numpy ufunc its kernel uses on operands of the
result's dtype and shape (so the bits are those of the separate kernels), whatever its size; any other case
(broadcasting that grows the operand, another dtype, a shared or read-only head result) calls the op's own
kernel. A failing op is named in the error as in the unfused plan.
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Optional

import numpy as np

from edgelite.client.compiled_steps import StepSpec, as_output
from edgelite.client.inplace_steps import BINARY_UFUNCS
from edgelite.framework import errors

_ndarray = np.ndarray
_refcount = sys.getrefcount
# Within _owned: the caller's local name, the parameter and getrefcount's argument.
_SOLE_OWNER = 3


def _owned(x: Any, dt: np.dtype) -> bool:
    """x is a plain, writable, self-owned array of dtype dt that no one but the calling step references."""
    return (type(x) is _ndarray and _refcount(x) == _SOLE_OWNER and x.dtype == dt and x.flags.owndata
            and x.flags.writeable and x.flags.aligned)


def _fits(other: Any, x: np.ndarray) -> bool:
    """Broadcasting other against x keeps x's shape, with the same dtype."""
    if type(other) is not _ndarray or other.dtype != x.dtype:
        return False
    n = other.ndim
    return n <= x.ndim and other.shape == x.shape[x.ndim - n:]


def _link(spec: StepSpec, prev_slot: int) -> Optional[Callable[[np.ndarray, list], bool]]:
    """The in-place form of spec's op on the chain value x, reading its other operand from the value list
    (None if the op cannot continue a chain). The form returns False when the operands do not allow writing
    into x."""
    op_type, slots = spec.op.type, spec.in_slots
    if op_type in BINARY_UFUNCS and len(slots) == 2 and slots.count(prev_slot) == 1:
        ufunc = BINARY_UFUNCS[op_type]
        if slots[0] == prev_slot:
            other = slots[1]

            def binary(x: np.ndarray, vals: list) -> bool:
                y = vals[other]
                return _fits(y, x) and ufunc(x, y, out=x) is x
        else:
            other = slots[0]

            def binary(x: np.ndarray, vals: list) -> bool:
                y = vals[other]
                return _fits(y, x) and ufunc(y, x, out=x) is x
        return binary
    if op_type == "BiasAdd" and slots[0] == prev_slot and slots[1] != prev_slot:
        fmt = spec.op._attrs.get("data_format", "NHWC")
        fmt = fmt.decode() if isinstance(fmt, bytes) else fmt
        if not (fmt.startswith("N") and fmt.endswith("C")):
            return None

        bias_slot = slots[1]

        def bias_add(x: np.ndarray, vals: list) -> bool:
            b = vals[bias_slot]
            if (x.ndim < 2 or type(b) is not _ndarray or b.ndim != 1 or b.dtype != x.dtype
                    or b.shape[0] != x.shape[-1]):
                return False
            np.add(x, b, out=x)
            return True
        return bias_add
    if op_type in ("Relu", "Relu6") and slots == (prev_slot,):
        zero, six = np.zeros((), dtype=spec.out_dtypes[0]), np.asarray(6, dtype=spec.out_dtypes[0])
        if op_type == "Relu":
            def relu(x: np.ndarray, vals: list) -> bool:
                np.maximum(x, zero, out=x)
                return True
            return relu

        def relu6(x: np.ndarray, vals: list) -> bool:
            np.clip(x, zero, six, out=x)
            return True
        return relu6
    return None


def chain_links(specs: list) -> list:
    """For each spec, the in-place form with which it continues the chain of the spec before it, else None."""
    links: list = [None]
    for prev, spec in zip(specs, specs[1:]):
        link = None
        if (len(prev.out_slots) == 1 and prev.out_dtypes[0] is not None and len(spec.out_slots) == 1
                and spec.out_dtypes == prev.out_dtypes and not spec.deref and spec.groups is None
                and prev.out_slots[0] in spec.release):
            link = _link(spec, prev.out_slots[0])
        links.append(link)
    return links


def fused_step(head: Callable[[list], None], head_spec: StepSpec, members: list) -> Callable[[list], None]:
    """One step running head, then each (spec, link) of members on the chain value, storing only the last."""
    slot, dt = head_spec.out_slots[0], head_spec.out_dtypes[0]
    prev_slots = [slot] + [spec.out_slots[0] for spec, _ in members[:-1]]
    chain = [(spec.kernel, spec.ctx, spec.op, spec.in_slots, spec.in_slots.index(prev), link,
              tuple(s for s in spec.release if s != prev))
             for (spec, link), prev in zip(members, prev_slots)]
    # The last member's releases follow the store of the result (its output may be a value no one reads).
    last_release = chain[-1][-1]
    chain[-1] = chain[-1][:-1] + ((),)
    last = members[-1][0].out_slots[0]

    def step(vals: list) -> None:
        head(vals)
        x = vals[slot]
        vals[slot] = None
        owned = _owned(x, dt)
        for kernel, ctx, op, in_slots, at, link, release in chain:
            if not (owned and link(x, vals)):
                args = [vals[s] for s in in_slots]
                args[at] = x
                try:
                    out = as_output(kernel(ctx, *args), dt)
                except errors.OpError as e:
                    if e.op is None:
                        e._op = op
                    raise
                except (ValueError, IndexError, TypeError, ArithmeticError) as e:
                    raise errors.InvalidArgumentError(None, op, f"{type(e).__name__}: {e}") from e
                del args
                x = out
                del out
                owned = _owned(x, dt)
            for s in release:
                vals[s] = None
        vals[last] = x
        for s in last_release:
            vals[s] = None
    return step
