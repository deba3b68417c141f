"""Activation memory of edgelite against TensorFlow Lite Micro on the real-world models.

edgelite's number is `get_arena_info()['planned_bytes']` after allocate_tensors(); TFLM's is the
"head" of its arena (the non-persistent activation and scratch buffers its planner lays out), as
printed (to stderr) by `tflite_micro`'s `print_allocations()`. Each TFLM run happens in a subprocess: it
prints from C++ and some models abort it. Models TFLM cannot run are listed and skipped.

Run: EDGELITE_LIBRARY=build-mine/libedgelite.so PYTHONPATH=bindings \
     python benchmarks/arena_vs_tflm.py [--models DIR] [--cases a,b] [--markdown]
(needs the `tflite-micro` package: pip install tflite-micro)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

DEFAULT_MODELS = Path(__file__).resolve().parents[1].parent / "shared" / "realworld"

_TFLM_CHILD = r"""
import sys
from tflite_micro import runtime
path = sys.argv[1]
size = max(len(open(path, 'rb').read()) * 10, 64 << 20)
it = runtime.Interpreter.from_file(path, arena_size=size)
it.print_allocations()
"""

_HEAD = re.compile(r"Arena allocation head (\d+) bytes")


def tflm_head(model: Path, timeout: float = 120.0) -> Optional[int]:
    """TFLM's non-persistent arena bytes for `model`, or None when TFLM refuses or crashes on it."""
    try:
        proc = subprocess.run([sys.executable, "-c", _TFLM_CHILD, str(model)], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    match = _HEAD.search(proc.stderr)
    return int(match.group(1)) if proc.returncode == 0 and match else None


def edgelite_arena(model: Path, **options: object) -> Dict[str, object]:
    """edgelite's planned arena and lower bound after allocate_tensors() (or the error it raised)."""
    from edgelite_runtime.interpreter import Interpreter

    try:
        interp = Interpreter(model_path=str(model), num_threads=1, **options)
        interp.allocate_tensors()
    except Exception as exc:  # a model edgelite refuses, or a limit it cannot meet, is reported
        return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[-1][:120]}"}
    info = interp.get_arena_info()
    info["small_scratch_nodes"] = len(interp.get_arena_plan()["small_scratch_nodes"])
    return info


def measure(models: Path, cases: Optional[List[str]]) -> List[Dict[str, object]]:
    """Per case: TFLM's head, edgelite's default plan, and its plan capped at TFLM's head with the
    inputs' memory reused after their last reader (TFLM's own input semantics)."""
    rows = []
    for case in sorted(p.name for p in models.iterdir() if (p / "model.tflite").exists()):
        if cases and case not in cases:
            continue
        model = models / case / "model.tflite"
        head = tflm_head(model)
        row: Dict[str, object] = {"case": case, "tflm_head": head, "default": edgelite_arena(model)}
        if head is not None:
            row["capped"] = edgelite_arena(model, experimental_arena_limit=max(head, 1),
                                           experimental_reuse_input_memory=True)
        rows.append(row)
    return rows


def _ratio(value: int, head: int) -> float:
    return value / head if head else (1.0 if value == 0 else float("inf"))


def markdown(rows: List[Dict[str, object]]) -> str:
    """The comparison table (models TFLM runs) with the median and worst ratios of both plans."""
    lines = ["| model | TFLM head (B) | edgelite default (B) | ratio | lower bound (B) | "
             "edgelite capped at TFLM head, inputs reused (B) | ratio | least-scratch nodes |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    default_ratios, capped_ratios = [], []
    for r in rows:
        if r["tflm_head"] is None:
            continue
        head = int(r["tflm_head"])
        d, c = r["default"], r["capped"]
        if "error" in d:
            lines.append(f"| {r['case']} | {head:,} | {d['error']} | | | | | |")
            continue
        dr = _ratio(int(d["planned_bytes"]), head)
        default_ratios.append(dr)
        if "error" in c:
            capped, cr, small = c["error"], "", ""
        else:
            capped_ratios.append(_ratio(int(c["planned_bytes"]), head))
            capped, cr, small = f"{int(c['planned_bytes']):,}", f"{capped_ratios[-1]:.2f}", c["small_scratch_nodes"]
        lines.append(f"| {r['case']} | {head:,} | {int(d['planned_bytes']):,} | {dr:.2f} | "
                     f"{int(d['lower_bound_bytes']):,} | {capped} | {cr} | {small} |")
    lines.append("")
    if default_ratios:
        lines.append(f"default: {len(default_ratios)} models, median ratio {statistics.median(default_ratios):.3f}, "
                     f"max {max(default_ratios):.3f}, {sum(x <= 1.0 for x in default_ratios)} at or below 1.0")
    if capped_ratios:
        lines.append(f"capped: {len(capped_ratios)} models fit, median ratio {statistics.median(capped_ratios):.3f}, "
                     f"max {max(capped_ratios):.3f}, {sum(x <= 1.0 for x in capped_ratios)} at or below 1.0")
    skipped = [r["case"] for r in rows if r["tflm_head"] is None]
    if skipped:
        lines.append(f"TFLM does not run: {', '.join(skipped)}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=Path(os.environ.get("CHECK_MODELS", DEFAULT_MODELS)))
    parser.add_argument("--cases", default="")
    parser.add_argument("--markdown", action="store_true", help="print the RESULTS.md table")
    args = parser.parse_args()
    rows = measure(args.models, [c for c in args.cases.split(",") if c])
    print(markdown(rows) if args.markdown else json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
