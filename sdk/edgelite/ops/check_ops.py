"""tf.assert_* / tf.debugging checks (TensorFlow's check_ops): static checks raise while the graph is built,
everything else becomes an Assert op that raises InvalidArgumentError with TF's message when it runs."""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from edgelite.compat.text import bytes_or_text_types
from edgelite.framework import dtypes, errors, ops, tensor_util
from edgelite.ops import array_ops, math_ops
from edgelite.ops.control_flow_ops import no_op, with_dependencies
from edgelite.ops.logging_ops import Assert


def _message_prefix(message: Optional[str]) -> str:
    return f"{message}.  " if message else ""


def _static_string(item: Any) -> Any:
    """A data item for a build-time failure: constants as their values' text, other tensors unchanged."""
    if not isinstance(item, ops.Tensor):
        return str(item)
    value = tensor_util.constant_value(item)
    return item if value is None else str(value)


def _assert_static(condition: bool, data: list) -> None:
    if not condition:
        raise errors.InvalidArgumentError(None, None, "\n".join(str(_static_string(d)) for d in data))


def _binary_assert(sym: str, opname: str, op_func: Callable, static_func: Callable, x: Any, y: Any, data: Any,
                   summarize: Optional[int], message: Optional[str], name: Optional[str]) -> Any:
    """Assert op_func(x, y) everywhere; checked at once when both sides are constants."""
    with ops.name_scope(name, opname, [x, y, data]):
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y")
        if data is None:
            data = [f"Condition x {sym} y did not hold element-wise:", f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
        if message is not None:
            data = [message] + list(data)
        condition = math_ops.reduce_all(op_func(x, y))
        x_static, y_static = tensor_util.constant_value(x), tensor_util.constant_value(y)
        if x_static is not None and y_static is not None:
            _assert_static(bool(np.all(static_func(x_static, y_static))), data)
        return Assert(condition, data, summarize=summarize)


def assert_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None, message: Optional[str] = None,
                 name: Optional[str] = None) -> Any:
    """Assert x == y element-wise (a no_op when x is y)."""
    # TensorFlow opens the scope once for its x-is-y shortcut, so the check itself lands in assert_equal_1.
    with ops.name_scope(name, "assert_equal", [x, y, data]):
        if x is y:
            return no_op()
    return _binary_assert("==", "assert_equal", math_ops.equal, np.equal, x, y, data, summarize, message, name)


def assert_none_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                      message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x != y element-wise."""
    return _binary_assert("!=", "assert_none_equal", math_ops.not_equal, np.not_equal, x, y, data, summarize,
                          message, name)


def assert_less(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None, message: Optional[str] = None,
                name: Optional[str] = None) -> Any:
    """Assert x < y element-wise."""
    return _binary_assert("<", "assert_less", math_ops.less, np.less, x, y, data, summarize, message, name)


def assert_less_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                      message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x <= y element-wise."""
    return _binary_assert("<=", "assert_less_equal", math_ops.less_equal, np.less_equal, x, y, data, summarize,
                          message, name)


