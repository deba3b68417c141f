"""Per-step training time of the SDK recipes in edgelite next to TensorFlow, and peak RSS of a ResNet-8 step.

Run by hand (never in CI), from the repository root:
    PYTHONPATH=bindings:sdk python benchmarks/bench_sdk_train.py [--tf-python /work/tfvenv/bin/python]
The recipes' own graph builders (sdk/edgelite/models/) build the training graphs in both frameworks: in the
TensorFlow interpreter `edgelite` is bound to `tensorflow.compat.v1` before the recipe modules load, so both run
the same TF1 code. Each framework runs in a worker process that stays alive; the rounds alternate between them and
the table shows the median of the per-round medians.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
# name -> (recipe factory in edgelite.models, keyword arguments, batch size)
CASES = {
    "digits_cnn_b64": ("cnn", "digits_cnn", {}, 64),
    "digits_cnn_b256": ("cnn", "digits_cnn", {}, 256),
    "ds_cnn_b32": ("ds_cnn", "ds_cnn", {}, 32),
    "resnet8_b32": ("resnet", "resnet8", {}, 32),
    "mobilenet_v1_0.25_b16": ("mobilenet", "mobilenet_v1", {"alpha": 0.25}, 16),
}


def _bind_tensorflow() -> None:
    """Make `import edgelite as tf` in the recipe modules mean tensorflow.compat.v1 (graph mode)."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow.compat.v1 as tf1
    tf1.disable_v2_behavior()
    tf1.logging.set_verbosity(tf1.logging.ERROR)
    # tf.contrib.layers.l2_regularizer (scale * l2_loss) is gone from TF 2; the recipes use its edgelite twin.
    layers = types.SimpleNamespace(**{n: getattr(tf1.layers, n) for n in dir(tf1.layers) if not n.startswith("_")})
    layers.l2_regularizer = lambda scale: (lambda w: scale * tf1.nn.l2_loss(w))
    shim = types.ModuleType("edgelite")
    shim.__dict__.update({n: getattr(tf1, n) for n in dir(tf1) if not n.startswith("__")})
    shim.layers = layers
    sys.modules["edgelite"] = shim
    sys.modules["edgelite.train"] = tf1.train
    models = types.ModuleType("edgelite.models")
    models.__path__ = [str(ROOT / "sdk" / "edgelite" / "models")]
    sys.modules["edgelite.models"] = models


def _recipe(case: str) -> Any:
    import importlib
    module, factory, kwargs, _ = CASES[case]
    return getattr(importlib.import_module(f"edgelite.models.{module}"), factory)(**kwargs)


class Case:
    """One recipe's training graph, a session and a fixed random batch."""

    def __init__(self, case: str) -> None:
        import numpy as np
        recipe = _recipe(case)
        batch = CASES[case][3]
        self.g = recipe.build_training(seed=0)
        tf = sys.modules["edgelite"]
        self.sess = tf.Session(graph=self.g.graph)
        self.sess.run(self.g.init)
        rng = np.random.default_rng(0)
        x = rng.standard_normal((batch, *recipe.input_shape)).astype(np.float32)
        y = rng.integers(0, recipe.num_outputs, batch).astype(np.int64)
        self.feed = {self.g.x: x, self.g.labels: y, self.g.is_training: True}
        for _ in range(2):
            self.sess.run(self.g.train_op, self.feed)

    def time_steps(self, steps: int) -> Dict[str, float]:
        """Median wall and process-CPU seconds of `steps` training steps."""
        wall, cpu = [], []
        for _ in range(steps):
            start, start_cpu = time.perf_counter(), time.process_time()
            self.sess.run(self.g.train_op, self.feed)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        return {"seconds": statistics.median(wall), "cpu_seconds": statistics.median(cpu)}


def worker(framework: str, cases: List[str]) -> None:
    """Serve timing requests on stdin ('<case> <steps>' per line), one JSON answer per line on stdout."""
    if framework == "tensorflow":
        _bind_tensorflow()
    else:
        import edgelite  # noqa: F401
    built: Dict[str, Case] = {c: Case(c) for c in cases}
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"ready": True, "maxrss_kb": rss}), flush=True)
    for line in sys.stdin:
        case, steps = line.split()
        t = built[case].time_steps(int(steps))
        print(json.dumps({"case": case, **t, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}),
              flush=True)


