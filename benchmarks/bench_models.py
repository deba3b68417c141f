"""Whole models: the corpus and the MLPerf Tiny models, set_tensor + invoke per inference, on
edgelite and LiteRT 2.3 (default / without default delegates) in the same session, on
one thread (two threads: bench_threads.py; tflite-runtime 2.14: bench_tflite_runtime.py).

Run: PYTHONPATH=bindings python -m pytest benchmarks/bench_models.py --benchmark-json=models.json
then python benchmarks/ratios.py models.json (writes benchmarks/RESULTS.md).
"""
import pytest

import peers

pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is in the test extra")

CASES = peers.MODEL_CASES


@pytest.mark.parametrize("runtime", peers.RUNTIMES)
@pytest.mark.parametrize("name,threads", CASES)
def test_model(benchmark, name, threads, runtime):
    why = peers.available(runtime)
    if why:
        pytest.skip(why)
    try:
        it = peers.make_interpreter(runtime, peers.model_path(name), num_threads=threads)
        step = peers.invoke_step(it)
    except (ValueError, RuntimeError, FileNotFoundError) as e:
        pytest.skip(f"{runtime} does not run {name}: {str(e).splitlines()[0][:120]}")
    benchmark.group = f"model {name} x{threads}"
    benchmark.extra_info.update(kind="model", case=name, runtime=runtime, threads=threads)
    benchmark(step)
