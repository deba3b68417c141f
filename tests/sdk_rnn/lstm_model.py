"""A small LSTM sequence classifier built the same way under TensorFlow (fixture) and edgelite (test)."""
from __future__ import annotations

import numpy as np

TIME, DEPTH, UNITS, CLASSES = 5, 3, 6, 4
LENGTHS = np.array([5, 3, 1, 4], np.int32)


def inputs() -> np.ndarray:
    """The fixed batch the checkpoint's logits were recorded on."""
    return np.random.default_rng(11).uniform(-1, 1, size=(4, TIME, DEPTH)).astype(np.float32)


def build(tf, x, lengths):
    """Two stacked LSTM layers over variable-length sequences, then a dense layer on the final h."""
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(UNITS), tf.nn.rnn_cell.LSTMCell(UNITS)])
    _, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
    w = tf.get_variable("dense/kernel", [UNITS, CLASSES])
    b = tf.get_variable("dense/bias", [CLASSES], initializer=tf.constant_initializer(0.1))
    return tf.matmul(state[-1].h, w) + b
