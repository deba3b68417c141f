"""SparseTensor: a tensor given by the coordinates and values of its non-default entries (TF's COO layout)."""
from __future__ import annotations

import collections
from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util

SparseTensorValue = collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = "The numpy value of a SparseTensor: what Session.run returns and a sparse feed."


class SparseTensor:
    """dense[indices[i]] = values[i] in a tensor of shape dense_shape; every other entry is zero."""

    def __init__(self, indices: Any, values: Any, dense_shape: Any) -> None:
        with ops.name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            indices = ops.convert_to_tensor(indices, name="indices", dtype=dtypes.int64)
            values = ops.convert_to_tensor(values, name="values")
            dense_shape = ops.convert_to_tensor(dense_shape, name="dense_shape", dtype=dtypes.int64)
        indices_shape = indices.shape.with_rank(2)
        values_shape = values.shape.with_rank(1)
        dense_shape_shape = dense_shape.shape.with_rank(1)
        indices_shape[0].assert_is_compatible_with(values_shape[0])
        indices_shape[1].assert_is_compatible_with(dense_shape_shape[0])
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        self._dense_shape_default = tensor_util.constant_value_as_shape(dense_shape)

    @classmethod
    def from_value(cls, sparse_tensor_value: Any) -> "SparseTensor":
        """A SparseTensor from a SparseTensorValue (or a SparseTensor, returned as is)."""
        if not is_sparse(sparse_tensor_value):
            raise TypeError(f"Neither a SparseTensor nor SparseTensorValue: {sparse_tensor_value}.")
        return cls(sparse_tensor_value.indices, sparse_tensor_value.values, sparse_tensor_value.dense_shape)

    @property
    def indices(self) -> ops.Tensor:
        """int64 [N, rank]: the coordinates of the stored entries."""
        return self._indices

    @property
    def values(self) -> ops.Tensor:
        """[N]: the stored entries."""
        return self._values

    @property
    def dense_shape(self) -> ops.Tensor:
        """int64 [rank]: the shape of the dense tensor."""
        return self._dense_shape

    @property
    def dtype(self) -> dtypes.DType:
        """The element type."""
        return self._values.dtype

    @property
    def op(self) -> ops.Operation:
        """The op producing the values."""
        return self._values.op

    @property
    def graph(self) -> ops.Graph:
        """The graph holding the three component tensors."""
        return self._indices.graph

    @property
    def shape(self) -> tensor_shape.TensorShape:
        """The static shape of the dense tensor (what dense_shape's constant value or set_shape tells)."""
        return self._dense_shape_default

    def get_shape(self) -> tensor_shape.TensorShape:
        """The static shape of the dense tensor."""
        return self._dense_shape_default

    def set_shape(self, shape: Any) -> None:
        """Refine the static dense shape (ValueError if incompatible with what is known)."""
        self._dense_shape_default = self._dense_shape_default.merge_with(tensor_shape.as_shape(shape))

    def consumers(self) -> list:
        """The ops taking any of the three component tensors."""
        seen: dict = {}
        for t in (self._indices, self._values, self._dense_shape):
            for op in t.consumers():
                seen.setdefault(op.name, op)
        return list(seen.values())

    def eval(self, feed_dict: Optional[dict] = None, session: Any = None) -> SparseTensorValue:
        """Run the graph up to this tensor in a session (the default one if None)."""
        return ops.run_using_default_session(self, feed_dict, self.graph, session)

    def with_values(self, new_values: Any) -> "SparseTensor":
        """The same indices and dense_shape with other values."""
        new_values = ops.convert_to_tensor(new_values)
        new_values.shape.with_rank(1)[0].assert_is_compatible_with(self._values.shape[0])
        out = SparseTensor(self._indices, new_values, self._dense_shape)
        out._dense_shape_default = self._dense_shape_default
        return out

    def _as_graph_element(self) -> ops.Tensor:
        return self._values

    def __repr__(self) -> str:
        return f"SparseTensor(indices={self._indices}, values={self._values}, dense_shape={self._dense_shape})"

    __str__ = __repr__


def is_sparse(x: Any) -> bool:
    """True for a SparseTensor or a SparseTensorValue."""
    return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_to_tensor_or_sparse_tensor(value: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    """A SparseTensorValue becomes a SparseTensor, a SparseTensor stays, anything else goes to convert_to_tensor."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype and not dtype.is_compatible_with(value.dtype):
            raise RuntimeError(f"Sparse dtype mismatch. Requested: {dtype.name},  Actual: {value.dtype.name}")
        return value
    return ops.convert_to_tensor(value, dtype=dtype, name=name)


def as_sparse(sp_input: Any) -> SparseTensor:
    """The SparseTensor an op argument stands for (a SparseTensorValue is converted); TypeError otherwise."""
    if isinstance(sp_input, SparseTensorValue):
        return SparseTensor.from_value(sp_input)
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return sp_input


def _refuse_dense_conversion(value: SparseTensor, dtype: Any = None, name: Optional[str] = None,
                             as_ref: bool = False) -> ops.Tensor:
    raise TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a supported "
                    "type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")


ops.register_tensor_conversion_function(SparseTensor, _refuse_dense_conversion)
