"""Benchmark-session plumbing for tflite-runtime 2.14, which runs in a NumPy 1 Python of its own.

The `tflite_runtime_worker` fixture starts tflrt_worker.py there once per session; each timed case
is added to the --benchmark-json output as a pytest-benchmark entry (runtime "tflite_runtime"),
so ratios.py tabulates it next to the in-process runtimes.
"""
from __future__ import annotations

import json
from typing import Any, Dict

import pytest

import peers
import tflrt_client


@pytest.fixture(scope="session")
def tflite_runtime_worker():
    """The tflite-runtime worker, or a skip naming why there is none."""
    python = peers.numpy1_python()
    if python is None or not python.exists():
        pytest.skip(f"no NumPy 1 Python with tflite-runtime 2.14 ({python or peers.NUMPY1_PYTHON} absent; "
                    "set EDGELITE_NUMPY1_PYTHON)")
    worker = tflrt_client.Worker(python)
    if "error" in worker.hello:
        worker.close()
        pytest.skip(f"tflite-runtime worker unavailable: {worker.hello['error']}")
    yield worker
    worker.close()


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_json(config: pytest.Config, benchmarks: Any, output_json: Dict[str, Any]) -> None:
    """Append the tflite-runtime results to the session's benchmark JSON."""
    output_json.setdefault("benchmarks", []).extend(tflrt_client.RESULTS)
    tflrt_client.SAVED.append(True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """With no in-process benchmark in the session pytest-benchmark writes no JSON: write ours."""
    try:
        out = config.getoption("benchmark_json")
    except ValueError:
        return
    if out is not None and tflrt_client.RESULTS and not tflrt_client.SAVED and not out.closed:
        with out:
            out.write(json.dumps({"machine_info": {}, "benchmarks": tflrt_client.RESULTS}, indent=1).encode())


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the tflite-runtime medians (pytest-benchmark's tables show only in-process runs)."""
    if tflrt_client.RESULTS:
        terminalreporter.section("tflite_runtime 2.14 (NumPy 1 subprocess), medians")
        for r in tflrt_client.RESULTS:
            terminalreporter.write_line(f"{r['group']:60s} {r['stats']['median'] * 1e6:12.2f} us")
