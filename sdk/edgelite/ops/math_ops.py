"""Math ops: elementwise arithmetic, comparisons, logic, matmul, reductions, casts, ranges, segments."""
from __future__ import annotations

import builtins
import functools
from typing import Any, Callable, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import constant_op
from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import (
    FLOAT_COMPLEX_TYPES, FLOAT_TYPES, NUMBER_TYPES, REAL_NUMBER_TYPES, register_op,
)
from edgelite.kernels import matmul as native_matmul
from edgelite.ops import array_ops
from edgelite.ops.list_value import TensorListValue

TensorShape = tensor_shape.TensorShape
_BOOL = (dtypes.bool,)


def _erf(x: np.ndarray) -> np.ndarray:
    """Gauss error function; numpy has none, so math.erf is applied elementwise."""
    import math
    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(x.dtype)


# ---- elementwise unary ------------------------------------------------------------------------------
def _sigmoid(x: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


_UNARY = {
    # op type: (numpy fn, allowed dtypes or None for any numeric)
    "Abs": (np.abs, REAL_NUMBER_TYPES), "Neg": (np.negative, NUMBER_TYPES), "Sign": (np.sign, NUMBER_TYPES),
    "Square": (np.square, NUMBER_TYPES), "Sqrt": (np.sqrt, FLOAT_COMPLEX_TYPES),
    "Rsqrt": (lambda x: 1 / np.sqrt(x), FLOAT_COMPLEX_TYPES), "Exp": (np.exp, FLOAT_COMPLEX_TYPES),
    "Expm1": (np.expm1, FLOAT_COMPLEX_TYPES), "Log": (np.log, FLOAT_COMPLEX_TYPES),
    "Log1p": (np.log1p, FLOAT_COMPLEX_TYPES), "Sigmoid": (_sigmoid, FLOAT_COMPLEX_TYPES),
    "Tanh": (np.tanh, FLOAT_COMPLEX_TYPES), "Reciprocal": (lambda x: 1 / x if x.dtype.kind in "fc" else
                                                          np.floor_divide(1, x), NUMBER_TYPES),
    "Floor": (np.floor, FLOAT_TYPES), "Ceil": (np.ceil, FLOAT_TYPES), "Round": (np.round, NUMBER_TYPES),
    "Rint": (np.rint, FLOAT_TYPES), "Sin": (np.sin, FLOAT_COMPLEX_TYPES), "Cos": (np.cos, FLOAT_COMPLEX_TYPES),
    "Tan": (np.tan, FLOAT_COMPLEX_TYPES), "Asin": (np.arcsin, FLOAT_COMPLEX_TYPES),
    "Acos": (np.arccos, FLOAT_COMPLEX_TYPES), "Atan": (np.arctan, FLOAT_COMPLEX_TYPES),
    "Sinh": (np.sinh, FLOAT_COMPLEX_TYPES), "Cosh": (np.cosh, FLOAT_COMPLEX_TYPES),
    "Erf": (_erf, FLOAT_TYPES),
}
for _name, (_fn, _allowed) in _UNARY.items():
    register_op(_name, inputs=["x: T"], outputs=["y: T"], kernel=(lambda f: lambda ctx, x: f(x))(_fn),
                shape_fn=common_shapes.unchanged_shape, allowed_dtypes={"T": _allowed})

for _name, _fn in (("IsNan", np.isnan), ("IsInf", np.isinf), ("IsFinite", np.isfinite)):
    register_op(_name, inputs=["x: T"], outputs=["y: bool"], kernel=(lambda f: lambda ctx, x: f(x))(_fn),
                shape_fn=common_shapes.unchanged_shape, allowed_dtypes={"T": FLOAT_TYPES})
register_op("LogicalNot", inputs=["x: bool"], outputs=["y: bool"], kernel=lambda ctx, x: np.logical_not(x),
            shape_fn=common_shapes.unchanged_shape)


def _unary_wrapper(op_type: str, doc: str) -> Callable:
    def wrapper(x: Any, name: Optional[str] = None) -> ops.Tensor:
        return ops.apply_op(op_type, [x], name=name)
    wrapper.__doc__ = doc
    return wrapper


def _scoped_unary(op_type: str, doc: str) -> Callable:
    """Unary wrapper that converts inside name_scope(name, op_type) with input name 'x' (TF's math_ops style)."""
    def wrapper(x: Any, name: Optional[str] = None) -> ops.Tensor:
        with ops.name_scope(name, op_type, [x]) as scope:
            x = ops.convert_to_tensor(x, name="x")
            return ops.apply_op(op_type, [x], name=scope)
    wrapper.__doc__ = doc
    return wrapper


negative = neg = _unary_wrapper("Neg", "Elementwise -x.")
def abs(x: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A001 - TF's name
    """Elementwise |x|; the real magnitude (ComplexAbs) for complex x, as TF."""
    with ops.name_scope(name, "Abs", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return ops.apply_op("ComplexAbs", [x], attrs={"Tout": x.dtype.real_dtype}, name=scope)
        return ops.apply_op("Abs", [x], name=scope)


sign = _unary_wrapper("Sign", "Elementwise sign (-1, 0, 1).")
square = _unary_wrapper("Square", "Elementwise x * x.")
sqrt = _unary_wrapper("Sqrt", "Elementwise square root.")
rsqrt = _unary_wrapper("Rsqrt", "Elementwise 1 / sqrt(x).")
exp = _unary_wrapper("Exp", "Elementwise e^x.")
expm1 = _unary_wrapper("Expm1", "Elementwise e^x - 1.")
log = _unary_wrapper("Log", "Elementwise natural logarithm.")
log1p = _unary_wrapper("Log1p", "Elementwise log(1 + x).")
sigmoid = _scoped_unary("Sigmoid", "Elementwise 1 / (1 + exp(-x)).")
tanh = _unary_wrapper("Tanh", "Elementwise hyperbolic tangent.")
reciprocal = _unary_wrapper("Reciprocal", "Elementwise 1 / x.")
floor = _unary_wrapper("Floor", "Elementwise floor.")
ceil = _unary_wrapper("Ceil", "Elementwise ceiling.")
round = _unary_wrapper("Round", "Elementwise round half to even.")  # noqa: A001
rint = _unary_wrapper("Rint", "Elementwise round to nearest integer, half to even.")
sin = _unary_wrapper("Sin", "Elementwise sine.")
cos = _unary_wrapper("Cos", "Elementwise cosine.")
tan = _unary_wrapper("Tan", "Elementwise tangent.")
asin = _unary_wrapper("Asin", "Elementwise arcsine.")
acos = _unary_wrapper("Acos", "Elementwise arccosine.")
atan = _unary_wrapper("Atan", "Elementwise arctangent.")
sinh = _unary_wrapper("Sinh", "Elementwise hyperbolic sine.")
cosh = _unary_wrapper("Cosh", "Elementwise hyperbolic cosine.")
erf = _unary_wrapper("Erf", "Elementwise Gauss error function.")
is_nan = _unary_wrapper("IsNan", "Elementwise isnan.")
is_inf = _unary_wrapper("IsInf", "Elementwise isinf.")
is_finite = _unary_wrapper("IsFinite", "Elementwise isfinite.")
logical_not = _unary_wrapper("LogicalNot", "Elementwise not.")


def log_sigmoid(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """log(sigmoid(x)) computed stably as -softplus(-x)."""
    with ops.name_scope(name, "LogSigmoid", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return negative(_softplus(negative(x)), name=name)


def _softplus(x: ops.Tensor) -> ops.Tensor:
    # max(x, 0) + log1p(exp(-|x|)), stable for large |x|
    return add(maximum(x, array_ops.zeros_like(x)), log1p(exp(negative(abs(x)))))


# ---- elementwise binary -------------------------------------------------------------------------------
def _int_div_check(x: np.ndarray, y: np.ndarray) -> None:
    # Only a division actually performed fails: with an empty result (e.g. the axes of a scalar's reduction
    # taken modulo its rank 0 in reduce_sum's gradient) TensorFlow computes nothing and raises nothing.
    if y.dtype.kind in "iu" and (y == 0).any() and np.broadcast(x, y).size:
        raise errors.InvalidArgumentError(None, None, "Integer division by zero")


def _floordiv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    _int_div_check(x, y)
    if x.dtype.kind == "f":
        return np.floor(x / y)
    return np.floor_divide(x, y)


def _floormod(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    _int_div_check(x, y)
    return np.mod(x, y)


def _truncdiv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    _int_div_check(x, y)
    q = np.abs(x) // np.abs(y)
    return np.where((x < 0) != (y < 0), -q, q).astype(x.dtype)


def _realdiv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":
        return _truncdiv(x, y)
    return np.true_divide(x, y)


def _div_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    safe = np.where(y == 0, np.ones_like(y), y)
    return np.where(y == 0, np.zeros_like(x), x / safe)


def _add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype == object:
        return np.char.add(x.astype(bytes), y.astype(bytes)).astype(object)
    return np.add(x, y)


_BINARY = {
    "Add": (_add, None), "AddV2": (np.add, NUMBER_TYPES), "Sub": (np.subtract, NUMBER_TYPES),
    "Mul": (np.multiply, NUMBER_TYPES), "RealDiv": (_realdiv, NUMBER_TYPES), "Div": (_realdiv, NUMBER_TYPES),
    "FloorDiv": (_floordiv, NUMBER_TYPES), "FloorMod": (_floormod, REAL_NUMBER_TYPES),
    "TruncateDiv": (_truncdiv, NUMBER_TYPES), "Pow": (np.power, NUMBER_TYPES),
    "Maximum": (np.maximum, REAL_NUMBER_TYPES), "Minimum": (np.minimum, REAL_NUMBER_TYPES),
    "SquaredDifference": (lambda x, y: np.square(x - y), NUMBER_TYPES), "DivNoNan": (_div_no_nan, FLOAT_TYPES),
    "Atan2": (np.arctan2, FLOAT_TYPES),
}
for _name, (_fn, _allowed) in _BINARY.items():
    _args = ["y: T", "x: T"] if _name == "Atan2" else ["x: T", "y: T"]
    register_op(_name, inputs=_args, outputs=["z: T"], kernel=(lambda f: lambda ctx, x, y: f(x, y))(_fn),
                shape_fn=common_shapes.broadcast_shape, allowed_dtypes={"T": _allowed} if _allowed else None)

for _name, _fn in (("Less", np.less), ("LessEqual", np.less_equal), ("Greater", np.greater),
                   ("GreaterEqual", np.greater_equal)):
    register_op(_name, inputs=["x: T", "y: T"], outputs=["z: bool"],
                kernel=(lambda f: lambda ctx, x, y: f(x, y))(_fn), shape_fn=common_shapes.broadcast_shape,
                allowed_dtypes={"T": REAL_NUMBER_TYPES})
for _name, _fn in (("Equal", np.equal), ("NotEqual", np.not_equal)):
    register_op(_name, inputs=["x: T", "y: T"], outputs=["z: bool"],
                kernel=(lambda f: lambda ctx, x, y: f(x, y))(_fn), shape_fn=common_shapes.broadcast_shape,
                attrs={"incompatible_shape_error": True})
for _name, _fn in (("LogicalAnd", np.logical_and), ("LogicalOr", np.logical_or)):
    register_op(_name, inputs=["x: bool", "y: bool"], outputs=["z: bool"],
                kernel=(lambda f: lambda ctx, x, y: f(x, y))(_fn), shape_fn=common_shapes.broadcast_shape)


def _binary_wrapper(op_type: str, doc: str) -> Callable:
    def wrapper(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
        return ops.apply_op(op_type, [x, y], name=name)
    wrapper.__doc__ = doc
    return wrapper


def add(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x + y with broadcasting ('Add' for strings, else 'AddV2')."""
    with ops.name_scope(name, "Add", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        return ops.apply_op("Add" if x.dtype == dtypes.string else "AddV2", [x, y], name=name)


subtract = _binary_wrapper("Sub", "Elementwise x - y with broadcasting.")
multiply = _binary_wrapper("Mul", "Elementwise x * y with broadcasting.")
realdiv = _binary_wrapper("RealDiv", "Elementwise x / y (real division).")
truncatediv = _binary_wrapper("TruncateDiv", "Elementwise integer division rounding toward zero.")
floormod = mod = _binary_wrapper("FloorMod", "Elementwise remainder with the sign of y (Python %).")
maximum = _binary_wrapper("Maximum", "Elementwise max(x, y) with broadcasting.")
minimum = _binary_wrapper("Minimum", "Elementwise min(x, y) with broadcasting.")
squared_difference = _binary_wrapper("SquaredDifference", "Elementwise (x - y)^2.")
div_no_nan = _binary_wrapper("DivNoNan", "x / y, 0 where y is 0.")
less = _binary_wrapper("Less", "Elementwise x < y.")
less_equal = _binary_wrapper("LessEqual", "Elementwise x <= y.")
greater = _binary_wrapper("Greater", "Elementwise x > y.")
greater_equal = _binary_wrapper("GreaterEqual", "Elementwise x >= y.")
logical_and = _binary_wrapper("LogicalAnd", "Elementwise x and y.")
logical_or = _binary_wrapper("LogicalOr", "Elementwise x or y.")
sub = subtract
mul = multiply


def atan2(y: Any, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise arctan(y / x) in the right quadrant."""
    return ops.apply_op("Atan2", [y, x], name=name)


def equal(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x == y."""
    return ops.apply_op("Equal", [x, y], name=name)


def not_equal(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x != y."""
    return ops.apply_op("NotEqual", [x, y], name=name)


def logical_xor(x: Any, y: Any, name: str = "LogicalXor") -> ops.Tensor:
    """Elementwise exclusive or."""
    with ops.name_scope(name, "LogicalXor", [x, y]) as name:
        return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def pow(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A001
    """Elementwise x ** y."""
    with ops.name_scope(name, "Pow", [x]) as name:
        return ops.apply_op("Pow", [x, y], name=name)


def floordiv(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise floor(x / y)."""
    with ops.name_scope(name, "floordiv", [x, y]) as name:
        return ops.apply_op("FloorDiv", [x, y], name=name)


floor_div = floordiv

_TRUEDIV_TABLE = {
    dtypes.uint8: dtypes.float32, dtypes.int8: dtypes.float32, dtypes.uint16: dtypes.float32,
    dtypes.int16: dtypes.float32, dtypes.uint32: dtypes.float64, dtypes.int32: dtypes.float64,
    dtypes.uint64: dtypes.float64, dtypes.int64: dtypes.float64, dtypes.bfloat16: None, dtypes.float16: None,
    dtypes.float32: None, dtypes.float64: None, dtypes.complex64: None, dtypes.complex128: None,
}


def truediv(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """x / y with integers first cast to float (Python 3 semantics)."""
    with ops.name_scope(name, "truediv", [x, y]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        x_dtype, y_dtype = x.dtype.base_dtype, y.dtype.base_dtype
        if x_dtype != y_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x_dtype!r} != {y_dtype!r}.")
        if x_dtype not in _TRUEDIV_TABLE:
            raise TypeError(f"Invalid dtype {x_dtype!r} in __truediv__")
        dtype = _TRUEDIV_TABLE[x_dtype]
        if dtype is not None:
            x = cast(x, dtype)
            y = cast(y, dtype)
        return ops.apply_op("RealDiv", [x, y], name=name)


def div(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Python 2 division: floor division for integers, real division for floats."""
    with ops.name_scope(name, "div", [x, y]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        if x.dtype.is_floating or x.dtype.is_complex:
            return ops.apply_op("RealDiv", [x, y], name=name)
        return ops.apply_op("FloorDiv", [x, y], name=name)


def divide(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """x / y (Python 3 semantics)."""
    if name is not None:
        return truediv(x, y, name=name)
    if not isinstance(x, ops.Tensor) and not hasattr(x, "_as_graph_element"):
        dtype = y.dtype.base_dtype if isinstance(y, ops.Tensor) else None
        x = ops.convert_to_tensor(x, dtype=dtype)
    return x / y


def scalar_mul(scalar: Any, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """scalar * x for a scalar tensor or Python number."""
    with ops.name_scope(name, "scalar_mul", [x]) as name:
        x = ops.convert_to_tensor(x)
        scalar = ops.convert_to_tensor(scalar, dtype=x.dtype.base_dtype, name="scalar")
        if scalar.shape.ndims not in (0, None):
            raise ValueError(f"Only scalar multiply works, got shape {scalar.shape}")
        return ops.apply_op("Mul", [scalar, x], name=name)


# ---- operator overloads ---------------------------------------------------------------------------------
def _add_dispatch(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    if isinstance(x, ops.Tensor) and x.dtype == dtypes.string:
        return ops.apply_op("Add", [x, y], name=name)
    return ops.apply_op("AddV2", [x, y], name=name)


def _pow_dispatch(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    return ops.apply_op("Pow", [x, y], name=name)


def _matmul_dispatch(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    # matmul is defined further down, after the operators are installed.
    return matmul(x, y, name=name)


def _as_tensor_like(x: Any) -> bool:
    return isinstance(x, ops.Tensor) or hasattr(x, "_as_graph_element")


def _override_binary(op_name: str, func: Callable, clazz: type) -> None:
    def binary_op_wrapper(x: Any, y: Any) -> Any:
        with ops.name_scope(None, op_name, [x, y]) as name:
            try:
                return func(x, y, name=name)
            except (TypeError, ValueError):
                if hasattr(type(y), f"__r{op_name}__") and not _as_tensor_like(y) and \
                        not isinstance(y, (int, float, bool, complex, list, tuple, np.ndarray, np.generic)):
                    return NotImplemented
                raise

    def r_binary_op_wrapper(y: Any, x: Any) -> Any:
        with ops.name_scope(None, op_name, [x, y]) as name:
            y = ops.convert_to_tensor(y)
            x = ops.convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
            return func(x, y, name=name)

    clazz._override_operator(f"__{op_name}__", binary_op_wrapper)
    clazz._override_operator(f"__r{op_name}__", r_binary_op_wrapper)


def _install_operators(clazz: type) -> None:
    """Give clazz (Tensor, and Variable via the same hooks) TF's Python operators."""
    _override_binary("add", _add_dispatch, clazz)
    _override_binary("sub", subtract, clazz)
    _override_binary("mul", multiply, clazz)
    _override_binary("div", truediv, clazz)
    _override_binary("truediv", truediv, clazz)
    _override_binary("floordiv", floordiv, clazz)
    _override_binary("mod", floormod, clazz)
    _override_binary("pow", _pow_dispatch, clazz)
    _override_binary("matmul", _matmul_dispatch, clazz)
    _override_binary("and", logical_and, clazz)
    _override_binary("or", logical_or, clazz)
    _override_binary("xor", logical_xor, clazz)
    clazz._override_operator("__lt__", lambda x, y: less(x, y))
    clazz._override_operator("__le__", lambda x, y: less_equal(x, y))
    clazz._override_operator("__gt__", lambda x, y: greater(x, y))
    clazz._override_operator("__ge__", lambda x, y: greater_equal(x, y))
    clazz._override_operator("__neg__", lambda x: negative(x))
    clazz._override_operator("__abs__", lambda x: abs(x))
    clazz._override_operator("__invert__", lambda x: logical_not(x))


_install_operators(ops.Tensor)


# ---- cast -------------------------------------------------------------------------------------------------
def _cast_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    dst = ctx.attrs["DstT"]
    if dst == dtypes.string:
        raise errors.UnimplementedError(None, None, f"Cast {ctx.attrs['SrcT'].name} to string is not supported")
    if x.dtype.kind == "c" and dst.is_floating:
        x = x.real
    return x.astype(dst.as_numpy_dtype)


register_op("Cast", inputs=["x: SrcT"], outputs=["y: DstT"], kernel=_cast_kernel,
            shape_fn=common_shapes.unchanged_shape, attrs={"Truncate": False})


def cast(x: Any, dtype: Any, name: Optional[str] = None) -> Any:
    """x converted to dtype (x itself when it already has that dtype)."""
    base_type = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, ops.Tensor) and base_type == x.dtype:
        return x
    from edgelite.framework.indexed_slices import IndexedSlices
    with ops.name_scope(name, "Cast", [x]) as name:
        if isinstance(x, IndexedSlices):
            return IndexedSlices(cast(x.values, base_type, name=name), x.indices, x.dense_shape)
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.base_dtype != base_type:
            x = ops.apply_op("Cast", [x], {"DstT": base_type, "Truncate": False}, name=name)
        return x


def saturate_cast(value: Any, dtype: Any, name: Optional[str] = None) -> ops.Tensor:
    """Cast, clamping to the target dtype's range first."""
    with ops.name_scope(name, "saturate_cast", [value]) as name:
        value = ops.convert_to_tensor(value, name="value")
        dtype = dtypes.as_dtype(dtype).base_dtype
        if value.dtype.min < dtype.min:
            value = maximum(value, ops.convert_to_tensor(dtype.min, dtype=value.dtype, name="min"))
        if value.dtype.max > dtype.max:
            value = minimum(value, ops.convert_to_tensor(dtype.max, dtype=value.dtype, name="max"))
        return cast(value, dtype, name=name)


def to_float(x: Any, name: str = "ToFloat") -> ops.Tensor:
    """DEPRECATED: cast to float32."""
    return cast(x, dtypes.float32, name=name)


def to_double(x: Any, name: str = "ToDouble") -> ops.Tensor:
    """DEPRECATED: cast to float64."""
    return cast(x, dtypes.float64, name=name)


def to_int32(x: Any, name: str = "ToInt32") -> ops.Tensor:
    """DEPRECATED: cast to int32."""
    return cast(x, dtypes.int32, name=name)


def to_int64(x: Any, name: str = "ToInt64") -> ops.Tensor:
    """DEPRECATED: cast to int64."""
    return cast(x, dtypes.int64, name=name)


# ---- matmul ------------------------------------------------------------------------------------------------
def _matmul_shape(op: Any) -> list:
    a, b = op.inputs[0].shape.with_rank(2), op.inputs[1].shape.with_rank(2)
    ta, tb = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    da = a.as_list() if a.ndims is not None else [None, None]
    db = b.as_list() if b.ndims is not None else [None, None]
    m, ka = (da[1], da[0]) if ta else (da[0], da[1])
    kb, n = (db[1], db[0]) if tb else (db[0], db[1])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"Dimensions must be equal, but are {ka} and {kb} for '{op.name}' (op: 'MatMul') with "
                         f"input shapes: {common_shapes.format_shape(a)}, {common_shapes.format_shape(b)}.")
    return [[m, n]]


def _matmul_kernel(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ta, tb = ctx.attrs["transpose_a"], ctx.attrs["transpose_b"]
    if a.shape[0 if ta else 1] != b.shape[1 if tb else 0]:
        raise errors.InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: {list(a.shape)}, In[1]: "
                                                      f"{list(b.shape)}")
    out = native_matmul.mat_mul(a, b, ta, tb)
    return (a.T if ta else a) @ (b.T if tb else b) if out is None else out


register_op("MatMul", inputs=["a: T", "b: T"], outputs=["product: T"], kernel=_matmul_kernel,
            shape_fn=_matmul_shape, attrs={"transpose_a": False, "transpose_b": False, "grad_a": False, "grad_b": False},
            allowed_dtypes={"T": NUMBER_TYPES})


def _bmm_shape(op: Any) -> list:
    a, b = op.inputs[0].shape, op.inputs[1].shape
    if a.ndims is None or b.ndims is None:
        return [None]
    if a.ndims < 2 or b.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 for '{op.name}' (op: '{op.type}')")
    da, db = a.as_list(), b.as_list()
    if op.get_attr("adj_x"):
        da[-1], da[-2] = da[-2], da[-1]
    if op.get_attr("adj_y"):
        db[-1], db[-2] = db[-2], db[-1]
    if da[-1] is not None and db[-2] is not None and da[-1] != db[-2]:
        raise ValueError(f"Dimensions must be equal, but are {da[-1]} and {db[-2]} for '{op.name}' (op: "
                         f"'{op.type}') with input shapes: {common_shapes.format_shape(a)}, "
                         f"{common_shapes.format_shape(b)}.")
    batch = common_shapes.broadcast_static_shape(da[:-2], db[:-2])
    return [batch.concatenate([da[-2], db[-1]])]


def _bmm_kernel(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = native_matmul.batch_mat_mul(a, b, ctx.attrs["adj_x"], ctx.attrs["adj_y"])
    if out is not None:
        return out
    if ctx.attrs["adj_x"]:
        a = np.conj(np.swapaxes(a, -1, -2))
    if ctx.attrs["adj_y"]:
        b = np.conj(np.swapaxes(b, -1, -2))
    return np.matmul(a, b)


register_op("BatchMatMulV2", inputs=["x: T", "y: T"], outputs=["output: T"], kernel=_bmm_kernel,
            shape_fn=_bmm_shape, attrs={"adj_x": False, "adj_y": False}, allowed_dtypes={"T": NUMBER_TYPES})


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False,
           output_type: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Matrix product a @ b (batched for rank > 2), with optional transposes."""
    if transpose_a and adjoint_a:
        raise ValueError("Only one of transpose_a and adjoint_a can be True.")
    if transpose_b and adjoint_b:
        raise ValueError("Only one of transpose_b and adjoint_b can be True.")
    with ops.name_scope(name, "MatMul", [a, b]) as name:
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b", dtype_hint=a.dtype.base_dtype)
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is None or rb is None or ra > 2 or rb > 2:
            return ops.apply_op("BatchMatMulV2", [a, b], {"adj_x": transpose_a or adjoint_a,
                                                          "adj_y": transpose_b or adjoint_b}, name=name)
        if adjoint_a:
            transpose_a = True
        if adjoint_b:
            transpose_b = True
        return ops.apply_op("MatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b}, name=name)


# ---- reductions ----------------------------------------------------------------------------------------------
def _norm_axes(axes: np.ndarray, ndim: int) -> tuple:
    return _norm_axes_cached(tuple(np.ravel(axes).tolist()), ndim)


@functools.lru_cache(maxsize=4096)
def _norm_axes_cached(axes: tuple, ndim: int) -> tuple:
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < builtins.max(ndim, 1) or (ndim == 0 and a not in (0, -1)):
            raise errors.InvalidArgumentError(None, None, f"Invalid reduction dimension ({a} for input with {ndim} "
                                                          f"dimension(s)")
        out.append(a + ndim if a < 0 else a)
    return tuple(sorted(set(out))) if ndim else ()


def _make_reducer(fn: Callable) -> Callable:
    def kernel(ctx: Any, x: np.ndarray, axes: np.ndarray) -> np.ndarray:
        ax = _norm_axes(axes, x.ndim)
        return fn(x, axis=ax, keepdims=ctx.attrs["keep_dims"])
    return kernel


def _mean(x: np.ndarray, axis: tuple, keepdims: bool) -> np.ndarray:
    if x.dtype.kind in "iu":
        s = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        n = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        return _truncdiv(s, np.array(n if n else 1, dtype=np.int64)).astype(x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims)


def _max(x: np.ndarray, axis: tuple, keepdims: bool) -> np.ndarray:
    if x.size == 0:
        shp = [1 if i in axis else d for i, d in enumerate(x.shape)] if keepdims else \
            [d for i, d in enumerate(x.shape) if i not in axis]
        lo = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        return np.full(shp, -np.inf if x.dtype.kind == "f" else lo, dtype=x.dtype)
    return np.max(x, axis=axis, keepdims=keepdims)


def _min(x: np.ndarray, axis: tuple, keepdims: bool) -> np.ndarray:
    if x.size == 0:
        shp = [1 if i in axis else d for i, d in enumerate(x.shape)] if keepdims else \
            [d for i, d in enumerate(x.shape) if i not in axis]
        hi = np.iinfo(x.dtype).max if x.dtype.kind in "iu" else np.inf
        return np.full(shp, hi, dtype=x.dtype)
    return np.min(x, axis=axis, keepdims=keepdims)


def _reduction_shape(op: Any) -> list:
    s = op.inputs[0].shape
    axes = tensor_util.constant_value(op.inputs[1])
    keep = op.get_attr("keep_dims")
    if s.ndims is None:
        return [None]
    if axes is None:
        if keep:
            return [[None] * s.ndims]
        n_axes = op.inputs[1].shape.num_elements()
        if n_axes is not None and op.inputs[1].shape.ndims == 1 and n_axes == 0:
            return [s]
        return [None]
    n = s.ndims
    ax = set()
    for a in np.ravel(axes):
        a = int(a)
        if not -n <= a < builtins.max(n, 1):
            raise ValueError(f"Invalid reduction dimension {a} for input with {n} dimensions. for "
                             f"'{op.name}' (op: '{op.type}') with input shapes: {common_shapes.format_shape(s)}, "
                             f"{common_shapes.format_shape(op.inputs[1].shape)} and with computed input tensors: "
                             f"input[1] = <{a}>.")
        ax.add(a % n if n else 0)
    dims = s.as_list()
    if keep:
        return [[1 if i in ax else d for i, d in enumerate(dims)]]
    return [[d for i, d in enumerate(dims) if i not in ax]]


def _sum(x: np.ndarray, axis: tuple, keepdims: bool) -> np.ndarray:
    # Over no axes the sum is its input, which TF forwards without a copy (the gradient of an elementwise
    # add of same-shaped tensors sums over the empty axis lists BroadcastGradientArgs gives it).
    if not axis:
        return x
    return np.sum(x, axis=axis, keepdims=keepdims)


_REDUCERS = {
    "Sum": (_sum, NUMBER_TYPES),
    "Mean": (_mean, NUMBER_TYPES), "Max": (_max, REAL_NUMBER_TYPES), "Min": (_min, REAL_NUMBER_TYPES),
    "Prod": (lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims), NUMBER_TYPES),
    "Any": (lambda x, axis, keepdims: np.any(x, axis=axis, keepdims=keepdims), None),
    "All": (lambda x, axis, keepdims: np.all(x, axis=axis, keepdims=keepdims), None),
}
for _name, (_fn, _allowed) in _REDUCERS.items():
    _in = ["input: bool", "reduction_indices: Tidx"] if _allowed is None else ["input: T", "reduction_indices: Tidx"]
    _out = ["output: bool"] if _allowed is None else ["output: T"]
    register_op(_name, inputs=_in, outputs=_out, kernel=_make_reducer(_fn), shape_fn=_reduction_shape,
                attrs={"keep_dims": False, "Tidx": dtypes.int32},
                allowed_dtypes={"T": _allowed} if _allowed else None)


def _reduction_dims(x: Any, axis: Any) -> Any:
    if axis is not None:
        return axis
    r = x.shape.ndims if _as_tensor_like(x) else np.ndim(x)
    if r:
        return constant_op.constant(np.arange(r, dtype=np.int32))
    if r == 0:
        return constant_op.constant(np.zeros((0,), dtype=np.int32))
    return range(0, array_ops.rank(x))


def _v1_axis(axis: Any, reduction_indices: Any, keepdims: Any, keep_dims: Any) -> tuple:
    if reduction_indices is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'reduction_indices'")
        axis = reduction_indices
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
        keepdims = keep_dims
    return axis, bool(keepdims) if keepdims is not None else False


def _reduce(op_type: str, input_tensor: Any, axis: Any, keepdims: Any, name: Optional[str],
            reduction_indices: Any, keep_dims: Any) -> ops.Tensor:
    axis, keepdims = _v1_axis(axis, reduction_indices, keepdims, keep_dims)
    dims = _reduction_dims(input_tensor, axis)
    out = ops.apply_op(op_type, [input_tensor, dims], {"keep_dims": keepdims}, name=name)
    if not keepdims and axis is None:
        out.set_shape([])
    return out


def _reduction_wrapper(op_type: str, doc: str) -> Callable:
    def wrapper(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: Optional[str] = None,
                reduction_indices: Any = None, keep_dims: Any = None) -> ops.Tensor:
        return _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims)
    wrapper.__doc__ = doc
    return wrapper


reduce_sum = _reduction_wrapper("Sum", "Sum over axes (all if None).")
reduce_mean = _reduction_wrapper("Mean", "Mean over axes (all if None); integer inputs give integer means.")
reduce_max = _reduction_wrapper("Max", "Maximum over axes.")
reduce_min = _reduction_wrapper("Min", "Minimum over axes.")
reduce_prod = _reduction_wrapper("Prod", "Product over axes.")
reduce_any = _reduction_wrapper("Any", "Logical or over axes.")
reduce_all = _reduction_wrapper("All", "Logical and over axes.")


def reduce_logsumexp(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: Optional[str] = None,
                     reduction_indices: Any = None, keep_dims: Any = None) -> ops.Tensor:
    """log(sum(exp(x))) over axes, computed stably."""
    axis, keepdims = _v1_axis(axis, reduction_indices, keepdims, keep_dims)
    with ops.name_scope(name, "ReduceLogSumExp", [input_tensor]) as name:
        x = ops.convert_to_tensor(input_tensor)
        raw_max = reduce_max(x, axis, keepdims=True)
        my_max = array_ops.stop_gradient(
            array_ops.where_v2(is_finite(raw_max), raw_max, array_ops.zeros_like(raw_max)))
        result = log(reduce_sum(exp(subtract(x, my_max)), axis, keepdims=keepdims))
        if not keepdims:
            my_max = array_ops.reshape(my_max, array_ops.shape(result))
        return add(result, my_max, name=name)


def reduce_variance(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                    name: Optional[str] = None) -> ops.Tensor:
    """Variance over axes."""
    with ops.name_scope(name, "reduce_variance", [input_tensor]):
        x = ops.convert_to_tensor(input_tensor)
        means = reduce_mean(x, axis=axis, keepdims=True)
        return reduce_mean(square(x - means), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Optional[str] = None) -> ops.Tensor:
    """Standard deviation over axes."""
    with ops.name_scope(name, "reduce_std", [input_tensor]):
        return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def reduce_euclidean_norm(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                          name: Optional[str] = None) -> ops.Tensor:
    """sqrt(sum(x^2)) over axes."""
    with ops.name_scope(name, "EuclideanNorm", [input_tensor]):
        return sqrt(reduce_sum(square(input_tensor), axis, keepdims=keepdims))


def count_nonzero(input_tensor: Any = None, axis: Any = None, keepdims: Any = None, dtype: Any = dtypes.int64,
                  name: Optional[str] = None, reduction_indices: Any = None, keep_dims: Any = None,
                  input: Any = None) -> ops.Tensor:  # noqa: A002
    """Number of non-zero elements over axes."""
    if input is not None:
        input_tensor = input
    axis, keepdims = _v1_axis(axis, reduction_indices, keepdims, keep_dims)
    with ops.name_scope(name, "count_nonzero", [input_tensor]):
        x = ops.convert_to_tensor(input_tensor, name="input_tensor")
        zero = array_ops.zeros([], dtype=x.dtype)
        return cast(reduce_sum(cast(not_equal(x, zero), dtypes.int64), axis=axis, keepdims=keepdims), dtype)


def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None,  # noqa: A002
         name: Optional[str] = None, keep_dims: Any = None) -> ops.Tensor:
    """Vector norms: euclidean/2, 1 and inf over axis (all elements if None)."""
    if keep_dims is not None:
        keepdims = keep_dims
    with ops.name_scope(name, "norm", [tensor]) as name:
        t = ops.convert_to_tensor(tensor)
        if ord in ("euclidean", 2, 2.0, "fro"):
            r = sqrt(reduce_sum(t * t, axis, keepdims=True))
        elif ord in (1, 1.0):
            r = reduce_sum(abs(t), axis, keepdims=True)
        elif ord == np.inf:
            r = reduce_max(abs(t), axis, keepdims=True)
        else:
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if not keepdims:
            r = array_ops.squeeze(r, axis)
        return array_ops.identity(r, name=name)


# ---- argmax / argmin / cumsum / cumprod --------------------------------------------------------------------------
def _arg_shape(op: Any) -> list:
    s = op.inputs[0].shape
    a = tensor_util.constant_value(op.inputs[1])
    if s.ndims is None:
        return [None]
    if a is None:
        return [[None] * (s.ndims - 1)]
    a = int(a)
    if not -s.ndims <= a < s.ndims:
        raise ValueError(f"Expected dimension in the range [{-s.ndims}, {s.ndims}), but got {a} for '{op.name}' "
                         f"(op: '{op.type}')")
    dims = s.as_list()
    del dims[a % s.ndims]
    return [dims]


def _arg_kernel(fn: Callable) -> Callable:
    def kernel(ctx: Any, x: np.ndarray, a: np.ndarray) -> np.ndarray:
        if x.shape[int(a)] == 0:
            raise errors.InvalidArgumentError(None, None, f"Reduction axis {int(a)} is empty in shape "
                                                          f"{list(x.shape)}")
        return fn(x, axis=int(a)).astype(ctx.attrs["output_type"].as_numpy_dtype)
    return kernel


register_op("ArgMax", inputs=["input: T", "dimension: Tidx"], outputs=["output: output_type"],
            kernel=_arg_kernel(np.argmax), shape_fn=_arg_shape,
            attrs={"output_type": dtypes.int64, "Tidx": dtypes.int32}, allowed_dtypes={"T": NUMBER_TYPES + _BOOL})
register_op("ArgMin", inputs=["input: T", "dimension: Tidx"], outputs=["output: output_type"],
            kernel=_arg_kernel(np.argmin), shape_fn=_arg_shape,
            attrs={"output_type": dtypes.int64, "Tidx": dtypes.int32}, allowed_dtypes={"T": NUMBER_TYPES + _BOOL})


def _arg_reduce(op_type: str, input: Any, axis: Any, name: Optional[str], dimension: Any,  # noqa: A002
                output_type: Any) -> ops.Tensor:
    if dimension is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dimension'")
        axis = dimension
    if axis is None:
        axis = 0
    return ops.apply_op(op_type, [input, axis], {"output_type": dtypes.as_dtype(output_type)}, name=name)


def argmax(input: Any, axis: Any = None, name: Optional[str] = None, dimension: Any = None,  # noqa: A002
           output_type: Any = dtypes.int64) -> ops.Tensor:
    """Index of the largest value along axis (default 0)."""
    return _arg_reduce("ArgMax", input, axis, name, dimension, output_type)


def argmin(input: Any, axis: Any = None, name: Optional[str] = None, dimension: Any = None,  # noqa: A002
           output_type: Any = dtypes.int64) -> ops.Tensor:
    """Index of the smallest value along axis (default 0)."""
    return _arg_reduce("ArgMin", input, axis, name, dimension, output_type)


def _cum_kernel(fn: Callable, ident: int) -> Callable:
    def kernel(ctx: Any, x: np.ndarray, a: np.ndarray) -> np.ndarray:
        axis = int(a)
        if not -x.ndim <= axis < builtins.max(x.ndim, 1):
            raise errors.InvalidArgumentError(None, None, f"ValueError: axis {axis} out of range")
        y = np.flip(x, axis) if ctx.attrs["reverse"] else x
        out = fn(y, axis=axis)
        if ctx.attrs["exclusive"]:
            pad_shape = list(out.shape)
            pad_shape[axis] = 1
            first = np.full(pad_shape, ident, dtype=out.dtype)
            out = np.concatenate([first, np.delete(out, -1, axis=axis)], axis=axis) if out.shape[axis] else out
        if ctx.attrs["reverse"]:
            out = np.flip(out, axis)
        return out.astype(x.dtype)
    return kernel


register_op("Cumsum", inputs=["x: T", "axis: Tidx"], outputs=["out: T"], kernel=_cum_kernel(np.cumsum, 0),
            shape_fn=common_shapes.unchanged_shape, attrs={"exclusive": False, "reverse": False,
                                                           "Tidx": dtypes.int32},
            allowed_dtypes={"T": NUMBER_TYPES})
register_op("Cumprod", inputs=["x: T", "axis: Tidx"], outputs=["out: T"], kernel=_cum_kernel(np.cumprod, 1),
            shape_fn=common_shapes.unchanged_shape, attrs={"exclusive": False, "reverse": False,
                                                           "Tidx": dtypes.int32},
            allowed_dtypes={"T": NUMBER_TYPES})


def cumsum(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
           name: Optional[str] = None) -> ops.Tensor:
    """Cumulative sum along axis."""
    with ops.name_scope(name, "Cumsum", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return ops.apply_op("Cumsum", [x, axis], {"exclusive": exclusive, "reverse": reverse}, name=name)


def cumprod(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
            name: Optional[str] = None) -> ops.Tensor:
    """Cumulative product along axis."""
    with ops.name_scope(name, "Cumprod", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return ops.apply_op("Cumprod", [x, axis], {"exclusive": exclusive, "reverse": reverse}, name=name)


# ---- add_n / clip / range / linspace -----------------------------------------------------------------------------
def _add_n_shape(op: Any) -> list:
    s = tensor_shape.unknown_shape()
    for t in op.inputs:
        try:
            s = s.merge_with(t.shape)
        except ValueError:
            raise ValueError(f"Shapes must be equal rank, but are {s.ndims} and {t.shape.ndims}\n\tFrom merging "
                             f"shape 0 with other shapes. for '{op.name}' (op: 'AddN')") from None
    return [s]


def _add_n_kernel(ctx: Any, xs: list) -> np.ndarray:
    if isinstance(xs[0], TensorListValue):
        # gradients of tensor lists are lists, summed element by element
        return functools.reduce(lambda a, b: a + b, xs)
    out = xs[0].copy() if len(xs) > 1 else xs[0]
    for x in xs[1:]:
        if x.shape != out.shape:
            raise errors.InvalidArgumentError(None, None, f"Inputs to operation AddN must have the same size and "
                                                          f"shape.  Input 0: {list(out.shape)} != input: "
                                                          f"{list(x.shape)}")
        out += x
    return out


register_op("AddN", inputs=["inputs: N * T"], outputs=["sum: T"], kernel=_add_n_kernel, shape_fn=_add_n_shape,
            allowed_dtypes={"T": NUMBER_TYPES + (dtypes.variant,)})


def add_n(inputs: Any, name: Optional[str] = None) -> Any:
    """Elementwise sum of a list of same-shape tensors."""
    from edgelite.framework.indexed_slices import IndexedSlices
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor/IndexedSlices with the same dtype and shape")
    inputs = [x if isinstance(x, IndexedSlices) else ops.convert_to_tensor(x) for x in inputs]
    if not all(isinstance(x, (ops.Tensor, IndexedSlices)) for x in inputs):
        raise ValueError("inputs must be a list of at least one Tensor/IndexedSlices with the same dtype and shape")
    if len(inputs) == 1:
        if isinstance(inputs[0], IndexedSlices):
            return ops.convert_to_tensor(inputs[0], name=name)
        return array_ops.identity(inputs[0], name=name)
    inputs = [ops.convert_to_tensor(x) if isinstance(x, IndexedSlices) else x for x in inputs]
    return ops.apply_op("AddN", [inputs], name=name)


def accumulate_n(inputs: Any, shape: Any = None, tensor_dtype: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Sum of a list of tensors (same result as add_n)."""
    return add_n(inputs, name=name)


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: Optional[str] = None) -> Any:
    """min(max(t, clip_value_min), clip_value_max), elementwise."""
    from edgelite.framework.indexed_slices import IndexedSlices
    with ops.name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as name:
        values = ops.convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name="t")
        t_min = minimum(values, clip_value_max)
        values.shape.merge_with(t_min.shape)
        t_max = maximum(t_min, clip_value_min, name=name)
        values.shape.merge_with(t_max.shape)
        if isinstance(t, IndexedSlices):
            return IndexedSlices(t_max, t.indices, t.dense_shape)
        return t_max


def _range_kernel(ctx: Any, start: np.ndarray, limit: np.ndarray, delta: np.ndarray) -> np.ndarray:
    if delta == 0:
        raise errors.InvalidArgumentError(None, None, f"Requires delta != 0: {delta}")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise errors.InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: {start}/{limit}"
                                          if delta > 0 else f"Requires start >= limit when delta < 0: {start}/{limit}")
    return np.arange(start, limit, delta, dtype=start.dtype)


def _range_shape(op: Any) -> list:
    vals = [tensor_util.constant_value(t) for t in op.inputs]
    if any(v is None for v in vals):
        return [[None]]
    s, lim, d = (v.item() for v in vals)
    if d == 0:
        raise ValueError(f"Requires delta != 0: {d}")
    n = int(np.ceil((lim - s) / d)) if isinstance(s, float) or isinstance(d, float) else -((s - lim) // d)
    return [[builtins.max(n, 0)]]


register_op("Range", inputs=["start: Tidx", "limit: Tidx", "delta: Tidx"], outputs=["output: Tidx"],
            kernel=_range_kernel, shape_fn=_range_shape, attrs={"Tidx": dtypes.int32},
            allowed_dtypes={"Tidx": (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8,
                                     dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint16, dtypes.uint32)})

_RANGE_HIERARCHY = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> ops.Tensor:  # noqa
    """A 1-D sequence start, start + delta, ... < limit (range(n) = 0..n-1)."""
    if limit is None:
        start, limit = 0, start
    with ops.name_scope(name, "Range", [start, limit, delta]) as name:
        if not isinstance(start, ops.Tensor):
            start = ops.convert_to_tensor(start, dtype=dtype, name="start")
        if not isinstance(limit, ops.Tensor):
            limit = ops.convert_to_tensor(limit, dtype=dtype, name="limit")
        if not isinstance(delta, ops.Tensor):
            delta = ops.convert_to_tensor(delta, dtype=dtype, name="delta")
        if dtype is None:
            types = [start.dtype, limit.dtype, delta.dtype]
            inferred = builtins.max(types, key=lambda t: _RANGE_HIERARCHY.index(t) if t in _RANGE_HIERARCHY else -1)
            start, limit, delta = (cast(v, inferred) for v in (start, limit, delta))
        else:
            dtype = dtypes.as_dtype(dtype)
            start, limit, delta = (cast(v, dtype) for v in (start, limit, delta))
        return ops.apply_op("Range", [start, limit, delta], name=name)


def _linspace_kernel(ctx: Any, start: np.ndarray, stop: np.ndarray, num: np.ndarray) -> np.ndarray:
    if int(num) <= 0:
        raise errors.InvalidArgumentError(None, None, f"Requires num > 0: {int(num)}")
    return np.linspace(start, stop, int(num), dtype=start.dtype)


register_op("LinSpace", inputs=["start: T", "stop: T", "num: Tidx"], outputs=["output: T"],
            kernel=_linspace_kernel, attrs={"Tidx": dtypes.int32},
            shape_fn=lambda op: [[None if tensor_util.constant_value(op.inputs[2]) is None
                                  else int(tensor_util.constant_value(op.inputs[2]))]],
            allowed_dtypes={"T": FLOAT_TYPES})


def linspace(start: Any, stop: Any, num: Any, name: Optional[str] = None, axis: int = 0) -> ops.Tensor:
    """num evenly spaced values from start to stop inclusive."""
    return ops.apply_op("LinSpace", [start, stop, num], name=name)


lin_space = linspace


# ---- segments (the ops and the other reductions live in segment_ops) ------------------------------------------------
def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: Optional[str] = None) -> ops.Tensor:
    """out[k] = sum of data[i] with segment_ids[i] == k (negative ids dropped)."""
    return ops.apply_op("UnsortedSegmentSum", [data, segment_ids, num_segments], name=name)


def segment_sum(data: Any, segment_ids: Any, name: Optional[str] = None) -> ops.Tensor:
    """Sums of data over sorted segment ids (empty segments give 0)."""
    return ops.apply_op("SegmentSum", [data, segment_ids], name=name)


def _tensordot_axes(a: ops.Tensor, axes: Any) -> tuple:
    """The contraction axes of a and b: python lists when they are known at build time, else int32 tensors."""
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        ndims = a.shape.ndims
        if ndims is not None:
            if axes > ndims:
                raise ValueError(f"`axes` must not be larger than the number of dimensions of tensor {a}.  "
                                 f"Received {axes}, vs tensor dimensions {ndims}.")
            return list(builtins.range(ndims - axes, ndims)), list(builtins.range(axes))
        rank_a = array_ops.rank(a)
        return range(rank_a - axes, rank_a), range(axes)
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = [[int(x)] if isinstance(x, (int, np.integer)) else x for x in axes]
        if isinstance(a_axes, (list, tuple)) and isinstance(b_axes, (list, tuple)):
            a_axes, b_axes = [int(x) for x in a_axes], [int(x) for x in b_axes]
            if len(a_axes) != len(b_axes):
                raise ValueError(f"Different number of contraction axes `a` and `b`, {len(a_axes)} != "
                                 f"{len(b_axes)}.")
        return a_axes, b_axes
    axes = ops.convert_to_tensor(axes, name="axes", dtype=dtypes.int32)
    return axes[0], axes[1]


def _tensordot_reshape(t: ops.Tensor, axes: Any, flipped: bool) -> tuple:
    """t transposed and reshaped to a matrix [free, contracted] ([contracted, free] when flipped), with the
    free dimensions as a list (static) or an int32 tensor, and their static sizes when the rank is known."""
    if t.shape.ndims is not None and isinstance(axes, list):
        dims = t.shape.as_list()
        axes = [i if i >= 0 else i + len(dims) for i in axes]
        free = [i for i in builtins.range(len(dims)) if i not in axes]
        axes_static = [dims[i] for i in axes]
        free_static = [dims[i] for i in free]
        perm = axes + free if flipped else free + axes
        moved = t if perm == list(builtins.range(len(dims))) else array_ops.transpose(t, perm)
        if t.shape.is_fully_defined():
            prod_free = int(np.prod(free_static, dtype=np.int64))
            prod_axes = int(np.prod(axes_static, dtype=np.int64))
            new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
            return (moved if moved.shape.as_list() == new_shape else array_ops.reshape(moved, new_shape),
                    free_static, free_static)
        shape_t = array_ops.shape(t)
        free_dims = array_ops.gather(shape_t, constant_op.constant(free, dtype=dtypes.int32))
        axes_t = constant_op.constant(axes, dtype=dtypes.int32)
    else:
        from edgelite.ops.unique_ops import setdiff1d

        free_static = None
        shape_t = array_ops.shape(t)
        rank_t = array_ops.rank(t)
        axes_t = ops.convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        axes_t = array_ops.where(axes_t >= 0, axes_t, axes_t + rank_t)
        free, _ = setdiff1d(range(rank_t), axes_t)
        free_dims = array_ops.gather(shape_t, free)
        moved = array_ops.transpose(t, array_ops.concat([axes_t, free] if flipped else [free, axes_t], 0))
    prod_free = reduce_prod(free_dims)
    prod_axes = reduce_prod(array_ops.gather(shape_t, axes_t))
    new_shape = array_ops.stack([prod_axes, prod_free] if flipped else [prod_free, prod_axes])
    return array_ops.reshape(moved, new_shape), free_dims, free_static


def tensordot(a: Any, b: Any, axes: Any, name: Optional[str] = None) -> ops.Tensor:
    """Sum over the given axes of a and b, as one matmul of the two operands reshaped to matrices; shapes
    unknown at build time are read at run time (e.g. a dense layer over [batch, time, features])."""
    with ops.name_scope(name, "Tensordot", [a, b, axes]) as name:
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b")
        a_axes, b_axes = _tensordot_axes(a, axes)
        a_mat, a_free, a_free_static = _tensordot_reshape(a, a_axes, flipped=False)
        b_mat, b_free, b_free_static = _tensordot_reshape(b, b_axes, flipped=True)
        product = matmul(a_mat, b_mat)
        if isinstance(a_free, list) and isinstance(b_free, list):
            if product.shape.is_fully_defined() and product.shape.as_list() == a_free + b_free:
                return product
            return array_ops.reshape(product, a_free + b_free, name=name)
        a_free = ops.convert_to_tensor(a_free, dtype=dtypes.int32)
        b_free = ops.convert_to_tensor(b_free, dtype=dtypes.int32)
        out = array_ops.reshape(product, array_ops.concat([a_free, b_free], 0), name=name)
        if a_free_static is not None and b_free_static is not None:
            out.set_shape(a_free_static + b_free_static)
        return out
