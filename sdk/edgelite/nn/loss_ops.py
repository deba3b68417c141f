"""Per-example loss helpers of tf.nn: log_poisson_loss, compute_average_loss, scale_regularization_loss."""
from __future__ import annotations

import math
from typing import Any, Optional

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops


def log_poisson_loss(targets: Any, log_input: Any, compute_full_loss: bool = False,
                     name: Optional[str] = None) -> ops.Tensor:
    """Poisson negative log-likelihood exp(log_input) - log_input * targets, plus Stirling's approximation of
    log(targets!) for targets > 1 when compute_full_loss."""
    with ops.name_scope(name, "log_poisson_loss", [log_input, targets]) as name:
        log_input = ops.convert_to_tensor(log_input, name="log_input")
        targets = ops.convert_to_tensor(targets, name="targets")
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError(f"`log_input` and `targets` must have the same shape, received "
                             f"({log_input.shape} vs {targets.shape}).")
        result = math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = ops.convert_to_tensor(0.5, dtype=targets.dtype)
            two_pi = ops.convert_to_tensor(2 * math.pi, dtype=targets.dtype)
            stirling = targets * math_ops.log(targets) - targets + point_five * math_ops.log(two_pi * targets)
            zeros = array_ops.zeros_like(targets, dtype=targets.dtype)
            ones = array_ops.ones_like(targets, dtype=targets.dtype)
            small = math_ops.logical_and(targets >= zeros, targets <= ones)
            result += array_ops.where(small, zeros, stirling)
        return result


def compute_average_loss(per_example_loss: Any, sample_weight: Any = None,
                         global_batch_size: Any = None) -> ops.Tensor:
    """sum(per_example_loss * sample_weight) / global_batch_size (by default the batch size: one replica)."""
    per_example_loss = ops.convert_to_tensor(per_example_loss)
    dtype = per_example_loss.dtype
    if per_example_loss.shape.ndims == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={per_example_loss} with rank 0")
    if sample_weight is not None:
        # TF scales the losses in float32 whatever their dtype, then casts back
        per_example_loss = math_ops.cast(per_example_loss, dtypes.float32)
        sample_weight = math_ops.cast(ops.convert_to_tensor(sample_weight), dtypes.float32)
        lr, wr = per_example_loss.shape.ndims, sample_weight.shape.ndims
        if lr is not None and wr is not None and wr > 0:
            if wr - lr == 1:
                sample_weight = array_ops.squeeze(sample_weight, [-1])
            elif lr - wr == 1:
                sample_weight = array_ops.expand_dims(sample_weight, -1)
        per_example_loss = math_ops.cast(math_ops.multiply(per_example_loss, sample_weight), dtype)
    if global_batch_size is None:
        global_batch_size = array_ops.shape(per_example_loss)[0]
    with ops.name_scope(None, "assert_integer"):
        global_batch_size = ops.convert_to_tensor(global_batch_size, name="x")
    if global_batch_size.shape.ndims not in (None, 0):
        raise ValueError(f"global_batch_size must be scalar. Received shape {global_batch_size.shape}")
    if not global_batch_size.dtype.is_integer:
        raise TypeError(f'global_batch_size must be an integer..  Expected "x" to be integer type.  Found: '
                        f"{global_batch_size.name} of dtype <dtype: '{global_batch_size.dtype.name}'>")
    return math_ops.reduce_sum(per_example_loss) / math_ops.cast(global_batch_size, dtype)


def scale_regularization_loss(regularization_loss: Any) -> ops.Tensor:
    """The summed regularization loss divided by the number of replicas (one here)."""
    return math_ops.reduce_sum(regularization_loss) / 1
