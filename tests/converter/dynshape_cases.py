"""Graphs whose input has an unknown non-batch dimension, shared by the TF 2.21 fixture generator (run by hand)
and the edgelite test: each case builds its output from a TF-like module and a placeholder of `shape`, and is
run at each of `sizes` (the values the unknown dimensions take after resize_tensor_input). A case in LENGTHS
also takes an int32 `lengths` input [batch] (a dynamic_rnn sequence_length)."""
from __future__ import annotations

import zlib

import numpy as np

UNITS = 5


def _elementwise(tf, x):
    return tf.nn.relu(x * 2.0 + x) - tf.sigmoid(x)


def _dense(tf, x):
    w = tf.get_variable("dense/kernel", [8, UNITS])
    b = tf.get_variable("dense/bias", [UNITS])
    flat = tf.matmul(tf.reshape(x, [-1, 8]), w) + b
    return tf.reshape(flat, tf.concat([tf.shape(x)[:2], [UNITS]], 0))


def _tensordot(tf, x):
    w = tf.get_variable("dense/kernel", [8, UNITS])
    return tf.tensordot(x, w, 1)


def _batch_matmul(tf, x):
    return tf.matmul(x, tf.get_variable("dense/kernel", [8, UNITS]))


def _layers_dense(tf, x):
    return tf.layers.dense(x, UNITS, activation=tf.nn.relu)


def _reduce(tf, x):
    return tf.reduce_mean(x, axis=1) + tf.reduce_sum(x, axis=1)


def _conv(tf, x):
    w = tf.get_variable("conv/kernel", [3, 3, 3, 4])
    b = tf.get_variable("conv/bias", [4])
    return tf.nn.relu(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME") + b)


def _reshape_flat(tf, x):
    return tf.reshape(x, [-1, 4]) * 3.0


def _shape_based(tf, x):
    steps = tf.shape(x)[1]
    return x / tf.cast(steps, tf.float32)


def _fill_range(tf, x):
    steps = tf.shape(x)[1]
    position = tf.cast(tf.range(steps), tf.float32) / 10.0
    return x + tf.ones(tf.shape(x)) + tf.reshape(position, [1, -1, 1])


def _tile(tf, x):
    w = tf.get_variable("query", [1, 1, 4])
    return x * tf.tile(w, tf.stack([1, tf.shape(x)[1], 1]))


def _broadcast(tf, x):
    return x * tf.broadcast_to(tf.get_variable("query", [1, 1, 4]), tf.shape(x))


def _pool(tf, x):
    return tf.nn.max_pool(tf.nn.relu(x), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")


def _bidirectional(tf, x):
    (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.LSTMCell(UNITS), tf.nn.rnn_cell.LSTMCell(UNITS),
                                                  x, dtype=tf.float32)
    return tf.concat([fw, bw], 2)


def _lstm(tf, x):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(UNITS), x, dtype=tf.float32)
    return out


def _gru_lengths(tf, x, lengths):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(UNITS), x, sequence_length=lengths, dtype=tf.float32)
    return out


def _gru(tf, x):
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(UNITS), x, dtype=tf.float32)
    return out


# name -> (build, placeholder shape, sizes: the full input shapes it is run at)
CASES = {
    "elementwise": (_elementwise, [1, None, 16, 3], [[1, 2, 16, 3], [1, 7, 16, 3], [1, 12, 16, 3]]),
    "dense": (_dense, [2, None, 8], [[2, 1, 8], [2, 4, 8], [2, 9, 8]]),
    "tensordot": (_tensordot, [2, None, 8], [[2, 1, 8], [2, 6, 8]]),
    "batch_matmul": (_batch_matmul, [2, None, 8], [[2, 2, 8], [2, 5, 8]]),
    "batch_matmul_static": (_batch_matmul, [2, 4, 8], [[2, 4, 8]]),
    "layers_dense": (_layers_dense, [2, None, 8], [[2, 3, 8], [2, 7, 8]]),
    "unknown_batch": (_elementwise, [None, None, 4], [[1, 3, 4], [3, 5, 4]]),
    "reduce": (_reduce, [2, None, 6], [[2, 1, 6], [2, 5, 6], [2, 11, 6]]),
    "conv": (_conv, [1, None, None, 3], [[1, 5, 7, 3], [1, 8, 8, 3], [1, 3, 10, 3]]),
    "reshape_flat": (_reshape_flat, [1, None, 4], [[1, 3, 4], [1, 10, 4]]),
    "shape_based": (_shape_based, [1, None, 4], [[1, 2, 4], [1, 9, 4]]),
    "fill_range": (_fill_range, [1, None, 4], [[1, 3, 4], [1, 8, 4]]),
    "tile": (_tile, [1, None, 4], [[1, 2, 4], [1, 6, 4]]),
    "broadcast": (_broadcast, [1, None, 4], [[1, 2, 4], [1, 7, 4]]),
    "pool": (_pool, [1, None, None, 3], [[1, 4, 6, 3], [1, 7, 5, 3]]),
    "bidirectional": (_bidirectional, [2, None, 3], [[2, 1, 3], [2, 6, 3]]),
    "lstm": (_lstm, [2, None, 3], [[2, 1, 3], [2, 7, 3], [2, 12, 3]]),
    "gru": (_gru, [2, None, 3], [[2, 1, 3], [2, 6, 3]]),
    "gru_lengths": (_gru_lengths, [2, None, 3], [[2, 2, 3], [2, 5, 3]]),
}
LENGTHS = {"gru_lengths"}


def lengths(shape: list) -> np.ndarray:
    """sequence_length for an input of `shape`: the first sequence full, the second about half as long."""
    return np.array([shape[1], max(1, shape[1] // 2)], np.int32)


def weight(name: str, shape: list) -> np.ndarray:
    """Fixed weights for a variable, seeded by its name (the same under TensorFlow and edgelite)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng.uniform(-0.5, 0.5, size=shape).astype(np.float32)


def feed(name: str, shape: list) -> np.ndarray:
    """The input a case is run on at one size."""
    rng = np.random.default_rng(zlib.crc32(f"{name}{shape}".encode()))
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def feeds(name: str, size: list) -> list:
    """The case's input values at one size: x, then lengths for a case in LENGTHS."""
    return [feed(name, size)] + ([lengths(size)] if name in LENGTHS else [])


def run(interpreter: object, name: str, size: list) -> np.ndarray:
    """A TFLite interpreter's output after resizing its first input to `size` and feeding the case's values."""
    details = interpreter.get_input_details()
    interpreter.resize_tensor_input(details[0]["index"], size)
    interpreter.allocate_tensors()
    for d, value in zip(details, feeds(name, size)):
        interpreter.set_tensor(d["index"], value)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
