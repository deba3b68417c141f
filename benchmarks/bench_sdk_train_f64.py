"""Per-step training time of recipes built in float64, on the compiled float64 kernels and on the numpy path.

Run by hand (never in CI), from the repository root:
    PYTHONPATH=bindings:sdk python benchmarks/bench_sdk_train_f64.py [--cases digits_cnn_b64,resnet8_b32]
Each recipe's network (sdk/edgelite/models/) is built on a float64 input, so its variables, activations and
gradients are float64, with a sparse softmax cross-entropy loss and Adam. One process times both paths: the
rounds alternate the kernel switch (edgelite.kernels.backend) and the table shows the median of the per-round
medians, wall and process-CPU time, plus the loss after the same steps on both paths.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Dict, List

import numpy as np

import edgelite as tf
from edgelite.kernels import backend
from edgelite.models import cnn, resnet

# name -> (recipe, batch size)
CASES = {
    "digits_cnn_b64": (cnn.digits_cnn, 64),
    "digits_cnn_b256": (cnn.digits_cnn, 256),
    "resnet8_b32": (resnet.resnet8, 32),
}


class Case:
    """One recipe's float64 training graph, its session and a fixed random batch."""

    def __init__(self, name: str) -> None:
        factory, batch = CASES[name]
        recipe = factory()
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.set_random_seed(0)
            x = tf.placeholder(tf.float64, [None, *recipe.input_shape], name="input")
            labels = tf.placeholder(tf.int64, [None], name="labels")
            logits = recipe.network(x, True)
            self.loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                self.train_op = tf.train.AdamOptimizer(recipe.config.learning_rate).minimize(self.loss)
            self.variables = tf.global_variables()
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=self.graph)
        self.sess.run(init)
        self.start = self.sess.run(self.variables)
        rng = np.random.default_rng(0)
        self.feed = {x: rng.standard_normal((batch, *recipe.input_shape)),
                     labels: rng.integers(0, recipe.num_outputs, batch).astype(np.int64)}

    def time_steps(self, steps: int) -> Dict[str, float]:
        """Median wall and process-CPU seconds of `steps` training steps."""
        wall, cpu = [], []
        for _ in range(steps):
            start, start_cpu = time.perf_counter(), time.process_time()
            self.sess.run(self.train_op, self.feed)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        return {"wall": statistics.median(wall), "cpu": statistics.median(cpu)}

    def loss_after(self, steps: int) -> float:
        """The loss after `steps` steps from the initial variables (the same on both paths within rounding)."""
        for v, value in zip(self.variables, self.start):
            v.load(value, self.sess)
        for _ in range(steps):
            self.sess.run(self.train_op, self.feed)
        return float(self.sess.run(self.loss, self.feed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=5, help="timed steps per case, path and round")
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    cases = args.cases.split(",")
    if not backend.native_available():
        raise SystemExit("libedgelite's training kernels do not load: nothing to compare")
    built = {c: Case(c) for c in cases}
    paths = ["numpy", "native"]
    times: Dict[str, Dict[str, Dict[str, List[float]]]] = {
        c: {p: {"wall": [], "cpu": []} for p in paths} for c in cases}
    for r in range(args.rounds):
        for case in cases:
            for path in (paths if r % 2 == 0 else paths[::-1]):
                with backend.using(path):
                    built[case].time_steps(1)
                    t = built[case].time_steps(args.steps)
                times[case][path]["wall"].append(t["wall"])
                times[case][path]["cpu"].append(t["cpu"])
    print("| float64 recipe | numpy ms/step (CPU) | native ms/step (CPU) | numpy / native | loss after 3 steps "
          "numpy / native |")
    print("|---|---:|---:|---:|---|")
    for case in cases:
        med = {p: {k: statistics.median(v) * 1e3 for k, v in times[case][p].items()} for p in paths}
        losses = []
        for path in paths:
            with backend.using(path):
                losses.append(built[case].loss_after(3))
        print(f"| {case} | {med['numpy']['wall']:.1f} ({med['numpy']['cpu']:.1f}) | "
              f"{med['native']['wall']:.1f} ({med['native']['cpu']:.1f}) | "
              f"{med['numpy']['wall'] / med['native']['wall']:.2f} | {losses[0]:.12g} / {losses[1]:.12g} |")


if __name__ == "__main__":
    main()
