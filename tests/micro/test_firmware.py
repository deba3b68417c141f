"""The micro interpreter on Cortex-M under qemu-system-arm: hello_world, micro_speech and MLPerf Tiny KWS
give outputs bit-identical to the host interpreter on Cortex-M4 (micro_speech on M7 and M33 too), all the
interpreter's RAM comes from the one buffer the firmware gives it, invoke allocates nothing, and the
framework code and RAM are at most TensorFlow Lite Micro's for the same models.

The firmware is built by runtime_c/tools/firmware.py with Debian's gcc-arm-none-eabi and newlib; where those
tools or qemu are absent the tests skip with the packages to install.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld"
MODELS = ("tflm_hello_world_int8", "tflm_micro_speech_quantized", "tiny_kws_ref_model")
# TensorFlow Lite Micro's figures (../shared/reference/anchors.md): the framework code of its
# examples/memory_footprint (published, Cortex-M3) and the arena total print_allocations reports for each
# model (tflite-micro package, x86-64). The like-for-like arena, TFLM built for the same 32-bit core with the
# same compiler (short enums), comes from benchmarks/tflm_arena_model.py, which replays TFLM's allocation
# from its struct definitions and equals the wheel's print_allocations byte for byte on x86-64
# (tests/micro_tflm).
TFLM_FRAMEWORK_BYTES = 9732
TFLM_ARENA_TOTAL = {"tflm_hello_world_int8": 1504, "tflm_micro_speech_quantized": 7584, "tiny_kws_ref_model": 24272}


def _tflm_arm32_device_arena(model: Path) -> int:
    """TFLM's arena for `model` in a Cortex-M device build (plain MicroAllocator, arm-none-eabi-gcc ABI)."""
    spec = importlib.util.spec_from_file_location("el_tflm_arena_model", ROOT / "benchmarks" / "tflm_arena_model.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:  # it reads models with LiteRT's or tflite-micro's generated schema
        pytest.skip(f"the TFLM arena replay needs ai-edge-litert or tflite-micro: {exc}")
    arena = module.tflm_arena(module.read_graph(model), abi=module.ARM32_GCC, recording=False, compression=False)
    return module.as_printed(arena)["total"]


def _firmware_module():
    spec = importlib.util.spec_from_file_location("el_firmware_tool", ROOT / "runtime_c" / "tools" / "firmware.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


firmware = _firmware_module()
_missing = firmware.missing_tools()
pytestmark = [
    pytest.mark.skipif(bool(_missing), reason=f"no Cortex-M cross tools ({', '.join(_missing)}); install "
                       "gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm"),
    pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not beside the project"),
]


def _host_outputs(model: Path, inputs):
    """The host interpreter's outputs with the reference kernels, the firmware's kernel tier."""
    from edgelite_runtime import Interpreter, OpResolverType

    interp = Interpreter(model_path=str(model), experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    for detail, x in zip(interp.get_input_details(), inputs):
        interp.set_tensor(detail["index"], x)
    interp.invoke()
    return [interp.get_tensor(d["index"]) for d in interp.get_output_details()]


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("firmware")


def _inputs(case: str):
    return [np.load(REALWORLD / case / "input_0_0.npy")]


@pytest.mark.parametrize("case", MODELS)
def test_cortex_m4_outputs_equal_host(case, build_dir):
    model = REALWORLD / case / "model.tflite"
    inputs = _inputs(case)
    # One core build keeps the three models' kernels; each model gets its own image.
    result = firmware.build_and_run(model, inputs, "cortex-m4", build_dir,
                                    op_models=[REALWORLD / m / "model.tflite" for m in MODELS])
    host = _host_outputs(model, inputs)
    assert len(result["outputs"]) == len(host)
    for got, want in zip(result["outputs"], host):
        assert got == np.ascontiguousarray(want).tobytes()
    stats = result["stats"]
    assert stats["alloc_calls_in_invoke"] == 0
    assert stats["alloc_calls"] > 0  # the counter sees the kernels' allocations at all
    # Per tensor one pointer stays in RAM for the run (TFLM keeps a 12-byte TfLiteEvalTensor on 32-bit).
    assert stats["tensor_bytes"] == 4
    assert 0 < stats["activations"] and stats["activations"] + stats["persistent"] <= stats["ram_used"]
    sizes = result["code_size"]
    assert sizes["framework"] > 0 and sizes["kernels"] > 0
    print(json.dumps({"case": case, "stats": stats, "code_size": sizes}))


@pytest.mark.parametrize("cpu,machine", [("cortex-m7", "mps2-an500"), ("cortex-m33", "mps2-an505")])
def test_other_cores_micro_speech(cpu, machine, build_dir):
    case = "tflm_micro_speech_quantized"
    model = REALWORLD / case / "model.tflite"
    result = firmware.build_and_run(model, _inputs(case), cpu, build_dir)
    assert result["machine"] == machine
    assert result["outputs"][0] == np.ascontiguousarray(_host_outputs(model, _inputs(case))[0]).tobytes()
    assert result["stats"]["alloc_calls_in_invoke"] == 0


def test_op_selection_drops_unused_kernels(build_dir):
    """The hello_world image keeps only FULLY_CONNECTED's kernel, op-table entry, option parser and name: less
    kernel and framework code than with KWS's ops too."""
    case = "tflm_hello_world_int8"
    model = REALWORLD / case / "model.tflite"
    own = firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir)
    shared = firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir,
                                    op_models=[REALWORLD / m / "model.tflite" for m in MODELS])
    assert own["outputs"] == shared["outputs"]
    assert own["code_size"]["kernels"] < shared["code_size"]["kernels"]
    assert own["code_size"]["framework"] < shared["code_size"]["framework"]


def test_core_allocates_only_from_the_callers_buffer(build_dir):
    """The kernels' allocation calls are renamed to the arena allocator, so no libc heap function is left
    undefined in the library (the firmware's own heap stays apart from the interpreter's RAM)."""
    case = "tflm_hello_world_int8"
    result = firmware.build_and_run(REALWORLD / case / "model.tflite", _inputs(case), "cortex-m4", build_dir)
    libraries = list(Path(result["elf"]).parents[1].glob("core-cortex-m4-*/cmake/libedgelite_micro.a"))
    assert libraries, "no library was inspected"
    for lib in libraries:
        out = subprocess.run(["arm-none-eabi-nm", str(lib)], capture_output=True, text=True, check=True)
        symbols = [line.split() for line in out.stdout.splitlines() if len(line.split()) >= 2]
        undefined = {s[-1] for s in symbols if s[-2] == "U"}
        defined = {s[-1] for s in symbols if s[-2] == "T"}
        assert not undefined & {"malloc", "calloc", "realloc", "free", "posix_memalign"}
        assert {"el_arena_malloc", "el_arena_free", "el_micro_interpreter_create"} <= defined


def test_smallest_buffer_is_exact(build_dir):
    """The binary search's size runs with the reference outputs, 8 bytes less fails cleanly (an error, not a
    fault), and the size is the RAM the interpreter reports needing."""
    case = "tflm_hello_world_int8"
    model = REALWORLD / case / "model.tflite"
    found = firmware.smallest_arena(model, _inputs(case), "cortex-m4", build_dir)
    size = found["arena_bytes"]
    assert found["result"]["outputs"] == found["reference"]["outputs"]
    assert size == found["reference"]["stats"]["ram_used"]
    with pytest.raises(firmware.FirmwareError, match="EL_ERROR"):
        firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir, arena_bytes=size - 8)
    print(json.dumps({"case": case, "smallest_ram_buffer": size, "runs": found["runs"]}))


