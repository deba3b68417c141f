"""Dataset.window: elements that are themselves datasets (one per component), consumed by flat_map/interleave.

A window element travels as one Python list per component (that component's values in the window); inside a
traced function the component is a `WindowComponent` dataset that replays the list it is given.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Iterator

from edgelite.framework import errors, ops, tensor_shape

from .dataset_ops import DatasetV1, Env, TensorSpec, _int_value, _scalar_int, _tensor_inputs, _Unary


class DatasetSpec:
    """Type specification of a dataset-valued component: its element spec and the dataset's shape."""

    def __init__(self, element_spec: Any, dataset_shape: Any = ()) -> None:
        self._element_spec = element_spec
        self._dataset_shape = tensor_shape.as_shape(dataset_shape)

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, DatasetSpec) and self._element_spec == other._element_spec and \
            self._dataset_shape.as_list() == other._dataset_shape.as_list()

    def __repr__(self) -> str:
        return f"DatasetSpec({self._element_spec!r}, {self._dataset_shape!r})"


class WindowComponent(DatasetV1):
    """One component of a window inside a traced function: replays that component's values of the window."""

    def __init__(self, dtype: Any, shape: Any) -> None:
        super().__init__(dtype, [dtype], [shape])

    def _gen(self, env: Env) -> Iterator[list]:
        for value in env.values[id(self)]:
            yield [value]


class WindowDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, size: Any, shift: Any, stride: Any, drop_remainder: bool) -> None:
        if any(c is not ops.Tensor for c in input_dataset._flat_classes):
            raise TypeError("edgelite's Dataset.window takes datasets of dense tensors only")
        self._size = _scalar_int(size, "size")
        self._shift = self._size if shift is None else _scalar_int(shift, "shift")
        self._stride = _scalar_int(stride, "stride")
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes, _tensor_inputs(self._size, self._shift, self._stride),
                         [DatasetSpec] * len(input_dataset._flat_types))
        self._drop = bool(drop_remainder)

    def _gen(self, env: Env) -> Iterator[list]:
        size, shift, stride = (_int_value(env, v) for v in (self._size, self._shift, self._stride))
        for what, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise errors.InvalidArgumentError(None, None, f"Window {what} must be greater than zero.")
        span = (size - 1) * stride + 1
        buf: deque = deque()
        skip = 0  # input elements to drop before the next window starts (shift past the buffered ones)
        source = self._input._gen(env)
        ended = False
        while True:
            while not ended and len(buf) < span:
                try:
                    element = next(source)
                except StopIteration:
                    ended = True
                    break
                if skip:
                    skip -= 1
                    continue
                buf.append(element)
            if not buf or (ended and self._drop and len(buf) < span):
                return
            items = [buf[i] for i in range(0, len(buf), stride)][:size]
            yield [[it[c] for it in items] for c in range(len(self._flat_types))]
            removed = min(shift, len(buf))
            for _ in range(removed):
                buf.popleft()
            skip = shift - removed


def window_specs(ds: DatasetV1) -> list:
    """The DatasetSpec of each window component."""
    return [DatasetSpec(TensorSpec(s, t)) for s, t in zip(ds._flat_shapes, ds._flat_types)]