class Worker:
    """A worker process of this script for one framework."""

    def __init__(self, python: str, framework: str, cases: List[str], root: Path = ROOT,
                 library: Optional[Path] = None) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "bindings"), str(root / "sdk")]),
                   TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
        if library is not None:
            env["EDGELITE_LIBRARY"] = str(library)
        self.proc = subprocess.Popen([python, __file__, "--worker", framework, "--cases", ",".join(cases)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.hello = self._read()

    def _read(self) -> Dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"worker exited with {self.proc.wait()}")
        return json.loads(line)

    def run(self, case: str, steps: int) -> Dict[str, Any]:
        self.proc.stdin.write(f"{case} {steps}\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def peak_rss(python: str, framework: str, steps: int) -> float:
    """Peak RSS (MiB) of a process that only builds and trains ResNet-8 at batch 32."""
    w = Worker(python, framework, ["resnet8_b32"])
    out = w.run("resnet8_b32", steps)
    w.close()
    return out["maxrss_kb"] / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", help="a Python interpreter with TensorFlow 2.x")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=5, help="timed steps per case and round")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--baseline", type=Path, help="another checkout whose edgelite also runs (before/after)")
    parser.add_argument("--baseline-library", type=Path,
                        help="the libedgelite the baseline loads (EDGELITE_LIBRARY; default: this run's)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="process CPU time instead of wall time: steadier on a loaded machine for single-threaded "
                             "runs (a multi-threaded framework's CPU time adds up its threads)")
    parser.add_argument("--process-per-recipe", action="store_true",
                        help="one worker process per framework and recipe, as a user trains one model per process "
                             "(the default shares one process per framework across all recipes)")
    parser.add_argument("--worker", choices=["edgelite", "tensorflow"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    cases = args.cases.split(",")
    if args.worker:
        worker(args.worker, cases)
        return
    pythons = {"edgelite": sys.executable}
    if args.tf_python:
        pythons["tensorflow"] = args.tf_python
    def spawn(fw_cases: List[str], fw: str) -> Worker:
        if fw == "baseline":
            return Worker(sys.executable, "edgelite", fw_cases, args.baseline.resolve(), args.baseline_library)
        return Worker(pythons[fw], fw, fw_cases)

    frameworks = list(pythons) + (["baseline"] if args.baseline else [])
    if args.process_per_recipe:
        workers = {fw: {c: spawn([c], fw) for c in cases} for fw in frameworks}
    else:
        workers = {fw: dict.fromkeys(cases, spawn(cases, fw)) for fw in frameworks}
    times: Dict[str, Dict[str, List[float]]] = {fw: {c: [] for c in cases} for fw in workers}
    for r in range(args.rounds):
        order = list(workers) if r % 2 == 0 else list(reversed(list(workers)))
        for case in cases:
            for fw in order:
                out = workers[fw][case].run(case, args.steps)
                times[fw][case].append(out["cpu_seconds" if args.cpu_time else "seconds"])
    for per_case in workers.values():
        for w in set(per_case.values()):
            w.close()
    has_tf, has_base = "tensorflow" in times, "baseline" in times
    unit = "CPU ms/step" if args.cpu_time else "ms/step"
    print(f"| recipe | edgelite {unit} |" + (f" baseline {unit} |" if has_base else "")
          + (f" TensorFlow {unit} | edgelite / TF |" if has_tf else ""))
    print("|---|---:|" + "---:|" * (has_base + 2 * has_tf))
    for case in cases:
        el = statistics.median(times["edgelite"][case]) * 1e3
        row = f"| {case} | {el:.1f} |"
        if has_base:
            row += f" {statistics.median(times['baseline'][case]) * 1e3:.1f} |"
        if has_tf:
            t = statistics.median(times["tensorflow"][case]) * 1e3
            row += f" {t:.1f} | {el / t:.2f} |"
        print(row)
    if "resnet8_b32" in cases:
        rss = {fw: peak_rss(py, fw, args.steps) for fw, py in pythons.items()}
        print("peak RSS of a ResNet-8 b32 training process (MiB): "
              + ", ".join(f"{fw} {v:.0f}" for fw, v in rss.items()))
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
