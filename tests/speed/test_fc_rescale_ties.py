"""FULLY_CONNECTED int8/uint8 outputs whose rescaled accumulators sit on or next to a .5 tie,
on every ISA level against the reference tier, bit for bit.

The x86 rescales decide most outputs in single precision and redo in double the vectors with a
lane within 2^-12 of a half-integer; a lane that should have been redone shows up here as an
output one off. Three kinds of scale ratios (in_scale * w_scale / out_scale): short binary
fractions (0.5, 0.25, 0.75, ...: exact ties); 2^-16..2^-19 with accumulators of 2^23..2^27 a
few units from a tie (single precision rounds those accumulators onto the tie); and arbitrary
ratios with the accumulator nearest a tie (a product within ratio / 2 of it, which single
precision's errors can carry across it). The bias is chosen from the first row's dot products
so that its accumulators are those targets; the other rows are the first with a few inputs
moved by one.
"""
from __future__ import annotations

from fractions import Fraction
from typing import List

import numpy as np

from support.tflite_builder import Quant, TensorSpec, options, single_op_model

from .diffrun import difference, run
from .opcases import ACTIVATIONS, Case, _pick

CASES = 200
SHORT_RATIOS = (0.5, 0.25, 0.125, 0.75, 0.375, 1.5)


def _activation_range(act: str, dtype: str, scale: float, zp: int):
    info = np.iinfo(np.dtype(dtype))
    lo, hi = int(info.min), int(info.max)
    bounds = {"RELU": (0.0, None), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}.get(act)
    if bounds is not None:
        lo = max(lo, zp + int(round(bounds[0] / scale)))
        if bounds[1] is not None:
            hi = min(hi, zp + int(round(bounds[1] / scale)))
    return lo, hi


def _near_tie(rng: np.random.Generator, ratio: Fraction, k: int, kind: str) -> int:
    """An accumulator whose product with `ratio` is k + 0.5 (a tie), or within a little of one."""
    target = (Fraction(k) + Fraction(1, 2)) / ratio
    if kind == "near":
        return round(target) + int(_pick(rng, (-1, 0, 0, 0, 1)))
    if target.denominator == 1:
        acc = int(target)
        return acc + int(_pick(rng, (-2, -1, 0, 0, 1, 2))) if kind == "wide" else acc
    # no accumulator makes this tie (0.75 * acc = k + 0.5 wants 3 | 2k + 1): the nearest one
    # that makes another
    base = int(round(target))
    for step in range(16):
        for acc in (base + step, base - step):
            if (Fraction(acc) * ratio).denominator == 2:
                return acc
    return base


def _ratios(rng: np.random.Generator, kind: str, count: int):
    """Activation scales and `count` weight scales, with the ratios the kernels compute (in
    double, (in_scale * w_scale) / out_scale, from the float32 parameters)."""
    if kind == "near":
        in_scale = float(np.float32(np.exp(rng.uniform(np.log(0.004), np.log(0.08)))))
        out_scale = float(np.float32(in_scale * 2.0 ** rng.uniform(-6, 3)))
        w = [float(np.float32(out_scale / in_scale * 2.0 ** -rng.uniform(1, 19))) for _ in range(count)]
    else:
        # powers of two: the ratios are exact in float and in double
        in_scale = 2.0 ** -int(rng.integers(5, 9))
        out_scale = 2.0 ** -int(rng.integers(2, 6))
        if kind == "wide":
            r = [2.0 ** -int(rng.integers(16, 20)) for _ in range(count)]
        else:
            r = [float(_pick(rng, SHORT_RATIOS)) for _ in range(count)]
        w = [x * out_scale / in_scale for x in r]
    ratios = [Fraction(in_scale * x / out_scale) for x in w]
    assert all(float(np.float32(x)) == x for x in w)
    return in_scale, out_scale, np.array(w, np.float32), ratios


