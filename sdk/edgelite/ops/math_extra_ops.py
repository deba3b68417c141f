"""The rest of tf.math's elementwise and scan ops: inverse hyperbolics, xlogy family, mul/reciprocal without NaN,
truncatemod, nextafter, cross, cumulative_logsumexp, polyval and the monotonicity tests."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework.op_def_registry import FLOAT_COMPLEX_TYPES, FLOAT_TYPES, REAL_NUMBER_TYPES, register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.shape_checks import shape_error

_F32_F64 = [dtypes.float32, dtypes.float64]


def unbroadcast(grad: Any, x: Any) -> Any:
    """grad summed back to x's shape where x was broadcast."""
    from edgelite.ops.math_grad import sum_to_shape
    if x.shape.is_fully_defined() and grad.shape.is_fully_defined() and x.shape.as_list() == grad.shape.as_list():
        return grad
    return sum_to_shape(grad, array_ops.shape(x))


# ---- elementwise --------------------------------------------------------------------------------------------------
def _where_x_zero(fn: Any) -> Any:
    """A kernel giving 0 where x == 0 and fn(x, y) elsewhere (no NaN from 0 * inf)."""
    def kernel(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return np.where(x == 0, np.zeros((), x.dtype), fn(x, y)).astype(x.dtype, copy=False)
    return kernel


def _truncate_mod(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu" and (y == 0).any():
        # the error TF 2.21's CPU kernel raises for an integer remainder by zero
        raise errors.InternalError(None, None, "Unexpected error in binary operator (only integer div and mod "
                                               "should have errors)")
    return np.fmod(x, y)


_UNARY = {"Acosh": np.arccosh, "Asinh": np.arcsinh, "Atanh": np.arctanh}
for _name, _fn in _UNARY.items():
    register_op(_name, inputs=["x: T"], outputs=["y: T"], kernel=(lambda f: lambda ctx, x: f(x))(_fn),
                shape_fn=common_shapes.unchanged_shape, allowed_dtypes={"T": list(FLOAT_COMPLEX_TYPES)})

_BINARY = {
    # op type: (kernel, allowed dtypes, input names)
    "Xlogy": (_where_x_zero(lambda x, y: x * np.log(y)), FLOAT_COMPLEX_TYPES, ("x", "y")),
    "Xdivy": (_where_x_zero(lambda x, y: x / y), FLOAT_COMPLEX_TYPES, ("x", "y")),
    "Xlog1py": (_where_x_zero(lambda x, y: x * np.log1p(y)), FLOAT_COMPLEX_TYPES, ("x", "y")),
    "MulNoNan": (lambda ctx, x, y: np.where(y == 0, np.zeros((), x.dtype), x * y), FLOAT_COMPLEX_TYPES,
                 ("x", "y")),
    "TruncateMod": (_truncate_mod, [dtypes.int32, dtypes.int64] + list(FLOAT_TYPES), ("x", "y")),
    "NextAfter": (lambda ctx, a, b: np.nextafter(a, b), _F32_F64, ("x1", "x2")),
}
for _name, (_kernel, _types, (_a, _b)) in _BINARY.items():
    register_op(_name, inputs=[f"{_a}: T", f"{_b}: T"], outputs=["output: T" if _name == "NextAfter" else "z: T"],
                kernel=_kernel, shape_fn=common_shapes.broadcast_shape, allowed_dtypes={"T": list(_types)},
                attrs={"T": dtypes.float32} if _name == "NextAfter" else None)


@ops.RegisterGradient("NextAfter")
def _next_after_grad(op: Any, grad: Any) -> tuple:
    """As TF: the result moves with x1 (slope 1) and not with x2."""
    x1, x2 = op.inputs
    return unbroadcast(grad, x1), unbroadcast(array_ops.zeros_like(grad), x2)


@ops.RegisterGradient("Acosh")
def _acosh_grad(op: Any, grad: Any) -> Any:
    return grad / math_ops.sinh(op.outputs[0])


@ops.RegisterGradient("Asinh")
def _asinh_grad(op: Any, grad: Any) -> Any:
    return grad / math_ops.cosh(op.outputs[0])


@ops.RegisterGradient("Atanh")
def _atanh_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return grad * math_ops.reciprocal(1 - math_ops.square(x))


def _not_zero(x: Any) -> Any:
    return math_ops.cast(math_ops.not_equal(x, array_ops.zeros_like(x)), x.dtype.base_dtype)


@ops.RegisterGradient("Xlogy")
def _xlogy_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return unbroadcast(xlogy(_not_zero(x), y) * grad, x), unbroadcast(xdivy(x, y) * grad, y)


@ops.RegisterGradient("Xlog1py")
def _xlog1py_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return unbroadcast(xlog1py(_not_zero(x), y) * grad, x), unbroadcast(xdivy(x, y + 1) * grad, y)


@ops.RegisterGradient("Xdivy")
def _xdivy_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return (unbroadcast(xdivy(_not_zero(x), y) * grad, x),
            unbroadcast(xdivy(-x, math_ops.square(y)) * grad, y))


@ops.RegisterGradient("MulNoNan")
def _mul_no_nan_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return unbroadcast(multiply_no_nan(grad, y), x), unbroadcast(multiply_no_nan(x, grad), y)


def acosh(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Inverse hyperbolic cosine."""
    return ops.apply_op("Acosh", [x], name=name)


def asinh(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Inverse hyperbolic sine."""
    return ops.apply_op("Asinh", [x], name=name)


def atanh(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Inverse hyperbolic tangent."""
    return ops.apply_op("Atanh", [x], name=name)


def xlogy(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """x * log(y), and 0 where x == 0."""
    return ops.apply_op("Xlogy", [x, y], name=name)


def xdivy(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """x / y, and 0 where x == 0."""
    return ops.apply_op("Xdivy", [x, y], name=name)


def xlog1py(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """x * log1p(y), and 0 where x == 0."""
    return ops.apply_op("Xlog1py", [x, y], name=name)


def multiply_no_nan(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """x * y, and 0 where y == 0 even if x is inf or NaN."""
    with ops.name_scope(name, "multiply_no_nan", [x, y]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return ops.apply_op("MulNoNan", [x, y], name=scope)


def reciprocal_no_nan(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """1 / x, and 0 where x == 0."""
    with ops.name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        one = ops.convert_to_tensor(1, dtype=x.dtype.base_dtype, name="one")
        return math_ops.div_no_nan(one, x, name=scope)


def truncatemod(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Remainder of division rounded toward zero (C's fmod): the result has x's sign."""
    return ops.apply_op("TruncateMod", [x, y], name=name)


def nextafter(x1: Any, x2: Any, name: Optional[str] = None) -> ops.Tensor:
    """The next representable value after x1 in the direction of x2."""
    return ops.apply_op("NextAfter", [x1, x2], name=name)


# ---- cross ---------------------------------------------------------------------------------------------------------
def _cross_kernel(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.shape != b.shape:
        raise errors.InvalidArgumentError(None, None, f"both inputs must be the same shape, got {list(a.shape)} and "
                                                      f"{list(b.shape)}")
    if a.ndim < 1 or a.shape[-1] != 3:
        raise errors.InvalidArgumentError(None, None, f"Input must have an inner dimension of 3, got "
                                                      f"{list(a.shape)}")
    return np.cross(a, b)


def _cross_shape(op: Any) -> list:
    a, b = op.inputs[0].shape, op.inputs[1].shape
    try:
        s = a.merge_with(b)
    except ValueError:
        raise shape_error(op, f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}" if a.ndims != b.ndims
                          else "Dimensions must be equal") from None
    if s.ndims is not None:
        if s.ndims < 1:
            raise shape_error(op, f"Shape must be at least rank 1 but is rank {s.ndims}")
        last = s.as_list()[-1]
        if last is not None and last != 3:
            raise shape_error(op, f"Dimension must be 3 but is {last}")
    return [s]


register_op("Cross", inputs=["a: T", "b: T"], outputs=["product: T"], kernel=_cross_kernel, shape_fn=_cross_shape,
            allowed_dtypes={"T": list(REAL_NUMBER_TYPES)})


@ops.RegisterGradient("Cross")
def _cross_grad(op: Any, grad: Any) -> tuple:
    a, b = op.inputs
    return cross(b, grad), cross(grad, a)


def cross(a: Any, b: Any, name: Optional[str] = None) -> ops.Tensor:
    """Pairwise cross products of 3-vectors in the last dimension."""
    return ops.apply_op("Cross", [a, b], name=name)


# ---- cumulative_logsumexp -----------------------------------------------------------------------------------------
def _cumulative_logsumexp_kernel(ctx: Any, x: np.ndarray, axis: np.ndarray) -> np.ndarray:
    ax = int(axis)
    if not -x.ndim <= ax < max(x.ndim, 1):
        raise errors.InvalidArgumentError(None, None, f"ValueError: axis {ax} out of range")
    reverse, exclusive = ctx.attrs["reverse"], ctx.attrs["exclusive"]
    y = np.flip(x, ax) if reverse else x
    out = np.logaddexp.accumulate(y, axis=ax)
    if exclusive:
        first = np.full_like(np.take(out, [0], axis=ax), -np.inf)
        out = np.concatenate([first, np.delete(out, -1, axis=ax)], axis=ax) if out.shape[ax] else out
    return np.flip(out, ax) if reverse else out


register_op("CumulativeLogsumexp", inputs=["x: T", "axis: Tidx"], outputs=["out: T"],
            kernel=_cumulative_logsumexp_kernel, shape_fn=common_shapes.unchanged_shape,
            attrs={"exclusive": False, "reverse": False, "Tidx": dtypes.int32},
            allowed_dtypes={"T": list(FLOAT_TYPES), "Tidx": [dtypes.int32, dtypes.int64]})


@ops.RegisterGradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op: Any, grad: Any) -> tuple:
    """Positive and negative parts of grad are carried in log space so the reverse scan cannot overflow."""
    x, axis = op.inputs
    out = op.outputs[0]
    exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
    lowest = array_ops.fill(array_ops.shape(grad), grad.dtype.as_numpy_dtype(grad.dtype.min))
    zero = array_ops.zeros_like(grad)
    log_pos = array_ops.where_v2(math_ops.greater(grad, zero), math_ops.log(grad), lowest)
    log_neg = array_ops.where_v2(math_ops.less(grad, zero), math_ops.log(-grad), lowest)
    pos = math_ops.exp(cumulative_logsumexp(log_pos - out, axis, exclusive=exclusive, reverse=not reverse) + x)
    neg = math_ops.exp(cumulative_logsumexp(log_neg - out, axis, exclusive=exclusive, reverse=not reverse) + x)
    return pos - neg, None


def cumulative_logsumexp(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
                         name: Optional[str] = None) -> ops.Tensor:
    """log(cumsum(exp(x))) along axis, computed without overflow."""
    with ops.name_scope(name, "CumulativeLogsumexp", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return ops.apply_op("CumulativeLogsumexp", [x, axis], {"exclusive": exclusive, "reverse": reverse},
                            name=name)


# ---- composites ---------------------------------------------------------------------------------------------------
def polyval(coeffs: list, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], evaluated by Horner's rule."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type: {type(coeffs)}.")
    with ops.name_scope(name, "polyval", list(coeffs) + [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        if not coeffs:
            return array_ops.zeros_like(x, name=scope)
        coeffs = [ops.convert_to_tensor(c, name=f"coeff_{i}") for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def _monotonic(x: Any, strict: bool, name: Optional[str], default: str) -> ops.Tensor:
    with ops.name_scope(name, default, [x]):
        x = array_ops.reshape(ops.convert_to_tensor(x, name="x"), [-1])
        if not (x.dtype.is_floating or x.dtype.is_integer or x.dtype.is_complex):
            raise TypeError("Expected x to be numeric.")
        diff = x[1:] - x[:-1]
        zero = ops.convert_to_tensor(0, dtype=diff.dtype.base_dtype)
        cmp = math_ops.less(zero, diff) if strict else math_ops.less_equal(zero, diff)
        return math_ops.reduce_all(cmp)


def is_non_decreasing(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """True when x (flattened) never decreases; trivially true with fewer than two entries."""
    return _monotonic(x, False, name, "is_non_decreasing")


def is_strictly_increasing(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """True when x (flattened) always increases; trivially true with fewer than two entries."""
    return _monotonic(x, True, name, "is_strictly_increasing")

