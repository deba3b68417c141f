"""The micro interpreter (runtime_c/src/micro) built for this machine with AddressSanitizer and UBSan: the
three TFLM examples give the hosted interpreter's bytes, the RAM it reports needing is exactly the smallest
buffer that works, mutated models fail cleanly at create or run without a memory error, and stateful models
carry their state from invoke to invoke as the hosted interpreter does until el_micro_reset starts them afresh.

Needs cmake and a C compiler only (no cross tools); tests/micro/test_firmware.py runs the same code under qemu.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld"
MODELS = ("tflm_hello_world_int8", "tflm_micro_speech_quantized", "tiny_kws_ref_model")
# State kept across invokes that shows in the outputs: int8 LSTM state tensors (non-zero zero point), float
# LSTM state tensors, and the audio front end's SignalFilterBankSpectralSubtraction noise estimate (kernel
# data, no variable tensor).
STATEFUL = ("tflm_trained_lstm_int8", "tflm_trained_lstm", "tflm_audio_preprocessor_int8")
CC = shutil.which("cc") or shutil.which("gcc")
# The interpreter allocates nothing from the heap; the driver's own buffers are left to the OS.
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")

pytestmark = [
    pytest.mark.skipif(CC is None or shutil.which("cmake") is None, reason="needs cmake and a C compiler"),
    pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not beside the project"),
]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _op_header(extra: Sequence[Path]) -> str:
    module = _load("el_firmware_tool", ROOT / "runtime_c" / "tools" / "firmware.py")
    return module._op_header([REALWORLD / m / "model.tflite" for m in MODELS + STATEFUL] + list(extra))


def _wide_model() -> Optional[bytes]:
    """A CONCATENATION of ten int8 operands (the graph input twice and eight constants, all with one scale and
    non-zero zero point, as the reference kernel requires) and a DEQUANTIZE of int8 constants whose per-channel zero points are not
    zero: a node wider than the stack window, a tensor listed twice in one node, and zero points that cannot
    be read in place. None without the model-writing test dependencies."""
    models = _load("el_runtime_api_models", ROOT / "tests" / "runtime_api" / "models.py")
    if models.schema is None:
        return None
    B, T, O = models.schema.BuiltinOperator, models.schema.TensorType, models.schema.BuiltinOptions
    rng = np.random.default_rng(5)
    tensors = [models.Tensor((1, 3), T.INT8, "x", scales=[0.05], zero_points=[-7])]
    for k in range(8):
        tensors.append(models.Tensor((1, 3), T.INT8, f"c{k}", data=rng.integers(-128, 128, 3, np.int8).tobytes(),
                                     scales=[0.05], zero_points=[-7]))
    tensors.append(models.Tensor((1, 30), T.INT8, "joined", scales=[0.05], zero_points=[-7]))
    tensors.append(models.Tensor((3, 2), T.INT8, "w", data=rng.integers(-128, 128, 6, np.int8).tobytes(),
                                 scales=[0.5, 0.25, 0.125], zero_points=[1, -2, 5], quantized_dimension=0))
    tensors.append(models.Tensor((3, 2), T.FLOAT32, "w_float"))
    concat = models.schema.ConcatenationOptionsT()
    concat.axis = 1
    graph = models.Graph(
        tensors=tensors,
        ops=[models.Op(B.CONCATENATION, [0, 1, 2, 3, 4, 5, 6, 7, 8, 0], [9], options_type=O.ConcatenationOptions,
                       options=concat),
             models.Op(B.DEQUANTIZE, [10], [11])],
        inputs=[0], outputs=[9, 11])
    return models.build(graph)


@pytest.fixture(scope="module")
def wide_model(tmp_path_factory) -> Optional[Path]:
    data = _wide_model()
    if data is None:
        return None
    path = tmp_path_factory.mktemp("micro_wide") / "model.tflite"
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def host_micro(tmp_path_factory, wide_model) -> Path:
    """The host_micro driver linked with a sanitized freestanding build of the three models' ops, the stateful
    models' and the wide test model's."""
    build = tmp_path_factory.mktemp("micro_host")
    header = build / "ops.h"
    header.write_text(_op_header([wide_model] if wide_model is not None else []))
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


def _run_model(exe: Path, model: Path, x: np.ndarray, arena: int, tmp_path: Path) -> subprocess.CompletedProcess:
    raw = tmp_path / f"{model.parent.name}.bin"
    np.ascontiguousarray(x).tofile(raw)
    return subprocess.run([str(exe), "run", str(model), str(arena), str(raw)], capture_output=True, text=True,
                          timeout=120, env=ENV)


def _run(exe: Path, case: str, arena: int, tmp_path: Path) -> subprocess.CompletedProcess:
    return _run_model(exe, REALWORLD / case / "model.tflite", np.load(REALWORLD / case / "input_0_0.npy"), arena,
                      tmp_path)


def _hosted_stream(model: Path, xs: Sequence[np.ndarray]):
    """The hosted interpreter's outputs for one invoke per input, in one interpreter (state carried)."""
    from edgelite_runtime import Interpreter, OpResolverType

    interp = Interpreter(model_path=str(model), experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    rounds = []
    for x in xs:
        interp.set_tensor(interp.get_input_details()[0]["index"], x)
        interp.invoke()
        rounds.append([np.ascontiguousarray(interp.get_tensor(d["index"])).tobytes()
                       for d in interp.get_output_details()])
    return rounds


def _hosted_outputs(model: Path, x: np.ndarray):
    return _hosted_stream(model, [x])[0]


def _host_outputs(case: str):
    return _hosted_outputs(REALWORLD / case / "model.tflite", np.load(REALWORLD / case / "input_0_0.npy"))


def _outputs(run: subprocess.CompletedProcess):
    return [bytes.fromhex(m.group(1)) for m in re.finditer(r"^EL_OUTPUT \d+ ([0-9a-f]*)$", run.stdout, re.M)]


@pytest.mark.parametrize("case", MODELS)
def test_outputs_equal_hosted_interpreter_and_smallest_buffer_is_reported(case, host_micro, tmp_path):
    run = _run(host_micro, case, 512 * 1024, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    outputs = _outputs(run)
    assert outputs == _host_outputs(case)
    stats = dict(kv.split("=") for kv in re.search(r"^EL_STATS (.*)$", run.stdout, re.M).group(1).split())
    assert stats["alloc_calls_in_invoke"] == "0"
    # Per tensor the interpreter keeps one pointer for the whole run (TFLM: a TfLiteEvalTensor of three words).
    assert int(stats["tensor_bytes"]) == struct.calcsize("P")
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


def test_wide_node_repeated_tensor_and_listed_zero_points(host_micro, wide_model, tmp_path):
    """A node with more tensors than the stack window holds runs on the arena's window, a tensor given twice
    to one node is one tensor there, and non-zero per-channel zero points come through: the hosted
    interpreter's bytes."""
    if wide_model is None:
        pytest.skip("building the test model needs ai_edge_litert.schema_py_generated and flatbuffers")
    x = np.array([[-128, 5, 127]], np.int8)
    run = _run_model(host_micro, wide_model, x, 64 * 1024, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert _outputs(run) == _hosted_outputs(wide_model, x)
    used = int(re.search(r"ram_used=(\d+)", run.stdout).group(1))
    short = _run_model(host_micro, wide_model, x, used - 8, tmp_path)
    assert short.returncode == 1 and "EL_ERROR" in short.stdout, short.stdout + short.stderr



@pytest.mark.parametrize("case", STATEFUL)
def test_state_carries_across_invokes_until_reset(case, host_micro, tmp_path):
    """Inputs 0, 1, then el_micro_reset, then 1, 0: the hosted interpreter's outputs for the stream 0, 1 in one
    interpreter, then those of a fresh interpreter given 1, 0 (TFLM's MicroInterpreter::Reset starts the
    stream afresh)."""
    model = REALWORLD / case / "model.tflite"
    xs = [np.load(REALWORLD / case / f"input_{k}_0.npy") for k in (0, 1)]
    files = []
    for k, x in enumerate(xs):
        files.append(str(tmp_path / f"x{k}.bin"))
        np.ascontiguousarray(x).tofile(files[-1])
    proc = subprocess.run([str(host_micro), "stream", str(model), str(256 * 1024), files[0], files[1], "reset",
                           files[1], files[0]], capture_output=True, text=True, timeout=120, env=ENV)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    rounds: dict = {}
    for m in re.finditer(r"^EL_ROUND (\d+) \d+ ([0-9a-f]*)$", proc.stdout, re.M):
        rounds.setdefault(int(m.group(1)), []).append(bytes.fromhex(m.group(2)))
    carried = _hosted_stream(model, xs)
    fresh = _hosted_stream(model, xs[::-1])
    # The state shows in the outputs: input 1 after input 0 gives other outputs than input 1 first.
    assert carried[1] != fresh[0]
    assert [rounds[r] for r in range(4)] == carried + fresh
    assert re.search(r"alloc_calls_after_create=0$", proc.stdout, re.M)