@pytest.mark.parametrize("case", MODELS)
def test_code_and_ram_at_most_tflm(case, build_dir):
    """With the model's own op selection, the framework code is at most TFLM's and the RAM the firmware runs
    with (the reported need: the same outputs with it, an error with 8 bytes less) at most TFLM's arena, both
    as the wheel records it and as TFLM would need on the same Cortex-M."""
    model = REALWORLD / case / "model.tflite"
    result = firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir)
    used = result["stats"]["ram_used"]
    exact = firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir, arena_bytes=used)
    assert exact["outputs"] == result["outputs"]
    with pytest.raises(firmware.FirmwareError, match="EL_ERROR"):
        firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir, arena_bytes=used - 8)
    assert result["code_size"]["framework"] <= TFLM_FRAMEWORK_BYTES
    tflm_arm32 = _tflm_arm32_device_arena(model)
    assert used <= TFLM_ARENA_TOTAL[case]
    assert used <= tflm_arm32
    print(json.dumps({"case": case, "ram_used": used, "tflm_arena": TFLM_ARENA_TOTAL[case], "tflm_arm32": tflm_arm32,
                      "code_size": result["code_size"], "tflm_framework": TFLM_FRAMEWORK_BYTES}))


def test_unselected_op_is_reported(build_dir):
    """A model run on a core built without its ops fails with the missing-op error, not a crash."""
    case = "tiny_kws_ref_model"
    # The build names only its selected ops, so the missing one is reported by code (CONV_2D = 3).
    with pytest.raises(firmware.FirmwareError, match="Didn't find op for builtin opcode 3 version '3': not in "
                       "this build's op selection"):
        firmware.build_and_run(REALWORLD / case / "model.tflite", _inputs(case), "cortex-m4", build_dir,
                               op_models=[REALWORLD / "tflm_hello_world_int8" / "model.tflite"])


def test_build_without_error_texts(build_dir):
    """-DEDGELITE_STRIP_ERROR_TEXT=ON gives the same outputs with less framework and kernel code, and an
    error names where it arose instead of its text."""
    case = "tflm_hello_world_int8"
    model = REALWORLD / case / "model.tflite"
    full = firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir)
    stripped = firmware.build_and_run(model, _inputs(case), "cortex-m4", build_dir, strip_error_text=True)
    assert stripped["outputs"] == full["outputs"]
    assert stripped["stats"]["alloc_calls_in_invoke"] == 0
    assert stripped["code_size"]["framework"] < full["code_size"]["framework"]
    assert stripped["code_size"]["kernels"] < full["code_size"]["kernels"]
    kws = "tiny_kws_ref_model"
    with pytest.raises(firmware.FirmwareError, match=r"EL_ERROR edgelite error at micro_interpreter\.c:\d+"):
        firmware.build_and_run(REALWORLD / kws / "model.tflite", _inputs(kws), "cortex-m4", build_dir,
                               op_models=[model], strip_error_text=True)
    print(json.dumps({"case": case, "code_size": full["code_size"], "stripped_code_size": stripped["code_size"]}))
