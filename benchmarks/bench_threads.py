"""Two-thread speed-up on the MobileNets: edgelite's, and LiteRT's default (XNNPACK) in the same
rounds, one and two threads timed in interleaved blocks of invokes.

Timing one thread for a while and then two lets a change of the machine's state between the
halves (a host pausing or moving its virtual CPUs, another program) move the speed-up either
way; here every round times a block on each interpreter, so all see the same conditions. On a
virtual machine the host decides whether two threads can run at full speed at all: LiteRT's
speed-up from the same rounds says how much the machine allowed (docs/performance.md, Threads).

Run: PYTHONPATH=bindings python -m pytest benchmarks/bench_threads.py --benchmark-json=threads.json
"""
import statistics
import time
from typing import Callable, Dict, List, Tuple

import pytest

import peers

pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is in the test extra")

BLOCK = 5  # invokes per interpreter per round
MIN_ROUNDS = 6
# Slow stretches of a virtual machine last seconds: rounds fill at least this long per model, so
# one stretch moves the medians little.
MIN_SECONDS = 10.0


def _interpreters(name: str) -> Dict[Tuple[str, int], Callable[[], None]]:
    runtimes = [peers.EDGELITE] + ([peers.LITERT] if peers.available(peers.LITERT) is None else [])
    return {(rt, threads): peers.invoke_step(peers.make_interpreter(rt, peers.model_path(name),
                                                                   num_threads=threads))
            for rt in runtimes for threads in (1, 2)}


@pytest.mark.parametrize("name", peers.MOBILENETS)
def test_two_threads(benchmark, name, pytestconfig):
    why = peers.available(peers.EDGELITE)
    if why:
        pytest.skip(why)
    steps = _interpreters(name)
    times: Dict[Tuple[str, int], List[float]] = {key: [] for key in steps}
    round_speedups: Dict[str, List[float]] = {rt: [] for rt, _ in steps}

    def round_() -> None:
        medians = {}
        for key, step in steps.items():
            block = []
            for _ in range(BLOCK):
                start = time.perf_counter()
                step()
                block.append(time.perf_counter() - start)
            times[key].extend(block)
            medians[key] = statistics.median(block)
        for rt in round_speedups:
            round_speedups[rt].append(medians[(rt, 1)] / medians[(rt, 2)])

    round_()
    per_round = sum(sum(kept) for kept in times.values())
    budget = max(MIN_SECONDS, float(pytestconfig.getoption("benchmark_max_time", 1.0) or 1.0))
    rounds = max(MIN_ROUNDS, int(budget / max(per_round, 1e-9)))
    for kept in list(times.values()) + list(round_speedups.values()):
        kept.clear()
    benchmark.pedantic(round_, rounds=rounds, iterations=1)
    med = {key: statistics.median(kept) for key, kept in times.items()}
    benchmark.group = f"threads {name}"
    extra = dict(kind="threads", case=name, runtime=peers.EDGELITE, threads=2,
                 one_thread=med[(peers.EDGELITE, 1)], two_threads=med[(peers.EDGELITE, 2)],
                 rounds=rounds, round_speedups=round_speedups[peers.EDGELITE])
    if (peers.LITERT, 1) in med:
        extra.update(peer=peers.LITERT, peer_one_thread=med[(peers.LITERT, 1)],
                     peer_two_threads=med[(peers.LITERT, 2)], peer_round_speedups=round_speedups[peers.LITERT])
    benchmark.extra_info.update(extra)
    assert all(t > 0 for t in med.values())
