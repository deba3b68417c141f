"""Parallel map and prefetch of a tf.data pipeline: elements/s of a map-heavy pipeline with num_parallel_calls
1 and 2, and the time of a training-like loop with and without prefetch.

Run by hand (never in CI), from the repository root:
    PYTHONPATH=bindings:sdk python benchmarks/bench_data_parallel.py [--tf-python /work/tfvenv/bin/python]
The map does elementwise math on a 400k-float vector per element (kernels that release the GIL); the "step" is
elementwise math on a vector of the same size plus the pipeline's batch (no BLAS: its threads distort timings on
a loaded machine). Each configuration keeps its best of --rounds passes.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ELEMENTS = 200
VECTOR = 400_000


def heavy_map(tf, parallel):
    base = tf.constant([i / VECTOR for i in range(0, VECTOR, 1)], tf.float32)

    def fn(x):
        v = tf.sin(base * tf.cast(x, tf.float32)) * tf.cos(base)
        return tf.reduce_sum(v * v)
    return tf.data.Dataset.range(ELEMENTS).map(fn, num_parallel_calls=parallel)


def throughput(tf, parallel, rounds):
    best = None
    for _ in range(rounds):
        with tf.Graph().as_default():
            nxt = tf.data.make_one_shot_iterator(heavy_map(tf, parallel)).get_next()
            with tf.Session() as sess:
                start = time.perf_counter()
                n = 0
                try:
                    while True:
                        sess.run(nxt)
                        n += 1
                except tf.errors.OutOfRangeError:
                    pass
                elapsed = time.perf_counter() - start
        assert n == ELEMENTS
        best = elapsed if best is None else min(best, elapsed)
    return ELEMENTS / best


def step_loop(tf, prefetch, rounds):
    """Seconds for ELEMENTS // 4 steps, each consuming one batch of 4 pipeline elements."""
    best = None
    for _ in range(rounds):
        with tf.Graph().as_default():
            ds = heavy_map(tf, None).batch(4)
            if prefetch:
                ds = ds.prefetch(2)
            nxt = tf.data.make_one_shot_iterator(ds).get_next()
            y = tf.random.uniform([VECTOR], seed=1)
            for _ in range(8):
                y = tf.tanh(y * 1.01)
            step = tf.reduce_sum(y) + tf.reduce_sum(nxt)
            with tf.Session() as sess:
                start = time.perf_counter()
                try:
                    while True:
                        sess.run(step)
                except tf.errors.OutOfRangeError:
                    pass
                elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def run(engine: str, rounds: int) -> dict:
    if engine == "tensorflow":
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
    else:
        import edgelite as tf
    return {"map_1_elements_per_s": throughput(tf, None, rounds),
            "map_2_elements_per_s": throughput(tf, 2, rounds),
            "steps_no_prefetch_s": step_loop(tf, False, rounds),
            "steps_prefetch_s": step_loop(tf, True, rounds)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tf-python", default=None, help="a Python interpreter with TensorFlow installed")
    ap.add_argument("--engine", default="edgelite", help=argparse.SUPPRESS)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.engine == "tensorflow":
        print(json.dumps(run("tensorflow", args.rounds)))
        return
    results = {"edgelite": run("edgelite", args.rounds)}
    if args.tf_python:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([args.tf_python, __file__, "--engine", "tensorflow", "--rounds", str(args.rounds)],
                              capture_output=True, text=True, env=env, check=True)
        results["tensorflow"] = json.loads(proc.stdout.strip().splitlines()[-1])
    for engine, r in results.items():
        print(f"{engine}: map x1 {r['map_1_elements_per_s']:.1f}/s, map x2 {r['map_2_elements_per_s']:.1f}/s "
              f"(x{r['map_2_elements_per_s'] / r['map_1_elements_per_s']:.2f}); {ELEMENTS // 4} steps "
              f"{r['steps_no_prefetch_s']:.2f} s without prefetch, {r['steps_prefetch_s']:.2f} s with prefetch(2)")
    print(f"load average: {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
