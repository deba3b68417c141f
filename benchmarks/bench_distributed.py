"""Weak scaling of edgelite.distribute: training steps per second with 1 and 2 Ray workers, each worker taking
the same per-worker batch (so 2 workers train twice the examples per step), next to one plain process.

Run by hand (it starts and stops a small local Ray cluster; about a minute on an idle 2-core machine):
    PYTHONPATH=bindings:sdk python benchmarks/bench_distributed.py [--steps 60] [--per-worker-batch 32]
"""
from __future__ import annotations

import argparse
import functools
import json
import tempfile
import time
from pathlib import Path

import ray

from edgelite.distribute.job import run
from edgelite.distribute.recipe_training import RecipeRun, make_recipe, replica_main
from edgelite.models.training import train

CASES = [("digits_cnn", {}), ("resnet8", {"input_size": 16})]


class _StepClock:
    """Times global steps as the driver sees them commit (polled every few milliseconds)."""

    def __init__(self, warmup: int) -> None:
        self.warmup = warmup
        self.first = None
        self.last = None

    def __call__(self, job) -> None:
        step = job.stats()["step"]
        now = time.perf_counter()
        if self.first is None and step >= self.warmup:
            self.first = (step, now)
        if self.first is not None:
            self.last = (step, now)

    def rate(self) -> float:
        return (self.last[0] - self.first[0]) / (self.last[1] - self.first[1])


def one_process(name: str, params: dict, batch: int, steps: int, workdir: Path) -> float:
    """Steps/s of the single-process trainer (epochs long enough to cover `steps`)."""
    spec = RecipeRun(name, params, str(workdir), 1, 1, batch_size=batch)
    recipe = make_recipe(spec)
    per_epoch = -(-len(recipe.data(0).x_train) // batch)
    epochs = max(2, -(-steps // per_epoch))
    result = train(recipe, workdir, epochs=epochs, progress=False, log=lambda line: None)
    # The first epoch includes graph building and warm-up; time the later ones.
    later = result.history[1:]
    return sum(per_epoch for _ in later) / sum(r["seconds"] for r in later)


def ray_workers(name: str, params: dict, per_worker: int, workers: int, steps: int, workdir: Path) -> float:
    """Steps/s of `workers` Ray replicas, each taking `per_worker` examples per step, after a warm-up."""
    spec = RecipeRun(name, params, str(workdir), workers, epochs=1000, batch_size=per_worker * workers,
                     max_steps=steps, save_checkpoint_steps=10 ** 6)
    clock = _StepClock(warmup=min(10, steps // 4))
    run(functools.partial(replica_main, spec=spec), workers, on_poll=clock, poll_secs=0.005)
    return clock.rate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--per-worker-batch", type=int, default=32)
    args = parser.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for name, params in CASES:
                b = args.per_worker_batch
                single = one_process(name, params, b, args.steps, Path(tmp) / f"{name}-single")
                w1 = ray_workers(name, params, b, 1, args.steps, Path(tmp) / f"{name}-w1")
                w2 = ray_workers(name, params, b, 2, args.steps, Path(tmp) / f"{name}-w2")
                rows.append({"case": f"{name} {params or ''}".strip(), "per_worker_batch": b,
                             "one_process_steps_s": single, "ray_1_worker_steps_s": w1,
                             "ray_2_workers_steps_s": w2, "weak_scaling_efficiency": w2 / w1})
    finally:
        ray.shutdown()
    print("| case | batch/worker | one process (steps/s) | Ray, 1 worker (steps/s) | Ray, 2 workers (steps/s) "
          "| 2-worker examples/s ÷ 1-worker |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['case']} | {r['per_worker_batch']} | {r['one_process_steps_s']:.1f} | "
              f"{r['ray_1_worker_steps_s']:.1f} | {r['ray_2_workers_steps_s']:.1f} | "
              f"{2 * r['weak_scaling_efficiency']:.2f} |")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
