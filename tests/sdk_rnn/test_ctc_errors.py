"""CTC run-time and build-time errors, with the types and texts TensorFlow 2.21 gives for the same input."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test starts from an empty default graph."""
    with tf.Graph().as_default() as g:
        yield g


def _feed(x, labels, lengths, idx, vals, lens, shape=(2, 1)):
    value = tf.SparseTensorValue(np.array(idx, np.int64), np.array(vals, np.int32), np.array(shape, np.int64))
    return {x: np.random.default_rng(0).random((3, 2, 4)), labels: value, lengths: lens}


@pytest.mark.parametrize("idx,vals,lens,shape,message", [
    ([[0, 0], [1, 0]], [1, 2], [4, 3], (2, 1), r"sequence_length\(0\) <= 3"),
    ([[0, 0], [1, 0]], [1, 2], [3, -1], (2, 1), r"seq_len\(1\) < 0"),
    ([[1, 0], [0, 0]], [1, 2], [3, 3], (2, 1),
     r"label SparseTensor is not valid: indices\[1\] = \[0,0\] is out of order. Many sparse ops require sorted "
     r"indices."),
    ([[0, 0], [1, 0]], [1, -1], [3, 3], (2, 1), "All labels must be nonnegative integers, batch: 1 labels: -1"),
    ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]], [1, 0, 2, 0, 1], [3, 3], (2, 4),
     r"Not enough time for target transition sequence \(required: 4, available: 3\)0You can turn this error into "
     "a warning by using the flag ignore_longer_outputs_than_inputs"),
])
def test_ctc_loss_run_time_errors(idx, vals, lens, shape, message):
    x = tf.placeholder(tf.float32, [3, 2, 4])
    labels = tf.sparse_placeholder(tf.int32)
    lengths = tf.placeholder(tf.int32, [2])
    loss = tf.nn.ctc_loss(labels, x, lengths)
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
        sess.run(loss, _feed(x, labels, lengths, idx, vals, lens, shape))


def test_ignore_longer_gives_zero_loss_and_gradient():
    x = tf.placeholder(tf.float32, [3, 2, 4])
    labels = tf.sparse_placeholder(tf.int32)
    lengths = tf.placeholder(tf.int32, [2])
    loss = tf.nn.ctc_loss(labels, x, lengths, ignore_longer_outputs_than_inputs=True)
    grad = tf.gradients(loss, x)[0]
    with tf.Session() as sess:
        loss_v, grad_v = sess.run([loss, grad], _feed(x, labels, lengths, [[0, 0], [1, 0]], [1, 2], [3, 0]))
    assert loss_v[1] == 0 and not grad_v[:, 1].any() and loss_v[0] > 0


def test_build_time_errors():
    with pytest.raises(TypeError, match="Expected argument `labels` to be a SparseTensor"):
        tf.nn.ctc_loss(np.zeros((2, 3), np.int32), tf.zeros([3, 2, 4]), [3, 3])
    with pytest.raises(ValueError, match="Argument `blank_index` must be provided when labels is a SparseTensor"):
        tf.nn.ctc_loss_v2(tf.SparseTensor([[0, 0]], [1], [1, 1]), tf.zeros([3, 1, 4]), None, [3])
    with pytest.raises(ValueError):
        tf.nn.ctc_loss(tf.SparseTensor([[0, 0]], [1], [1, 1]), tf.zeros([3, 4]), [3])


def test_beam_search_wants_no_more_paths_than_its_width():
    decoded, log_prob = tf.nn.ctc_beam_search_decoder(tf.zeros([3, 2, 4]), [3, 3], beam_width=2, top_paths=3)
    assert len(decoded) == 3 and log_prob.shape.as_list() == [2, 3]
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="requested more paths than the beam width."):
        sess.run(log_prob)
