"""Keras merge layers (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate) and their functions."""
from __future__ import annotations

from typing import Any, List

from edgelite.framework import tensor_shape
from edgelite.ops import array_ops, math_ops

from ..engine.base_layer import Layer


class _Merge(Layer):
    """Combines a list of at least two tensors of compatible shapes element-wise."""

    def _check_inputs(self, inputs: Any) -> List[Any]:
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                             "(not a list of tensors)")
        if len(inputs) < 2:
            raise ValueError(f"A merge layer should be called on a list of at least 2 inputs. Got {len(inputs)} "
                             "inputs.")
        return list(inputs)

    def build(self, input_shape: Any) -> None:
        """Checks that the non-batch shapes broadcast against each other."""
        shapes = [tensor_shape.as_shape(s) for s in self._check_inputs(input_shape)]
        out = shapes[0][1:]
        for s in shapes[1:]:
            other = s[1:]
            if out.ndims is None or other.ndims is None or out.ndims != other.ndims:
                continue
            dims = []
            for a, b in zip(out.as_list(), other.as_list()):
                if a is not None and b is not None and a != b and 1 not in (a, b):
                    raise ValueError(f"Inputs have incompatible shapes. Received shapes {_tuple(out)} and "
                                     f"{_tuple(other)}")
                dims.append(b if a in (None, 1) else a)
            out = tensor_shape.TensorShape(dims)
        self.built = True

    def call(self, inputs: Any) -> Any:
        """Folds the inputs with the layer's binary op."""
        inputs = self._check_inputs(inputs)
        return self._merge(inputs)


def _tuple(shape: Any) -> str:
    dims = shape.as_list()
    return "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _fold(fn: Any, inputs: list) -> Any:
    out = inputs[0]
    for x in inputs[1:]:
        out = fn(out, x)
    return out


class Add(_Merge):
    """Sum of the inputs."""

    def _merge(self, inputs: list) -> Any:
        return _fold(math_ops.add, inputs)


class Subtract(_Merge):
    """inputs[0] - inputs[1] (exactly two inputs)."""

    def _merge(self, inputs: list) -> Any:
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        return math_ops.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """Element-wise product of the inputs."""

    def _merge(self, inputs: list) -> Any:
        return _fold(math_ops.multiply, inputs)


class Average(_Merge):
    """Element-wise mean of the inputs."""

    def _merge(self, inputs: list) -> Any:
        return _fold(math_ops.add, inputs) / len(inputs)


class Maximum(_Merge):
    """Element-wise maximum of the inputs."""

    def _merge(self, inputs: list) -> Any:
        return _fold(math_ops.maximum, inputs)


class Minimum(_Merge):
    """Element-wise minimum of the inputs."""

    def _merge(self, inputs: list) -> Any:
        return _fold(math_ops.minimum, inputs)


class Concatenate(_Merge):
    """Concatenation along `axis` (default the last); other axes must match."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape: Any) -> None:
        """Checks that all shapes agree except on the concatenation axis."""
        shapes = [tensor_shape.as_shape(s) for s in self._check_inputs(input_shape)]
        ranks = {s.ndims for s in shapes if s.ndims is not None}
        shown = [tuple(s.as_list()) for s in shapes]
        bad = len(ranks) > 1
        if not bad and ranks:
            rank = ranks.pop()
            axis = self.axis % rank
            for i in range(rank):
                if i == axis:
                    continue
                sizes = {s.as_list()[i] for s in shapes} - {None}
                bad = bad or len(sizes) > 1
        if bad:
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes except for the "
                             f"concatenation axis. Received: input_shape={shown}")
        self.built = True

    def _merge(self, inputs: list) -> Any:
        return array_ops.concat(inputs, axis=self.axis)

    def get_config(self) -> dict:
        return dict(super().get_config(), axis=self.axis)


def add(inputs: list, **kwargs: Any) -> Any:
    """Add()(inputs)."""
    return Add(**kwargs)(inputs)


def subtract(inputs: list, **kwargs: Any) -> Any:
    """Subtract()(inputs)."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs: list, **kwargs: Any) -> Any:
    """Multiply()(inputs)."""
    return Multiply(**kwargs)(inputs)


def average(inputs: list, **kwargs: Any) -> Any:
    """Average()(inputs)."""
    return Average(**kwargs)(inputs)


def maximum(inputs: list, **kwargs: Any) -> Any:
    """Maximum()(inputs)."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs: list, **kwargs: Any) -> Any:
    """Minimum()(inputs)."""
    return Minimum(**kwargs)(inputs)


def concatenate(inputs: list, axis: int = -1, **kwargs: Any) -> Any:
    """Concatenate(axis)(inputs)."""
    return Concatenate(axis=axis, **kwargs)(inputs)
