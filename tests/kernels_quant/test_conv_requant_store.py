"""The per-channel requantization of the integer convolutions (conv_requant.c) for every channel of
every int8 and int16 CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV of the realworld models, and edge
scale ratios: both the compact store (an int32 multiplier and an int8 shift per channel, kept by
TRANSPOSE_CONV and the int16 optimized convolution) and the blocks the reference CONV_2D and
DEPTHWISE_CONV_2D compute when they run must equal TFLite's QuantizeMultiplier of in_scale *
filter_scale / out_scale, computed here in Python. A shift cut to fit a narrower type would fail."""
from __future__ import annotations

import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "runtime_c" / "src" / "kernels"
CONV_OPS = {"CONV_2D", "DEPTHWISE_CONV_2D", "TRANSPOSE_CONV"}
# TRANSPOSE_CONV's operands are (output shape, weights, input, bias); the others' (input, filter, bias).
OPERANDS = {"TRANSPOSE_CONV": (2, 1)}


def _compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite's QuantizeMultiplier: a Q31 multiplier rounded half away from zero and a power-of-two
    shift, flushed to (0, 0) below 2^-31."""
    if not real > 0.0:
        return 0, 0
    frac, shift = math.frexp(real)
    q = math.floor(frac * 2.0**31 + 0.5)
    if q == 2**31:
        q //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q, shift


def _model_convolutions(model: Path) -> list[tuple[str, float, float, list[float]]]:
    import edgelite_runtime

    it = edgelite_runtime.Interpreter(model_path=str(model), num_threads=1)
    tensors = {t["index"]: t for t in it.get_tensor_details()}
    found = []
    for op in it._get_ops_details():
        if op["op_name"] not in CONV_OPS:
            continue
        in_at, filter_at = OPERANDS.get(op["op_name"], (0, 1))
        inp = tensors[op["inputs"][in_at]]
        filt = tensors[op["inputs"][filter_at]]
        out = tensors[op["outputs"][0]]
        if inp["dtype"] not in (np.int8, np.int16) or filt["dtype"] != np.int8:
            continue
        scales = [float(s) for s in filt["quantization_parameters"]["scales"]]
        found.append(("int16" if inp["dtype"] == np.int16 else "int8",
                      float(inp["quantization_parameters"]["scales"][0]),
                      float(out["quantization_parameters"]["scales"][0]), scales))
    return found


def _edge_cases() -> list[tuple[str, float, float, list[float]]]:
    """Ratios 2^k around the flush-to-zero bound and the largest shifts, and just below 2^31."""
    powers = [2.0**k for k in (-40, -33, -32, -31, -30, -1, 0, 1, 14, 15, 30)]
    return [("int8", 1.0, 1.0, powers + [float(np.float32(2.0**31) - 128.0), float(np.float32(0.7))])]


def _run_store(exe: Path, convs: list[tuple[str, float, float, list[float]]]) -> list[str]:
    lines = []
    for type_name, in_scale, out_scale, scales in convs:
        words = [type_name, in_scale.hex(), out_scale.hex(), str(len(scales))] + [s.hex() for s in scales]
        lines.append(" ".join(words))
    run = subprocess.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    return list(zip(lines[0::2], lines[1::2]))


def test_compact_requant_store_round_trips(tmp_path, realworld_dir):
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler on PATH")
    exe = tmp_path / "conv_requant_store"
    cmd = [cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2",
           f"-I{ROOT / 'runtime_c' / 'include'}", f"-I{ROOT / 'runtime_c' / 'src'}",
           str(Path(__file__).parent / "c" / "conv_requant_store.c"),
           str(KERNELS / "conv_requant.c"), str(KERNELS / "quant_util.c"), "-lm", "-o", str(exe)]
    built = subprocess.run(cmd, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-4000:]

    convs = _edge_cases()
    models = 0
    for model in sorted(realworld_dir.glob("*/model.tflite")):
        found = _model_convolutions(model)
        models += bool(found)
        convs += found
    assert models >= 10, "expected the realworld int8 convolution models"
    channels = 0
    results = _run_store(exe, convs)
    for (type_name, in_scale, out_scale, scales), (line, block_line) in zip(convs, results, strict=True):
        words = [int(w) for w in line.split()]
        assert words[0] == 0, f"{type_name} {in_scale} {out_scale}: not stored"
        want = [quantize_multiplier(in_scale * s / out_scale) for s in scales]
        assert list(zip(words[1::2], words[2::2])) == want
        block = [int(w) for w in block_line.split()[1:]]
        assert list(zip(block[0::2], block[1::2])) == want
        channels += len(scales)
    assert channels > 1000
