"""Static checks on image tensors with TensorFlow's error texts."""
from __future__ import annotations

from edgelite.framework import ops


def at_least_3d(image: ops.Tensor) -> None:
    """ValueError unless image can have at least three dimensions, none of the last three zero."""
    shape = image.shape
    try:
        shape = shape.with_rank(3) if shape.ndims is None else shape.with_rank_at_least(3)
    except ValueError:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.") from None
    if shape.ndims is not None and any(d.value == 0 for d in shape.dims[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {shape}")


def input_ranks(op: ops.Operation, ranks: list) -> None:
    """Shape-function check: ValueError with TF's text unless each input with a known rank has the given one."""
    for t, rank in zip(op.inputs, ranks):
        nd = t.shape.ndims
        if nd is not None and nd != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {nd} for '{op.name}' (op: '{op.type}') "
                             f"with input shapes: {[x.shape.as_list() for x in op.inputs]}.")


def rank_3_or_4(image: ops.Tensor, what: str) -> int:
    """The static rank of image, which must be 3 or 4 (ValueError with TF's text for `what` otherwise)."""
    rank = image.shape.ndims
    if rank not in (3, 4):
        raise ValueError(what.format(shape=image.shape, rank=rank))
    return rank
