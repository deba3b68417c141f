"""CTC cases shared by the TensorFlow fixture generator and the edgelite tests.

Each case is (name, logits shape [time, batch, classes], build) with build(tf, logits) -> (losses,
others): losses are float tensors whose gradient w.r.t. the logits is checked (through
`sum_k <loss_k, R_k>`), others are any further tensors (decoder outputs, label transforms) compared
by value. SparseTensor results are returned as their (indices, values, dense_shape) tensors.
"""
from __future__ import annotations

import zlib

import numpy as np


def case_logits(name: str, shape: tuple) -> np.ndarray:
    """The fixed logits of a case (spread enough that decoders have clear winners)."""
    rng = np.random.default_rng(zlib.crc32(("ctc/" + name).encode()))
    return rng.normal(0.0, 2.0, size=shape).astype(np.float32)


def loss_weights(name: str, shapes: list) -> list:
    """The fixed arrays R_k of the scalar whose gradient is checked."""
    rng = np.random.default_rng(zlib.crc32(("ctc-r/" + name).encode()))
    return [rng.uniform(0.5, 1.5, size=s).astype(np.float32) for s in shapes]


def sparse_labels(tf, rows):
    """A SparseTensor holding the label lists rows (row-major ordered indices)."""
    indices = [[b, i] for b, row in enumerate(rows) for i in range(len(row))]
    values = [v for row in rows for v in row]
    width = max(len(r) for r in rows)
    return tf.SparseTensor(np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int32),
                           np.array([len(rows), width], np.int64))


def dense_labels(rows):
    """(labels [batch, max_len] zero padded, lengths) of the label lists rows."""
    width = max(len(r) for r in rows)
    out = np.zeros((len(rows), width), np.int32)
    for b, r in enumerate(rows):
        out[b, :len(r)] = r
    return out, np.array([len(r) for r in rows], np.int32)


def build_fetches(tf, name, shape, build):
    """(logits placeholder, fetches, number of outputs): the outputs, then the checked gradient if any."""
    x = tf.placeholder(tf.float32, shape, name="logits")
    losses, others = build(tf, x)
    fetches = list(losses) + list(others)
    if losses:
        weights = loss_weights(name, [loss.shape.as_list() for loss in losses])
        total = tf.add_n([tf.reduce_sum(loss * w) for loss, w in zip(losses, weights)])
        fetches.append(tf.gradients(total, x)[0])
    return x, fetches, len(losses) + len(others)


def _parts(sp):
    return [sp.indices, sp.values, sp.dense_shape]


ROWS = [[1, 2, 2], [3, 0], [2]]
LENS = [6, 5, 3]


def _loss(**kw):
    def build(tf, x):
        return [tf.nn.ctc_loss(sparse_labels(tf, ROWS), x, LENS, **kw)], []
    return build


def _loss_batch_major(tf, x):
    return [tf.nn.ctc_loss(sparse_labels(tf, ROWS), tf.transpose(x, [1, 0, 2]), LENS, time_major=False)], []


def _loss_ignore_longer(tf, x):
    rows = [[1, 2, 0, 1, 2, 3, 1], [3, 0], [2]]
    return [tf.nn.ctc_loss(sparse_labels(tf, rows), x, LENS, ignore_longer_outputs_than_inputs=True)], []


def _avoiding(blank):
    """ROWS renumbered so that no label equals the (non-negative) blank class."""
    return [[r if r < blank else r + 1 for r in row] for row in ROWS]


def _loss_v2_dense(blank_index):
    def build(tf, x):
        labels, lengths = dense_labels(_avoiding(blank_index % SHAPE[2]))
        return [tf.nn.ctc_loss_v2(labels, x, lengths, LENS, blank_index=blank_index)], []
    return build


def _loss_v2_dense_batch_major(tf, x):
    labels, lengths = dense_labels([[r + 1 for r in row] for row in ROWS])
    return [tf.nn.ctc_loss_v2(labels, tf.transpose(x, [1, 0, 2]), lengths, LENS, logits_time_major=False)], []


def _loss_v2_sparse(tf, x):
    return [tf.nn.ctc_loss_v2(sparse_labels(tf, _avoiding(0)), x, None, LENS, blank_index=0)], []


def _greedy(**kw):
    def build(tf, x):
        decoded, log_prob = tf.nn.ctc_greedy_decoder(x, LENS, **kw)
        return [], _parts(decoded[0]) + [log_prob]
    return build


def _beam(v2=False, **kw):
    def build(tf, x):
        decode = tf.nn.ctc_beam_search_decoder_v2 if v2 else tf.nn.ctc_beam_search_decoder
        decoded, log_prob = decode(x, LENS, **kw)
        return [], [t for sp in decoded for t in _parts(sp)] + [log_prob]
    return build


def _collapse(tf, x):
    labels = np.array([[1, 1, 2, 2, 2, 3], [4, 4, 4, 0, 0, 0], [5, 6, 6, 7, 7, 7]], np.int32)
    out, lengths = tf.nn.collapse_repeated(labels, np.array([6, 3, 4], np.int32))
    return [], [out, lengths]


def _unique(tf, x):
    labels = np.array([[3, 1, 3, 2, 1], [0, 0, 4, 4, 0], [7, 6, 5, 6, 7]], np.int32)
    y, idx = tf.nn.ctc_unique_labels(labels)
    return [], [y, idx]


SHAPE = (6, 3, 5)

CASES = [
    ("loss_default", SHAPE, _loss()),
    ("loss_no_merge", SHAPE, _loss(ctc_merge_repeated=False)),
    ("loss_preprocess_collapse", SHAPE, _loss(preprocess_collapse_repeated=True)),
    ("loss_collapse_no_merge", SHAPE, _loss(preprocess_collapse_repeated=True, ctc_merge_repeated=False)),
    ("loss_batch_major", SHAPE, _loss_batch_major),
    ("loss_ignore_longer", SHAPE, _loss_ignore_longer),
    ("loss_v2_dense_blank0", SHAPE, _loss_v2_dense(0)),
    ("loss_v2_dense_blank2", SHAPE, _loss_v2_dense(2)),
    ("loss_v2_dense_blank_last", SHAPE, _loss_v2_dense(-1)),
    ("loss_v2_dense_batch_major", SHAPE, _loss_v2_dense_batch_major),
    ("loss_v2_sparse_blank0", SHAPE, _loss_v2_sparse),
    ("greedy_merge", SHAPE, _greedy()),
    ("greedy_no_merge", SHAPE, _greedy(merge_repeated=False)),
    ("greedy_blank0", SHAPE, _greedy(blank_index=0)),
    ("beam_wide_top3", SHAPE, _beam(beam_width=100, top_paths=3)),
    ("beam_narrow_top2", SHAPE, _beam(beam_width=2, top_paths=2)),
    ("beam_width3_no_merge", SHAPE, _beam(beam_width=3, top_paths=3, merge_repeated=False)),
    ("beam_v2_default", SHAPE, _beam(v2=True)),
    ("beam_three_classes", (8, 3, 3), _beam(beam_width=4, top_paths=4)),
    ("collapse_repeated", SHAPE, _collapse),
    ("ctc_unique_labels", SHAPE, _unique),
]
