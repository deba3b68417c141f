"""CI's short benchmark mode: a handful of the speed benchmarks, timed next to LiteRT 2.3 in this
process (interleaved rounds, medians), must keep edgelite's time ratio within the bounds committed
in benchmarks/bounds.json, plus that file's noise margin. Only ratios are checked, never absolute
times: the machine's speed cancels out."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
BOUNDS = json.loads((BENCH / "bounds.json").read_text())
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


def _runner(peers, spec: str, runtime: str):
    """The timed call of one short-mode case ("model:NAME", "kernel:CASE:DTYPE", "overhead:CALL")."""
    kind, _, rest = spec.partition(":")
    if kind == "model":
        return peers.invoke_step(peers.make_interpreter(runtime, peers.model_path(rest)))
    if kind == "kernel":
        import hotpath

        case, _, dtype = rest.partition(":")
        return peers.invoke_step(peers.make_interpreter(runtime, hotpath.build(case, dtype)))
    if kind == "overhead":
        fn = peers.overhead_call(peers.make_interpreter(runtime, peers.model_path(peers.OVERHEAD_MODEL)), rest)
        calls = range(peers.OVERHEAD_ITERATIONS)

        def batch():  # sub-microsecond calls are timed in batches, so the timer's own cost stays out
            for _ in calls:
                fn()

        return batch
    raise ValueError(f"unknown short-mode case {spec!r}")


def _bound_set(isa_levels) -> str:
    """The bounds that apply to this machine, named by its best ISA level."""
    best = isa_levels[-1]
    if best == "avx512_vnni":
        return "avx512_vnni"
    if best in ("avx2", "avx512"):
        return "avx2"
    pytest.skip(f"no committed benchmark bounds for ISA level {best!r} (bounds.json has avx512_vnni, avx2)")


@pytest.mark.parametrize("spec", sorted(BOUNDS["short"]))
def test_ratio_within_bound(spec, litert, isa_levels):
    import peers

    bounds = BOUNDS["short"][spec][_bound_set(isa_levels)]
    fns = {rt: _runner(peers, spec, rt) for rt in ["edgelite", *bounds]}
    medians = peers.median_ratio(fns, seconds=BOUNDS["seconds_per_case"])
    margin = 1.0 + BOUNDS["noise_margin"]
    worse = {peer: medians["edgelite"] / medians[peer] for peer, bound in bounds.items()
             if medians["edgelite"] / medians[peer] > bound * margin}
    assert not worse, (f"{spec}: edgelite/peer time ratios {worse} exceed the bounds {bounds} "
                       f"by more than the {BOUNDS['noise_margin']:.0%} noise margin "
                       f"(medians: { {k: f'{v * 1e6:.1f} us' for k, v in medians.items()} })")
