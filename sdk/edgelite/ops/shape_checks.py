"""Static shape checks that raise TensorFlow's build-time ValueError texts (rank, equal dimensions)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import common_shapes
from edgelite.framework import tensor_shape


def shape_error(op: Any, reason: str) -> ValueError:
    """ValueError in TF's form: '<reason> for '<node>' (op: '<type>') with input shapes: [..], [..].'"""
    shapes = ", ".join(common_shapes.format_shape(t.shape) for t in op.inputs)
    return ValueError(f"{reason} for '{op.name}' (op: '{op.type}') with input shapes: {shapes}.")


def with_rank(op: Any, i: int, rank: int) -> tensor_shape.TensorShape:
    """Input i's shape, which must have exactly `rank` dimensions when its rank is known."""
    s = op.inputs[i].shape
    if s.ndims is None:
        return tensor_shape.TensorShape([None] * rank)
    if s.ndims != rank:
        raise shape_error(op, f"Shape must be rank {rank} but is rank {s.ndims}")
    return s


def with_rank_at_least(op: Any, i: int, rank: int) -> tensor_shape.TensorShape:
    """Input i's shape, which must have at least `rank` dimensions when its rank is known."""
    s = op.inputs[i].shape
    if s.ndims is not None and s.ndims < rank:
        raise shape_error(op, f"Shape must be at least rank {rank} but is rank {s.ndims}")
    return s


def with_rank_at_most(op: Any, i: int, rank: int) -> tensor_shape.TensorShape:
    """Input i's shape, which must have at most `rank` dimensions when its rank is known."""
    s = op.inputs[i].shape
    if s.ndims is not None and s.ndims > rank:
        raise shape_error(op, f"Shape must be at most rank {rank} but is rank {s.ndims}")
    return s


def merge_dim(op: Any, a: Optional[int], b: Optional[int]) -> Optional[int]:
    """The known one of two dimensions that must agree ('Dimensions must be equal' otherwise)."""
    if a is not None and b is not None and a != b:
        raise shape_error(op, f"Dimensions must be equal, but are {a} and {b}")
    return a if a is not None else b

