"""AMX-INT8 1x1 convolutions are bit-identical to the AVX-512 VNNI kernels and the reference tier.

The "auto" ISA level runs int8 1x1 convolutions on AMX tiles where the CPU and OS allow it;
EDGELITE_ISA=avx512_vnni pins the VNNI kernels. Shapes straddle the AMX tiles: k not a
multiple of 64 (the zero-padded tail), channels not a multiple of 16, rows not a multiple of
16 or 32 (partial row tiles), wrapping accumulators. Skipped where AMX is unavailable.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.tflite_builder import TensorSpec, options, single_op_model

from .diffrun import difference, run
from .opcases import ACTIVATIONS, _act_quant, _bias, _ints, _out_quant, _pick, _weights

MOBILENET = (Path(__file__).resolve().parents[2].parent / "shared" / "realworld"
             / "tflm_xtensa_mobilenet_v2_quantized_1x3x224x224")


def _amx_or_skip() -> None:
    from edgelite_runtime import profiling

    try:
        ready = profiling.amx_int8()
    except AttributeError:
        pytest.skip("this libedgelite predates the AMX kernels (no el_cpu_amx_int8)")
    if not ready:
        pytest.skip("no AMX-INT8 here (CPU lacks AMX-TILE/AMX-INT8 or the OS refused the tile state)")
    if "avx512_vnni" not in profiling.available_isas():
        pytest.skip("no AVX-512 VNNI level to compare against")


def _pointwise_case(rng: np.random.Generator, rows: int, cin: int, cout: int, wrap: bool):
    """A 1x1 int8 CONV_2D over `rows` pixels (split into batch x height x width)."""
    b = 2 if rows % 2 == 0 and rng.random() < 0.3 else 1
    w = int(_pick(rng, [d for d in range(1, 9) if (rows // b) % d == 0]))
    h = rows // b // w
    per_channel = rng.random() < 0.8
    wdata, wq, w_scales = _weights(rng, "int8", [cout, 1, 1, cin], cout, 0, per_channel)
    xq = _act_quant(rng, "int8")
    yq = _out_quant(rng, "int8", xq.scale, float(np.exp(np.mean(np.log(w_scales)))), cin)
    act = _pick(rng, ACTIVATIONS)
    opts = options("Conv2D", padding="VALID", stride_w=1, stride_h=1, dilation_w_factor=1,
                   dilation_h_factor=1, fused_activation_function=act)
    model = single_op_model(
        "CONV_2D",
        [TensorSpec([b, h, w, cin], "int8", quant=xq),
         TensorSpec([cout, 1, 1, cin], wdata.dtype, data=wdata, quant=wq),
         _bias(rng, xq.scale, w_scales, wrap)],
        [TensorSpec([b, h, w, cout], "int8", quant=yq)], options=opts, version=3)
    name = f"1x1 x{[b, h, w, cin]} cout{cout} {act} pc={per_channel} wrap={wrap}"
    return name, model, [_ints(rng, "int8", [b, h, w, cin])]


def test_amx_pointwise_matches_vnni_and_reference(edgelite_interpreter):
    _amx_or_skip()
    rng = np.random.default_rng(2026)
    failures = []
    shapes = [(rows, cin, cout)
              for rows in (1, 7, 16, 17, 31, 32, 33, 50, 96, 113)
              for cin, cout in ((4, 130), (28, 128), (28, 145), (60, 200), (64, 1), (64, 15), (68, 17),
                                (132, 33), (196, 81), (100, 64))]
    for i, (rows, cin, cout) in enumerate(shapes):
        name, model, inputs = _pointwise_case(rng, rows, cin, cout, wrap=i % 11 == 0)
        vnni = run(edgelite_interpreter, model, inputs, experimental_isa="avx512_vnni")
        ref = run(edgelite_interpreter, model, inputs, experimental_kernel_tier="reference")
        for label, kwargs in (("amx", {}), ("amx 2 threads", {"num_threads": 2})):
            ours = run(edgelite_interpreter, model, inputs, **kwargs)
            for other, expect in (("vnni", vnni), ("reference", ref)):
                why = difference(ours, expect, 0.0)
                if why:
                    failures.append(f"[{label} vs {other}] {name}: {why}")
    assert len(shapes) == 100
    assert not failures, f"{len(failures)} mismatches, e.g.:\n" + "\n".join(failures[:10])


def test_amx_mobilenet_v2_every_tensor_matches_vnni(edgelite_interpreter):
    _amx_or_skip()
    if not (MOBILENET / "model.tflite").exists():
        pytest.skip(f"{MOBILENET} is not on this machine")
    x = np.load(MOBILENET / "input_0_0.npy")
    tensors = {}
    for isa in ("auto", "avx512_vnni"):
        it = edgelite_interpreter(model_path=str(MOBILENET / "model.tflite"), experimental_isa=isa,
                                  experimental_preserve_all_tensors=True)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()
        tensors[isa] = {d["index"]: it.get_tensor(d["index"]).copy() for d in it.get_tensor_details()
                        if d["dtype"] == np.int8}
    assert len(tensors["auto"]) > 100
    differ = [i for i, v in tensors["auto"].items() if not np.array_equal(v, tensors["avx512_vnni"][i])]
    assert not differ, f"{len(differ)} int8 tensors differ between AMX and VNNI: {differ[:10]}"
