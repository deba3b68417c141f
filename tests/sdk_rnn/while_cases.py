"""Recurrent loops TensorFlow's converter writes as WHILE subgraphs, shared by the fixture generator (under
TensorFlow) and the edgelite test: each builds its graph from a TF-like module and names its extra inputs."""
from __future__ import annotations

import zlib

import numpy as np

BATCH, TIME, DEPTH, UNITS = 2, 5, 3, 4


def _gru(tf, x, extra):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(UNITS), x, dtype=tf.float32)
    return out


def _basic_rnn(tf, x, extra):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(UNITS), x, dtype=tf.float32)
    return out


def _lstm_lengths(tf, x, extra):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(UNITS), x, sequence_length=extra["lengths"],
                               dtype=tf.float32)
    return out


def _gru_lengths_state(tf, x, extra):
    _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(UNITS), x, sequence_length=extra["lengths"],
                                 dtype=tf.float32)
    return state


def _lstm_initial_state(tf, x, extra):
    start = tf.nn.rnn_cell.LSTMStateTuple(extra["c0"], extra["h0"])
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(UNITS), x, initial_state=start)
    return out


def _lstm_final_state(tf, x, extra):
    _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(UNITS, use_peepholes=True), x, dtype=tf.float32)
    return tf.concat([state.c, state.h], 1)


def _wide_gru(tf, x, extra):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(32), x, dtype=tf.float32)
    return out


def _decay(tf, x):
    """A loop body: count, and decay the accumulator towards tanh(x)."""
    return lambda i, acc: (i + 1, acc * 0.5 + tf.tanh(x))


def _loop_maximum_from_input(tf, x, extra):
    return tf.while_loop(lambda i, acc: tf.less(i, 100), _decay(tf, x), [tf.constant(0), x],
                         maximum_iterations=extra["steps"])[1]


def _loop_bound_from_input(tf, x, extra):
    return tf.while_loop(lambda i, acc: tf.less(i, extra["steps"]), _decay(tf, x), [tf.constant(0), x])[1]


# name -> (build, extra inputs {name: (dtype, shape)}, input depth, converted with Optimize.DEFAULT)
CASES = {
    "gru": (_gru, {}, DEPTH, False),
    "basic_rnn": (_basic_rnn, {}, DEPTH, False),
    "lstm_lengths": (_lstm_lengths, {"lengths": ("int32", [BATCH])}, DEPTH, False),
    "gru_lengths_state": (_gru_lengths_state, {"lengths": ("int32", [BATCH])}, DEPTH, False),
    "lstm_initial_state": (_lstm_initial_state, {"c0": ("float32", [BATCH, UNITS]),
                                                 "h0": ("float32", [BATCH, UNITS])}, DEPTH, False),
    "wide_gru_dynamic_range": (_wide_gru, {}, 40, True),
    "lstm_final_state": (_lstm_final_state, {}, DEPTH, False),
    "loop_maximum_from_input": (_loop_maximum_from_input, {"steps": ("int32", [])}, DEPTH, False),
    "loop_bound_from_input": (_loop_bound_from_input, {"steps": ("int32", [])}, DEPTH, False),
}


def weight(name: str, shape: list) -> np.ndarray:
    """A variable's fixed value, seeded by its name."""
    return np.random.default_rng(zlib.crc32(name.encode())).uniform(-1, 1, shape).astype(np.float32)


def feeds(name: str) -> dict:
    """Input values: x, and lengths / initial state where the case has them."""
    _, extra, depth, _ = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    values = {"x": rng.uniform(-1, 1, (BATCH, TIME, depth)).astype(np.float32)}
    for key, (dtype, shape) in extra.items():
        values[key] = (np.array([TIME, 2], np.int32) if key == "lengths" else np.array(3, np.int32) if key == "steps"
                       else rng.uniform(-1, 1, shape).astype(np.float32))
    return values
