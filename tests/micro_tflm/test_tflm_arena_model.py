"""benchmarks/tflm_arena_model.py replays TFLM's arena allocation from its struct definitions; with
the x86-64 ABI it must give exactly what the tflite-micro wheel's print_allocations() prints (total,
head, tail and every category's used/requested bytes and count), which is what makes its 32-bit ARM
figures (same replay, ARM struct sizes) a like-for-like TFLM arena for issue #27."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import tflm_arena_model as tam  # noqa: E402

CASES = ("tflm_hello_world_int8", "tflm_micro_speech_quantized", "tiny_kws_ref_model")

_ARENA_CHILD = r"""
import sys
from tflite_micro.python.tflite_micro import runtime
it = runtime.Interpreter.from_bytes(open(sys.argv[1], 'rb').read(), arena_size=int(sys.argv[2]))
it.print_allocations()
"""


def _need_wheel() -> None:
    if importlib.util.find_spec("tflite_micro") is None:
        pytest.skip("the tflite-micro wheel (pip install tflite-micro) is not installed")


def _model(realworld_dir: Path, case: str) -> Path:
    path = realworld_dir / case / "model.tflite"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return path


@pytest.mark.parametrize("case", CASES)
def test_x86_64_replay_equals_wheel_print_allocations(realworld_dir: Path, case: str) -> None:
    _need_wheel()
    path = _model(realworld_dir, case)
    printed = tam.wheel_allocations(path)
    assert printed is not None, f"the tflite-micro wheel failed on {path}"
    modelled = tam.as_printed(tam.wheel_arena(tam.read_graph(path)))
    assert modelled["categories"] == printed["categories"]
    assert (modelled["head"], modelled["tail"], modelled["total"]) == \
        (printed["head"], printed["tail"], printed["total"])


# More real-world models whose operators the replay covers (ADD, SUB, PAD, QUANTIZE, LEAKY_RELU,
# STRIDED_SLICE, TRANSPOSE_CONV with its scratch buffer, int16 convolutions, float models), with an
# arena large enough for all of them.
MORE = ("tflm_person_detect", "tiny_vww_96_int8", "tiny_pretrainedResnet_quant", "tiny_ad01_int8",
        "tiny_str_ww_ref_model", "tiny_toycar_model_ToyCar_quant_fullint", "tflm_hello_world_float",
        "tflm_seanet_conv0", "tflm_seanet_add1", "tflm_seanet_sub0", "tflm_seanet_pad1",
        "tflm_seanet_leaky_relu0", "tflm_seanet_strided_slice1", "tflm_seanet_quantize0",
        "tflm_seanet_transpose_conv4")


@pytest.mark.parametrize("case", MORE)
def test_x86_64_replay_equals_wheel_on_more_models(realworld_dir: Path, case: str) -> None:
    _need_wheel()
    path = _model(realworld_dir, case)
    arena_size = (4 << 20) + 4
    printed = tam.wheel_allocations(path, arena_size)
    assert printed is not None, f"the tflite-micro wheel failed on {path}"
    assert tam.as_printed(tam.wheel_arena(tam.read_graph(path), arena_size)) == printed


@pytest.mark.parametrize("arena_size", [200_003, 200_008, 200_013])
def test_unaligned_arena_end_moves_the_tail_as_in_the_wheel(realworld_dir: Path, arena_size: int) -> None:
    """The tail is aligned down from the arena's end, so an arena whose size is not a multiple of
    16 costs TFLM those bytes in its tail; the replay must follow the wheel there too."""
    _need_wheel()
    path = _model(realworld_dir, "tflm_hello_world_int8")
    proc = subprocess.run([sys.executable, "-c", _ARENA_CHILD, str(path), str(arena_size)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    tail = int(proc.stderr.split("Arena allocation tail ")[1].split()[0])
    arena = tam.tflm_arena(tam.read_graph(path), tam.X86_64, end_misalignment=arena_size % 16)
    assert arena.tail == tail


@pytest.mark.parametrize("case", CASES)
def test_arm32_arena_is_the_x86_64_arena_minus_the_pointer_bytes(realworld_dir: Path, case: str) -> None:
    """Same allocations, same head (activations do not depend on the ABI); the ARM tail is smaller
    and every structure holding pointers shrinks, the others keep their size."""
    graph = tam.read_graph(_model(realworld_dir, case))
    wide = tam.tflm_arena(graph, tam.X86_64)
    narrow = tam.tflm_arena(graph, tam.ARM32)
    assert [entry[0] for entry in wide.log] == [entry[0] for entry in narrow.log]
    assert narrow.head == wide.head
    assert narrow.tail < wide.tail
    structs = tam.struct_table(compression=True)
    for name in ("TfLiteReshapeParams", "TfLiteConvParams", "TfLitePoolParams", "OpDataPooling"):
        assert structs[name].layout(tam.ARM32) == structs[name].layout(tam.X86_64)
    for name in ("TfLiteTensor", "TfLiteEvalTensor", "NodeAndRegistration", "OpDataConv"):
        assert structs[name].layout(tam.ARM32)[0] < structs[name].layout(tam.X86_64)[0]
    plain = tam.tflm_arena(graph, tam.ARM32, recording=False, compression=False)
    assert plain.head == wide.head and plain.tail < narrow.tail
    assert plain.categories == {}


_C_TYPES = {"ptr": "void*", "size_t": "size_t", "intptr": "intptr_t", "i32": "int32_t", "enum": "small_enum",
            "f32": "float", "f64": "double", "i64": "int64_t", "i8": "int8_t", "i16": "int16_t", "bool": "bool"}


def _declarations(structs: dict, abi: "tam.Abi") -> str:
    """C++ declarations of the replay's structs with static_asserts of the sizes and alignments
    the replay computes for `abi`; a compiler for that ABI checks the arithmetic."""
    lines = ["#include <stddef.h>", "#include <stdint.h>",
             "typedef enum { kSmallEnumFirst = 0, kSmallEnumLast = 20 } small_enum;"]
    done = set()

    def emit(struct: "tam.Struct") -> None:
        if struct.name in done:
            return
        for f in struct.fields:
            if isinstance(f, tam.Struct):
                emit(f)
        members = [f"  {f.name if isinstance(f, tam.Struct) else _C_TYPES[f]} m{i};"
                   for i, f in enumerate(struct.fields)]
        size, align = struct.layout(abi)
        lines.extend([f"struct {struct.name} {{", *members, "};",
                      f"static_assert(sizeof({struct.name}) == {size}, \"{struct.name} size\");",
                      f"static_assert(alignof({struct.name}) == {align}, \"{struct.name} align\");"])
        done.add(struct.name)

    for struct in structs.values():
        emit(struct)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("abi_name, compiler, flags", [
    ("x86_64", "g++", ["-m64"]),
    ("arm32", "arm-none-eabi-g++", ["-mcpu=cortex-m4", "-mthumb", "-fno-short-enums"]),
    ("arm32_gcc", "arm-none-eabi-g++", ["-mcpu=cortex-m4", "-mthumb"]),
])
@pytest.mark.parametrize("compression", [True, False])
def test_struct_layouts_match_the_compilers(tmp_path: Path, abi_name: str, compiler: str, flags: list,
                                            compression: bool) -> None:
    """The replay's size/alignment arithmetic for every struct equals what g++ (x86-64) and
    arm-none-eabi-g++ (Cortex-M4, with and without its default short enums) lay out."""
    import shutil

    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (Debian: g++, g++-arm-none-eabi)")
    source = tmp_path / "layouts.cc"
    source.write_text(_declarations(tam.struct_table(compression), tam.ABIS[abi_name]))
    proc = subprocess.run([compiler, *flags, "-std=c++17", "-fsyntax-only", str(source)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
