"""edgelite's two-thread speed-up on the MobileNets, one and two threads timed in interleaved
blocks of invokes in the same rounds.

Timing one thread for a while and then two lets a change of the machine's state between the
halves (a host pausing its virtual CPUs, another program) move the speed-up either way; here
every round times a block on each interpreter, so both see the same conditions, and the
speed-up is the ratio of the two medians.

Run: PYTHONPATH=bindings python -m pytest benchmarks/bench_threads.py --benchmark-json=threads.json
"""
import statistics
import time

import pytest

import peers

pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is in the test extra")

BLOCK = 5  # invokes per interpreter per round
MIN_ROUNDS = 6


@pytest.mark.parametrize("name", peers.MOBILENETS)
def test_two_threads(benchmark, name, pytestconfig):
    why = peers.available(peers.EDGELITE)
    if why:
        pytest.skip(why)
    steps = {threads: peers.invoke_step(peers.make_interpreter(peers.EDGELITE, peers.model_path(name),
                                                              num_threads=threads))
             for threads in (1, 2)}
    times: dict = {1: [], 2: []}

    def round_() -> None:
        for threads, step in steps.items():
            for _ in range(BLOCK):
                start = time.perf_counter()
                step()
                times[threads].append(time.perf_counter() - start)

    # A round takes about 10 invokes; run rounds for the session's --benchmark-max-time.
    round_()
    per_round = sum(times[1]) + sum(times[2])
    budget = float(pytestconfig.getoption("benchmark_max_time", 1.0) or 1.0)
    rounds = max(MIN_ROUNDS, int(budget / max(per_round, 1e-9)))
    for kept in times.values():
        kept.clear()
    benchmark.pedantic(round_, rounds=rounds, iterations=1)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    benchmark.group = f"threads {name}"
    benchmark.extra_info.update(kind="threads", case=name, runtime=peers.EDGELITE, threads=2,
                                one_thread=one, two_threads=two, invokes=len(times[2]))
    assert one > 0 and two > 0
