"""tf.nn cases shared by the TensorFlow fixture generator (fixtures/generate_nn_fixtures.py) and the edgelite
tests. An op case is (name, fn(tf, *inputs) -> tensor or list of tensors, input specs); a spec is
(shape, low, high) for a float input, which is differentiated, or an int/float numpy array used as is.
"""
from __future__ import annotations

import numpy as np

_LABELS = np.array([[1], [4], [6]], np.int64)
_LABELS2 = np.array([[1, 2], [4, 4], [0, 6]], np.int64)
_SAMPLED = (np.array([2, 4, 7, 0], np.int64), np.array([[0.6], [0.3], [0.25]], np.float32),
            np.array([0.5, 0.3, 0.2, 0.9], np.float32))
_SAMPLED2 = (_SAMPLED[0], np.array([[0.6, 0.4], [0.3, 0.3], [0.8, 0.25]], np.float32), _SAMPLED[2])


def _sv(tf, sv, like):
    """Fixed sampled_values as constants, the expected counts in the dtype of the tensor `like`."""
    dt = like.dtype.as_numpy_dtype
    return (tf.constant(sv[0]), tf.constant(sv[1].astype(dt)), tf.constant(sv[2].astype(dt)))


def _f(*shape, lo=-1.0, hi=1.0):
    return (tuple(shape), lo, hi)


OP_CASES = [
    ("nce_loss", lambda tf, w, b, x: tf.nn.nce_loss(w, b, _LABELS, x, 4, 8, sampled_values=_sv(tf, _SAMPLED, x)),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("nce_loss_hits", lambda tf, w, b, x: tf.nn.nce_loss(w, b, _LABELS2, x, 4, 8, num_true=2,
                                                         sampled_values=_sv(tf, _SAMPLED2, x),
                                                         remove_accidental_hits=True),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("nce_loss_div", lambda tf, w1, w2, b, x: tf.nn.nce_loss([w1, w2], b, _LABELS, x, 4, 8,
                                                             sampled_values=_sv(tf, _SAMPLED, x),
                                                             partition_strategy="div"),
     [_f(4, 5), _f(4, 5), _f(8), _f(3, 5)]),
    ("sampled_softmax_loss", lambda tf, w, b, x: tf.nn.sampled_softmax_loss(w, b, _LABELS, x, 4, 8,
                                                                            sampled_values=_sv(tf, _SAMPLED, x)),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("sampled_softmax_loss_num_true", lambda tf, w, b, x: tf.nn.sampled_softmax_loss(
        w, b, _LABELS2, x, 4, 8, num_true=2, sampled_values=_sv(tf, _SAMPLED2, x), remove_accidental_hits=False),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("sampled_softmax_loss_hits", lambda tf, w1, w2, b, x: tf.nn.sampled_softmax_loss(
        [w1, w2], b, _LABELS2, x, 4, 8, num_true=2, sampled_values=_sv(tf, _SAMPLED2, x)),
     [_f(4, 5), _f(4, 5), _f(8), _f(3, 5)]),
    ("all_candidate_sampler", lambda tf: list(tf.nn.all_candidate_sampler(_LABELS2, 2, 7, True)), []),
    ("compute_accidental_hits", lambda tf: list(tf.nn.compute_accidental_hits(
        np.array([[1, 3], [2, 2], [0, 5]], np.int64), np.array([2, 3, 2, 0, 7], np.int64), 2)), []),
    ("learned_unigram_counts", lambda tf: [tf.nn.learned_unigram_candidate_sampler(_LABELS2, 2, 3, False, 8)[1]],
     []),
    ("fixed_unigram_counts", lambda tf: [tf.nn.fixed_unigram_candidate_sampler(
        np.array([[0, 3], [5, 2]], np.int64), 2, 4, False, 6, unigrams=[1, 2, 3, 4], num_reserved_ids=2,
        distortion=0.5)[1]], []),
    ("fixed_unigram_shard", lambda tf: [tf.nn.fixed_unigram_candidate_sampler(
        np.array([[0, 2], [1, 1]], np.int64), 2, 3, False, 3, unigrams=[1, 2, 3, 4, 5, 6], num_shards=2,
        shard=1)[1]], []),
    ("uniform_counts", lambda tf: [tf.nn.uniform_candidate_sampler(_LABELS2, 2, 3, False, 8)[1]], []),
    ("log_uniform_counts", lambda tf: [tf.nn.log_uniform_candidate_sampler(
        np.arange(10, dtype=np.int64).reshape(5, 2), 2, 4, False, 10)[1]], []),
]

# (name, fn(tf) building and running ops that must fail); `run` says whether the failure is at run time
ERROR_CASES = [
    ("sampler_not_matrix", True, lambda tf: tf.nn.uniform_candidate_sampler(tf.constant([1, 2], tf.int64), 1, 5,
                                                                             True, 6)),
    ("sampler_num_true", True, lambda tf: tf.nn.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int64), 1, 5,
                                                                           True, 6)),
    ("sampler_range_too_small", True, lambda tf: tf.nn.uniform_candidate_sampler(
        tf.constant([[1, 2]], tf.int64), 2, 7, True, 6)),
    ("sampler_true_out_of_range", True, lambda tf: tf.nn.log_uniform_candidate_sampler(
        tf.constant([[1, 9]], tf.int64), 2, 3, True, 6)),
    ("fixed_unigram_range", True, lambda tf: tf.nn.fixed_unigram_candidate_sampler(
        tf.constant([[1, 2]], tf.int64), 2, 3, True, 6, unigrams=[1, 2, 3])),
    ("sampler_int32_classes", False, lambda tf: tf.nn.uniform_candidate_sampler(
        tf.constant([[1, 2]], tf.int32), 2, 5, True, 6)),
]
