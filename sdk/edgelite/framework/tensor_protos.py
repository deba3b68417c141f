"""tf.make_tensor_proto / tf.make_ndarray: numpy values to and from TensorProto (TensorFlow's tensor.proto)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, tensor_shape
from edgelite.framework.graph_def import shape_proto, tensor_proto
from edgelite.summary.protos import TensorProto

# Value-list field holding each dtype's values when tensor_content is empty.
_VALUE_FIELDS = {
    dtypes.float32: "float_val", dtypes.float64: "double_val", dtypes.int32: "int_val", dtypes.int16: "int_val",
    dtypes.int8: "int_val", dtypes.uint8: "int_val", dtypes.uint16: "int_val", dtypes.int64: "int64_val",
    dtypes.bool: "bool_val", dtypes.string: "string_val",
}


def make_tensor_proto(values: Any, dtype: Any = None, shape: Any = None, verify_shape: bool = False,
                      allow_broadcast: bool = False) -> TensorProto:
    """A TensorProto of values (converted to dtype, reshaped or broadcast to shape as TensorFlow allows)."""
    want = dtypes.as_dtype(dtype) if dtype is not None else None
    if want is not None and want != dtypes.string:
        arr = np.asarray(values, dtype=want.as_numpy_dtype)
    else:
        arr = np.asarray(values)
        if arr.dtype.kind in "US":
            arr = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr)
        elif arr.dtype == np.float64 and want is None and not isinstance(values, np.ndarray):
            arr = arr.astype(np.float32)  # Python floats make a float32 tensor, as tf.constant does
        elif arr.dtype == np.int64 and want is None and not isinstance(values, np.ndarray):
            arr = arr.astype(np.int32) if np.all(np.abs(arr) < 2 ** 31) else arr
    if shape is not None:
        dims = [int(d) for d in tensor_shape.as_shape(shape).as_list()]
        if verify_shape and list(arr.shape) != dims:
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {arr.shape}.")
        count = int(np.prod(dims))
        if allow_broadcast and arr.size not in (1, count):
            # TF2's constant semantics: only a single value may be spread over the shape.
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {arr.shape}.")
        if arr.size > count:
            raise ValueError(f"Too many elements provided. Takes at most {count}, but got {arr.size}.")
        if arr.size < count and arr.dtype != object:
            # Fewer values than the shape holds are stored as a value list; readers repeat the last one.
            proto = tensor_proto(arr.reshape(-1)[:1].reshape(()))
            proto.tensor_shape = shape_proto(dims)
            field = _VALUE_FIELDS[dtypes.as_dtype(arr.dtype)]
            setattr(proto, field, arr.reshape(-1).tolist())
            return proto
        arr = arr.reshape(dims)
    if arr.dtype == object:
        proto = TensorProto(dtype=dtypes.string.as_datatype_enum, tensor_shape=shape_proto(arr.shape))
        proto.string_val.extend(s if isinstance(s, bytes) else str(s).encode() for s in arr.ravel())
        return proto
    return tensor_proto(arr)


def make_ndarray(tensor: TensorProto) -> np.ndarray:
    """The numpy array a TensorProto holds (raw content, or value lists repeated to fill the shape)."""
    if not isinstance(tensor, TensorProto):
        raise TypeError(f"Expected a TensorProto, got {type(tensor).__name__}")
    dt = dtypes.as_dtype(tensor.dtype)
    dims = [d.size for d in tensor.tensor_shape.dim]
    count = int(np.prod(dims))
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, dtype=np.dtype(dt.as_numpy_dtype).newbyteorder("<")) \
            .astype(dt.as_numpy_dtype).reshape(dims)
    field = _VALUE_FIELDS.get(dt)
    if field is None:
        raise TypeError(f"Unsupported tensor type: {dt.name}")
    items = list(getattr(tensor, field))
    numpy_dtype = object if dt == dtypes.string else dt.as_numpy_dtype
    if not items:
        return np.zeros(dims, dtype=numpy_dtype)
    values = np.array(items, dtype=numpy_dtype)
    if values.size < count:  # TensorFlow repeats the last value to fill the tensor
        values = np.concatenate([values, np.repeat(values[-1:], count - values.size)])
    return values[:count].reshape(dims)


def is_symbolic_tensor(tensor: Any) -> bool:
    """True for a graph Tensor (every edgelite Tensor is symbolic)."""
    from edgelite.framework.ops import Tensor

    return isinstance(tensor, Tensor)


def is_numeric_tensor(tensor: Any) -> bool:
    """True for a Tensor of a numeric dtype (ints, floats, complex, quantized)."""
    from edgelite.framework.ops import Tensor

    return isinstance(tensor, Tensor) and (tensor.dtype.base_dtype.is_floating or tensor.dtype.base_dtype.is_integer
                                           or tensor.dtype.base_dtype.is_complex
                                           or tensor.dtype.base_dtype.is_quantized)
