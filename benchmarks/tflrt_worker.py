"""Times benchmark cases on tflite-runtime 2.14, in the NumPy 1 Python it needs.

Started by bench_tflite_runtime.py (through conftest.py) as a subprocess of the benchmark session.
Protocol, one JSON object per line: the worker first prints {"ready": true, "numpy", "tflite_runtime"}
(or {"error": reason}); then for each request on stdin
{"kind", "case", "model" (path), "threads", "call" and "iterations" (overhead cases), "max_time",
"min_rounds", "min_time"}
it prints {"stats": {...}} with pytest-benchmark's field names, or {"skip": reason}.
Timing follows pytest-benchmark: iterations per round calibrated to at least min_time, rounds
until max_time and at least min_rounds, per-call seconds of each round.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402


def _calibrate(fn: Callable[[], Any], min_time: float) -> int:
    """Calls per round so that one round lasts at least min_time."""
    iterations = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(iterations):
            fn()
        took = time.perf_counter() - t0
        if took >= min_time or iterations >= 1 << 20:
            return iterations
        iterations = max(iterations * 2, int(iterations * min_time / max(took, 1e-9)) + 1)


def measure(fn: Callable[[], Any], max_time: float, min_rounds: int, min_time: float,
            iterations: int = 0) -> Dict[str, float]:
    """pytest-benchmark-style statistics (seconds per call) of fn; iterations per round fixed if given."""
    fn()
    iterations = iterations or _calibrate(fn, min_time)
    timer = time.perf_counter
    times: List[float] = []
    end = timer() + max_time
    while len(times) < min_rounds or timer() < end:
        t0 = timer()
        for _ in range(iterations):
            fn()
        times.append((timer() - t0) / iterations)
    q = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
    mean = statistics.fmean(times)
    return {"min": min(times), "max": max(times), "mean": mean, "median": statistics.median(times),
            "stddev": statistics.stdev(times) if len(times) > 1 else 0.0, "q1": q[0], "q3": q[2],
            "iqr": q[2] - q[0], "rounds": len(times), "iterations": iterations, "ops": 1.0 / mean,
            "total": sum(times) * iterations}


def run(request: Dict[str, Any]) -> Dict[str, Any]:
    """Build the case's interpreter and time it, or say why tflite-runtime cannot run it."""
    try:
        it = peers.make_interpreter(peers.TFLITE_RUNTIME, request["model"], num_threads=int(request.get("threads", 1)))
        fn = peers.overhead_call(it, request["call"]) if request["kind"] == "overhead" else peers.invoke_step(it)
    except (ValueError, RuntimeError, OSError) as e:
        first = (str(e).splitlines() or [type(e).__name__])[0][:120]
        return {"skip": f"tflite_runtime does not run {request['case']}: {first}"}
    return {"stats": measure(fn, float(request["max_time"]), int(request["min_rounds"]), float(request["min_time"]),
                             int(request.get("iterations", 0)))}


def main() -> int:
    try:
        import numpy as np
        import tflite_runtime
    except ImportError as e:
        print(json.dumps({"error": f"{sys.executable} cannot import {e.name}"}), flush=True)
        return 1
    print(json.dumps({"ready": True, "numpy": np.__version__, "tflite_runtime": tflite_runtime.__version__}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
