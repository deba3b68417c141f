"""Cases for tf.edit_distance: normalized and raw, empty truth/hypothesis rows, strings, rank 3, errors."""
from __future__ import annotations


def _basic(tf):
    hyp = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1]], tf.constant([1, 2, 3, 4, 5, 6]), [4, 3])
    truth = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [3, 0]], tf.constant([1, 3, 4, 4, 9]), [4, 2])
    return [tf.edit_distance(hyp, truth), tf.edit_distance(hyp, truth, normalize=False)], {}


def _strings(tf):
    hyp = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0]], tf.constant(["a", "b", "c", "d"]), [2, 2, 2])
    truth = tf.SparseTensor([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]],
                            tf.constant(["a", "", "c", "x", "e"]), [2, 2, 2])
    return [tf.edit_distance(hyp, truth), tf.edit_distance(hyp, truth, normalize=False)], {}


def _long(tf):
    h = "kitten sitting on the mat"
    t = "sitting kitten at the mall"
    hyp = tf.SparseTensor([[0, i] for i in range(len(h))], tf.constant([c for c in h]), [1, len(h)])
    truth = tf.SparseTensor([[0, i] for i in range(len(t))], tf.constant([c for c in t]), [1, len(t)])
    return [tf.edit_distance(hyp, truth, normalize=False), tf.edit_distance(truth, hyp)], {}


def _rank_mismatch(tf):
    hyp = tf.sparse_placeholder(tf.int32)
    truth = tf.sparse_placeholder(tf.int32)
    return [tf.edit_distance(hyp, truth)], {hyp: ([[0, 0]], [1], [1, 1]), truth: ([[0, 0, 0]], [1], [1, 1, 1])}


def _not_sparse(tf):
    return [tf.edit_distance(tf.constant([[1]]), tf.SparseTensor([[0, 0]], [1], [1, 1]))], {}


CASES = [("basic", _basic), ("strings", _strings), ("long", _long), ("rank_mismatch", _rank_mismatch),
         ("not_sparse", _not_sparse)]
