"""Op profiling and kernel configuration of an edgelite interpreter (edgelite extensions).

The C interpreter times every execution-plan step while profiling is on; `read_profile` turns
the records into rows like TFLite's benchmark_model --enable_op_profiling table, and adds the
arena report of the last allocate_tensors().
"""
from __future__ import annotations

from typing import Any, Dict, List

from edgelite_runtime._lib import ffi, lib
from edgelite_runtime._native import decode

KERNEL_TIERS = ("optimized", "reference")


def available_isas() -> List[str]:
    """ISA levels this CPU runs the optimized kernels at, lowest first (EDGELITE_ISA values)."""
    return decode(lib.el_cpu_isa_levels()).split(",")


def amx_int8() -> bool:
    """True when the "auto" level runs int8 1x1 convolutions on AMX tiles (CPU and OS allow it)."""
    return bool(lib.el_cpu_amx_int8())


def read_profile(native: Any, subgraph: int = 0) -> List[Dict[str, Any]]:
    """One dict per execution-plan step: op name, node index, invocations and times in µs."""
    steps = ffi.new("int *")
    native.raise_for(lib.el_interpreter_profile_steps(native.interp, subgraph, steps))
    entry = ffi.new("el_op_profile *")
    rows = []
    for step in range(steps[0]):
        native.raise_for(lib.el_interpreter_profile_entry(native.interp, subgraph, step, entry))
        count = int(entry.invocations)
        total_us = int(entry.total_ns) / 1000.0
        rows.append({
            "step": step,
            "node_index": int(entry.node_index),
            "op_name": decode(entry.op_name),
            "delegated": bool(entry.delegated),
            "invocations": count,
            "total_us": total_us,
            "avg_us": total_us / count if count else 0.0,
            "last_us": int(entry.last_ns) / 1000.0,
        })
    return rows


def kernel_config(native: Any) -> Dict[str, Any]:
    """The tier and ISA level the interpreter's kernels run, and the levels this CPU has."""
    tier, isa = ffi.new("const char **"), ffi.new("const char **")
    native.raise_for(lib.el_interpreter_kernel_config(native.interp, tier, isa))
    return {"tier": decode(tier[0]), "isa": decode(isa[0]), "available_isas": available_isas()}


def format_profile(profile: Dict[str, Any]) -> str:
    """The profile as a text table sorted by time, with each op's share of the total."""
    ops = sorted(profile["ops"], key=lambda r: -r["avg_us"])
    total = sum(r["avg_us"] for r in ops) or 1.0
    lines = [f"{'node':>5} {'op':<28} {'avg us':>10} {'%':>6} {'count':>7}"]
    for r in ops:
        lines.append(f"{r['node_index']:>5} {r['op_name'][:28]:<28} {r['avg_us']:>10.1f} "
                     f"{100.0 * r['avg_us'] / total:>6.1f} {r['invocations']:>7}")
    arena = profile["arena"]
    lines.append(f"total {total:.1f} us per invoke; arena {arena['planned_bytes']} bytes "
                 f"(lower bound {arena['lower_bound_bytes']})")
    return "\n".join(lines)
