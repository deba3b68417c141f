"""Build a model into Cortex-M firmware with the micro interpreter and run it under qemu-system-arm.

    python runtime_c/tools/firmware.py MODEL.tflite [--input x.npy ...] [--cpu cortex-m4] [--build DIR]

The core is cross-compiled with Debian's gcc-arm-none-eabi (newlib) keeping only the kernels of the model's
ops (`edgelite ops --header`), linked with the MPS2 board files (runtime_c/boards/mps2) and run on the board
qemu models for the CPU, with semihosting for output. Prints the outputs, the RAM the interpreter needs from its
one buffer (edgelite/edgelite_micro.h: activations, persistent part, total; `--smallest-arena` binary-searches the
smallest buffer it runs with) and the code size of the framework and of the kernels; `--json` prints the same for
machines.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "runtime_c" / "boards" / "mps2"
KERNEL_DIR = ROOT / "runtime_c" / "src" / "kernels"

# The MPS2 FPGA image qemu models for each core, the GCC flags of that core and the board's linker script
# (AN386 and AN500 share one memory map).
CPUS = {
    "cortex-m4": ("mps2-an386", ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
                  "mps2-an386.ld"),
    "cortex-m7": ("mps2-an500", ["-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"],
                  "mps2-an386.ld"),
    "cortex-m33": ("mps2-an505", ["-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"],
                   "mps2-an505.ld"),
}
TOOLS = ("arm-none-eabi-gcc", "qemu-system-arm", "cmake")


class FirmwareError(RuntimeError):
    """A step of the build or the run failed; the message says which and why."""


def missing_tools() -> List[str]:
    """The cross tools not on PATH (empty when firmware can be built and run here)."""
    found = [t for t in TOOLS if shutil.which(t) is None]
    if not found and not _has_newlib():
        found.append("libnewlib-arm-none-eabi")
    return found


def _has_newlib() -> bool:
    out = subprocess.run(["arm-none-eabi-gcc", "-print-file-name=rdimon.specs"], capture_output=True, text=True)
    return out.returncode == 0 and os.path.isabs(out.stdout.strip())


def _run(cmd: Sequence[str], what: str, timeout: float = 600, cwd: Optional[Path] = None) -> str:
    proc = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout, cwd=cwd)
    if proc.returncode != 0:
        raise FirmwareError(f"{what} failed ({proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return proc.stdout


def _op_header(models: Sequence[Path]) -> str:
    try:
        from edgelite.cli import ops
    except ImportError:
        sys.path.insert(0, str(ROOT / "sdk"))
        from edgelite.cli import ops
    builtins, customs = ops.model_ops([str(m) for m in models])
    return ops.selection_header(builtins, customs, [f"{m.parent.name}/{m.name}" for m in models])


def build_library(cpu: str, op_header: Path, build: Path, strip_error_text: bool = False) -> Path:
    """Cross-compile the freestanding core with the op selection (and, if asked, without its error message
    texts); returns the static library."""
    if cpu not in CPUS:
        raise FirmwareError(f"unknown cpu {cpu!r}; choose one of {sorted(CPUS)}")
    _run(["cmake", "-S", str(ROOT), "-B", str(build), f"-DCMAKE_TOOLCHAIN_FILE={ROOT / 'cmake' / 'arm-none-eabi.cmake'}",
          "-DEDGELITE_FREESTANDING=ON", f"-DEDGELITE_CPU={cpu}", f"-DEDGELITE_OP_SELECTION={op_header}",
          "-DCMAKE_BUILD_TYPE=MinSizeRel", f"-DEDGELITE_STRIP_ERROR_TEXT={'ON' if strip_error_text else 'OFF'}"],
         "configuring the freestanding core")
    _run(["cmake", "--build", str(build), "-j2"], "building the freestanding core")
    return build / "libedgelite_micro.a"


def _c_bytes(name: str, data: bytes, storage: str = "static ") -> str:
    rows = [", ".join(f"0x{b:02x}" for b in data[i:i + 16]) for i in range(0, len(data), 16)]
    body = ",\n  ".join(rows) if rows else "0"
    return f"{storage}const unsigned char {name}[] __attribute__((aligned(16))) = {{\n  {body}\n}};\n"


def write_model_data(model: bytes, inputs: Sequence[np.ndarray], path: Path) -> None:
    """The C file carrying the model and input bytes (board header model_data.h)."""
    parts = ['#include "model_data.h"\n', _c_bytes("el_fw_model", model, storage="")]
    for i, x in enumerate(inputs):
        parts.append(_c_bytes(f"kInput{i}", np.ascontiguousarray(x).tobytes()))
    parts.append(f"const size_t el_fw_model_len = {len(model)};\n")
    parts.append(f"const int el_fw_num_inputs = {len(inputs)};\n")
    names = ", ".join(f"kInput{i}" for i in range(len(inputs))) or "0"
    lens = ", ".join(str(np.asarray(x).nbytes) for x in inputs) or "0"
    parts.append(f"const unsigned char* const el_fw_inputs[] = {{{names}}};\n")
    parts.append(f"const size_t el_fw_input_lens[] = {{{lens}}};\n")
    text = "".join(parts)
    if not path.exists() or path.read_text() != text:  # unchanged data keeps its compiled object
        path.write_text(text)


def _compile(cpu: str, src: Path, obj: Path, defines: Sequence[str] = ()) -> Path:
    flags = CPUS[cpu][1]
    cflags = [*flags, "-std=c11", "-Os", "-Wall", "-Wextra", "-Werror", "-ffunction-sections", "-fdata-sections",
              f"-I{BOARD}", f"-I{ROOT / 'runtime_c' / 'include'}", *defines]
    _run(["arm-none-eabi-gcc", *cflags, "-c", str(src), "-o", str(obj)], f"compiling {src.name}")
    return obj


def link(cpu: str, library: Path, model_data: Path, build: Path, arena_bytes: int) -> Path:
    """Compile the board files and the model data, and link them with the core into an ELF image whose
    interpreter RAM buffer holds `arena_bytes`."""
    objects = []
    for src in (BOARD / "startup.c", model_data):
        obj = build / (src.stem + ".o")
        if not obj.exists() or obj.stat().st_mtime < src.stat().st_mtime:
            _compile(cpu, src, obj)
        objects.append(str(obj))
    objects.append(str(_compile(cpu, BOARD / "run_model.c", build / "run_model.o",
                                [f"-DEL_FW_ARENA_BYTES={arena_bytes}"])))
    elf = build / "firmware.elf"
    _run(["arm-none-eabi-gcc", *CPUS[cpu][1], "--specs=nano.specs", "--specs=rdimon.specs", "-nostartfiles",
          f"-T{BOARD / CPUS[cpu][2]}", *objects, str(library), "-lm", "-Wl,--gc-sections",
          f"-Wl,-Map={build / 'firmware.map'}", "-o", str(elf)], "linking the firmware")
    return elf


def run_qemu(cpu: str, elf: Path, timeout: float = 120) -> Dict[str, object]:
    """Boot the image on the board qemu models for `cpu`; the outputs (bytes) and the stats it printed."""
    machine = CPUS[cpu][0]
    try:
        proc = subprocess.run(["qemu-system-arm", "-M", machine, "-nographic", "-semihosting", "-kernel", str(elf)],
                              capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise FirmwareError(f"the firmware did not finish within {timeout:.0f} s under qemu ({machine})") from None
    text = proc.stdout
    if "EL_DONE" not in text:
        raise FirmwareError(f"the firmware failed under qemu ({machine}, status {proc.returncode}):\n"
                            f"{text[-2000:]}{proc.stderr[-2000:]}")
    outputs = {int(m.group(1)): bytes.fromhex(m.group(2)) for m in re.finditer(r"^EL_OUTPUT (\d+) ([0-9a-f]*)$",
                                                                                  text, re.M)}
    stats_line = re.search(r"^EL_STATS (.*)$", text, re.M)
    stats = {k: int(v) for k, v in (kv.split("=") for kv in stats_line.group(1).split())} if stats_line else {}
    return {"machine": machine, "outputs": [outputs[i] for i in sorted(outputs)], "stats": stats}


def _kernel_objects() -> set:
    names = {p.name + ".obj" for p in KERNEL_DIR.rglob("*.c")}
    names.discard("registry.c.obj")  # the op resolver table belongs to the framework, as TFLM counts it
    return names


def code_size(map_file: Path) -> Dict[str, int]:
    """Bytes of code and read-only data the image keeps, split into framework, kernels and the rest."""
    kernels = _kernel_objects()
    sizes = {"framework": 0, "kernels": 0, "model_data": 0, "board_and_libc": 0}
    in_map = False
    pending: Optional[str] = None
    for line in map_file.read_text().splitlines():
        if line.startswith("Linker script and memory map"):
            in_map = True
            continue
        if not in_map:
            continue
        if re.match(r"^ \.(text|rodata)\S*$", line):
            pending = line.strip()
            continue
        m = re.match(r"^ (\.(?:text|rodata)\S*)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
        section = (m.group(1) if m else None) or pending
        pending = None
        if not m or section is None or section.startswith((".text.unlikely",)) and int(m.group(3), 16) == 0:
            continue
        size, origin = int(m.group(3), 16), m.group(4)
        member = re.search(r"libedgelite_micro\.a\((.+)\)$", origin)
        if member is None:
            sizes["model_data" if origin.endswith("model_data.o") else "board_and_libc"] += size
        elif member.group(1) in kernels:
            sizes["kernels"] += size
        else:
            sizes["framework"] += size
    return sizes


def _prepare(model_path: Path, inputs: Sequence[np.ndarray], cpu: str, build: Optional[Path],
             op_models: Optional[Sequence[Path]], strip_error_text: bool = False):
    missing = missing_tools()
    if missing:
        raise FirmwareError(f"missing cross tools: {', '.join(missing)} (Debian: gcc-arm-none-eabi "
                            "libnewlib-arm-none-eabi qemu-system-arm)")
    model = model_path.read_bytes()
    build = Path(build or ROOT / "build" / "firmware")
    build.mkdir(parents=True, exist_ok=True)
    header_text = _op_header([Path(p) for p in (op_models or [model_path])])
    core = build / f"core-{cpu}{'-stripped' if strip_error_text else ''}-" \
                   f"{hashlib.sha256(header_text.encode()).hexdigest()[:12]}"
    core.mkdir(parents=True, exist_ok=True)
    header = core / "ops.h"
    if not header.exists() or header.read_text() != header_text:
        header.write_text(header_text)
    library = build_library(cpu, header, core / "cmake", strip_error_text)
    image = build / f"{model_path.parent.name}-{core.name}-{hashlib.sha256(model).hexdigest()[:12]}"
    image.mkdir(parents=True, exist_ok=True)
    data_c = image / "model_data.c"
    write_model_data(model, inputs, data_c)
    return library, data_c, image


def build_and_run(model_path: Path, inputs: Sequence[np.ndarray], cpu: str = "cortex-m4",
                  build: Optional[Path] = None, arena_bytes: int = 512 * 1024, timeout: float = 120,
                  op_models: Optional[Sequence[Path]] = None, strip_error_text: bool = False) -> Dict[str, object]:
    """The whole path for one model; returns outputs, stats and code sizes.

    The core keeps the kernels of `op_models` (default: the model itself); firmware for several models can
    share one core build by naming them all. Builds are cached under `build` by CPU and op selection."""
    library, data_c, image = _prepare(model_path, inputs, cpu, build, op_models, strip_error_text)
    elf = link(cpu, library, data_c, image, arena_bytes)
    result = run_qemu(cpu, elf, timeout)
    result["code_size"] = code_size(image / "firmware.map")
    result["elf"] = str(elf)
    return result


def smallest_arena(model_path: Path, inputs: Sequence[np.ndarray], cpu: str = "cortex-m4",
                   build: Optional[Path] = None, timeout: float = 120,
                   op_models: Optional[Sequence[Path]] = None, strip_error_text: bool = False) -> Dict[str, object]:
    """Binary search for the fewest RAM-buffer bytes (a multiple of 8) with which the firmware still runs and
    gives the outputs of a run with plenty; returns that size, the runs it took and the passing run."""
    library, data_c, image = _prepare(model_path, inputs, cpu, build, op_models, strip_error_text)

    def attempt(size: int) -> Optional[Dict[str, object]]:
        try:
            return run_qemu(cpu, link(cpu, library, data_c, image, size), timeout)
        except FirmwareError:
            return None

    reference = attempt(512 * 1024)
    if reference is None:
        raise FirmwareError(f"{model_path} does not run with a 512 KiB RAM buffer")
    # The interpreter reports the bytes it needs (el_micro_stats.used); the search checks that size runs and
    # that nothing smaller does.
    hi = -(-reference["stats"]["ram_used"] // 8) * 8
    lo = 0
    best = attempt(hi)
    if best is None or best["outputs"] != reference["outputs"]:
        raise FirmwareError(f"{model_path} fails with the RAM it reported needing ({hi} bytes)")
    runs = 2
    while hi - lo > 8:
        mid = (lo + hi) // 16 * 8
        got = attempt(mid)
        runs += 1
        if got is not None and got["outputs"] == reference["outputs"]:
            hi, best = mid, got
        else:
            lo = mid
    return {"arena_bytes": hi, "runs": runs, "result": best, "reference": reference}


def main(argv: Optional[List[str]] = None) -> int:
    """Command line: build, run and report one model."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", type=Path)
    p.add_argument("--input", action="append", default=[], type=Path, help=".npy input, once per model input")
    p.add_argument("--cpu", default="cortex-m4", choices=sorted(CPUS))
    p.add_argument("--build", type=Path, help="build directory (default build/firmware)")
    p.add_argument("--arena", type=int, default=512 * 1024, help="bytes of the interpreter's RAM buffer")
    p.add_argument("--smallest-arena", action="store_true",
                   help="also binary-search the smallest RAM buffer the model runs with")
    p.add_argument("--ops-from", action="append", type=Path, default=None,
                   help="keep the kernels of these models' ops (default: the model's own)")
    p.add_argument("--strip-error-text", action="store_true",
                   help="build the core without error message texts (errors name source file and line)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        inputs = [np.load(x) for x in args.input]
        result = build_and_run(args.model, inputs, args.cpu, args.build, args.arena, op_models=args.ops_from,
                               strip_error_text=args.strip_error_text)
        if args.smallest_arena:
            result["stats"]["ram_smallest_buffer"] = smallest_arena(
                args.model, inputs, args.cpu, args.build, op_models=args.ops_from,
                strip_error_text=args.strip_error_text)["arena_bytes"]
    except FirmwareError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        printable = dict(result, outputs=[o.hex() for o in result["outputs"]])
        print(json.dumps(printable, indent=1))
        return 0
    print(f"{args.model} on {result['machine']} ({args.cpu})")
    for i, o in enumerate(result["outputs"]):
        print(f"  output {i}: {o.hex()}")
    for k, v in result["stats"].items():
        print(f"  {k}: {v}")
    for k, v in result["code_size"].items():
        print(f"  code {k}: {v} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
