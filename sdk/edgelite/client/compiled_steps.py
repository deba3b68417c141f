"""One Python closure per op of a plan: the kernel, its context and attrs, its input and output slots are bound
when the plan is built, so a run is a loop of `step(vals)` calls over one flat value list.

A step also drops the values whose last reader it is (`release`), so intermediates are freed as soon as the
step that reads them last has run instead of at the end of the run.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Optional

import numpy as np

_ndarray = np.ndarray
_asarray = np.asarray


class StepSpec:
    """What one op's step needs, resolved from the graph when the plan is built."""

    __slots__ = ("op", "kernel", "ctx", "in_slots", "deref", "groups", "out_slots", "out_dtypes", "release")

    def __init__(self, op: Any, kernel: Callable, ctx: Any, in_slots: tuple, deref: tuple, groups: Optional[list],
                 out_slots: tuple, out_dtypes: tuple) -> None:
        self.op = op
        self.kernel = kernel
        self.ctx = ctx
        self.in_slots = in_slots
        self.deref = deref
        self.groups = groups
        self.out_slots = out_slots
        self.out_dtypes = out_dtypes
        self.release: tuple = ()


def as_output(out: Any, dt: Optional[np.dtype]) -> Any:
    """A kernel result as an array of the op's declared output dtype (None: any value, e.g. a handle)."""
    if dt is not None and (type(out) is not _ndarray or (out.dtype is not dt and out.dtype != dt)):
        return _asarray(out, dtype=dt)
    return out


def compile_step(spec: StepSpec) -> Callable[[list], None]:
    """The fastest closure that runs spec's kernel exactly like the general form does."""
    one_input = len(spec.in_slots) == 1
    if (spec.deref and not one_input) or spec.groups is not None or len(spec.out_slots) != 1:
        return _general_step(spec)
    kernel, ctx, release = spec.kernel, spec.ctx, spec.release
    out_slot, dt = spec.out_slots[0], spec.out_dtypes[0]
    if one_input:
        from edgelite.client.executor import VarRef
        a, read = spec.in_slots[0], bool(spec.deref)  # read: a reference input (a variable's `read` Identity)

        def step(vals: list) -> None:
            x = vals[a]
            if read and type(x) is VarRef:
                x = x.read()
            out = kernel(ctx, x)
            if dt is not None and (type(out) is not _ndarray or (out.dtype is not dt and out.dtype != dt)):
                out = _asarray(out, dtype=dt)
            vals[out_slot] = out
            for s in release:
                vals[s] = None
        return step
    get = _getter(spec.in_slots)

    def step(vals: list) -> None:
        out = kernel(ctx, *get(vals))
        if dt is not None and (type(out) is not _ndarray or (out.dtype is not dt and out.dtype != dt)):
            out = _asarray(out, dtype=dt)
        vals[out_slot] = out
        for s in release:
            vals[s] = None
    return step


def _getter(slots: tuple) -> Callable[[list], tuple]:
    """A C-level function returning the tuple of values in slots."""
    if len(slots) >= 2:
        return itemgetter(*slots)
    return lambda vals: tuple(vals[s] for s in slots)


def _general_step(spec: StepSpec) -> Callable[[list], None]:
    """Reference inputs read through their handle, list inputs grouped, several outputs."""
    from edgelite.client.executor import VarRef
    kernel, ctx, in_slots, deref, groups = spec.kernel, spec.ctx, spec.in_slots, spec.deref, spec.groups
    outs = tuple(zip(spec.out_slots, spec.out_dtypes))
    single = len(outs) == 1
    release = spec.release

    def step(vals: list) -> None:
        args = [vals[i] for i in in_slots]
        for j in deref:
            a = args[j]
            if isinstance(a, VarRef):
                args[j] = a.read()
        if groups is not None:
            args = [args[a:b] if isl else args[a] for a, b, isl in groups]
        out = kernel(ctx, *args)
        if single:
            slot, dt = outs[0]
            vals[slot] = as_output(out, dt)
        else:
            for (slot, dt), v in zip(outs, out):
                vals[slot] = as_output(v, dt)
        for s in release:
            vals[s] = None
    return step


def assign_releases(specs: list, keep: set) -> None:
    """Give each step the slots it reads or writes for the last time in the run (never those in keep)."""
    last: dict = {}
    for k, spec in enumerate(specs):
        for s in spec.in_slots:
            last[s] = k
        for s in spec.out_slots:
            last.setdefault(s, k)
    per_step: list = [[] for _ in specs]
    for s, k in last.items():
        if s not in keep:
            per_step[k].append(s)
    for spec, slots in zip(specs, per_step):
        spec.release = tuple(sorted(set(slots)))
