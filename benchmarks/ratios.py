"""Turns pytest-benchmark JSON files of the speed benchmarks into benchmarks/RESULTS.md: per case,
the median time of each runtime and the ratios edgelite / peer (below 1.0: edgelite is faster),
plus the two-thread speed-ups of edgelite and LiteRT measured in the same rounds.

    python benchmarks/ratios.py models.json kernels.json overhead.json [-o benchmarks/RESULTS.md]
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

HERE = Path(__file__).resolve().parent
PEERS = ("litert", "litert_nodelegate", "tflite_runtime")
PEER_TITLES = {"litert": "LiteRT default (XNNPACK)", "litert_nodelegate": "LiteRT without default delegates",
               "tflite_runtime": "tflite-runtime 2.14 (NumPy 1 subprocess)"}
KIND_TITLES = {"model": "Whole models", "kernel": "Kernel hot path (single-op models)",
               "overhead": "Per-call overhead (tflm_hello_world_int8)"}

Key = Tuple[str, str, int]  # kind, case, threads
# Per MobileNet, bench_threads.py's record: both runtimes' medians and per-round speed-ups.
ThreadRecords = Dict[str, Dict[str, object]]
# A two-thread round counts as scaling at this speed-up (the target).
SCALING = 1.6


def load(paths: Iterable[Path]) -> Tuple[Dict[Key, Dict[str, float]], Dict[str, str], ThreadRecords]:
    """Median seconds per (kind, case, threads) and runtime, the machine of the first file, and
    bench_threads.py's records per case."""
    medians: Dict[Key, Dict[str, float]] = defaultdict(dict)
    threads: ThreadRecords = {}
    machine: Dict[str, str] = {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        if not machine:
            info = data.get("machine_info", {})
            cpu = info.get("cpu", {})
            machine = {"cpu": str(cpu.get("brand_raw") or info.get("processor") or platform.processor()),
                       "cores": str(cpu.get("count", "?")), "python": str(info.get("python_version", "?")),
                       "date": str(data.get("datetime", "?"))}
        for bench in data.get("benchmarks", []):
            extra = bench.get("extra_info", {})
            if "runtime" not in extra:
                continue
            kind, case = extra.get("kind", "?"), extra.get("case", bench["name"])
            if kind == "threads":  # bench_threads.py: all medians come from the same interleaved rounds
                threads[case] = extra
                continue
            medians[(kind, case, int(extra.get("threads", 1)))][extra["runtime"]] = float(bench["stats"]["median"])
    return medians, machine, threads


def _fmt_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.2f} µs"


def ratio_rows(medians: Dict[Key, Dict[str, float]], kind: str, threads: int = 1) -> List[Dict[str, object]]:
    """Rows of one table: case, times and edgelite / peer ratios."""
    rows = []
    for (k, case, t), by_runtime in sorted(medians.items()):
        if k != kind or t != threads or "edgelite" not in by_runtime:
            continue
        row: Dict[str, object] = {"case": case, "edgelite": by_runtime["edgelite"]}
        for peer in PEERS:
            if peer in by_runtime:
                row[peer] = by_runtime[peer]
                row[f"ratio_{peer}"] = by_runtime["edgelite"] / by_runtime[peer]
        rows.append(row)
    return rows


def _rounds(speedups: object) -> List[float]:
    return [float(v) for v in speedups] if isinstance(speedups, list) else []


def _share(values: List[float]) -> str:
    return f"{sum(v >= SCALING for v in values)}/{len(values)}" if values else "—"


def _speedup(one: float, two: float, rounds: List[float]) -> str:
    """The median of the rounds' speed-ups (each round is a paired comparison under the same
    conditions); the ratio of the two overall medians where no rounds were recorded."""
    return f"{statistics.median(rounds) if rounds else one / two:.2f}x"


