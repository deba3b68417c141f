"""Recurrent-network cases shared by the TensorFlow fixture generator and the edgelite tests.

Each case is (name, build) with build(tf, x, lengths) -> list of result tensors (outputs and final
states, flattened). x is a float32 placeholder [batch, time, depth] (batch-major) and lengths an int32
placeholder [batch]; a case transposes x itself when it runs time-major. After the variables are
initialised, every variable gets the value `weight_value(name, shape)`, so TensorFlow and edgelite run
the same weights; the gradient checked is that of `sum_k <result_k, R_k>` (R_k fixed random arrays)
with respect to x and every trainable variable.
"""
from __future__ import annotations

import zlib

import numpy as np

BATCH, TIME, DEPTH = 3, 4, 3
LENGTHS = np.array([4, 2, 1], np.int32)


def weight_value(name: str, shape: tuple) -> np.ndarray:
    """Fixed weights for a variable, derived from its name (so both frameworks agree by name)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng.uniform(-0.6, 0.6, size=shape).astype(np.float32)


def case_input(name: str) -> np.ndarray:
    """The input sequence batch of a case."""
    rng = np.random.default_rng(zlib.crc32(("x/" + name).encode()))
    return rng.uniform(-1.0, 1.0, size=(BATCH, TIME, DEPTH)).astype(np.float32)


def result_weights(name: str, shapes: list) -> list:
    """The fixed arrays R_k of the scalar whose gradient is checked."""
    rng = np.random.default_rng(zlib.crc32(("r/" + name).encode()))
    return [rng.uniform(-1.0, 1.0, size=s).astype(np.float32) for s in shapes]


def _flat(tf, *structures):
    out = []
    for s in structures:
        out.extend(tf.nest.flatten(s))
    return out


def _steps(tf, x):
    return tf.unstack(x, axis=1)


def _time_major(tf, x):
    return tf.transpose(x, [1, 0, 2])


class ListStateSaver:
    """A minimal state saver for static_state_saving_rnn: reads saved_<name>, writes next_<name>.

    Reading and writing different variables keeps the run free of read/assign ordering questions.
    """

    def __init__(self, tf, sizes: dict) -> None:
        self._tf = tf
        self._read = {k: tf.get_variable("saved_" + k, [BATCH, n], trainable=False) for k, n in sizes.items()}
        self._write = {k: tf.get_variable("next_" + k, [BATCH, n], trainable=False) for k, n in sizes.items()}

    def state(self, name):
        return self._tf.identity(self._read[name])

    def save_state(self, name, value):
        return self._tf.assign(self._write[name], value)


def _raw_rnn_lstm(tf, x, lengths):
    cell = tf.nn.rnn_cell.BasicLSTMCell(4)
    xt = _time_major(tf, x)
    ta = tf.TensorArray(tf.float32, size=TIME).unstack(xt)

    def loop_fn(time, cell_output, cell_state, loop_state):
        emit = cell_output
        state = cell.zero_state(BATCH, tf.float32) if cell_output is None else cell_state
        finished = time >= lengths
        nxt = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([BATCH, DEPTH], tf.float32),
                      lambda: ta.read(tf.minimum(time, TIME - 1)))
        return finished, nxt, state, emit, None

    emit_ta, final_state, _ = tf.nn.raw_rnn(cell, loop_fn)
    outputs = emit_ta.stack()
    outputs.set_shape([TIME, BATCH, 4])  # the loop runs until the longest sequence (TIME steps) ends
    return [outputs] + _flat(tf, final_state)


def _state_saving(tf, x, lengths):
    cell = tf.nn.rnn_cell.LSTMCell(4)
    saver = ListStateSaver(tf, {"c": 4, "h": 4})
    outs, state = tf.nn.static_state_saving_rnn(cell, _steps(tf, x), saver, ("c", "h"), sequence_length=lengths)
    return _flat(tf, outs, state)


def _cell_direct(tf, x, lengths):
    cell = tf.nn.rnn_cell.GRUCell(4)
    state = cell.zero_state(BATCH, tf.float32)
    out1, s1 = cell(x[:, 0], state, scope="direct")
    out2, s2 = cell(x[:, 1], s1)
    return [out1, out2, s2]


CASES = [
    ("basic_rnn_dynamic",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(4), x, dtype=tf.float32))),
    ("basic_rnn_relu_dynamic_len",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(4, activation=tf.nn.relu), x,
                                                  sequence_length=L, dtype=tf.float32))),
    ("basic_lstm_dynamic",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32))),
    ("basic_lstm_dynamic_len",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), x, sequence_length=L,
                                                  dtype=tf.float32))),
    ("basic_lstm_time_major_len_concat_state",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(
         tf.nn.rnn_cell.BasicLSTMCell(4, forget_bias=0.5, state_is_tuple=False), _time_major(tf, x),
         sequence_length=L, dtype=tf.float32, time_major=True))),
    ("lstm_peephole_clip_proj_len",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(
         tf.nn.rnn_cell.LSTMCell(5, use_peepholes=True, cell_clip=0.4, num_proj=3, proj_clip=0.3), x,
         sequence_length=L, dtype=tf.float32))),
    ("lstm_time_major",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(4, forget_bias=0.0),
                                                  _time_major(tf, x), dtype=tf.float32, time_major=True))),
    ("gru_dynamic_len",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), x, sequence_length=L,
                                                  dtype=tf.float32))),
    ("gru_time_major_initial_state",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), _time_major(tf, x),
                                                  initial_state=tf.tanh(x[:, 0, :1] * tf.ones([1, 4])),
                                                  time_major=True))),
    ("multi_cell_dynamic_len",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(
         [tf.nn.rnn_cell.BasicLSTMCell(4), tf.nn.rnn_cell.GRUCell(3)]), x, sequence_length=L, dtype=tf.float32))),
    ("multi_cell_concat_static",
     lambda tf, x, L: _flat(tf, *tf.nn.static_rnn(tf.nn.rnn_cell.MultiRNNCell(
         [tf.nn.rnn_cell.LSTMCell(4, state_is_tuple=False), tf.nn.rnn_cell.BasicRNNCell(2)], state_is_tuple=False),
         _steps(tf, x), dtype=tf.float32))),
    ("basic_lstm_static",
     lambda tf, x, L: _flat(tf, *tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), _steps(tf, x),
                                                 dtype=tf.float32))),
    ("lstm_static_len",
     lambda tf, x, L: _flat(tf, *tf.nn.static_rnn(tf.nn.rnn_cell.LSTMCell(4, num_proj=2), _steps(tf, x),
                                                 sequence_length=L, dtype=tf.float32))),
    ("bidirectional_dynamic_len",
     lambda tf, x, L: _flat(tf, *tf.nn.bidirectional_dynamic_rnn(
         tf.nn.rnn_cell.BasicLSTMCell(4), tf.nn.rnn_cell.GRUCell(3), x, sequence_length=L, dtype=tf.float32))),
    ("bidirectional_dynamic_time_major",
     lambda tf, x, L: _flat(tf, *tf.nn.bidirectional_dynamic_rnn(
         tf.nn.rnn_cell.LSTMCell(3), tf.nn.rnn_cell.LSTMCell(3), _time_major(tf, x), dtype=tf.float32,
         time_major=True))),
    ("static_bidirectional_len",
     lambda tf, x, L: _flat(tf, *tf.nn.static_bidirectional_rnn(
         tf.nn.rnn_cell.BasicLSTMCell(3), tf.nn.rnn_cell.BasicRNNCell(2), _steps(tf, x), sequence_length=L,
         dtype=tf.float32))),
    ("static_bidirectional",
     lambda tf, x, L: _flat(tf, *tf.nn.static_bidirectional_rnn(
         tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3), _steps(tf, x), dtype=tf.float32))),
    ("wrappers_dynamic_len",
     lambda tf, x, L: _flat(tf, *tf.nn.dynamic_rnn(tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.DeviceWrapper(
         tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(3)), "/cpu:0")), x, sequence_length=L,
         dtype=tf.float32))),
    ("raw_rnn_lstm", _raw_rnn_lstm),
    ("static_state_saving_len", _state_saving),
    ("cell_direct_calls", _cell_direct),
]
