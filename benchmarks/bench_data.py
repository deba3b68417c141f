"""Parsing + batching throughput of a TFRecord input pipeline: edgelite next to TensorFlow's tf.data.

Run by hand (never in CI), from the repository root:
    PYTHONPATH=bindings:sdk python benchmarks/bench_data.py [--tf-python /work/tfvenv/bin/python]
The same pipeline code runs under edgelite here and, when a TensorFlow interpreter is given (or
`tensorflow` imports), under TensorFlow on the same file; it prints records/s for each.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

RECORDS = 20000
BATCH = 256
FEATURES = {"image": ("float", [64]), "label": ("int64", [])}


def write_file(tf, path: str) -> None:
    """RECORDS Examples of a 64-float image and an int64 label (seeded)."""
    import numpy as np
    rng = np.random.default_rng(0)
    with tf.io.TFRecordWriter(path) as w:
        for i in range(RECORDS):
            e = tf.train.Example()
            e.features.feature["image"].float_list.value.extend(rng.random(64, dtype=np.float32))
            e.features.feature["label"].int64_list.value.append(i % 10)
            w.write(e.SerializeToString())


def spec(tf) -> dict:
    return {k: tf.io.FixedLenFeature(shape, tf.float32 if kind == "float" else tf.int64)
            for k, (kind, shape) in FEATURES.items()}


def pipelines(tf, path: str) -> dict:
    """name -> dataset: batch then parse (vectorised), and parse each record then batch."""
    return {
        "batch_then_parse_example": tf.data.TFRecordDataset([path]).batch(BATCH).map(
            lambda r: tf.io.parse_example(r, spec(tf))),
        "parse_single_then_batch": tf.data.TFRecordDataset([path]).map(
            lambda r: tf.io.parse_single_example(r, spec(tf))).batch(BATCH),
    }


def measure(tf, path: str, rounds: int) -> dict:
    out = {}
    for name, ds in pipelines(tf, path).items():
        best = None
        for _ in range(rounds):
            with tf.Graph().as_default():
                nxt = tf.data.make_one_shot_iterator(pipelines(tf, path)[name]).get_next()
                with tf.Session() as sess:
                    n = 0
                    start = time.perf_counter()
                    try:
                        while True:
                            n += len(sess.run(nxt)["label"])
                    except tf.errors.OutOfRangeError:
                        pass
                    elapsed = time.perf_counter() - start
            assert n == RECORDS, n
            best = elapsed if best is None else min(best, elapsed)
        out[name] = RECORDS / best
    return out


def run(engine: str, path: str, rounds: int) -> dict:
    if engine == "tensorflow":
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
    else:
        import edgelite as tf
    if not os.path.exists(path):
        write_file(tf, path)
    return measure(tf, path, rounds)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tf-python", default=None, help="a Python interpreter with TensorFlow installed")
    ap.add_argument("--engine", default="edgelite", help=argparse.SUPPRESS)
    ap.add_argument("--file", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.engine == "tensorflow":
        print(json.dumps(run("tensorflow", args.file, args.rounds)))
        return
    path = args.file or os.path.join(tempfile.mkdtemp(), "bench.tfrecord")
    tf_python = args.tf_python
    if tf_python is None:
        try:
            import tensorflow  # noqa: F401
            tf_python = sys.executable
        except ImportError:
            pass
    # The machine is shared: rounds alternate between the engines and each keeps its best round.
    results: dict = {}
    for _ in range(args.rounds):
        rounds = {"edgelite": run("edgelite", path, 1)}
        if tf_python:
            env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
            proc = subprocess.run([tf_python, __file__, "--engine", "tensorflow", "--file", path, "--rounds", "1"],
                                  capture_output=True, text=True, env=env, check=True)
            rounds["tensorflow"] = json.loads(proc.stdout.strip().splitlines()[-1])
        for engine, rates in rounds.items():
            best = results.setdefault(engine, {})
            for name, rate in rates.items():
                best[name] = max(best.get(name, 0.0), rate)
    for name in results["edgelite"]:
        row = [f"{name}: edgelite {results['edgelite'][name]:,.0f} records/s"]
        if "tensorflow" in results:
            tf_rate = results["tensorflow"][name]
            row.append(f"TensorFlow {tf_rate:,.0f} records/s (edgelite/TF {results['edgelite'][name] / tf_rate:.2f})")
        print(", ".join(row))


if __name__ == "__main__":
    main()
