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
from threadpoolctl import threadpool_limits

from edgelite.distribute.job import run
from edgelite.distribute.recipe_training import RecipeRun, make_recipe, replica_main, shard_indices

CASES = [("digits_cnn", {}), ("resnet8", {"input_size": 16})]


def _rate(times: list, warmup: int) -> float:
    """Steps per second between the commit of step `warmup` and the last commit."""
    return (len(times) - 1 - warmup) / (times[-1] - times[warmup])


def one_process(name: str, params: dict, batch: int, steps: int, warmup: int) -> float:
    """Steps/s of the recipe's training op run in a plain loop (no Ray), after `warmup` steps."""
    import edgelite as tf
    recipe = make_recipe(RecipeRun(name, params, "", 1, 1, batch_size=batch))
    data = recipe.data(0)
    g = recipe.build_training(0)
    times = []
    # One BLAS thread, as the Ray workers and the one-process trainer use.
    with threadpool_limits(1), tf.Session(graph=g.graph) as sess:
        sess.run(g.init)
        for step in range(steps):
            idx = shard_indices(len(data.x_train), batch, 0, step, 0, 1)
            sess.run(g.train_op, {g.x: data.x_train[idx], g.labels: data.y_train[idx], g.is_training: True})
            times.append(time.time())
    return _rate(times, warmup)


def ray_workers(name: str, params: dict, per_worker: int, workers: int, steps: int, warmup: int,
                workdir: Path) -> float:
    """Steps/s of `workers` Ray replicas, each taking `per_worker` examples per step, after `warmup` steps."""
    spec = RecipeRun(name, params, str(workdir), workers, epochs=1000, batch_size=per_worker * workers,
                     max_steps=steps, save_checkpoint_steps=10 ** 6)
    job = run(functools.partial(replica_main, spec=spec), workers)
    return _rate(job.stats["commit_times"], warmup)


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
                warmup = min(10, args.steps // 4)
                single = one_process(name, params, b, args.steps, warmup)
                w1 = ray_workers(name, params, b, 1, args.steps, warmup, Path(tmp) / f"{name}-w1")
                w2 = ray_workers(name, params, b, 2, args.steps, warmup, Path(tmp) / f"{name}-w2")
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