def fc_ties_case(rng: np.random.Generator) -> Case:
    dtype = "uint8" if rng.random() < 0.25 else "int8"
    rows = int(_pick(rng, (1, 1, 1, 2, 3, 7)))
    depth = int(_pick(rng, (4, 8, 16, 25, 64, 100)))
    units = int(_pick(rng, (1, 15, 16, 17, 33, 64, 65, 128, 200)))
    act = _pick(rng, ACTIVATIONS)
    per_channel = dtype == "int8" and rng.random() < 0.5
    kind = _pick(rng, ("short", "short", "wide", "near", "near"))
    with_bias = kind != "short" or rng.random() < 0.7

    in_scale, out_scale, w_scales, ratios = _ratios(rng, kind, units if per_channel else 1)
    if not per_channel:
        ratios = ratios * units

    info = np.iinfo(np.dtype(dtype))
    if dtype == "uint8":
        in_zp, w_zp = int(rng.integers(100, 156)), 128
    else:
        in_zp, w_zp = int(rng.integers(-20, 21)), 0
    # small centred values: without a bias the accumulators stay where short ratios keep the
    # products inside the output range
    w = (w_zp + rng.integers(-6, 7, size=(units, depth))).astype(dtype)
    x0 = np.clip(in_zp + rng.integers(-6, 7, size=depth), info.min, info.max)
    x = np.repeat(x0[None, :], rows, axis=0)
    for r in range(1, rows):
        moved = rng.integers(0, depth, size=int(rng.integers(1, 4)))
        x[r, moved] = np.clip(x[r, moved] + rng.choice([-1, 1], size=moved.size), info.min, info.max)
    x = x.astype(dtype)

    if kind == "wide":
        # the output zero point at one end: accumulators of 2^23..2^27 then map inside the range
        if dtype == "uint8":
            out_zp = int(rng.integers(0, 10))
        elif rng.random() < 0.7:
            out_zp = int(rng.integers(info.min, info.min + 20))
        else:
            out_zp = int(rng.integers(info.max - 20, info.max + 1))
    else:
        out_zp = int(rng.integers(info.min + 40, info.max - 39))
    lo, hi = _activation_range(act, dtype, out_scale, out_zp)

    wq = (Quant(w_scales.tolist(), [0] * units, 0) if per_channel else Quant(float(w_scales[0]), w_zp))
    specs = [TensorSpec([rows, depth], dtype, quant=Quant(in_scale, in_zp)),
             TensorSpec([units, depth], dtype, data=w, quant=wq)]
    if with_bias:
        dots = (w.astype(np.int64) - w_zp) @ (x0.astype(np.int64) - in_zp)
        bias = np.empty(units, np.int64)
        for u in range(units):
            # outputs over the whole range, a few clamped
            k = int(rng.integers(lo - 3, hi + 4)) - out_zp
            bias[u] = _near_tie(rng, ratios[u], k, kind) - int(dots[u])
        assert np.all(np.abs(bias) < 2**31)
        bscales = np.float32(in_scale) * w_scales
        bq = (Quant(bscales.tolist(), [0] * units, 0) if per_channel else Quant(float(bscales[0]), 0))
        specs.append(TensorSpec([units], np.int32, data=bias.astype(np.int32), quant=bq))
    else:
        specs.append(None)
    model = single_op_model(
        "FULLY_CONNECTED", specs, [TensorSpec([rows, units], dtype, quant=Quant(out_scale, out_zp))],
        options=options("FullyConnected", fused_activation_function=act),
        version=7 if per_channel else (4 if dtype == "int8" else 1))
    shown = sorted(set(float(r) for r in ratios))[:3]
    name = (f"fc ties {dtype} rows{rows} depth{depth} units{units} {act} pc={per_channel} "
            f"bias={with_bias} {kind} ratios={shown}")
    return Case(name, model, [x])


def test_fc_rescale_ties_match_reference(edgelite_interpreter, isa_levels):
    rng = np.random.default_rng(20261127)
    failures: List[str] = []
    for _ in range(CASES):
        case = fc_ties_case(rng)
        ref = run(edgelite_interpreter, case.model, case.inputs, experimental_kernel_tier="reference")
        for isa in isa_levels:
            ours = run(edgelite_interpreter, case.model, case.inputs, experimental_isa=isa)
            why = difference(ours, ref, 0.0)
            if why:
                failures.append(f"[{isa}] {case.name}: {why}")
    assert not failures, f"{len(failures)} mismatches, e.g.:\n" + "\n".join(failures[:10])
