"""LSTMCell variants (peepholes, projection, clips) shared by the TensorFlow fixture generator and the edgelite
test: the cell arguments, seeded weights by variable name and representative samples, and the graph."""
from __future__ import annotations

import zlib

import numpy as np

BATCH, TIME, DEPTH, UNITS, PROJ = 2, 6, 3, 5, 3
NUM_SAMPLES = 6
CASES = {
    "peepholes": {"use_peepholes": True},
    "projection": {"num_proj": PROJ},
    "projection_clip": {"num_proj": PROJ, "proj_clip": 0.3},
    "cell_clip": {"cell_clip": 0.5},
    "peepholes_projection_clips": {"use_peepholes": True, "num_proj": PROJ, "proj_clip": 0.4, "cell_clip": 0.8},
    # two such cells stacked in a MultiRNNCell, and a forward/backward pair (outputs concatenated)
    "stacked_peepholes_projection": {"use_peepholes": True, "num_proj": PROJ, "layers": 2},
    "bidirectional_projection_clip": {"num_proj": PROJ, "proj_clip": 0.5, "bidirectional": True},
}


def weight(name: str, shape: list) -> np.ndarray:
    """A variable's fixed value, seeded by its name; large enough to saturate gates and reach the clips."""
    return np.random.default_rng(zlib.crc32(name.encode())).uniform(-1.2, 1.2, shape).astype(np.float32)


def samples(name: str) -> list:
    """The representative dataset (and test inputs): [batch, time, depth] float32 arrays."""
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    return [rng.uniform(-2, 2, (BATCH, TIME, DEPTH)).astype(np.float32) for _ in range(NUM_SAMPLES)]


def build(tf, name: str):
    """(x placeholder, y = the dynamic_rnn outputs) of a case under a TF-like module."""
    x = tf.placeholder(tf.float32, [BATCH, TIME, DEPTH], name="x")
    args = {k: v for k, v in CASES[name].items() if k not in ("layers", "bidirectional")}
    cell = lambda: tf.nn.rnn_cell.LSTMCell(UNITS, **args)  # noqa: E731
    if CASES[name].get("bidirectional"):
        (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(cell(), cell(), x, dtype=tf.float32)
        return x, tf.concat([fw, bw], 2, name="y")
    layers = CASES[name].get("layers", 1)
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell([cell() for _ in range(layers)]) if layers > 1 else cell(),
                               x, dtype=tf.float32)
    return x, tf.identity(out, name="y")


def load_weights(tf, sess) -> None:
    """Give every variable of the graph its seeded value."""
    for var in tf.global_variables():
        var.load(weight(var.op.name, var.shape.as_list()), sess)
