"""Session.run overhead of the executor on small graphs (the plan is compiled once per fetch/feed signature).

Per-op cost, by hand (interleaved rounds with another checkout's edgelite; prints µs per op and per run):
    PYTHONPATH=bindings:sdk python benchmarks/bench_sdk_executor.py [--baseline OTHER_CHECKOUT] [--rounds 5]
As pytest-benchmark cases:
    PYTHONPATH=bindings:sdk python -m pytest benchmarks/bench_sdk_executor.py --benchmark-only
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CHAIN_LENGTH = 200


def _chains(tf: Any) -> Dict[str, Callable]:
    """Graphs of CHAIN_LENGTH cheap ops on a 4-element vector: their run time is nearly all executor."""
    def identity(h: Any) -> Any:
        return tf.identity(h)

    def add(h: Any) -> Any:
        return h + 1.0

    def relu(h: Any) -> Any:
        return tf.nn.relu(h)
    return {"identity": identity, "add": add, "relu": relu}


def _chain_run_seconds(tf: Any, op: Callable, length: int, reps: int) -> float:
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.float32, [4])
        h = p
        for _ in range(length):
            h = op(h)
    with tf.Session(graph=g) as sess:
        return _median_run_seconds(sess, h, {p: np.ones(4, np.float32)}, reps, warmup=10)


def _median_run_seconds(sess: Any, fetch: Any, feed: dict, reps: int, warmup: int) -> float:
    for _ in range(warmup):
        sess.run(fetch, feed)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        sess.run(fetch, feed)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _lstm_step_seconds(tf: Any, reps: int) -> float:
    """A dynamic_rnn LSTM training step (20 steps of a 32-unit cell, batch 16): loop bodies of small ops."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [16, 20, 8])
        y = tf.placeholder(tf.int32, [16])
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(32), x, dtype=tf.float32)
        logits = tf.layers.dense(out[:, -1], 4)
        loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        init = tf.global_variables_initializer()
    rng = np.random.default_rng(0)
    feed = {x: rng.standard_normal((16, 20, 8)).astype(np.float32), y: rng.integers(0, 4, 16)}
    with tf.Session(graph=g) as sess:
        sess.run(init)
        return _median_run_seconds(sess, train, feed, reps, warmup=3)


def measure(reps: int = 200) -> Dict[str, float]:
    """µs per op of each chain (run time of CHAIN_LENGTH ops minus an empty run), µs of an empty run and ms of
    an LSTM training step."""
    import edgelite as tf
    empty = _chain_run_seconds(tf, lambda h: h, 0, reps)
    out = {"run_us": empty * 1e6}
    for name, op in _chains(tf).items():
        out[f"{name}_us_per_op"] = (_chain_run_seconds(tf, op, CHAIN_LENGTH, reps) - empty) / CHAIN_LENGTH * 1e6
    out["lstm_train_ms"] = _lstm_step_seconds(tf, max(reps // 10, 5)) * 1e3
    return out


def _measure_in(root: Path, reps: int) -> Dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "bindings"), str(root / "sdk")]))
    code = f"import json, runpy; m = runpy.run_path({str(Path(__file__))!r}); print(json.dumps(m['measure']({reps})))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout whose edgelite is measured alternately")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()
    roots = {"this": ROOT}
    if args.baseline:
        roots["baseline"] = args.baseline.resolve()
    rows: Dict[str, List[Dict[str, float]]] = {k: [] for k in roots}
    for r in range(args.rounds):
        for k in (list(roots) if r % 2 == 0 else list(reversed(list(roots)))):
            rows[k].append(_measure_in(roots[k], args.reps))
    keys = list(rows["this"][0])
    print("| checkout | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for k, results in rows.items():
        print(f"| {k} | " + " | ".join(f"{statistics.median(r[key] for r in results):.2f}" for key in keys) + " |")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
else:
    import pytest

    pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is in the test extra")
    import edgelite as tf

    @pytest.fixture(scope="module")
    def mlp():
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, [None, 16], name="x")
            y = tf.placeholder(tf.int32, [None], name="y")
            h = x
            for i, width in enumerate([32, 32, 10]):
                with tf.variable_scope(f"layer{i}"):
                    w = tf.get_variable("w", [h.shape.as_list()[1], width])
                    b = tf.get_variable("b", [width], initializer=tf.zeros_initializer())
                    h = tf.matmul(h, w) + b
                    if width != 10:
                        h = tf.tanh(h)
            loss = tf.reduce_mean(tf.square(h - tf.one_hot(y, 10)))
            grads = tf.gradients(loss, tf.trainable_variables())
            update = tf.group(*[v.assign_sub(0.01 * gr) for v, gr in zip(tf.trainable_variables(), grads)])
            init = tf.global_variables_initializer()
        sess = tf.Session(graph=g)
        sess.run(init)
        rng = np.random.default_rng(0)
        feed = {x: rng.standard_normal((8, 16)).astype(np.float32), y: rng.integers(0, 10, 8)}
        yield sess, feed, {"forward": loss, "forward_backward": [loss] + grads, "train_step": [update, loss]}
        sess.close()

    @pytest.mark.parametrize("what", ["forward", "forward_backward", "train_step"])
    def test_small_mlp_session_run(benchmark, mlp, what):
        """Repeated runs reuse the cached plan: the cost is the kernels plus one call per op."""
        sess, feed, fetches = mlp
        sess.run(fetches[what], feed)
        plans_before = len(sess._plans)
        benchmark(sess.run, fetches[what], feed)
        assert len(sess._plans) == plans_before
        benchmark.extra_info["ops_in_plan"] = max(len(p[0].steps) for p in sess._plans.values())

    def test_tiny_graph_dispatch_overhead(benchmark):
        """A 3-op graph: measures the fixed cost of one Session.run call."""
        g = tf.Graph()
        with g.as_default():
            p = tf.placeholder(tf.float32, [])
            out = p * 2.0 + 1.0
        with tf.Session(graph=g) as sess:
            assert benchmark(sess.run, out, {p: 1.0}) == 3.0

    @pytest.mark.parametrize("chain", ["identity", "add", "relu"])
    def test_chain_per_op(benchmark, chain):
        """CHAIN_LENGTH cheap ops in a row: the run time divided by the length is the per-op cost."""
        g = tf.Graph()
        with g.as_default():
            p = tf.placeholder(tf.float32, [4])
            h = p
            for _ in range(CHAIN_LENGTH):
                h = _chains(tf)[chain](h)
        with tf.Session(graph=g) as sess:
            benchmark(sess.run, h, {p: np.ones(4, np.float32)})