def assert_greater(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                   message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x > y element-wise."""
    return _binary_assert(">", "assert_greater", math_ops.greater, np.greater, x, y, data, summarize, message, name)


def assert_greater_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                         message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x >= y element-wise."""
    return _binary_assert(">=", "assert_greater_equal", math_ops.greater_equal, np.greater_equal, x, y, data,
                          summarize, message, name)


def _sign_assert(opname: str, sym: str, compare: Callable, zero_first: bool, x: Any, data: Any,
                 summarize: Optional[int], message: Optional[str], name: Optional[str]) -> Any:
    """x compared with 0 through assert_less / assert_less_equal, with TF's default message."""
    message = _message_prefix(message)
    with ops.name_scope(name, opname, [x, data]):
        x = ops.convert_to_tensor(x, name="x")
        if data is None:
            data = [message, f"Condition x {sym} 0 did not hold element-wise:", f"x ({x.name}) = ", x]
            if opname == "assert_non_positive":
                # TF 2.21's assert_non_positive joins these two strings (a missing comma in its source)
                data = [message, data[1] + data[2], x]
        zero = ops.convert_to_tensor(0, dtype=x.dtype)
        return compare(zero, x, data=data, summarize=summarize) if zero_first else \
            compare(x, zero, data=data, summarize=summarize)


def assert_negative(x: Any, data: Any = None, summarize: Optional[int] = None, message: Optional[str] = None,
                    name: Optional[str] = None) -> Any:
    """Assert x < 0 element-wise."""
    return _sign_assert("assert_negative", "<", assert_less, False, x, data, summarize, message, name)


def assert_positive(x: Any, data: Any = None, summarize: Optional[int] = None, message: Optional[str] = None,
                    name: Optional[str] = None) -> Any:
    """Assert x > 0 element-wise."""
    return _sign_assert("assert_positive", ">", assert_less, True, x, data, summarize, message, name)


def assert_non_negative(x: Any, data: Any = None, summarize: Optional[int] = None,
                        message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x >= 0 element-wise."""
    return _sign_assert("assert_non_negative", ">=", assert_less_equal, True, x, data, summarize, message, name)


def assert_non_positive(x: Any, data: Any = None, summarize: Optional[int] = None,
                        message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x <= 0 element-wise."""
    return _sign_assert("assert_non_positive", "<=", assert_less_equal, False, x, data, summarize, message, name)


def assert_near(x: Any, y: Any, rtol: Any = None, atol: Any = None, data: Any = None,
                summarize: Optional[int] = None, message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert |x - y| < atol + rtol * |y| element-wise (tolerances default to 10 * eps of the dtype)."""
    message = _message_prefix(message)
    with ops.name_scope(name, "assert_near", [x, y, rtol, atol, data]):
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype)
        dtype = x.dtype.base_dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = ops.convert_to_tensor(10 * eps if rtol is None else rtol, name="rtol", dtype=dtype)
        atol = ops.convert_to_tensor(10 * eps if atol is None else atol, name="atol", dtype=dtype)
        if data is None:
            data = [message, f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}", f"x ({x.name}) = ", x,
                    f"y ({y.name}) = ", y]
        tol = atol + rtol * math_ops.abs(y)
        condition = math_ops.reduce_all(math_ops.less(math_ops.abs(x - y), tol))
        return Assert(condition, data, summarize=summarize)


def _rank_condition(x: Any, rank: Any, static_condition: Callable, dynamic_condition: Callable, data: list,
                    summarize: Optional[int]) -> Any:
    """A no_op when the static ranks decide (ValueError if they fail), else an Assert on the run-time rank."""
    assert_type(rank, dtypes.int32)
    rank_static = tensor_util.constant_value(rank)
    if rank_static is not None:
        if np.ndim(rank_static) != 0:
            raise ValueError("Rank must be a scalar.")
        x_rank = x.get_shape().ndims
        if x_rank is not None:
            if not static_condition(x_rank, rank_static):
                raise ValueError("Static rank condition failed", x_rank, rank_static)
            return no_op(name="static_checks_determined_all_ok")
    condition = dynamic_condition(array_ops.rank(x), rank)
    if rank_static is None:
        rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ", rank])
        condition = with_dependencies([rank_check], condition)
    return Assert(condition, data, summarize=summarize)


def _rank_assert(opname: str, words: str, static_condition: Callable, dynamic_condition: Callable, x: Any,
                 rank: Any, data: Any, summarize: Optional[int], message: Optional[str],
                 name: Optional[str]) -> Any:
    with ops.name_scope(name, opname, [x, rank] + list(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        rank = ops.convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        if data is None:
            data = [message, f"Tensor {x.name} must have {words}", rank, "Received shape: ", array_ops.shape(x)]
        try:
            return _rank_condition(x, rank, static_condition, dynamic_condition, data, summarize)
        except ValueError as e:
            if e.args[0] != "Static rank condition failed":
                raise
            raise ValueError(f"{message}Tensor {x.name} must have {words} {int(e.args[2])}.  Received rank "
                             f"{e.args[1]}, shape {x.get_shape()}") from None


def assert_rank(x: Any, rank: Any, data: Any = None, summarize: Optional[int] = None,
                message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x has exactly the given rank (ValueError at build time when the static rank is wrong)."""
    return _rank_assert("assert_rank", "rank", lambda a, r: a == r, math_ops.equal, x, rank, data, summarize,
                        message, name)


def assert_rank_at_least(x: Any, rank: Any, data: Any = None, summarize: Optional[int] = None,
                         message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert x has at least the given rank."""
    return _rank_assert("assert_rank_at_least", "rank at least", lambda a, r: a >= r, math_ops.greater_equal, x,
                        rank, data, summarize, message, name)


def assert_rank_in(x: Any, ranks: Sequence[Any], data: Any = None, summarize: Optional[int] = None,
                   message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Assert the rank of x is one of ranks."""
    with ops.name_scope(name, "assert_rank_in", [x] + list(ranks) + list(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        ranks = [ops.convert_to_tensor(r, name="ranks") for r in ranks]
        message = _message_prefix(message)
        if data is None:
            data = [message, f"Tensor {x.name} must have rank in"] + list(ranks) + [
                "Received shape: ", array_ops.shape(x)]
        for r in ranks:
            assert_type(r, dtypes.int32)
        statics = [tensor_util.constant_value(r) for r in ranks]
        x_rank = x.get_shape().ndims
        if all(s is not None for s in statics):
            if any(np.ndim(s) != 0 for s in statics):
                raise ValueError("Rank must be a scalar.")
            if x_rank is not None:
                if x_rank not in [int(s) for s in statics]:
                    raise ValueError(f"{message}Tensor {x.name} must have rank in {tuple(int(s) for s in statics)}."
                                     f"  Received rank {x_rank}, shape {x.get_shape()}")
                return no_op(name="static_checks_determined_all_ok")
        actual = array_ops.rank(x)
        condition = math_ops.equal(ranks[0], actual)
        for r in ranks[1:]:
            condition = math_ops.logical_or(condition, math_ops.equal(r, actual))
        return Assert(condition, data, summarize=summarize)


def assert_integer(x: Any, message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """TypeError unless x has an integer dtype; a no_op otherwise."""
    with ops.name_scope(name, "assert_integer", [x]):
        x = ops.convert_to_tensor(x, name="x")
        if not x.dtype.is_integer:
            raise TypeError(f'{_message_prefix(message)}Expected "x" to be integer type.  Found: {x.name} of dtype '
                            f"{x.dtype}")
        return no_op("statically_determined_was_integer")


def assert_type(tensor: Any, tf_type: Any, message: Optional[str] = None, name: Optional[str] = None) -> Any:
    """TypeError unless tensor has dtype tf_type; a no_op otherwise."""
    tf_type = dtypes.as_dtype(tf_type)
    with ops.name_scope(name, "assert_type", [tensor]):
        if not hasattr(tensor, "indices"):
            tensor = ops.convert_to_tensor(tensor, name="tensor")
        if tensor.dtype != tf_type:
            raise TypeError(f"{_message_prefix(message)}{getattr(tensor, 'name', 'tensor')} must be of type "
                            f"{tf_type!r}; got {tensor.dtype!r}")
        return no_op("statically_determined_correct_type")


def assert_scalar(tensor: Any, name: Optional[str] = None, message: Optional[str] = None) -> Any:
    """tensor itself; ValueError unless its static shape is a scalar."""
    with ops.name_scope(name, "assert_scalar", [tensor]) as scope:
        tensor = ops.convert_to_tensor(tensor, name=scope)
        shape = tensor.get_shape()
        if shape.ndims != 0:
            raise ValueError(f"{_message_prefix(message)}Expected scalar shape for {tensor.name}, saw shape: "
                             f"{shape}.")
        return tensor


def assert_proper_iterable(values: Any) -> None:
    """TypeError for a Tensor, ndarray, string or other value that is not a proper iterable of values."""
    from edgelite.framework.sparse_tensor import SparseTensor

    if isinstance(values, (ops.Tensor, SparseTensor, np.ndarray) + bytes_or_text_types):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def _same_base_type(items: List[Any], expected: Any) -> Any:
    first_name = None
    for item in items:
        if item is None:
            continue
        item_type = item.dtype.base_dtype
        if not expected:
            expected = item_type
            first_name = getattr(item, "name", str(item))
        elif expected != item_type:
            raise ValueError(f"{getattr(item, 'name', str(item))}, type={item_type}, must be of the same type "
                             f"({expected}){f' as {first_name}' if first_name else ''}.")
    return expected


def assert_same_float_dtype(tensors: Optional[List[Any]] = None, dtype: Any = None) -> Any:
    """The common floating dtype of tensors (and dtype); float32 when there is none; ValueError otherwise."""
    if tensors:
        dtype = _same_base_type(list(tensors), dtype)
    if not dtype:
        return dtypes.float32
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype
