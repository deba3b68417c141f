"""Gradients of the math ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.framework import constant_op
from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops

for _t in ("Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd", "LogicalOr",
           "LogicalNot", "IsNan", "IsInf", "IsFinite", "ArgMax", "ArgMin", "Range", "LinSpace", "Any", "All",
           "FloorDiv", "TruncateDiv", "Floor", "Ceil", "Round", "Rint"):
    ops.NoGradient(_t)


# ---- broadcasting helpers -------------------------------------------------------------------------------
def _static_reduction(a: list, b: list) -> tuple:
    n = max(len(a), len(b))
    pa = [1] * (n - len(a)) + a
    pb = [1] * (n - len(b)) + b
    out = [max(p, q) for p, q in zip(pa, pb)]
    ra = [i for i in range(n) if pa[i] == 1 and out[i] != 1]
    rb = [i for i in range(n) if pb[i] == 1 and out[i] != 1]
    return (ra, a != out), (rb, b != out)


def sum_to_shape(grad: Any, shape: Any) -> ops.Tensor:
    """Sum a broadcast gradient back to `shape` (a shape tensor of the forward input)."""
    sg = array_ops.shape(grad)
    rx, _ = array_ops.broadcast_gradient_args(shape, sg)
    return array_ops.reshape(math_ops.reduce_sum(grad, rx), shape)


def _reduce_pair(x: ops.Tensor, y: ops.Tensor, gx: Any, gy: Any) -> tuple:
    """Undo numpy broadcasting of x and y in their gradients (statically when shapes are known)."""
    xs, ys = x.shape, y.shape
    if xs.is_fully_defined() and ys.is_fully_defined():
        (rx, mx), (ry, my) = _static_reduction(xs.as_list(), ys.as_list())
        if gx is not None and mx:
            gx = array_ops.reshape(math_ops.reduce_sum(gx, rx) if rx else gx, xs.as_list())
        if gy is not None and my:
            gy = array_ops.reshape(math_ops.reduce_sum(gy, ry) if ry else gy, ys.as_list())
        return gx, gy
    sx = array_ops.shape(x)
    sy = array_ops.shape(y)
    rx, ry = array_ops.broadcast_gradient_args(sx, sy)
    if gx is not None:
        gx = array_ops.reshape(math_ops.reduce_sum(gx, rx), sx)
    if gy is not None:
        gy = array_ops.reshape(math_ops.reduce_sum(gy, ry), sy)
    return gx, gy


# ---- elementwise binary -----------------------------------------------------------------------------------
@ops.RegisterGradient("Add")
@ops.RegisterGradient("AddV2")
def _add_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return _reduce_pair(x, y, grad, grad)


@ops.RegisterGradient("Sub")
def _sub_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return _reduce_pair(x, y, grad, -grad)


@ops.RegisterGradient("Mul")
def _mul_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    if x.dtype.is_complex:
        # TF's convention for complex inputs: the gradient is grad times the conjugate of the other factor
        from edgelite.ops.complex_ops import conj
        x, y = conj(x), conj(y)
        return _reduce_pair(op.inputs[0], op.inputs[1], grad * y, x * grad)
    return _reduce_pair(x, y, grad * y, x * grad)


@ops.RegisterGradient("RealDiv")
@ops.RegisterGradient("Div")
def _div_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return _reduce_pair(x, y, math_ops.realdiv(grad, y),
                        grad * math_ops.realdiv(math_ops.realdiv(-x, y), y))


@ops.RegisterGradient("DivNoNan")
def _div_no_nan_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    return _reduce_pair(x, y, math_ops.div_no_nan(grad, y),
                        grad * math_ops.div_no_nan(math_ops.div_no_nan(-x, y), y))


@ops.RegisterGradient("FloorMod")
def _floor_mod_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    floor_xy = math_ops.floordiv(x, y)
    return _reduce_pair(x, y, grad, grad * math_ops.negative(floor_xy))


@ops.RegisterGradient("Pow")
def _pow_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    z = op.outputs[0]
    gx = grad * y * math_ops.pow(x, y - array_ops.ones_like(y))
    mask = x > array_ops.zeros_like(x)
    safe_x = array_ops.where_v2(mask, x, array_ops.ones_like(x))
    log_x = array_ops.where_v2(mask, math_ops.log(safe_x), array_ops.zeros_like(x))
    gy = grad * z * log_x
    return _reduce_pair(x, y, gx, gy)


def _minmax_grad(op: Any, grad: Any, selector: Any) -> tuple:
    x, y = op.inputs
    xmask = selector(x, y)
    zeros = array_ops.zeros_like(grad)
    return _reduce_pair(x, y, array_ops.where_v2(xmask, grad, zeros), array_ops.where_v2(xmask, zeros, grad))


@ops.RegisterGradient("Maximum")
def _maximum_grad(op: Any, grad: Any) -> tuple:
    return _minmax_grad(op, grad, math_ops.greater_equal)


@ops.RegisterGradient("Minimum")
def _minimum_grad(op: Any, grad: Any) -> tuple:
    return _minmax_grad(op, grad, math_ops.less_equal)


@ops.RegisterGradient("SquaredDifference")
def _squared_difference_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    with ops.control_dependencies([grad]):
        x_grad = math_ops.scalar_mul(2.0, grad) * (x - y) if x.dtype.is_floating else grad * 2 * (x - y)
    return _reduce_pair(x, y, x_grad, -x_grad)


@ops.RegisterGradient("Atan2")
def _atan2_grad(op: Any, grad: Any) -> tuple:
    y, x = op.inputs
    with ops.control_dependencies([grad]):
        grad_inv = grad / (math_ops.square(x) + math_ops.square(y))
        gy, gx = _reduce_pair(y, x, x * grad_inv, -y * grad_inv)
        return gy, gx


# ---- elementwise unary --------------------------------------------------------------------------------
@ops.RegisterGradient("Neg")
def _neg_grad(op: Any, grad: Any) -> Any:
    return -grad


@ops.RegisterGradient("Sign")
def _sign_grad(op: Any, grad: Any) -> Any:
    return array_ops.zeros_like(op.inputs[0])


@ops.RegisterGradient("Abs")
def _abs_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.sign(op.inputs[0])


@ops.RegisterGradient("Square")
def _square_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    with ops.control_dependencies([grad]):
        y = constant_op.constant(2, dtype=x.dtype.base_dtype)
        return math_ops.multiply(grad, math_ops.multiply(x, y))


@ops.RegisterGradient("Sqrt")
def _sqrt_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return grad * (constant_op.constant(0.5, dtype=y.dtype.base_dtype) / y)


@ops.RegisterGradient("Rsqrt")
def _rsqrt_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return grad * (constant_op.constant(-0.5, dtype=y.dtype.base_dtype) * y * y * y)


@ops.RegisterGradient("Exp")
def _exp_grad(op: Any, grad: Any) -> Any:
    return grad * op.outputs[0]


@ops.RegisterGradient("Expm1")
def _expm1_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.exp(op.inputs[0])


@ops.RegisterGradient("Log")
def _log_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.reciprocal(op.inputs[0])


@ops.RegisterGradient("Log1p")
def _log1p_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return grad * math_ops.reciprocal(array_ops.ones_like(x) + x)


@ops.RegisterGradient("Sigmoid")
def _sigmoid_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return grad * (y * (array_ops.ones_like(y) - y))


@ops.RegisterGradient("Tanh")
def _tanh_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return grad * (array_ops.ones_like(y) - y * y)


@ops.RegisterGradient("Reciprocal")
def _reciprocal_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return -grad * (y * y)


@ops.RegisterGradient("Sin")
def _sin_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.cos(op.inputs[0])


@ops.RegisterGradient("Cos")
def _cos_grad(op: Any, grad: Any) -> Any:
    return -grad * math_ops.sin(op.inputs[0])


@ops.RegisterGradient("Tan")
def _tan_grad(op: Any, grad: Any) -> Any:
    c = math_ops.cos(op.inputs[0])
    return grad / (c * c)


@ops.RegisterGradient("Asin")
def _asin_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return grad * math_ops.rsqrt(array_ops.ones_like(x) - x * x)


@ops.RegisterGradient("Acos")
def _acos_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return -grad * math_ops.rsqrt(array_ops.ones_like(x) - x * x)


@ops.RegisterGradient("Atan")
def _atan_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return grad * math_ops.reciprocal(array_ops.ones_like(x) + x * x)


@ops.RegisterGradient("Sinh")
def _sinh_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.cosh(op.inputs[0])


@ops.RegisterGradient("Cosh")
def _cosh_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.sinh(op.inputs[0])


@ops.RegisterGradient("Erf")
def _erf_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    two_over_root_pi = constant_op.constant(2 / np.sqrt(np.pi), dtype=grad.dtype.base_dtype)
    return grad * two_over_root_pi * math_ops.exp(-math_ops.square(x))


# ---- matmul --------------------------------------------------------------------------------------------
@ops.RegisterGradient("MatMul")
def _matmul_grad(op: Any, grad: Any) -> tuple:
    t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    a, b = op.inputs
    if not t_a and not t_b:
        return (math_ops.matmul(grad, b, transpose_b=True), math_ops.matmul(a, grad, transpose_a=True))
    if not t_a and t_b:
        return (math_ops.matmul(grad, b), math_ops.matmul(grad, a, transpose_a=True))
    if t_a and not t_b:
        return (math_ops.matmul(b, grad, transpose_b=True), math_ops.matmul(a, grad))
    return (math_ops.matmul(b, grad, transpose_a=True, transpose_b=True),
            math_ops.matmul(grad, a, transpose_a=True, transpose_b=True))


@ops.RegisterGradient("BatchMatMulV2")
def _batch_matmul_grad(op: Any, grad: Any) -> tuple:
    x, y = op.inputs
    adj_x, adj_y = op.get_attr("adj_x"), op.get_attr("adj_y")
    if not adj_x:
        gx = math_ops.matmul(grad, y, adjoint_b=not adj_y) if not adj_y else math_ops.matmul(grad, y)
    else:
        gx = math_ops.matmul(y, grad, adjoint_b=True) if not adj_y else math_ops.matmul(y, grad, adjoint_a=True,
                                                                                          adjoint_b=True)
    if not adj_y:
        gy = math_ops.matmul(x, grad, adjoint_a=not adj_x) if not adj_x else math_ops.matmul(x, grad)
    else:
        gy = math_ops.matmul(grad, x, adjoint_a=True) if not adj_x else math_ops.matmul(grad, x, adjoint_a=True,
                                                                                          adjoint_b=True)
    xs, ys = x.shape, y.shape
    if xs.ndims is not None and ys.ndims is not None and xs[:-2].is_fully_defined() and \
            ys[:-2].is_fully_defined() and xs[:-2] == ys[:-2]:
        return gx, gy
    sx = array_ops.shape(x)
    sy = array_ops.shape(y)
    rx, ry = array_ops.broadcast_gradient_args(sx[:-2], sy[:-2])
    gx = array_ops.reshape(math_ops.reduce_sum(gx, rx), sx)
    gy = array_ops.reshape(math_ops.reduce_sum(gy, ry), sy)
    return gx, gy


# ---- reductions ---------------------------------------------------------------------------------------------
def _reduced_kept_shape(x: ops.Tensor, axes: ops.Tensor) -> Any:
    """The shape of x with the reduced axes set to 1 (static list when possible, else a tensor)."""
    ax = tensor_util.constant_value(axes)
    s = x.shape
    if ax is not None and s.is_fully_defined():
        dims = s.as_list()
        n = len(dims)
        for a in np.ravel(ax):
            dims[int(a) % n if n else 0] = 1 if n else dims[0]
        return dims
    # TensorFlow's formula from standard ops, so exported gradient graphs stay importable by TensorFlow.
    from edgelite.ops import data_flow_ops
    shape = array_ops.shape(x)
    rank = array_ops.size(shape)
    axes = (math_ops.cast(axes, dtypes.int32) + rank) % rank
    return data_flow_ops.dynamic_stitch([math_ops.range(rank), axes],
                                        [shape, array_ops.fill(array_ops.shape(axes), 1)])


def _reduced_shape_kernel(ctx: Any, shape: np.ndarray, axes: np.ndarray) -> np.ndarray:
    out = shape.copy()
    n = len(shape)
    for a in np.ravel(axes):
        out[int(a) % n] = 1
    return out


register_op("ReducedShape", inputs=["input_shape: int32", "axes: int32"], outputs=["output: int32"],
            kernel=_reduced_shape_kernel, shape_fn=lambda op: [op.inputs[0].shape])
ops.NoGradient("ReducedShape")


def _broadcast_back(grad: Any, x: ops.Tensor, axes: ops.Tensor, keep_dims: bool) -> ops.Tensor:
    if not keep_dims:
        grad = array_ops.reshape(grad, _reduced_kept_shape(x, axes))
    if x.shape.is_fully_defined():
        return array_ops.broadcast_to(grad, x.shape.as_list())
    return array_ops.broadcast_to(grad, array_ops.shape(x))


@ops.RegisterGradient("Sum")
def _sum_grad(op: Any, grad: Any) -> tuple:
    x, axes = op.inputs
    return _broadcast_back(grad, x, axes, op.get_attr("keep_dims")), None


def _num_reduced(x: ops.Tensor, y: ops.Tensor) -> Any:
    if x.shape.is_fully_defined() and y.shape.is_fully_defined():
        nx, ny = x.shape.num_elements(), y.shape.num_elements()
        return max(nx // max(ny, 1), 1)
    sx = math_ops.reduce_prod(array_ops.shape(x))
    sy = math_ops.reduce_prod(array_ops.shape(y))
    return math_ops.maximum(math_ops.floordiv(sx, math_ops.maximum(sy, 1)), 1)


@ops.RegisterGradient("Mean")
def _mean_grad(op: Any, grad: Any) -> tuple:
    x, axes = op.inputs
    g = _broadcast_back(grad, x, axes, op.get_attr("keep_dims"))
    factor = _num_reduced(x, op.outputs[0])
    if isinstance(factor, int):
        factor = constant_op.constant(factor, dtype=g.dtype.base_dtype)
    else:
        factor = math_ops.cast(factor, g.dtype.base_dtype)
    return math_ops.truediv(g, factor), None


def _minmax_reduce_grad(op: Any, grad: Any) -> tuple:
    x, axes = op.inputs
    y = op.outputs[0]
    keep = op.get_attr("keep_dims")
    kept = _reduced_kept_shape(x, axes)
    y_k = y if keep else array_ops.reshape(y, kept)
    g_k = grad if keep else array_ops.reshape(grad, kept)
    indicators = math_ops.cast(math_ops.equal(y_k, x), grad.dtype.base_dtype)
    num_selected = math_ops.reduce_sum(indicators, axes, keepdims=True)
    return math_ops.truediv(indicators, num_selected) * g_k, None


ops.RegisterGradient("Max")(_minmax_reduce_grad)
ops.RegisterGradient("Min")(_minmax_reduce_grad)


@ops.RegisterGradient("Prod")
def _prod_grad(op: Any, grad: Any) -> tuple:
    """d prod / d x_i = product of the other elements, via exclusive cumulative products (zero-safe)."""
    x, axes = op.inputs
    s = x.shape
    ax = tensor_util.constant_value(axes)
    if s.ndims is None or ax is None:
        raise ValueError("The gradient of Prod needs a known input rank and constant reduction axes")
    n = s.ndims
    red = sorted({int(a) % n for a in np.ravel(ax)}) if n else []
    other = [i for i in range(n) if i not in red]
    perm = red + other
    g = _broadcast_back(grad, x, axes, op.get_attr("keep_dims"))
    xt = array_ops.transpose(x, perm)
    xt_shape = array_ops.shape(xt)
    reduced_num = math_ops.reduce_prod(array_ops.gather(array_ops.shape(x), red)) if red else 1
    flat = array_ops.reshape(xt, array_ops.stack([reduced_num, -1]) if red else [1, -1])
    left = math_ops.cumprod(flat, axis=0, exclusive=True)
    right = math_ops.cumprod(flat, axis=0, exclusive=True, reverse=True)
    y = array_ops.reshape(left * right, xt_shape)
    out = array_ops.transpose(y, list(np.argsort(perm)))
    return g * out, None


# ---- scans / n-ary ----------------------------------------------------------------------------------------
@ops.RegisterGradient("Cumsum")
def _cumsum_grad(op: Any, grad: Any) -> tuple:
    axis = op.inputs[1]
    return math_ops.cumsum(grad, axis, exclusive=op.get_attr("exclusive"),
                           reverse=not op.get_attr("reverse")), None


@ops.RegisterGradient("Cumprod")
def _cumprod_grad(op: Any, grad: Any) -> tuple:
    x, axis = op.inputs
    exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
    prod = math_ops.cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = math_ops.cumsum(prod * grad, axis, exclusive=exclusive, reverse=not reverse)
    return math_ops.div_no_nan(out, x), None


@ops.RegisterGradient("AddN")
def _add_n_grad(op: Any, grad: Any) -> list:
    return [grad] * len(op.inputs)


@ops.RegisterGradient("Cast")
def _cast_grad(op: Any, grad: Any) -> Any:
    src = op.inputs[0].dtype.base_dtype
    dst = op.outputs[0].dtype.base_dtype
    float_like = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.complex64,
                  dtypes.complex128)
    if src in float_like and dst in float_like:
        return math_ops.cast(grad, src)
    return None


# ---- select -------------------------------------------------------------------------------------------------------
@ops.RegisterGradient("Select")
def _select_grad(op: Any, grad: Any) -> tuple:
    c = op.inputs[0]
    x = op.inputs[1]
    zeros = array_ops.zeros_like(x)
    return None, array_ops.where(c, grad, zeros), array_ops.where(c, zeros, grad)


@ops.RegisterGradient("SelectV2")
def _select_v2_grad(op: Any, grad: Any) -> tuple:
    c, x, y = op.inputs
    zeros = array_ops.zeros([], dtype=grad.dtype.base_dtype)
    gx = array_ops.where_v2(c, grad, zeros)
    gy = array_ops.where_v2(c, zeros, grad)
    gx, _ = _reduce_pair(x, op.outputs[0], gx, None)
    gy, _ = _reduce_pair(y, op.outputs[0], gy, None)
    return None, gx, gy
