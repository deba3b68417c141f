"""tf.sparse_placeholder: a SparseTensor whose three components are fed together."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops


def sparse_placeholder(dtype: Any, shape: Any = None, name: Optional[str] = None) -> SparseTensor:
    """A SparseTensor to feed with a SparseTensorValue or an (indices, values, dense_shape) tuple."""
    dtype = dtypes.as_dtype(dtype)
    shape_name = None if name is None else name + "/shape"
    if shape is None:
        rank = None
        dense_shape = array_ops.placeholder(dtypes.int64, shape=[rank], name=shape_name)
        static = tensor_shape.unknown_shape()
    else:
        if isinstance(shape, ops.Tensor):
            rank = shape.shape[0].value
            static = tensor_util.constant_value_as_shape(shape)
        else:
            dims = [tensor_shape.dimension_value(d) for d in shape]
            rank = len(dims)
            static = tensor_shape.TensorShape([None if d is None or d == -1 else d for d in dims])
            shape = ops.convert_to_tensor([-1 if d is None else d for d in dims], dtype=dtypes.int64,
                                          name=None if name is None else name + "/shape_default")
        # A placeholder_with_default keeps the shape feedable while the default supplies known dims.
        dense_shape = array_ops.placeholder_with_default(shape, shape=shape.shape, name=shape_name)
    result = SparseTensor(
        values=array_ops.placeholder(dtype, shape=[None], name=None if name is None else name + "/values"),
        indices=array_ops.placeholder(dtypes.int64, shape=[None, rank],
                                      name=None if name is None else name + "/indices"),
        dense_shape=dense_shape)
    result.set_shape(static)
    return result