def thread_lines(records: ThreadRecords) -> List[str]:
    """The two-thread table: per runtime the 1- and 2-thread medians, the speed-up, and in how
    many rounds the speed-up reached SCALING."""
    lines = ["| case | edgelite 1 thread | 2 threads | speed-up | rounds ≥ 1.6x "
             "| LiteRT default 1 thread | 2 threads | speed-up | rounds ≥ 1.6x |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for case, r in sorted(records.items()):
        one, two = float(r["one_thread"]), float(r["two_threads"])  # type: ignore[arg-type]
        rounds = _rounds(r.get("round_speedups"))
        cells = [case, _fmt_time(one), _fmt_time(two), _speedup(one, two, rounds), _share(rounds)]
        if "peer_one_thread" in r:
            pone, ptwo = float(r["peer_one_thread"]), float(r["peer_two_threads"])  # type: ignore[arg-type]
            peer_rounds = _rounds(r.get("peer_round_speedups"))
            cells += [_fmt_time(pone), _fmt_time(ptwo), _speedup(pone, ptwo, peer_rounds), _share(peer_rounds)]
        else:
            cells += ["—"] * 4
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render(medians: Dict[Key, Dict[str, float]], machine: Dict[str, str], command: str,
           threads: ThreadRecords = None) -> str:
    lines = ["# Speed: edgelite next to LiteRT 2.3 and tflite-runtime 2.14", "",
             "Medians of pytest-benchmark runs in one session; ratio = edgelite time / peer time "
             "(below 1.00 edgelite is faster). One thread unless noted. tflite-runtime 2.14 needs "
             "NumPy < 2: bench_tflite_runtime.py times its cases in a NumPy 1 Python started by the "
             "same session (— where that Python is absent or the runtime cannot run the model). "
             "Regenerate with:", "",
             "```", command, "```", ""]
    if machine:
        lines += [f"Machine: {machine['cpu']}, {machine['cores']} logical CPUs (shared with other jobs "
                  f"while measuring), Python {machine['python']}, {machine['date']}.", ""]
    for kind in ("model", "kernel", "overhead"):
        rows = ratio_rows(medians, kind)
        if not rows:
            continue
        lines += [f"## {KIND_TITLES[kind]}", ""]
        if kind == "overhead":
            lines += ["Each runtime's calls are timed one after another here, so a change of machine load "
                      "between them moves these sub-microsecond ratios; benchmarks/overhead_interleaved.py "
                      "times edgelite and LiteRT in interleaved rounds (numbers in docs/performance.md).", ""]
        lines += ["| case | edgelite | " + " | ".join(PEER_TITLES[p] for p in PEERS) + " | "
                  + " | ".join(f"ratio vs {p}" for p in PEERS) + " |",
                  "|---|---:|" + "---:|" * (2 * len(PEERS))]
        for r in rows:
            times = " | ".join(_fmt_time(r[p]) if p in r else "—" for p in PEERS)  # type: ignore[arg-type]
            ratios = " | ".join(f"{r[f'ratio_{p}']:.2f}" if f"ratio_{p}" in r else "—" for p in PEERS)
            lines.append(f"| {r['case']} | {_fmt_time(r['edgelite'])} | {times} | {ratios} |")  # type: ignore[arg-type]
        lines.append("")
    if threads:
        lines += ["## Two threads", "",
                  "benchmarks/bench_threads.py times blocks of invokes on one- and two-thread interpreters "
                  "of edgelite and LiteRT in alternation, so all medians come from the same stretch of "
                  "time. A round's speed-up is the ratio of its two block medians, and the speed-up shown is the "
                  "median of the rounds' (the 1- and 2-thread columns are medians of all invokes). On a virtual machine "
                  "the host decides whether two threads can run at full speed: rounds where neither "
                  "runtime reaches 1.6x are the machine's (docs/performance.md, Threads).", ""]
        lines += thread_lines(threads)
        lines.append("")
    return "\n".join(lines)


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", type=Path, help="pytest-benchmark --benchmark-json files")
    parser.add_argument("-o", "--output", type=Path, default=HERE / "RESULTS.md")
    parser.add_argument("--command", default="PYTHONPATH=bindings python -m pytest benchmarks/bench_models.py "
                        "benchmarks/bench_kernels.py benchmarks/bench_overhead.py benchmarks/bench_tflite_runtime.py "
                        "benchmarks/bench_threads.py --benchmark-json=bench.json && python benchmarks/ratios.py bench.json")
    args = parser.parse_args(argv)
    medians, machine, threads = load(args.json)
    args.output.write_text(render(medians, machine, args.command, threads) + "\n")
    print(f"wrote {args.output} ({len(medians)} cases)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
