"""Static shapes: Dimension and TensorShape with TensorFlow's merge and compatibility rules."""
from __future__ import annotations

from typing import Any, Iterator, Optional


class Dimension:
    """One dimension of a TensorShape; value None means unknown."""

    __slots__ = ("_value",)

    def __init__(self, value: Any) -> None:
        if value is None or isinstance(value, Dimension) and value.value is None:
            self._value = None
            return
        if isinstance(value, Dimension):
            value = value.value
        if isinstance(value, bool) or isinstance(value, (str, bytes, float)):
            raise TypeError(f"Dimension value must be integer or None or have an __index__ method, "
                            f"got value '{value!r}' with type '{type(value)}'")
        try:
            self._value = int(value.__index__())
        except AttributeError:
            raise TypeError(f"Dimension value must be integer or None or have an __index__ method, "
                            f"got value '{value!r}' with type '{type(value)}'") from None
        if self._value < 0:
            raise ValueError(f"Dimension {self._value} must be >= 0")

    @property
    def value(self) -> Optional[int]:
        """The integer size, or None if unknown."""
        return self._value

    def __repr__(self) -> str:
        return f"Dimension({self._value!r})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)

    def __int__(self) -> int:
        return self._value  # type: ignore[return-value]

    def __index__(self) -> int:
        return self._value  # type: ignore[return-value]

    def __eq__(self, other: Any) -> Any:
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return None
        return self._value == other.value

    def __ne__(self, other: Any) -> Any:
        eq = self.__eq__(other)
        return eq if eq is None or eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._value)

    def is_compatible_with(self, other: Any) -> bool:
        """Two dimensions are compatible if either is unknown or they are equal."""
        other = as_dimension(other)
        return self._value is None or other.value is None or self._value == other.value

    def assert_is_compatible_with(self, other: Any) -> None:
        """Raise ValueError unless compatible."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other: Any) -> "Dimension":
        """n+n=n, n+?=n, ?+?=?, n+m raises ValueError."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(self._value if self._value is not None else other.value)

    def _arith(self, other: Any, fn: Any) -> "Dimension":
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other.value))

    def __add__(self, other: Any) -> "Dimension":
        return self._arith(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other: Any) -> "Dimension":
        return self._arith(other, lambda a, b: a - b)

    def __rsub__(self, other: Any) -> "Dimension":
        return self._arith(other, lambda a, b: b - a)

    def __mul__(self, other: Any) -> "Dimension":
        return self._arith(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other: Any) -> "Dimension":
        return self._arith(other, lambda a, b: a // b)

    def __mod__(self, other: Any) -> "Dimension":
        return self._arith(other, lambda a, b: a % b)

    def __lt__(self, other: Any) -> Optional[bool]:
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value < other.value

    def __le__(self, other: Any) -> Optional[bool]:
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value <= other.value

    def __gt__(self, other: Any) -> Optional[bool]:
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value > other.value

    def __ge__(self, other: Any) -> Optional[bool]:
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value >= other.value

    def __reduce__(self) -> tuple:
        return Dimension, (self._value,)


def as_dimension(value: Any) -> Dimension:
    """Convert an int, None or Dimension to a Dimension."""
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension: Any) -> Optional[int]:
    """The int value of a Dimension or int (None if unknown)."""
    return dimension.value if isinstance(dimension, Dimension) else dimension


def dimension_at_index(shape: "TensorShape", index: int) -> Dimension:
    """The Dimension of shape at index (an unknown Dimension when the rank is unknown)."""
    if shape.rank is None:
        return Dimension(None)
    return shape.dims[index]


