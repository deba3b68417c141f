"""Cases for sparse_merge, sparse_to_indicator, sparse_mask and the sparse embedding lookups (with gradients)."""
from __future__ import annotations

import numpy as np

IDS = ([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1], [3, 2]], [1, 3, 0, 2, 1, 1], [4, 3])
WEIGHTS = [2.0, 0.5, 1.0, -1.0, 3.0, 0.25]


def _ids(tf, dtype=None):
    ind, val, shape = IDS
    return tf.SparseTensor(ind, tf.constant(val, dtype or tf.int64), shape)


def _weights(tf, values=WEIGHTS, dtype=None):
    return tf.SparseTensor(IDS[0], tf.constant(values, dtype or tf.float64), IDS[2])


def _params(tf, dtype=None):
    return tf.constant(np.arange(12.0).reshape(4, 3) / 4 - 1, dtype or tf.float64)


def _indicator(tf):
    return [tf.sparse.to_indicator(_ids(tf), 4), tf.sparse_to_indicator(_ids(tf, tf.int32), 5)], {}


def _merge(tf):
    vals = _weights(tf)
    return [tf.sparse.merge(_ids(tf), vals, 4), tf.sparse_merge(_ids(tf), vals, 4, already_sorted=True)], {}


def _merge_multi(tf):
    ids2 = tf.SparseTensor(IDS[0], tf.constant([0, 1, 2, 0, 1, 2], tf.int64), IDS[2])
    return [tf.sparse.merge([_ids(tf), ids2], _weights(tf), [4, 3])], {}


def _merge_bad_vocab(tf):
    return [tf.sparse.merge(_ids(tf), _weights(tf), 4.0)], {}


def _merge_length_mismatch(tf):
    return [tf.sparse.merge([_ids(tf)], _weights(tf), [4, 5])], {}


def _mask(tf):
    a = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([12, 26, 37]),
                         tf.constant([40, 2]))
    m = tf.sparse.mask(a, [12, 45])
    n = tf.sparse_mask(a, tf.constant([37]))
    return [m.values, m.indices, n.values, n.indices], {}


def _lookup(combiner, weighted, strategy="mod", parts=1, dtype=None):
    def build(tf):
        full = _params(tf, dtype)
        params = full if parts == 1 else [full[i::parts] if strategy == "mod" else full[2 * i:2 * i + 2]
                                          for i in range(parts)]
        w = _weights(tf, dtype=dtype) if weighted else None
        out = tf.nn.embedding_lookup_sparse(params, _ids(tf), w, partition_strategy=strategy, combiner=combiner)
        wrt = [full] + ([w.values] if weighted else [])
        g = tf.gradients(tf.reduce_sum(out * out), wrt)
        return [out, [tf.convert_to_tensor(x) for x in g]], {}
    return build


def _lookup_bad_combiner(tf):
    return [tf.nn.embedding_lookup_sparse(_params(tf), _ids(tf), None, combiner="max")], {}


def _lookup_dense_ids(tf):
    return [tf.nn.embedding_lookup_sparse(_params(tf), [[1]], None)], {}


SAFE_IDS = ([[0, 0], [0, 1], [2, 0], [2, 1], [3, 0]], [1, -1, 2, 3, 0], [5, 2])
SAFE_W = [1.5, 2.0, 0.0, 1.0, -2.0]


def _safe(combiner, weighted, default_id=None, rank3=False):
    def build(tf):
        ind, val, shape = SAFE_IDS
        if rank3:
            ind = [[i // 3, i % 3, j] for i, j in ind]
            shape = [2, 3, 2]
        ids = tf.SparseTensor(ind, tf.constant(val, tf.int64), shape)
        w = tf.SparseTensor(ind, tf.constant(SAFE_W, tf.float64), shape) if weighted else None
        params = _params(tf)
        out = tf.nn.safe_embedding_lookup_sparse(params, ids, w, combiner=combiner, default_id=default_id)
        g = tf.gradients(tf.reduce_sum(out * out), params)
        return [out, [tf.convert_to_tensor(x) for x in g]], {}
    return build


CASES = [
    ("indicator", _indicator), ("merge", _merge), ("merge_multi", _merge_multi),
    ("merge_bad_vocab", _merge_bad_vocab), ("merge_length_mismatch", _merge_length_mismatch), ("mask", _mask),
    ("lookup_sum", _lookup("sum", False)), ("lookup_mean", _lookup("mean", False)),
    ("lookup_sqrtn", _lookup("sqrtn", False)), ("lookup_sum_w", _lookup("sum", True)),
    ("lookup_mean_w", _lookup("mean", True)), ("lookup_sqrtn_w", _lookup("sqrtn", True)),
    ("lookup_mean_f32", _lookup(None, False, dtype="float32")),
    ("lookup_mod_parts", _lookup("sum", True, "mod", 2)), ("lookup_div_parts", _lookup("mean", False, "div", 2)),
    ("lookup_bad_combiner", _lookup_bad_combiner), ("lookup_dense_ids", _lookup_dense_ids),
    ("safe_mean", _safe("mean", False)), ("safe_mean_w", _safe("mean", True)), ("safe_sum_w", _safe("sum", True)),
    ("safe_default", _safe("sqrtn", True, default_id=3)), ("safe_rank3", _safe("mean", True, rank3=True)),
]
