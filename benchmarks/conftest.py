"""Benchmark-session plumbing for tflite-runtime 2.14, which runs in a NumPy 1 Python of its own.

The `tflite_runtime_worker` fixture starts tflrt_worker.py there once per session; each timed case
is added to the --benchmark-json output as a pytest-benchmark entry (runtime "tflite_runtime"),
so ratios.py tabulates it next to the in-process runtimes.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import peers

HERE = Path(__file__).resolve().parent
_RESULTS: List[Dict[str, Any]] = []
_SAVED: List[bool] = []  # set once pytest-benchmark has written them into its JSON


class Worker:
    """One tflrt_worker.py subprocess answering timing requests."""

    def __init__(self, python: Path) -> None:
        self.proc = subprocess.Popen([str(python), str(HERE / "tflrt_worker.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.hello = self._read()

    def _read(self) -> Dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            return {"error": f"the worker exited with status {self.proc.wait()}"}
        return json.loads(line)

    def time(self, request: Dict[str, Any]) -> Dict[str, Any]:
        """The worker's answer to one request: {'stats': ...} or {'skip': reason}."""
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="session")
def tflite_runtime_worker():
    """The tflite-runtime worker, or a skip naming why there is none."""
    python = peers.numpy1_python()
    if python is None or not python.exists():
        pytest.skip(f"no NumPy 1 Python with tflite-runtime 2.14 (set EDGELITE_NUMPY1_PYTHON; "
                    f"{peers.NUMPY1_PYTHON} absent)")
    worker = Worker(python)
    if "error" in worker.hello:
        worker.close()
        pytest.skip(f"tflite-runtime worker unavailable: {worker.hello['error']}")
    yield worker
    worker.close()


def timing_options(config: pytest.Config) -> Dict[str, Any]:
    """pytest-benchmark's max_time/min_rounds/min_time of this session (its defaults without the plugin)."""
    def option(name: str, default: Any) -> Any:
        try:
            value = config.getoption(name)
        except ValueError:
            return default
        return default if value is None else value

    return {"max_time": float(option("benchmark_max_time", 1.0)),
            "min_rounds": int(option("benchmark_min_rounds", 5)),
            "min_time": float(option("benchmark_min_time", 5e-6))}


def record(name: str, group: str, extra_info: Dict[str, Any], stats: Dict[str, Any]) -> None:
    """Keep one tflite-runtime result for the --benchmark-json output."""
    _RESULTS.append({"group": group, "name": name, "fullname": name, "params": None, "param": None,
                     "extra_info": extra_info, "options": {"timer": "perf_counter (tflrt_worker.py)"},
                     "stats": stats})


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_json(config: pytest.Config, benchmarks: Any, output_json: Dict[str, Any]) -> None:
    """Append the tflite-runtime results to the session's benchmark JSON."""
    output_json.setdefault("benchmarks", []).extend(_RESULTS)
    _SAVED.append(True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """With no in-process benchmark in the session pytest-benchmark writes no JSON: write ours."""
    try:
        out = config.getoption("benchmark_json")
    except ValueError:
        return
    if out is not None and _RESULTS and not _SAVED and not out.closed:
        with out:
            out.write(json.dumps({"machine_info": {}, "benchmarks": _RESULTS}, indent=1).encode())


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the tflite-runtime medians (pytest-benchmark's tables show only in-process runs)."""
    if _RESULTS:
        terminalreporter.section("tflite_runtime 2.14 (NumPy 1 subprocess), medians")
        for r in _RESULTS:
            terminalreporter.write_line(f"{r['group']:60s} {r['stats']['median'] * 1e6:12.2f} us")
