"""RaggedTensorSpec: the type of a ragged component of a tf.data element (shape, dtype, ragged_rank and
row-splits dtype); ragged_rank 0 is a dense slice of a ragged tensor, which batches back into a ragged one."""
from __future__ import annotations

from typing import Any

from edgelite.framework import dtypes, tensor_shape


class RaggedTensorSpec:
    """Type specification of a RaggedTensor."""

    def __init__(self, shape: Any = None, dtype: Any = dtypes.float32, ragged_rank: Any = None,
                 row_splits_dtype: Any = dtypes.int64) -> None:
        self._shape = tensor_shape.as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rank = self._shape.ndims
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank. Received: shape="
                                 f"{self._shape}, ragged_rank={ragged_rank}.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank ({rank}).")
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape, doc="The static shape.")
    dtype = property(lambda self: self._dtype, doc="The element type.")
    ragged_rank = property(lambda self: self._ragged_rank, doc="The number of ragged dimensions.")
    row_splits_dtype = property(lambda self: self._row_splits_dtype, doc="int32 or int64.")

    @classmethod
    def from_value(cls, value: Any) -> "RaggedTensorSpec":
        """The spec of a RaggedTensor."""
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

    def component_specs(self) -> list:
        """(dtype, shape) of the flat values and of each row_splits tensor, as the component tensors travel."""
        if self._ragged_rank == 0:
            return [(self._dtype, self._shape)]
        inner = self._shape[self._ragged_rank + 1:] if self._shape.ndims is not None else \
            tensor_shape.unknown_shape()
        flat = tensor_shape.TensorShape([None]).concatenate(inner)
        return [(self._dtype, flat)] + [(self._row_splits_dtype, tensor_shape.TensorShape([None]))] * \
            self._ragged_rank

    def from_components(self, tensors: list) -> Any:
        """The RaggedTensor (or, for ragged_rank 0, the Tensor) made of its component tensors."""
        from .ragged_tensor import RaggedTensor
        if self._ragged_rank == 0:
            return tensors[0]
        rt = RaggedTensor.from_nested_row_splits(tensors[0], tensors[1:], validate=False)
        return rt

    def batched(self, size: Any) -> "RaggedTensorSpec":
        """The spec of a batch of these: one more ragged dimension in front."""
        return RaggedTensorSpec(tensor_shape.TensorShape([size]).concatenate(self._shape), self._dtype,
                                self._ragged_rank + 1, self._row_splits_dtype)

    def unbatched(self) -> "RaggedTensorSpec":
        """The spec of one row of these."""
        shape = self._shape[1:] if self._shape.ndims is not None else self._shape
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank - 1, self._row_splits_dtype)

    def __eq__(self, other: Any) -> bool:
        def dims(s: Any) -> Any:
            return None if s.ndims is None else s.as_list()
        return (isinstance(other, RaggedTensorSpec) and dims(self._shape) == dims(other._shape)
                and self._dtype == other._dtype and self._ragged_rank == other._ragged_rank
                and self._row_splits_dtype == other._row_splits_dtype)

    def __hash__(self) -> int:
        return hash((self._dtype, self._ragged_rank, self._row_splits_dtype))

    def __repr__(self) -> str:
        dims = None if self._shape.ndims is None else \
            "[" + ", ".join(f"Dimension({d})" for d in self._shape.as_list()) + "]"
        return (f"RaggedTensorSpec(TensorShape({dims}), {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")


