"""tf.contrib.seq2seq.sequence_loss: weighted per-timestep cross entropy of [batch, time, classes] logits."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import ops
from edgelite.nn.xent_ops import sparse_softmax_cross_entropy_with_logits
from edgelite.ops import array_ops, math_ops


def _check_rank(tensor: ops.Tensor, rank: int, what: str) -> None:
    if tensor.shape.ndims != rank:
        raise ValueError(what)


def _weighted_mean(total: ops.Tensor, weights: ops.Tensor, axis: Any, count: bool) -> ops.Tensor:
    """sum / (sum of weights), or sum / (number of non-zero weights) when count; 0 where the divisor is 0."""
    if count:
        divisor = math_ops.cast(math_ops.count_nonzero(weights, axis=axis), total.dtype)
    else:
        divisor = math_ops.reduce_sum(weights, axis=axis)
    return math_ops.div_no_nan(total, divisor)


def sequence_loss(logits: Any, targets: Any, weights: Any, average_across_timesteps: bool = True,
                  average_across_batch: bool = True, sum_over_timesteps: bool = False, sum_over_batch: bool = False,
                  softmax_loss_function: Optional[Callable] = None, name: Optional[str] = None) -> ops.Tensor:
    """Cross entropy of each (batch, time) position times its weight, then averaged (by the weights' sum) or summed
    (divided by the count of non-zero weights) over the axes the flags name; a scalar with the defaults."""
    logits, targets, weights = (ops.convert_to_tensor(t) for t in (logits, targets, weights))
    _check_rank(logits, 3, "Logits must be a [batch_size x sequence_length x logits] tensor")
    _check_rank(targets, 2, "Targets must be a [batch_size x sequence_length] tensor")
    _check_rank(weights, 2, "Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")
    with ops.name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = array_ops.shape(logits)[2]
        flat_logits = array_ops.reshape(logits, [-1, num_classes])
        flat_targets = array_ops.reshape(targets, [-1])
        loss_fn = softmax_loss_function or sparse_softmax_cross_entropy_with_logits
        crossent = loss_fn(labels=flat_targets, logits=flat_logits) * array_ops.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return _weighted_mean(math_ops.reduce_sum(crossent), weights, None, count=False)
        if sum_over_timesteps and sum_over_batch:
            return _weighted_mean(math_ops.reduce_sum(crossent), weights, None, count=True)
        crossent = array_ops.reshape(crossent, array_ops.shape(logits)[0:2])
        # with one axis averaged (or summed), the flag of the other axis is not applied
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            return _weighted_mean(math_ops.reduce_sum(crossent, axis=axis), weights, axis, count=False)
        if sum_over_timesteps or sum_over_batch:
            axis = [0] if sum_over_batch else [1]
            return _weighted_mean(math_ops.reduce_sum(crossent, axis=axis), weights, axis, count=True)
        return crossent
