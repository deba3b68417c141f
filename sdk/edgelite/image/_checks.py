"""Static checks on image tensors with TensorFlow's error texts."""
from __future__ import annotations

from typing import Callable

from edgelite.framework import ops
from edgelite.ops import array_ops, check_ops, control_flow_ops, math_ops


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


def assert_at_least_3d(image: ops.Tensor) -> ops.Tensor:
    """image, after at_least_3d's static check and, while its rank or inner three sizes are unknown, TF's run-time
    asserts (sizes > 0, rank >= 3) as control dependencies: TF's _AssertAtLeast3DImage."""
    at_least_3d(image)
    shape = image.shape
    if shape.ndims is not None and shape[-3:].is_fully_defined():
        return image
    checks = [check_ops.assert_positive(array_ops.shape(image)[-3:], ["inner 3 dims of 'image.shape' must be > 0."]),
              check_ops.assert_greater_equal(array_ops.rank(image), 3,
                                             message="'image' must be at least three-dimensional.")]
    return control_flow_ops.with_dependencies(checks, image)


def by_rank(image: ops.Tensor, rank3: Callable[[], ops.Tensor], rank4: Callable[[], ops.Tensor],
            what: str) -> ops.Tensor:
    """rank3() or rank4() by the image's static rank; for an unknown rank a cond on the run-time rank (rank4 for
    every rank but 3, as TF does); ValueError with TF's text `what` for another static rank."""
    rank = image.shape.ndims
    if rank is None:
        return control_flow_ops.cond(math_ops.equal(array_ops.rank(image), 3), rank3, rank4)
    if rank == 3:
        return rank3()
    if rank == 4:
        return rank4()
    raise ValueError(what.format(shape=image.shape, rank=rank))
