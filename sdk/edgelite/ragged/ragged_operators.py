"""Python operators on RaggedTensors: elementwise on the flat values when both sides share the row partitions
or the other side is a dense tensor of lower rank than the flat values (a scalar, a row of the inner shape)."""
from __future__ import annotations

import operator
from typing import Any, Callable

from edgelite.framework import ops
from edgelite.ops import check_ops
from edgelite.ops.control_flow_ops import with_dependencies


def _same_partitions(x: Any, y: Any) -> Any:
    """y's flat values, read only after checking that y's row splits equal x's at every level."""
    if x.ragged_rank != y.ragged_rank:
        raise ValueError(f"RaggedTensor operands of an elementwise operator need the same ragged_rank (row "
                         f"partitions); got {x.ragged_rank} and {y.ragged_rank}")
    if x.row_splits.dtype != y.row_splits.dtype:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    pairs = list(zip(x.nested_row_splits, y.nested_row_splits))
    if all(a is b for a, b in pairs):
        return y.flat_values
    checks = [check_ops.assert_equal(a, b, message="Inputs must have identical ragged splits") for a, b in pairs]
    return with_dependencies(checks, y.flat_values)


def _apply(fn: Callable, x: Any, y: Any) -> Any:
    """fn(x, y) with x a RaggedTensor: the result keeps x's row partitions."""
    from .ragged_tensor import RaggedTensor
    if isinstance(y, RaggedTensor):
        return x.with_flat_values(fn(x.flat_values, _same_partitions(x, y)))
    y = ops.convert_to_tensor(y, dtype_hint=x.dtype)
    flat_rank = x.flat_values.shape.ndims
    if y.shape.ndims is None or flat_rank is None or y.shape.ndims >= flat_rank:
        raise ValueError(f"An elementwise operator broadcasts a RaggedTensor only against a dense tensor of lower "
                         f"rank than its flat values (rank {flat_rank}); got shape {y.shape}")
    return x.with_flat_values(fn(x.flat_values, y))


def _binary(fn: Callable) -> Callable:
    def method(self: Any, other: Any) -> Any:
        return _apply(fn, self, other)
    return method


def _reflected(fn: Callable) -> Callable:
    def method(self: Any, other: Any) -> Any:
        return _apply(lambda a, b: fn(b, a), self, other)
    return method


def _unary(fn: Callable) -> Callable:
    def method(self: Any) -> Any:
        return self.with_flat_values(fn(self.flat_values))
    return method


_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
           "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "and": operator.and_,
           "or": operator.or_, "xor": operator.xor}
_COMPARE = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}


def install(cls: type) -> None:
    """Give cls (RaggedTensor) TensorFlow's ragged operators."""
    for name, fn in _BINARY.items():
        setattr(cls, f"__{name}__", _binary(fn))
        setattr(cls, f"__r{name}__", _reflected(fn))
    for name, fn in _COMPARE.items():
        setattr(cls, f"__{name}__", _binary(fn))
    cls.__neg__ = _unary(operator.neg)
    cls.__abs__ = _unary(abs)
    cls.__invert__ = _unary(operator.invert)
