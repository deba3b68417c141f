"""Special functions (gamma family, error-function inverses, zeta, Bessel I) on scipy.special, with TF's gradients."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np
from scipy import special

from edgelite.framework import common_shapes
from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import FLOAT_TYPES, register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.math_extra_ops import unbroadcast, xlog1py, xlogy

_F32_F64 = [dtypes.float32, dtypes.float64]


def _same_dtype(fn: Any) -> Any:
    """A kernel applying fn to all inputs and returning the first input's dtype (scipy may widen)."""
    return lambda ctx, *xs: np.asarray(fn(*xs)).astype(xs[0].dtype, copy=False)


def igamma_grad_a(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d/da P(a, x): a five-point central difference in float64 (scipy has no closed form)."""
    a64, x64 = np.asarray(a, np.float64), np.asarray(x, np.float64)
    h = 1e-3 * np.maximum(1.0, np.abs(a64))
    f = lambda t: special.gammainc(t, x64)  # noqa: E731
    return (-f(a64 + 2 * h) + 8 * f(a64 + h) - 8 * f(a64 - h) + f(a64 - 2 * h)) / (12 * h)


_UNARY = {
    "Lgamma": special.gammaln, "Digamma": special.digamma, "Erfc": special.erfc, "Erfinv": special.erfinv,
    "Ndtri": special.ndtri, "BesselI0": special.i0, "BesselI0e": special.i0e, "BesselI1": special.i1,
    "BesselI1e": special.i1e,
}
for _name, _fn in _UNARY.items():
    register_op(_name, inputs=["x: T"], outputs=["y: T"], kernel=_same_dtype(_fn),
                shape_fn=common_shapes.unchanged_shape, allowed_dtypes={"T": list(FLOAT_TYPES)})

_BINARY = {
    # op type: (inputs, numpy fn, allowed dtypes)
    "Igamma": (["a: T", "x: T"], special.gammainc, FLOAT_TYPES),
    "Igammac": (["a: T", "x: T"], special.gammaincc, FLOAT_TYPES),
    "IgammaGradA": (["a: T", "x: T"], igamma_grad_a, _F32_F64),
    "Zeta": (["x: T", "q: T"], special.zeta, _F32_F64),
    "Polygamma": (["a: T", "x: T"], special.polygamma, _F32_F64),
}
for _name, (_inputs, _fn, _types) in _BINARY.items():
    register_op(_name, inputs=_inputs, outputs=["z: T"], kernel=_same_dtype(_fn),
                shape_fn=common_shapes.broadcast_shape, allowed_dtypes={"T": list(_types)})


def _betainc_shape(op: Any) -> list:
    shape = common_shapes.broadcast_static_shape(op.inputs[0].shape, op.inputs[1].shape)
    return [common_shapes.broadcast_static_shape(shape, op.inputs[2].shape)]


register_op("Betainc", inputs=["a: T", "b: T", "x: T"], outputs=["z: T"], kernel=_same_dtype(special.betainc),
            shape_fn=_betainc_shape, allowed_dtypes={"T": _F32_F64})
ops.NoGradient("IgammaGradA")


# ---- gradients ----------------------------------------------------------------------------------------------------
@ops.RegisterGradient("Lgamma")
def _lgamma_grad(op: Any, grad: Any) -> Any:
    return grad * digamma(op.inputs[0])


@ops.RegisterGradient("Digamma")
def _digamma_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return grad * polygamma(array_ops.ones_like(x), x)


@ops.RegisterGradient("Erfc")
def _erfc_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    scale = ops.convert_to_tensor(-2 / np.sqrt(np.pi), dtype=x.dtype.base_dtype)
    return grad * scale * math_ops.exp(-math_ops.square(x))


@ops.RegisterGradient("Erfinv")
def _erfinv_grad(op: Any, grad: Any) -> Any:
    root_pi_over_two = ops.convert_to_tensor(np.sqrt(np.pi) / 2, dtype=grad.dtype.base_dtype)
    return grad * root_pi_over_two * math_ops.exp(math_ops.square(op.outputs[0]))


@ops.RegisterGradient("Ndtri")
def _ndtri_grad(op: Any, grad: Any) -> Any:
    root_two_pi = ops.convert_to_tensor(np.sqrt(2 * np.pi), dtype=grad.dtype.base_dtype)
    return grad * root_two_pi * math_ops.exp(math_ops.square(op.outputs[0]) / 2.0)


@ops.RegisterGradient("BesselI0")
def _bessel_i0_grad(op: Any, grad: Any) -> Any:
    return grad * bessel_i1(op.inputs[0])


@ops.RegisterGradient("BesselI0e")
def _bessel_i0e_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    return grad * (bessel_i1e(x) - math_ops.sign(x) * y)


def _safe_x(x: Any) -> tuple:
    """x with |x| <= eps replaced by eps (the formulas divide by x), and the mask of the other entries."""
    eps = np.finfo(x.dtype.as_numpy_dtype).eps
    big = math_ops.greater(math_ops.abs(x), eps)
    return array_ops.where_v2(big, x, array_ops.fill(array_ops.shape(x), x.dtype.as_numpy_dtype(eps))), big


@ops.RegisterGradient("BesselI1")
def _bessel_i1_grad(op: Any, grad: Any) -> Any:
    """d/dx I1 = I0 - I1 / x; at exactly x = 0 TF 2.21 imputes 1 (the limit is 1/2), and so does edgelite."""
    x, y = op.inputs[0], op.outputs[0]
    at_zero = math_ops.equal(x, array_ops.zeros_like(x))
    safe = array_ops.where_v2(at_zero, array_ops.ones_like(x), x)
    dy = array_ops.where_v2(at_zero, array_ops.ones_like(x), bessel_i0(x) - y / safe)
    return grad * dy


@ops.RegisterGradient("BesselI1e")
def _bessel_i1e_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    safe, big = _safe_x(x)
    dy = bessel_i0e(safe) - y * (math_ops.sign(safe) + math_ops.reciprocal(safe))
    return grad * array_ops.where_v2(big, dy, array_ops.fill(array_ops.shape(x), x.dtype.as_numpy_dtype(0.5)))


@ops.RegisterGradient("Igamma")
def _igamma_grad(op: Any, grad: Any) -> tuple:
    a, x = op.inputs
    partial_a = ops.apply_op("IgammaGradA", [a, x])
    # exp(-x + (a - 1) log x - lgamma(a)): the density of Gamma(a) at x
    partial_x = math_ops.exp(-x + (a - 1) * math_ops.log(x) - lgamma(a))
    return unbroadcast(partial_a * grad, a), unbroadcast(partial_x * grad, x)


@ops.RegisterGradient("Igammac")
def _igammac_grad(op: Any, grad: Any) -> tuple:
    ga, gx = _igamma_grad(op, grad)
    return -ga, -gx


@ops.RegisterGradient("Betainc")
def _betainc_grad(op: Any, grad: Any) -> tuple:
    """Only x gets a gradient (TF has none for a and b)."""
    a, b, x = op.inputs
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    partial_x = math_ops.exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log_beta)
    return None, None, unbroadcast(partial_x * grad, x)


@ops.RegisterGradient("Zeta")
def _zeta_grad(op: Any, grad: Any) -> tuple:
    """Only q gets a gradient: d/dq zeta(x, q) = -x zeta(x + 1, q)."""
    x, q = op.inputs
    partial_q = -x * zeta(x + 1, q)
    return None, unbroadcast(partial_q * grad, q)


@ops.RegisterGradient("Polygamma")
def _polygamma_grad(op: Any, grad: Any) -> tuple:
    """Only x gets a gradient: d/dx psi^(n)(x) = psi^(n+1)(x)."""
    n, x = op.inputs
    partial_x = polygamma(n + 1, x)
    return None, unbroadcast(partial_x * grad, x)


# ---- wrappers -----------------------------------------------------------------------------------------------------
def _unary(op_type: str, x: Any, name: Optional[str]) -> ops.Tensor:
    return ops.apply_op(op_type, [x], name=name)


def lgamma(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """log |Gamma(x)|."""
    return _unary("Lgamma", x, name)


def digamma(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """psi(x), the derivative of lgamma."""
    return _unary("Digamma", x, name)


def erfc(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """1 - erf(x), accurate for large x."""
    return _unary("Erfc", x, name)


def erfinv(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The inverse of erf on (-1, 1)."""
    return _unary("Erfinv", x, name)


def ndtri(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The standard normal quantile function (inverse CDF) on (0, 1)."""
    return _unary("Ndtri", x, name)


def erfcinv(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The inverse of erfc on (0, 2): -ndtri(x / 2) / sqrt(2)."""
    with ops.name_scope(name, "erfcinv", [x]):
        x = ops.convert_to_tensor(x, name="start")
        return -ndtri(0.5 * x) * np.sqrt(0.5)


def bessel_i0(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Modified Bessel function of the first kind, order 0."""
    return _unary("BesselI0", x, name)


def bessel_i0e(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """exp(-|x|) I0(x)."""
    return _unary("BesselI0e", x, name)


def bessel_i1(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Modified Bessel function of the first kind, order 1."""
    return _unary("BesselI1", x, name)


def bessel_i1e(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """exp(-|x|) I1(x)."""
    return _unary("BesselI1e", x, name)


def igamma(a: Any, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The regularized lower incomplete gamma function P(a, x)."""
    return ops.apply_op("Igamma", [a, x], name=name)


def igammac(a: Any, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return ops.apply_op("Igammac", [a, x], name=name)


def betainc(a: Any, b: Any, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The regularized incomplete beta function I_x(a, b)."""
    return ops.apply_op("Betainc", [a, b, x], name=name)


def zeta(x: Any, q: Any, name: Optional[str] = None) -> ops.Tensor:
    """The Hurwitz zeta function sum_n (n + q)^-x."""
    return ops.apply_op("Zeta", [x, q], name=name)


def polygamma(a: Any, x: Any, name: Optional[str] = None) -> ops.Tensor:
    """psi^(a)(x), the a-th derivative of digamma."""
    return ops.apply_op("Polygamma", [a, x], name=name)


def lbeta(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """log |Beta(x)| over the last dimension: sum(lgamma(x)) - lgamma(sum(x))."""
    with ops.name_scope(name, "lbeta", [x]):
        x = ops.convert_to_tensor(x, name="x")
        log_prod_gamma_x = math_ops.reduce_sum(lgamma(x), axis=[-1])
        sum_x = math_ops.reduce_sum(x, axis=[-1])
        return log_prod_gamma_x - lgamma(sum_x)
