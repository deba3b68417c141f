"""The Const op, tf.constant with TF's dtype inference, and conversion of Python/numpy values to tensors."""
from __future__ import annotations

import numbers
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.op_def_registry import register_op

_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1


def _python_dtype(value: Any) -> Optional[np.dtype]:
    """The numpy dtype TF infers for nested Python scalars (float->float32, int->int32/int64)."""
    kinds = set()
    big = False

    def walk(v: Any) -> None:
        nonlocal big
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, (bool, np.bool_)):
            kinds.add("b")
        elif isinstance(v, (np.generic, np.ndarray)):
            kinds.add(("np", np.asarray(v).dtype))
        elif isinstance(v, numbers.Integral):
            kinds.add("i")
            if not _INT32_MIN <= int(v) <= _INT32_MAX:
                big = True
        elif isinstance(v, numbers.Real):
            kinds.add("f")
        elif isinstance(v, numbers.Complex):
            kinds.add("c")
        elif isinstance(v, (str, bytes)):
            kinds.add("s")
        else:
            raise TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider casting elements to a "
                            "supported type.")

    walk(value)
    np_kinds = [k[1] for k in kinds if isinstance(k, tuple)]
    if np_kinds and len(kinds) == len(np_kinds):
        return np.result_type(*np_kinds)
    if "s" in kinds:
        if kinds != {"s"}:
            raise TypeError(f"Failed to convert elements of {value!r} to Tensor.")
        return np.dtype(object)
    if "c" in kinds:
        return np.dtype(np.complex128)
    if "f" in kinds or any(k.kind == "f" for k in np_kinds):
        return np.dtype(np.float32)
    if "i" in kinds:
        return np.dtype(np.int64 if big else np.int32)
    if kinds == {"b"}:
        return np.dtype(np.bool_)
    return np.dtype(np.float32)


def _check_python_compatible(value: Any, dtype: dtypes.DType) -> None:
    """TypeError when Python values cannot be represented without changing kind (e.g. 1.5 as int32)."""
    def walk(v: Any) -> None:
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
            return
        if isinstance(v, (np.generic, np.ndarray)):
            return
        ok = True
        if dtype.is_bool:
            ok = isinstance(v, (bool, np.bool_))
        elif dtype.is_integer:
            ok = isinstance(v, numbers.Integral) and not isinstance(v, bool)
        elif dtype.is_floating:
            ok = isinstance(v, numbers.Real) and not isinstance(v, bool)
        elif dtype.is_complex:
            ok = isinstance(v, numbers.Complex) and not isinstance(v, bool)
        elif dtype == dtypes.string:
            ok = isinstance(v, (str, bytes))
        if not ok:
            raise TypeError(f"Expected {dtype.name}, but got {v!r} of type '{type(v).__name__}'.")
        if dtype.is_integer and not dtype.min <= int(v) <= dtype.max:
            raise TypeError(f"Value {v} out of range for {dtype.name}")

    walk(value)


def _dimensions_to_ints(value: Any) -> Any:
    if isinstance(value, tensor_shape.Dimension):
        if value.value is None:
            raise ValueError(f"Cannot convert an unknown Dimension to a Tensor: {value}")
        return value.value
    if isinstance(value, (list, tuple)):
        return [_dimensions_to_ints(v) for v in value]
    return value


def _is_array_like(value: Any) -> bool:
    """Objects other than Python and numpy values that expose `__array__` (a pandas Series, say): TF stores them
    as their numpy array."""
    return hasattr(value, "__array__") and not isinstance(value, (np.ndarray, np.generic, ops.Tensor))


