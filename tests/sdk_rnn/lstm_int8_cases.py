"""Full-integer LSTM cases shared by the TensorFlow fixture generator (Keras LSTM layers) and the edgelite test
(the same weights in a BasicLSTMCell under dynamic_rnn): shapes, seeded weights and representative samples."""
from __future__ import annotations

import zlib

import numpy as np

CASES = {
    "lstm_sequences": {"batch": 2, "time": 6, "depth": 3, "units": 8, "sequences": True, "bidirectional": False},
    "lstm_last": {"batch": 2, "time": 7, "depth": 5, "units": 6, "sequences": False, "bidirectional": False},
    "bidirectional": {"batch": 2, "time": 5, "depth": 3, "units": 4, "sequences": True, "bidirectional": True},
    "stacked": {"batch": 2, "time": 6, "depth": 3, "units": 5, "sequences": True, "bidirectional": False,
                "layers": 2},
}
NUM_SAMPLES = 6


def _rng(name: str, salt: int) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()) + salt)


def keras_weights(name: str, shapes: list) -> list:
    """Keras LSTM weights (kernel, recurrent kernel, bias per direction), large enough to saturate gates."""
    rng = _rng(name, 0)
    return [rng.uniform(-1.2, 1.2, shape).astype(np.float32) for shape in shapes]


def samples(name: str) -> list:
    """The representative dataset: [batch, time, depth] float32 arrays."""
    case = CASES[name]
    rng = _rng(name, 1)
    return [rng.uniform(-2, 2, (case["batch"], case["time"], case["depth"])).astype(np.float32)
            for _ in range(NUM_SAMPLES)]


def cell_weights(kernel: np.ndarray, recurrent: np.ndarray, bias: np.ndarray) -> tuple:
    """A Keras LSTM's weights as an rnn_cell LSTM's kernel and bias: rows [input; recurrent], columns from
    Keras's gate order i, f, c, o to rnn_cell's i, c, f, o."""
    i, f, c, o = np.split(np.concatenate([kernel, recurrent], 0), 4, axis=1)
    bi, bf, bc, bo = np.split(bias, 4)
    return np.concatenate([i, c, f, o], 1), np.concatenate([bi, bc, bf, bo])


def run_lstm(kernel: np.ndarray, recurrent: np.ndarray, bias: np.ndarray, x: np.ndarray) -> tuple:
    """(max |c| over every time step, the outputs [batch, time, units]) of a Keras LSTM (float64) run from a
    zero state on x [batch, time, depth]."""
    units = recurrent.shape[0]
    h = c = np.zeros((x.shape[0], units))
    extent, outputs = 0.0, []
    for step in range(x.shape[1]):
        i, f, g, o = np.split(x[:, step] @ kernel + h @ recurrent + bias, 4, axis=1)
        c = c / (1 + np.exp(-f)) + np.tanh(g) / (1 + np.exp(-i))
        h = np.tanh(c) / (1 + np.exp(-o))
        extent = max(extent, float(np.abs(c).max()))
        outputs.append(h)
    return extent, np.stack(outputs, 1)