class TensorShape:
    """The static (possibly partial) shape of a Tensor; dims None means unknown rank."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Any) -> None:
        if isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, (str, bytes)):
            raise TypeError(f"A string has ambiguous TensorShape, please wrap in a list or convert to an int: {dims}")
        else:
            try:
                it = iter(dims)
            except TypeError:
                self._dims = (dimension_value(as_dimension(dims)),)
                return
            self._dims = tuple(dimension_value(as_dimension(d)) for d in it)

    @property
    def dims(self) -> Optional[list]:
        """The list of Dimension objects (TF 1.x style), or None for unknown rank."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    @property
    def ndims(self) -> Optional[int]:
        """The rank, or None if unknown."""
        return None if self._dims is None else len(self._dims)

    @property
    def rank(self) -> Optional[int]:
        """The rank, or None if unknown."""
        return self.ndims

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        # TF1 (v1 TensorShape behaviour) lists Dimension objects: TensorShape([Dimension(None), Dimension(4)]).
        return f"TensorShape({[Dimension(d) for d in self._dims]})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        # TF1 prints an unknown dimension as "?": (?, 4).
        inner = ", ".join("?" if d is None else str(d) for d in self._dims)
        return f"({inner},)" if len(self._dims) == 1 else f"({inner})"

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self) -> bool:
        return self._dims is not None

    def __iter__(self) -> Iterator:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(Dimension(d) for d in self._dims)

    def __getitem__(self, key: Any) -> Any:
        if self._dims is not None:
            if isinstance(key, slice):
                return TensorShape(self._dims[key])
            return Dimension(self._dims[key])
        if isinstance(key, slice):
            start, stop = key.start, key.stop
            if (start is None or start >= 0) and stop is not None and stop >= 0 and key.step in (None, 1):
                return unknown_shape(max(stop - (start or 0), 0))
            return unknown_shape()
        return Dimension(None)

    def num_elements(self) -> Optional[int]:
        """Product of dims, None if not fully defined."""
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def merge_with(self, other: Any) -> "TensorShape":
        """The most specific shape compatible with both; ValueError if incompatible."""
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        try:
            self.assert_same_rank(other)
            return TensorShape([Dimension(a).merge_with(b) for a, b in zip(self._dims, other._dims)])
        except ValueError:
            raise ValueError(f"Shapes {self} and {other} are not compatible") from None

    def concatenate(self, other: Any) -> "TensorShape":
        """Shape with the dims of self followed by those of other."""
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return unknown_shape()
        return TensorShape(self._dims + other._dims)

    def assert_same_rank(self, other: Any) -> None:
        """ValueError if both ranks are known and differ."""
        other = as_shape(other)
        if self.ndims is not None and other.ndims is not None and self.ndims != other.ndims:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank: int) -> None:
        """ValueError if the rank is known and differs from rank."""
        if self.ndims not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank: int) -> "TensorShape":
        """This shape merged with an unknown shape of the given rank."""
        try:
            return self.merge_with(unknown_shape(rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank: int) -> "TensorShape":
        """This shape, ValueError if its known rank is below rank."""
        if self.ndims is not None and self.ndims < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> "TensorShape":
        """This shape, ValueError if its known rank is above rank."""
        if self.ndims is not None and self.ndims > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def is_compatible_with(self, other: Any) -> bool:
        """Whether the two shapes could describe the same tensor."""
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other: Any) -> None:
        """ValueError unless compatible."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def most_specific_compatible_shape(self, other: Any) -> "TensorShape":
        """The most specific shape that both shapes are compatible with."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return unknown_shape()
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def is_fully_defined(self) -> bool:
        """Whether rank and every dim are known."""
        return self._dims is not None and all(d is not None for d in self._dims)

    def assert_is_fully_defined(self) -> None:
        """ValueError unless fully defined."""
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def as_list(self) -> list:
        """The dims as a list of ints/None; ValueError for unknown rank."""
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def as_proto(self) -> Any:
        """This shape as a TensorShapeProto (unknown dims are -1), for NodeDef attrs and other protos."""
        from edgelite.framework.graph_def import shape_proto  # graph_def builds on this module
        return shape_proto(self)

    def __eq__(self, other: Any) -> bool:
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other: Any) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._dims)

    def __add__(self, other: Any) -> "TensorShape":
        return self.concatenate(other)

    def __radd__(self, other: Any) -> "TensorShape":
        return as_shape(other).concatenate(self)

    def __reduce__(self) -> tuple:
        return TensorShape, (None if self._dims is None else list(self._dims),)


def as_shape(shape: Any) -> TensorShape:
    """Convert a list/tuple/None/TensorShape to a TensorShape."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank: Optional[int] = None, ndims: Optional[int] = None) -> TensorShape:
    """A shape of unknown rank, or of known rank with unknown dims."""
    if ndims is not None:
        rank = ndims
    return TensorShape(None) if rank is None else TensorShape([None] * rank)


def scalar() -> TensorShape:
    """The shape of a scalar."""
    return TensorShape([])


def vector(length: Any) -> TensorShape:
    """A rank-1 shape."""
    return TensorShape([length])


def matrix(rows: Any, cols: Any) -> TensorShape:
    """A rank-2 shape."""
    return TensorShape([rows, cols])