def to_numpy(value: Any, dtype: Any = None) -> np.ndarray:
    """The numpy array TF would store for value (optionally of dtype)."""
    if _is_array_like(value):
        value = np.asarray(value)
    if isinstance(value, (list, tuple)):
        value = _dimensions_to_ints(value)
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype).base_dtype
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        arr = np.asarray(value)
        if arr.dtype.kind in ("U", "S", "O"):
            # object arrays of str hold text as TF does: utf-8 bytes, so they compare equal to string constants
            arr = _as_bytes_array(arr)
        if dtype is not None:
            if dtype == dtypes.string:
                return arr.astype(object)
            return arr.astype(dtype.as_numpy_dtype)
        return arr
    if dtype is not None:
        _check_python_compatible(value, dtype)
        if dtype == dtypes.string:
            return _as_bytes_array(value)
        return np.array(value, dtype=dtype.as_numpy_dtype)
    npd = _python_dtype(value)
    if npd == np.dtype(object):
        return _as_bytes_array(value)
    return np.array(value, dtype=npd)


def _as_bytes_array(value: Any) -> np.ndarray:
    arr = np.array(value, dtype=object)
    return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr) \
        if arr.size else arr


def _const_kernel(ctx: Any) -> np.ndarray:
    return ctx.attrs["value"]


def _const_shape(op: Any) -> list:
    return [tensor_shape.TensorShape(op.get_attr("value").shape)]


register_op("Const", inputs=[], outputs=["output: dtype"], kernel=_const_kernel, shape_fn=_const_shape)


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str = "Const",
             verify_shape: bool = False) -> ops.Tensor:
    """A constant tensor from a Python or numpy value (TF 1.x tf.constant)."""
    arr = to_numpy(value, dtype)
    if shape is not None:
        shape = tensor_shape.as_shape(shape).as_list()
        n = int(np.prod(shape, dtype=np.int64))
        if verify_shape and list(arr.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {arr.shape}.")
        if arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == n:
            arr = arr.reshape(shape)
        elif arr.size > n:
            raise TypeError(f"Too many elements provided. Needed at most {n}, but received {arr.size}")
        else:
            raise ValueError(f"Expected {n} elements for a tensor of shape {tuple(shape)}, got {arr.size}")
    arr.setflags(write=False)
    dt = dtypes.as_dtype(arr.dtype) if dtype is None else dtypes.as_dtype(dtype).base_dtype
    g = ops.get_default_graph()
    op = g.create_op("Const", [], [dt], name=name, attrs={"value": arr, "dtype": dt})
    return op.outputs[0]


def _constant_conversion(value: Any, dtype: Any = None, name: Optional[str] = None,
                         as_ref: bool = False) -> ops.Tensor:
    return constant(value, dtype=dtype, name=name or "Const")


def _array_like_conversion(value: Any, dtype: Any = None, name: Optional[str] = None,
                            as_ref: bool = False) -> Any:
    """Any other object exposing `__array__` converts as its numpy array, as in TF."""
    if not _is_array_like(value):
        return NotImplemented
    return constant(value, dtype=dtype, name=name or "Const")


def _shape_conversion(value: Any, dtype: Any = None, name: Optional[str] = None, as_ref: bool = False) -> Any:
    if isinstance(value, tensor_shape.Dimension):
        if value.value is None:
            raise ValueError(f"Cannot convert an unknown Dimension to a Tensor: {value}")
        return constant(value.value, dtype=dtype or dtypes.int32, name=name or "Const")
    if not value.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape to a Tensor: {value}")
    dims = value.as_list()
    if dtype is None:
        dtype = dtypes.int64 if any(d > _INT32_MAX for d in dims) else dtypes.int32
    return constant(dims, dtype=dtype, name=name or "shape_as_tensor")


ops.register_tensor_conversion_function((list, tuple), _constant_conversion, 100)
ops.register_tensor_conversion_function((np.ndarray, np.generic), _constant_conversion, 100)
ops.register_tensor_conversion_function((int, float, bool, complex, str, bytes), _constant_conversion, 100)
ops.register_tensor_conversion_function(numbers.Number, _constant_conversion, 100)
ops.register_tensor_conversion_function((tensor_shape.TensorShape, tensor_shape.Dimension), _shape_conversion, 100)
ops.register_tensor_conversion_function(object, _array_like_conversion, 200)
