"""tf.contrib.legacy_seq2seq's losses over per-timestep lists of logits, targets and weights."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from edgelite.framework import ops
from edgelite.nn.xent_ops import sparse_softmax_cross_entropy_with_logits
from edgelite.ops import array_ops, math_ops

# Added to the summed weights so that all-zero weights divide to zero rather than NaN.
_EPSILON = 1e-12


def sequence_loss_by_example(logits: Sequence[Any], targets: Sequence[Any], weights: Sequence[Any],
                             average_across_timesteps: bool = True, softmax_loss_function: Optional[Callable] = None,
                             name: Optional[str] = None) -> ops.Tensor:
    """Per-example [batch] sum over timesteps of weight * cross entropy, divided by the summed weights (+1e-12)
    when average_across_timesteps."""
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError(f"Lengths of logits, weights, and targets must be the same {len(logits)}, {len(weights)}, "
                         f"{len(targets)}.")
    with ops.name_scope(name, "sequence_loss_by_example", list(logits) + list(targets) + list(weights)):
        terms = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                # a target may be given as a scalar per step: the reshape makes it the [batch] vector the op needs
                crossent = sparse_softmax_cross_entropy_with_logits(labels=array_ops.reshape(target, [-1]),
                                                                    logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            terms.append(crossent * weight)
        log_perps = math_ops.add_n(terms)
        if average_across_timesteps:
            log_perps /= math_ops.add_n(list(weights)) + _EPSILON
    return log_perps


def sequence_loss(logits: Sequence[Any], targets: Sequence[Any], weights: Sequence[Any],
                  average_across_timesteps: bool = True, average_across_batch: bool = True,
                  softmax_loss_function: Optional[Callable] = None, name: Optional[str] = None) -> ops.Tensor:
    """The summed sequence_loss_by_example, divided by the batch size (the first target's length) by default."""
    with ops.name_scope(name, "sequence_loss", list(logits) + list(targets) + list(weights)):
        cost = math_ops.reduce_sum(sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=average_across_timesteps,
            softmax_loss_function=softmax_loss_function))
        if not average_across_batch:
            return cost
        batch_size = array_ops.shape(targets[0])[0]
        return cost / math_ops.cast(batch_size, cost.dtype)
