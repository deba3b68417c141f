"""Recurrent cells and drivers beyond the TF fixtures: dropout masks, errors TF raises, reverse_sequence."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
import edgelite.compat.v1 as tf1

rnn_cell = tf.nn.rnn_cell


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test starts from an empty default graph."""
    with tf.Graph().as_default() as g:
        yield g


def test_compat_v1_exposes_the_cells_and_drivers():
    names = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell", "LSTMCell",
             "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"]
    assert all(hasattr(tf1.nn.rnn_cell, n) for n in names)
    for fn in ("dynamic_rnn", "static_rnn", "static_state_saving_rnn", "bidirectional_dynamic_rnn",
               "static_bidirectional_rnn", "raw_rnn"):
        assert callable(getattr(tf1.nn, fn))


def test_state_sizes_and_zero_state():
    lstm = rnn_cell.LSTMCell(5, num_proj=3)
    assert lstm.state_size == rnn_cell.LSTMStateTuple(5, 3) and lstm.output_size == 3
    assert rnn_cell.BasicLSTMCell(4, state_is_tuple=False).state_size == 8
    multi = rnn_cell.MultiRNNCell([rnn_cell.GRUCell(2), lstm])
    assert multi.state_size == (2, rnn_cell.LSTMStateTuple(5, 3))
    zero = multi.zero_state(7, tf.float32)
    assert [z.shape.as_list() for z in tf.nest.flatten(zero)] == [[7, 2], [7, 5], [7, 3]]
    dynamic = rnn_cell.GRUCell(2).zero_state(tf.placeholder(tf.int32, []), tf.float32)
    assert dynamic.shape.as_list() == [None, 2]


def test_cell_weights_are_tracked_and_shared_between_calls():
    cell = rnn_cell.BasicLSTMCell(3)
    x = tf.zeros([2, 4])
    out1, s1 = cell(x, cell.zero_state(2, tf.float32))
    out2, _ = cell(x, s1)
    assert [v.op.name for v in cell.trainable_weights] == ["basic_lstm_cell/kernel", "basic_lstm_cell/bias"]
    assert len(tf.global_variables()) == 2


def _run_dropout(cell_fn, steps=6, batch=200, depth=8):
    x = tf.ones([batch, steps, depth])
    out, state = tf.nn.dynamic_rnn(cell_fn(depth), x, dtype=tf.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run([out, state])


def test_variational_dropout_keeps_one_input_mask_for_all_steps():
    class Echo(rnn_cell.RNNCell):
        """Outputs its input: what the wrapper hands the cell is visible at every step."""

        @property
        def state_size(self):
            return 1

        @property
        def output_size(self):
            return 8

        def call(self, inputs, state):
            return inputs, state

    wrap = lambda d: rnn_cell.DropoutWrapper(Echo(), input_keep_prob=0.5, variational_recurrent=True,
                                             input_size=d, dtype=tf.float32, seed=3)
    out, _ = _run_dropout(wrap)
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert np.array_equal(out[:, 0], out[:, -1]) and np.array_equal(out[0], out[1])
    plain = lambda d: rnn_cell.DropoutWrapper(Echo(), input_keep_prob=0.5, seed=3)
    out, _ = _run_dropout(plain)
    assert not np.array_equal(out[:, 0], out[:, 1])
    assert abs(out.mean() - 1.0) < 0.1


def test_state_dropout_leaves_lstm_memory_alone():
    cell = rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), state_keep_prob=1e-6, seed=1)
    state = cell.zero_state(3, tf.float32)
    _, new_state = cell(tf.ones([3, 2]), state)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        c, h = sess.run(new_state)
    assert np.abs(c).sum() > 0 and np.abs(h).sum() == 0


