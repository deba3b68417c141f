"""The cases of bench_models.py, bench_kernels.py and bench_overhead.py on tflite-runtime 2.14
(default resolver), which needs NumPy < 2: each is timed in a NumPy 1 Python by tflrt_worker.py
(see tflrt_client.py and conftest.py) and added to the --benchmark-json output, so ratios.py shows a tflite_runtime
column. Skips, saying why, where that Python is absent ($EDGELITE_NUMPY1_PYTHON, else
/opt/tflrt/bin/python).

Run in the same session as the others:
PYTHONPATH=bindings python -m pytest benchmarks/bench_models.py benchmarks/bench_kernels.py \\
    benchmarks/bench_overhead.py benchmarks/bench_tflite_runtime.py --benchmark-json=bench.json
"""
from __future__ import annotations

from typing import Any, Dict

import pytest

import hotpath
import peers
from tflrt_client import record, timing_options

pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is in the test extra")


def _time(worker: Any, config: pytest.Config, request: Dict[str, Any], group: str, name: str) -> None:
    """Time one case in the worker and keep the result for the benchmark JSON."""
    answer = worker.time({**request, **timing_options(config)})
    if "skip" in answer:
        pytest.skip(answer["skip"])
    stats = answer["stats"]
    assert stats["rounds"] >= 1 and stats["median"] > 0, answer
    extra = {"kind": request["kind"], "case": request["case"], "runtime": peers.TFLITE_RUNTIME,
             "threads": request["threads"]}
    record(name, group, extra, stats)


@pytest.mark.parametrize("name,threads", peers.MODEL_CASES)
def test_model(tflite_runtime_worker, pytestconfig, name, threads):
    request = {"kind": "model", "case": name, "model": str(peers.model_path(name)), "threads": threads}
    _time(tflite_runtime_worker, pytestconfig, request, f"model {name} x{threads}",
          f"test_model[{name}-{threads}-tflite_runtime]")


@pytest.mark.parametrize("case,dtype", hotpath.all_cases())
def test_kernel(tflite_runtime_worker, pytestconfig, tmp_path, case, dtype):
    model = tmp_path / "model.tflite"
    model.write_bytes(hotpath.build(case, dtype))
    request = {"kind": "kernel", "case": f"{case} {dtype}", "model": str(model), "threads": 1}
    _time(tflite_runtime_worker, pytestconfig, request, f"kernel {case} {dtype}",
          f"test_kernel[{case}-{dtype}-tflite_runtime]")


@pytest.mark.parametrize("call", peers.OVERHEAD_CALLS)
def test_overhead(tflite_runtime_worker, pytestconfig, call):
    request = {"kind": "overhead", "case": call, "model": str(peers.model_path(peers.OVERHEAD_MODEL)),
               "threads": 1, "call": call, "iterations": peers.OVERHEAD_ITERATIONS}
    _time(tflite_runtime_worker, pytestconfig, request, f"overhead {call}", f"test_overhead[{call}-tflite_runtime]")
