"""The micro interpreter (runtime_c/src/micro) built for this machine with AddressSanitizer and UBSan: the
three TFLM examples give the hosted interpreter's bytes, the RAM it reports needing is exactly the smallest
buffer that works, and mutated models fail cleanly at create or run without a memory error.

Needs cmake and a C compiler only (no cross tools); tests/micro/test_firmware.py runs the same code under qemu.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld"
MODELS = ("tflm_hello_world_int8", "tflm_micro_speech_quantized", "tiny_kws_ref_model")
CC = shutil.which("cc") or shutil.which("gcc")
# The interpreter allocates nothing from the heap; the driver's own buffers are left to the OS.
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")

pytestmark = [
    pytest.mark.skipif(CC is None or shutil.which("cmake") is None, reason="needs cmake and a C compiler"),
    pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not beside the project"),
]


def _op_header() -> str:
    spec = importlib.util.spec_from_file_location("el_firmware_tool", ROOT / "runtime_c" / "tools" / "firmware.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module._op_header([REALWORLD / m / "model.tflite" for m in MODELS])


@pytest.fixture(scope="module")
def host_micro(tmp_path_factory) -> Path:
    """The host_micro driver linked with a sanitized freestanding build of the three models' ops."""
    build = tmp_path_factory.mktemp("micro_host")
    header = build / "ops.h"
    header.write_text(_op_header())
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build / "cmake"), "-DEDGELITE_FREESTANDING=ON",
                    f"-DEDGELITE_OP_SELECTION={header}", "-DEDGELITE_SANITIZE=ON", "-DCMAKE_BUILD_TYPE=Debug",
                    f"-DCMAKE_C_COMPILER={CC}"], check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build / "cmake"), "-j2"], check=True, capture_output=True)
    exe = build / "host_micro"
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    subprocess.run([CC, "-std=c11", "-O1", "-g", *sanitize, f"-I{ROOT / 'runtime_c' / 'include'}",
                    str(ROOT / "tests" / "micro" / "host_micro.c"), str(build / "cmake" / "libedgelite_micro.a"),
                    "-lm", "-Wl,--gc-sections", "-o", str(exe)], check=True, capture_output=True)
    return exe


def _run(exe: Path, case: str, arena: int, tmp_path: Path) -> subprocess.CompletedProcess:
    raw = tmp_path / f"{case}.bin"
    np.ascontiguousarray(np.load(REALWORLD / case / "input_0_0.npy")).tofile(raw)
    return subprocess.run([str(exe), "run", str(REALWORLD / case / "model.tflite"), str(arena), str(raw)],
                          capture_output=True, text=True, timeout=120, env=ENV)


def _host_outputs(case: str):
    from edgelite_runtime import Interpreter, OpResolverType

    interp = Interpreter(model_path=str(REALWORLD / case / "model.tflite"),
                         experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], np.load(REALWORLD / case / "input_0_0.npy"))
    interp.invoke()
    return [np.ascontiguousarray(interp.get_tensor(d["index"])).tobytes() for d in interp.get_output_details()]


@pytest.mark.parametrize("case", MODELS)
def test_outputs_equal_hosted_interpreter_and_smallest_buffer_is_reported(case, host_micro, tmp_path):
    run = _run(host_micro, case, 512 * 1024, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    outputs = [bytes.fromhex(m.group(1)) for m in re.finditer(r"^EL_OUTPUT \d+ ([0-9a-f]*)$", run.stdout, re.M)]
    assert outputs == _host_outputs(case)
    stats = dict(kv.split("=") for kv in re.search(r"^EL_STATS (.*)$", run.stdout, re.M).group(1).split())
    assert stats["alloc_calls_in_invoke"] == "0"
    used = int(stats["ram_used"])
    assert int(stats["activations"]) + int(stats["persistent"]) <= used
    again = _run(host_micro, case, used, tmp_path)
    assert again.returncode == 0 and again.stdout.count("EL_OUTPUT") == len(outputs), again.stdout + again.stderr
    assert re.findall(r"^EL_OUTPUT.*$", again.stdout, re.M) == re.findall(r"^EL_OUTPUT.*$", run.stdout, re.M)
    short = _run(host_micro, case, used - 8, tmp_path)
    assert short.returncode == 1 and "EL_ERROR" in short.stdout, short.stdout + short.stderr


@pytest.mark.parametrize("case,seed,cases", [(MODELS[0], 1, 1500), (MODELS[1], 2, 600), (MODELS[2], 3, 200)])
def test_mutated_models_fail_cleanly(case, seed, cases, host_micro):
    """Byte flips, random words and truncations: each case is refused at create (with a report) or runs; the
    sanitizers abort the driver on any out-of-bounds access, use of freed memory or undefined behaviour."""
    proc = subprocess.run([str(host_micro), "fuzz", str(REALWORLD / case / "model.tflite"), str(cases), str(seed)],
                          capture_output=True, text=True, timeout=240, env=ENV)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    counts = dict(kv.split("=") for kv in re.search(r"^EL_FUZZ (.*)$", proc.stdout, re.M).group(1).split())
    assert int(counts["cases"]) == cases
    # Both outcomes occur: mutations the checks refuse, and ones that still give a runnable model.
    assert 0 < int(counts["created"]) < cases
    assert int(counts["reports"]) > 0