def test_errors_match_tensorflow():
    x = tf.zeros([2, 3, 4])
    with pytest.raises(ValueError, match="If no initial_state is provided, argument `dtype` must be specified"):
        tf.nn.dynamic_rnn(rnn_cell.GRUCell(2), x)
    with pytest.raises(TypeError, match="Argument `inputs` must be a sequence"):
        tf.nn.static_rnn(rnn_cell.GRUCell(2), x, dtype=tf.float32)
    with pytest.raises(ValueError, match="Argument `inputs` must not be empty"):
        tf.nn.static_rnn(rnn_cell.GRUCell(2), [], dtype=tf.float32)
    with pytest.raises(TypeError, match="is not an RNNCell: 'output_size' property is missing"):
        tf.nn.dynamic_rnn(object(), x, dtype=tf.float32)
    with pytest.raises(ValueError, match="sequence_length must be a vector of length batch_size"):
        tf.nn.dynamic_rnn(rnn_cell.GRUCell(2), x, sequence_length=[[1]], dtype=tf.float32)
    with pytest.raises(ValueError, match="RNN cell only supports floating point inputs"):
        rnn_cell.GRUCell(2)(tf.zeros([2, 3], tf.int32), tf.zeros([2, 2], tf.int32))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        rnn_cell.GRUCell(2)(x, tf.zeros([2, 2]))
    with pytest.raises(ValueError, match="Parameter input_keep_prob must be between 0 and 1. Received 1.5"):
        rnn_cell.DropoutWrapper(rnn_cell.GRUCell(2), input_keep_prob=1.5)
    with pytest.raises(ValueError, match="When variational_recurrent=True, dtype must be provided"):
        rnn_cell.DropoutWrapper(rnn_cell.GRUCell(2), variational_recurrent=True)
    with pytest.raises(ValueError, match="Must specify at least one cell for MultiRNNCell"):
        rnn_cell.MultiRNNCell([])


def _reverse_sequence_reference(x, lengths, seq, batch):
    out = np.array(x)
    for b, n in enumerate(lengths):
        src = [slice(None)] * x.ndim
        src[batch], src[seq] = b, slice(0, n)
        out[tuple(src)] = np.flip(x[tuple(src)], axis=seq - (1 if batch < seq else 0))
    return out


@pytest.mark.parametrize("seq,batch", [(1, 0), (0, 1), (2, 0), (0, 2)])
def test_reverse_sequence_and_its_gradient(seq, batch):
    rng = np.random.default_rng(seq * 3 + batch)
    shape = [4, 5, 3]
    x_val = rng.standard_normal(shape).astype(np.float32)
    lengths = rng.integers(0, shape[seq] + 1, size=shape[batch]).astype(np.int64)
    x = tf.constant(x_val)
    y = tf.reverse_sequence(x, lengths, seq_axis=seq, batch_axis=batch)
    w = rng.standard_normal(shape).astype(np.float32)
    g = tf.gradients(tf.reduce_sum(y * w), x)[0]
    with tf.Session() as sess:
        y_val, g_val = sess.run([y, g])
    np.testing.assert_array_equal(y_val, _reverse_sequence_reference(x_val, lengths, seq, batch))
    np.testing.assert_array_equal(g_val, _reverse_sequence_reference(w, lengths, seq, batch))


def test_reverse_sequence_errors():
    x = tf.placeholder(tf.float32, [None, None, 2])
    lengths = tf.placeholder(tf.int64, [None])
    y = tf.reverse_sequence(x, lengths, seq_axis=1, batch_axis=0)
    with tf.Session() as sess:
        for value, message in (([4, 1], r"seq_lens\(0\) > input.dims\(1\)"),
                               ([1, 1, 1], r"Length of seq_lengths != input.dims\(0\), \(3 vs. 2\)"),
                               ([-1, 2], r"seq_lens\(0\) < 0")):
            with pytest.raises(tf.errors.InvalidArgumentError, match=message):
                sess.run(y, {x: np.zeros((2, 3, 2)), lengths: value})
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.reverse_sequence(tf.zeros([2, 3]), [1, 2, 3], seq_axis=1, batch_axis=0)
    with pytest.raises(ValueError, match="seq_dim must be < input rank: 3 vs. 2"):
        tf.reverse_sequence(tf.zeros([2, 3]), [1, 2], seq_axis=3, batch_axis=0)
