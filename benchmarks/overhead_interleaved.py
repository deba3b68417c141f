"""Per-call overhead of edgelite and LiteRT 2.3, timed in interleaved rounds (peers.median_ratio):
on a shared machine a change of load then hits every runtime alike, which the one-after-the-other
runs of bench_overhead.py cannot promise for sub-microsecond calls.

Run: PYTHONPATH=bindings python benchmarks/overhead_interleaved.py [--seconds 3]
Prints one Markdown row per call: microseconds per call of each runtime and edgelite / LiteRT.
"""
from __future__ import annotations

import argparse
from typing import Callable, List

import peers


def _batch(fn: Callable[[], object]) -> Callable[[], None]:
    calls = range(peers.OVERHEAD_ITERATIONS)

    def run() -> None:
        for _ in calls:
            fn()

    return run


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per call type")
    args = parser.parse_args(argv)
    runtimes = [rt for rt in peers.RUNTIMES if peers.available(rt) is None]
    model = peers.model_path(peers.OVERHEAD_MODEL)
    print("| call | " + " | ".join(runtimes) + " | " + " | ".join(f"ratio vs {p}" for p in runtimes[1:]) + " |")
    print("|---|" + "---:|" * (2 * len(runtimes) - 1))
    for call in peers.OVERHEAD_CALLS:
        fns = {rt: _batch(peers.overhead_call(peers.make_interpreter(rt, model), call)) for rt in runtimes}
        med = {rt: t / peers.OVERHEAD_ITERATIONS for rt, t in peers.median_ratio(fns, args.seconds).items()}
        times = " | ".join(f"{med[rt] * 1e6:.2f} µs" for rt in runtimes)
        ratios = " | ".join(f"{med['edgelite'] / med[p]:.2f}" for p in runtimes[1:])
        print(f"| {call} | {times} | {ratios} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
