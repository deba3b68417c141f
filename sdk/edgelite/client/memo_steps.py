"""Steps that remember the results of shape arithmetic between runs.

Gradient graphs compute small integer vectors from the dynamic shapes of their tensors (a mean's gradient
alone is a dozen ops: Shape, Range, FloorMod, DynamicStitch, Prod, Maximum, FloorDiv, Cast ...). In a training
loop these inputs are the same every step, and each op costs more in kernel dispatch than its arithmetic. A
Shape-like op is keyed by its input shapes, a pure op whose inputs all derive from shapes and constants by the
bytes of those inputs; a hit returns the stored result, which is read-only like a constant (a fetch copies it,
no step writes into it). A miss, an error, an input of another kind or a large value runs the kernel as usual.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from edgelite.client.compiled_steps import StepSpec, as_output

_ndarray = np.ndarray

# Ops whose result depends only on the shapes of their inputs.
_SHAPE_ONLY = frozenset({"Shape", "ShapeN", "Size", "Rank"})
# Deterministic, stateless ops whose result depends only on their input values and attrs.
_PURE = frozenset({
    "Fill", "Range", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Maximum", "Minimum",
    "Neg", "Abs", "DynamicStitch", "Prod", "Sum", "Max", "Min", "Reshape", "Cast", "Pack", "Unpack", "ConcatV2",
    "StridedSlice", "Slice", "GatherV2", "ExpandDims", "Squeeze", "BroadcastGradientArgs", "BroadcastArgs",
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "SelectV2", "InvertPermutation",
    "Transpose", "Tile", "ZerosLike", "OnesLike", "Identity", "StopGradient",
})
# Inputs and results above this many bytes are not kept (shape vectors are far smaller).
_MAX_BYTES = 2048
# A step forgets its results when it holds this many (feeds of changing shapes).
_MAX_ENTRIES = 64


def memo_kinds(specs: list, constant_slots: set) -> list:
    """For each spec: "shape" (keyed by input shapes), "value" (keyed by input bytes) or None (not memoized).

    constant_slots holds the slots of values fixed for the session (folded constants); the outputs of memoized
    steps join them, so the pure ops downstream of a Shape are found in one pass over the run order.
    """
    derived = set(constant_slots)
    kinds: list = []
    for spec in specs:
        kind = None
        if not spec.deref and all(dt is not None for dt in spec.out_dtypes):
            if spec.op.type in _SHAPE_ONLY:
                kind = "shape"
            elif spec.op.type in _PURE and spec.in_slots and all(s in derived for s in spec.in_slots):
                kind = "value"
        if kind is not None:
            derived.update(spec.out_slots)
        kinds.append(kind)
    return kinds


def constant_arrays(template: list) -> set:
    """Slots of the template holding plain numeric arrays (constants and statically known shapes)."""
    return {i for i, v in enumerate(template)
            if type(v) is _ndarray and v.dtype != np.object_ and v.nbytes <= _MAX_BYTES}


def _shape_key(args: list) -> Optional[tuple]:
    for a in args:
        if type(a) is not _ndarray:
            return None
    return tuple([a.shape for a in args])


def _value_key(args: list) -> Optional[tuple]:
    key = []
    for a in args:
        if type(a) is not _ndarray or a.nbytes > _MAX_BYTES or a.dtype.hasobject:
            return None
        key.append((a.dtype.str, a.shape, a.tobytes()))
    return tuple(key)


def _frozen(outs: tuple) -> bool:
    """Make every output read-only; False if one is not a small array (then nothing is kept)."""
    for o in outs:
        if type(o) is not _ndarray or o.nbytes > _MAX_BYTES:
            return False
    for o in outs:
        o.setflags(write=False)
    return True


def memo_step(spec: StepSpec, kind: str) -> Callable[[list], None]:
    """A step for spec's op that returns the stored result for inputs it has seen before."""
    kernel, ctx, in_slots, release = spec.kernel, spec.ctx, spec.in_slots, spec.release
    outs = tuple(zip(spec.out_slots, spec.out_dtypes))
    single = len(outs) == 1
    groups = spec.groups
    key_of = _shape_key if kind == "shape" else _value_key
    cache: dict = {}

    def step(vals: list) -> None:
        args = [vals[i] for i in in_slots]
        key = key_of(args)
        results = cache.get(key) if key is not None else None
        if results is None:
            call_args = [args[a:b] if isl else args[a] for a, b, isl in groups] if groups is not None else args
            out = kernel(ctx, *call_args)
            if single:
                results = (as_output(out, outs[0][1]),)
            else:
                results = tuple(as_output(v, dt) for (_, dt), v in zip(outs, out))
            if key is not None and _frozen(results):
                if len(cache) >= _MAX_ENTRIES:
                    cache.clear()
                cache[key] = results
        for (slot, _), v in zip(outs, results):
            vals[slot] = v
        for s in release:
            vals[s] = None
    return step
