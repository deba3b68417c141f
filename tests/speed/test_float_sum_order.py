"""Float CONV_2D and DEPTHWISE_CONV_2D sum every output as the bias plus its taps' products in
filter order, with fused multiply-adds, whichever kernel runs it: the AVX-512 kernels that lay the
lanes over neighbouring pixels (few input channels into 8 outputs; stride-1 depthwise layers of
8 channels), the depthwise tiles of several channel vectors and the 12-row 1x1 kernel give the
same bits as the AVX2 kernels. The reference
tier is the check on the values themselves (test_opt_single_ops)."""
from __future__ import annotations

from typing import Tuple

import numpy as np
import pytest

from support.tflite_builder import TensorSpec, options, single_op_model

from .diffrun import difference, run

F32 = np.float32


def _out(size: int, k: int, s: int, pad: str) -> int:
    return -(-size // s) if pad == "SAME" else (size - k) // s + 1


def _conv(rng: np.random.Generator, shape: Tuple[int, int, int], cout: int, k: int, s: int, pad: str,
          act: str) -> Tuple[bytes, np.ndarray]:
    h, w, cin = shape
    weights = TensorSpec([cout, k, k, cin], F32, data=rng.uniform(-1, 1, [cout, k, k, cin]).astype(F32))
    bias = TensorSpec([cout], F32, data=rng.uniform(-1, 1, [cout]).astype(F32))
    out = TensorSpec([1, _out(h, k, s, pad), _out(w, k, s, pad), cout], F32)
    model = single_op_model("CONV_2D", [TensorSpec([1, h, w, cin], F32), weights, bias], [out],
                            options=options("Conv2D", padding=pad, stride_h=s, stride_w=s,
                                            fused_activation_function=act))
    return model, rng.standard_normal([1, h, w, cin]).astype(F32)


def _depthwise(rng: np.random.Generator, shape: Tuple[int, int, int], k: int, s: int, pad: str,
               act: str) -> Tuple[bytes, np.ndarray]:
    h, w, c = shape
    weights = TensorSpec([1, k, k, c], F32, data=rng.uniform(-1, 1, [1, k, k, c]).astype(F32))
    bias = TensorSpec([c], F32, data=rng.uniform(-1, 1, [c]).astype(F32))
    out = TensorSpec([1, _out(h, k, s, pad), _out(w, k, s, pad), c], F32)
    model = single_op_model("DEPTHWISE_CONV_2D", [TensorSpec([1, h, w, c], F32), weights, bias], [out],
                            options=options("DepthwiseConv2D", padding=pad, stride_h=s, stride_w=s,
                                            depth_multiplier=1, fused_activation_function=act))
    return model, rng.standard_normal([1, h, w, c]).astype(F32)


# (input, output channels, kernel, stride, padding, activation); 1x1 into at most 16 channels:
# the 12-row kernel over consecutive rows.
CONV_CASES = [((96, 96, 3), 8, 3, 2, "SAME", "RELU6"), ((97, 95, 3), 8, 3, 2, "SAME", "NONE"),
              ((40, 41, 3), 8, 3, 2, "VALID", "RELU"), ((32, 32, 3), 8, 3, 1, "SAME", "NONE"),
              ((30, 50, 1), 8, 3, 2, "SAME", "RELU6"), ((24, 70, 2), 8, 5, 2, "SAME", "NONE"),
              ((20, 33, 3), 8, 3, 1, "VALID", "RELU6"), ((18, 40, 6), 8, 3, 1, "SAME", "NONE"),
              ((48, 48, 8), 16, 1, 1, "SAME", "RELU6"), ((7, 11, 5), 12, 1, 1, "VALID", "NONE"),
              ((1, 1, 3), 16, 1, 1, "SAME", "RELU")]
# 8 channels: AVX2 runs them as one full vector, the AVX-512 kernel two pixels per vector.
DEPTHWISE_CASES = [((48, 48, 8), 3, 1, "SAME", "RELU6"), ((13, 30, 8), 3, 1, "SAME", "NONE"),
                   ((20, 21, 8), 3, 1, "VALID", "RELU"), ((9, 17, 8), 5, 1, "SAME", "NONE"),
                   ((11, 19, 16), 5, 1, "SAME", "RELU6"), ((24, 24, 32), 3, 1, "SAME", "NONE"),
                   ((6, 6, 128), 3, 1, "SAME", "RELU6"), ((25, 25, 40), 3, 2, "SAME", "NONE")]


@pytest.mark.parametrize("kind", ["conv", "depthwise"])
def test_pixel_lane_kernels_keep_the_sum_order(kind, edgelite_interpreter, isa_levels):
    if "avx512" not in isa_levels or "avx2" not in isa_levels:
        pytest.skip("needs a CPU with AVX-512")
    rng = np.random.default_rng(26)
    failures = []
    for spec in CONV_CASES if kind == "conv" else DEPTHWISE_CASES:
        if kind == "conv":
            model, x = _conv(rng, *spec)
        else:
            model, x = _depthwise(rng, *spec)
        # Inputs with NaN and infinities too: the clamp must treat them as the other kernels do.
        x.ravel()[rng.integers(0, x.size, 3)] = [np.nan, np.inf, -np.inf]
        avx2 = run(edgelite_interpreter, model, [x], experimental_isa="avx2")
        for isa in ("avx512", "avx512_vnni"):
            if isa in isa_levels:
                why = difference(run(edgelite_interpreter, model, [x], experimental_isa=isa), avx2, 0.0)
                if why:
                    failures.append(f"[{isa}] {kind} {spec}: {why}")
    assert not failures, "\n".join(failures)
