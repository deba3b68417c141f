"""nce_loss and sampled_softmax_loss: training losses over the true classes and a sample of negative classes
instead of the whole output vocabulary."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops, variables

from .candidate_sampling_ops import compute_accidental_hits, log_uniform_candidate_sampler
from .embedding_ops import embedding_lookup
from .xent_ops import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2


_HIT_WEIGHT = np.float32(-np.finfo(np.float32).max)


def _sum_rows(x: ops.Tensor) -> ops.Tensor:
    """Row sums of a matrix as a vector (a matmul with ones, which has a cheap gradient)."""
    cols = array_ops.shape(x)[1]
    ones = array_ops.ones(array_ops.stack([cols, 1]), x.dtype)
    return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def _accidental_hit_mask(labels: ops.Tensor, sampled: ops.Tensor, num_true: int, num_sampled: int,
                         dtype: dtypes.DType) -> ops.Tensor:
    """[batch, num_sampled]: -FLT_MAX where a sampled class is one of the row's true classes, else 0."""
    indices, ids, weights = compute_accidental_hits(labels, sampled, num_true=num_true)
    sparse_indices = array_ops.concat([array_ops.reshape(indices, [-1, 1]),
                                       array_ops.reshape(math_ops.cast(ids, dtypes.int32), [-1, 1])], 1,
                                      "sparse_indices")
    shape = array_ops.concat([array_ops.shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
    # a hit listed twice (a row repeating a true class) is set once, not added twice
    hits = array_ops.scatter_nd(sparse_indices, array_ops.ones_like(weights), shape)
    return array_ops.where(math_ops.greater(hits, 0), array_ops.fill(shape, math_ops.cast(_HIT_WEIGHT, dtype)),
                           array_ops.zeros(shape, dtype))


def compute_sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
                           num_classes: int, num_true: int = 1, sampled_values: Any = None,
                           subtract_log_q: bool = True, remove_accidental_hits: bool = False,
                           partition_strategy: str = "mod", name: Optional[str] = None,
                           seed: Optional[int] = None) -> tuple:
    """(logits [batch, num_true + num_sampled], labels of the same shape) for the true and sampled classes."""
    if isinstance(weights, variables.PartitionedVariable):
        weights = list(weights)
    if not isinstance(weights, list):
        weights = [weights]
    with ops.name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = ops.convert_to_tensor(labels)
        inputs = ops.convert_to_tensor(inputs)
        if labels.dtype != dtypes.int64:
            labels = math_ops.cast(labels, dtypes.int64)
        labels_flat = array_ops.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(true_classes=labels, num_true=num_true,
                                                           num_sampled=num_sampled, unique=True,
                                                           range_max=num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (array_ops.stop_gradient(s) for s in sampled_values)
        sampled = math_ops.cast(sampled, dtypes.int64)
        all_ids = array_ops.concat([labels_flat, sampled], 0)
        all_w = embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        if all_w.dtype != inputs.dtype:
            all_w = math_ops.cast(all_w, inputs.dtype)
        n_true = array_ops.shape(labels_flat)[0]
        true_w = array_ops.slice(all_w, [0, 0], array_ops.stack([n_true, -1]))
        sampled_w = array_ops.slice(all_w, array_ops.stack([n_true, 0]), [-1, -1])
        sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)
        all_b = embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype != inputs.dtype:
            all_b = math_ops.cast(all_b, inputs.dtype)
        true_b = array_ops.slice(all_b, [0], array_ops.shape(labels_flat))
        sampled_b = array_ops.slice(all_b, array_ops.shape(labels_flat), [-1])
        dim = array_ops.shape(true_w)[1:2]
        row_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1),
                                     array_ops.reshape(true_w, array_ops.concat([[-1, num_true], dim], 0)))
        dots = array_ops.reshape(row_dots, array_ops.concat([[-1], dim], 0))
        true_logits = array_ops.reshape(_sum_rows(dots), [-1, num_true])
        true_logits += array_ops.reshape(true_b, [-1, num_true])
        sampled_logits += sampled_b
        if remove_accidental_hits:
            sampled_logits += _accidental_hit_mask(labels, sampled, num_true, num_sampled, sampled_logits.dtype)
        if subtract_log_q:
            true_logits -= math_ops.log(true_expected_count)
            sampled_logits -= math_ops.log(sampled_expected_count)
        out_logits = array_ops.concat([true_logits, sampled_logits], 1)
        out_labels = array_ops.concat([array_ops.ones_like(true_logits) / num_true,
                                       array_ops.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


def nce_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
             num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = False,
             partition_strategy: str = "mod", name: str = "nce_loss") -> ops.Tensor:
    """Per-example noise-contrastive estimation loss: logistic loss of the true classes against num_sampled
    classes from the (by default log-uniform) noise distribution, logits corrected by log expected counts."""
    logits, labels = compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                                            num_true=num_true, sampled_values=sampled_values, subtract_log_q=True,
                                            remove_accidental_hits=remove_accidental_hits,
                                            partition_strategy=partition_strategy, name=name)
    sampled_losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="sampled_losses")
    return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                         num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = True,
                         partition_strategy: str = "mod", name: str = "sampled_softmax_loss",
                         seed: Optional[int] = None) -> ops.Tensor:
    """Per-example softmax cross-entropy over the true classes and num_sampled sampled classes."""
    logits, labels = compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                                            num_true=num_true, sampled_values=sampled_values, subtract_log_q=True,
                                            remove_accidental_hits=remove_accidental_hits,
                                            partition_strategy=partition_strategy, name=name, seed=seed)
    labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
