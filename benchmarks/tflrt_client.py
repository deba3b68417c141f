"""The benchmark session's side of tflite-runtime 2.14 timing: the tflrt_worker.py subprocess, the
pytest-benchmark options it follows, and the results kept for the --benchmark-json output
(conftest.py adds them there; bench_tflite_runtime.py fills them).
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Dict, List

HERE = Path(__file__).resolve().parent
RESULTS: List[Dict[str, Any]] = []
SAVED: List[bool] = []  # set once pytest-benchmark has written RESULTS into its JSON


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


def timing_options(config: Any) -> Dict[str, Any]:
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
    RESULTS.append({"group": group, "name": name, "fullname": name, "params": None, "param": None,
                    "extra_info": extra_info, "options": {"timer": "perf_counter (tflrt_worker.py)"},
                    "stats": stats})
