"""Per-call overhead from Python on a tiny model (TFLM hello_world int8, three small
FULLY_CONNECTED ops): set_tensor, invoke, get_tensor and tensor()() alone, and the three-call
inference set_tensor + invoke + get_tensor, on edgelite and LiteRT 2.3 (tflite-runtime 2.14:
bench_tflite_runtime.py).

Run: PYTHONPATH=bindings python -m pytest benchmarks/bench_overhead.py --benchmark-json=overhead.json
"""
import pytest

import peers

pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is in the test extra")

CALLS = peers.OVERHEAD_CALLS


@pytest.mark.parametrize("runtime", peers.RUNTIMES)
@pytest.mark.parametrize("call", CALLS)
def test_overhead(benchmark, pytestconfig, call, runtime):
    why = peers.available(runtime)
    if why:
        pytest.skip(why)
    it = peers.make_interpreter(runtime, peers.model_path(peers.OVERHEAD_MODEL))
    fn = peers.overhead_call(it, call)
    benchmark.group = f"overhead {call}"
    benchmark.extra_info.update(kind="overhead", case=call, runtime=runtime, threads=1)
    max_time = float(pytestconfig.getoption("benchmark_max_time", None) or 1.0)
    rounds = peers.rounds_for(fn, peers.OVERHEAD_ITERATIONS, max_time)
    benchmark.pedantic(fn, iterations=peers.OVERHEAD_ITERATIONS, rounds=rounds, warmup_rounds=1)
