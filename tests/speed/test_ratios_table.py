"""benchmarks/ratios.py turns pytest-benchmark JSON into RESULTS.md: peer ratios from the medians of
each runtime, and the two-thread speed-ups of edgelite and LiteRT from the medians and per-round
speed-ups bench_threads.py records together."""
from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import ratios  # noqa: E402


def _bench(median: float, **extra) -> dict:
    return {"name": extra.get("case", "?"), "stats": {"median": median}, "extra_info": extra}


def test_table_of_ratios_and_two_thread_speedup(tmp_path: Path) -> None:
    data = {"machine_info": {"cpu": {"brand_raw": "test cpu", "count": 2}, "python_version": "3.x"},
            "datetime": "now",
            "benchmarks": [
                _bench(3e-3, kind="model", case="m", runtime="edgelite", threads=1),
                _bench(4e-3, kind="model", case="m", runtime="litert", threads=1),
                _bench(8e-3, kind="model", case="m", runtime="litert_nodelegate", threads=1),
                # the benchmark's own median (of rounds of both interpreters) must not be used
                _bench(9.0, kind="threads", case="m", runtime="edgelite", threads=2,
                       one_thread=6e-3, two_threads=4e-3, round_speedups=[1.5, 1.7, 1.6],
                       peer="litert", peer_one_thread=5e-3, peer_two_threads=2.5e-3,
                       peer_round_speedups=[2.0, 1.2, 1.9]),
                # without LiteRT installed the peer's cells stay empty
                _bench(9.0, kind="threads", case="n", runtime="edgelite", threads=2,
                       one_thread=8e-3, two_threads=4e-3, round_speedups=[2.0]),
            ]}
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "RESULTS.md"
    assert ratios.main([str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert "| m | 3.000 ms | 4.000 ms | 8.000 ms | — | 0.75 | 0.38 | — |" in text
    # speed-up: the median of the rounds' speed-ups, not the ratio of the two overall medians
    assert "| m | 6.000 ms | 4.000 ms | 1.60x | 2/3 | 5.000 ms | 2.500 ms | 1.90x | 2/3 |" in text
    assert "| n | 8.000 ms | 4.000 ms | 2.00x | 1/1 | — | — | — | — |" in text
    assert "9.000" not in text.split("## Two threads")[1]
