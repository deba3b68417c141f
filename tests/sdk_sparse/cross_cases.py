"""Cases for tf.sparse.cross / cross_hashed (FingerprintCat64 chains, int and string features, dense inputs)."""
from __future__ import annotations

import numpy as np


def _inputs(tf):
    a = tf.SparseTensor([[0, 0], [1, 0], [1, 1], [3, 0]], tf.constant(["a1", "a2", "a3", "a4"]), [4, 2])
    b = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [3, 0]], tf.constant([7, -3, 12, 5, 2 ** 40], tf.int64),
                        [4, 2])
    c = tf.constant([["x", "y"], ["z", "w"], ["u", "v"], ["", "é"]])
    return a, b, c


def _cross(tf):
    a, b, c = _inputs(tf)
    return [tf.sparse.cross([a, b]), tf.sparse.cross([c, a], separator="#"), tf.sparse.cross([a, c, b])], {}


def _cross_hashed(tf):
    a, b, c = _inputs(tf)
    return [tf.sparse.cross_hashed([a, b]), tf.sparse.cross_hashed([a, c], num_buckets=100),
            tf.sparse.cross_hashed([b, c, a], num_buckets=7, hash_key=123),
            tf.sparse.cross_hashed([tf.constant(np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.int32)), b])], {}


def _cross_hashed_many(tf):
    words = tf.SparseTensor([[i, j] for i in range(6) for j in range(2)],
                            tf.constant([f"w{i}_{j}" for i in range(6) for j in range(2)]), [6, 2])
    ids = tf.constant(np.arange(-6, 6, dtype=np.int64).reshape(6, 2) * 1000003)
    return [tf.sparse.cross_hashed([words, ids]), tf.sparse.cross_hashed([ids, words, ids], num_buckets=2 ** 40)], {}


def _cross_batch_mismatch(tf):
    a, b, c = _inputs(tf)
    return [tf.sparse.cross([a, tf.constant([["p"], ["q"]])])], {}


def _cross_not_list(tf):
    a, _, _ = _inputs(tf)
    return [tf.sparse.cross(a)], {}


def _cross_sparse_batch_mismatch(tf):
    a, b, c = _inputs(tf)
    return [tf.sparse.cross([a, tf.SparseTensor([[0, 0]], ["q"], [3, 1])])], {}


CASES = [("cross_sparse_batch_mismatch", _cross_sparse_batch_mismatch),("cross", _cross), ("cross_hashed", _cross_hashed), ("cross_hashed_many", _cross_hashed_many),
         ("cross_batch_mismatch", _cross_batch_mismatch), ("cross_not_list", _cross_not_list)]
