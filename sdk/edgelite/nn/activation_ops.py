"""Activation ops (Relu, Relu6, LeakyRelu, Elu, Selu, Softplus, Softmax, LogSoftmax), their grad ops and wrappers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes, ops
from edgelite.framework.op_def_registry import FLOAT_TYPES, REAL_NUMBER_TYPES, register_op
from edgelite.kernels import activations as act
from edgelite.ops import array_ops, math_ops

_same = common_shapes.unchanged_shape


def _check_logits_rank(op: Any) -> list:
    shape = op.inputs[0].shape
    if shape.ndims is not None and shape.ndims < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {shape.ndims} for '{op.name}' (op: '{op.type}')")
    return [shape]


def _float_attr(value: float) -> float:
    """A float attr as TF holds it: rounded to float32 (so float64 kernels see float32(0.1), not 0.1)."""
    return float(np.float32(value))


def _unary(op_type: str, fn: Any, allowed: tuple, attrs: Optional[dict] = None) -> None:
    register_op(op_type, inputs=["features: T"], outputs=["activations: T"], attrs=attrs,
                kernel=fn, shape_fn=_same, allowed_dtypes={"T": allowed})


def _grad_op(op_type: str, fn: Any, second: str, attrs: Optional[dict] = None) -> None:
    register_op(op_type, inputs=["gradients: T", f"{second}: T"], outputs=["backprops: T"], attrs=attrs,
                kernel=fn, shape_fn=_same, allowed_dtypes={"T": REAL_NUMBER_TYPES})


_unary("Relu", lambda ctx, x: act.relu(x), REAL_NUMBER_TYPES)
_unary("Relu6", lambda ctx, x: act.relu6(x), REAL_NUMBER_TYPES)
_unary("LeakyRelu", lambda ctx, x: act.leaky_relu(x, _float_attr(ctx.attrs["alpha"])), FLOAT_TYPES, {"alpha": 0.2})
_unary("Elu", lambda ctx, x: act.elu(x), FLOAT_TYPES)
_unary("Selu", lambda ctx, x: act.selu(x), FLOAT_TYPES)
_unary("Softplus", lambda ctx, x: act.softplus(x), FLOAT_TYPES)
_grad_op("ReluGrad", lambda ctx, g, x: act.relu_grad(g, x), "features")
_grad_op("Relu6Grad", lambda ctx, g, x: act.relu6_grad(g, x), "features")
_grad_op("LeakyReluGrad", lambda ctx, g, x: act.leaky_relu_grad(g, x, _float_attr(ctx.attrs["alpha"])), "features",
         {"alpha": 0.2})
_grad_op("EluGrad", lambda ctx, g, y: act.elu_grad(g, y), "outputs")
_grad_op("SeluGrad", lambda ctx, g, y: act.selu_grad(g, y), "outputs")
_grad_op("SoftplusGrad", lambda ctx, g, x: act.softplus_grad(g, x), "features")
register_op("Softmax", inputs=["logits: T"], outputs=["softmax: T"], kernel=lambda ctx, x: act.softmax(x),
            shape_fn=_check_logits_rank, allowed_dtypes={"T": FLOAT_TYPES})
register_op("LogSoftmax", inputs=["logits: T"], outputs=["logsoftmax: T"], kernel=lambda ctx, x: act.log_softmax(x),
            shape_fn=_check_logits_rank, allowed_dtypes={"T": FLOAT_TYPES})


@ops.RegisterGradient("Relu")
def _relu_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("ReluGrad", [grad, op.outputs[0]])


@ops.RegisterGradient("Relu6")
def _relu6_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("Relu6Grad", [grad, op.outputs[0]])


@ops.RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("LeakyReluGrad", [grad, op.inputs[0]], {"alpha": op.get_attr("alpha")})


@ops.RegisterGradient("Elu")
def _elu_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("EluGrad", [grad, op.outputs[0]])


@ops.RegisterGradient("Selu")
def _selu_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("SeluGrad", [grad, op.outputs[0]])


@ops.RegisterGradient("Softplus")
def _softplus_grad(op: Any, grad: Any) -> Any:
    return grad * math_ops.sigmoid(op.inputs[0])


@ops.RegisterGradient("SoftplusGrad")
def _softplus_grad_grad(op: Any, grad: Any) -> list:
    dy, x = op.inputs
    with ops.control_dependencies([grad]):
        sig = math_ops.sigmoid(x)
        return [grad * sig, grad * dy * sig * (1 - sig)]


def _piecewise_linear_grad_grad(grad_op: str):
    """ReluGrad-style ops are linear in the incoming gradient and flat in the features."""
    def fn(op: Any, grad: Any) -> list:
        attrs = {"alpha": op.get_attr("alpha")} if grad_op == "LeakyReluGrad" else None
        return [ops.apply_op(grad_op, [grad, op.inputs[1]], attrs), array_ops.zeros_like(op.inputs[1])]
    return fn


for _t in ("ReluGrad", "Relu6Grad", "LeakyReluGrad"):
    ops.RegisterGradient(_t)(_piecewise_linear_grad_grad(_t))


@ops.RegisterGradient("EluGrad")
def _elu_grad_grad(op: Any, grad: Any) -> list:
    dy, y = op.inputs
    neg = math_ops.less(y, array_ops.zeros_like(y))
    return [ops.apply_op("EluGrad", [grad, y]), array_ops.where(neg, grad * dy, array_ops.zeros_like(y))]


@ops.RegisterGradient("SeluGrad")
def _selu_grad_grad(op: Any, grad: Any) -> list:
    dy, y = op.inputs
    neg = math_ops.less(y, array_ops.zeros_like(y))
    return [ops.apply_op("SeluGrad", [grad, y]), array_ops.where(neg, grad * dy, array_ops.zeros_like(y))]


@ops.RegisterGradient("Softmax")
def _softmax_grad(op: Any, grad: Any) -> Any:
    sm = op.outputs[0]
    return (grad - math_ops.reduce_sum(grad * sm, -1, keepdims=True)) * sm


@ops.RegisterGradient("LogSoftmax")
def _log_softmax_grad(op: Any, grad: Any) -> Any:
    sm = math_ops.exp(op.outputs[0])
    return grad - math_ops.reduce_sum(grad, -1, keepdims=True) * sm


# ---- wrappers ---------------------------------------------------------------------------------------------
def relu(features: Any, name: Optional[str] = None) -> ops.Tensor:
    """max(features, 0)."""
    return ops.apply_op("Relu", [features], name=name)


def relu6(features: Any, name: Optional[str] = None) -> ops.Tensor:
    """min(max(features, 0), 6)."""
    with ops.name_scope(name, "Relu6", [features]) as name:
        features = ops.convert_to_tensor(features, name="features")
        return ops.apply_op("Relu6", [features], name=name)


def leaky_relu(features: Any, alpha: float = 0.2, name: Optional[str] = None) -> ops.Tensor:
    """features where positive, alpha * features elsewhere."""
    with ops.name_scope(name, "LeakyRelu", [features, alpha]) as name:
        features = ops.convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            features = math_ops.cast(features, "float32")
        return ops.apply_op("LeakyRelu", [features], {"alpha": float(alpha)}, name=name)


def elu(features: Any, name: Optional[str] = None) -> ops.Tensor:
    """Exponential linear unit: features if > 0 else exp(features) - 1."""
    return ops.apply_op("Elu", [features], name=name)


def selu(features: Any, name: Optional[str] = None) -> ops.Tensor:
    """Scaled exponential linear unit with the self-normalising constants."""
    return ops.apply_op("Selu", [features], name=name)


def softplus(features: Any, name: Optional[str] = None) -> ops.Tensor:
    """log(exp(features) + 1)."""
    return ops.apply_op("Softplus", [features], name=name)


def _on_axis(op_type: str, logits: Any, axis: Any, name: Optional[str]) -> ops.Tensor:
    """Applies a last-axis op along any axis by swapping that axis with the last one."""
    logits = ops.convert_to_tensor(logits, name="logits")
    ndims = logits.shape.ndims
    if axis is None or axis == -1 or (ndims is not None and axis == ndims - 1):
        return ops.apply_op(op_type, [logits], name=name)
    if ndims is None:
        raise ValueError(f"{op_type} along axis {axis} needs a tensor of known rank")
    if not -ndims <= axis < ndims:
        raise ValueError(f"`axis` must be in the range [{-ndims}, {ndims}) where {ndims} is the number of "
                         f"dimensions in the input. Received: axis={axis}")
    axis %= ndims
    perm = list(range(ndims))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    out = ops.apply_op(op_type, [array_ops.transpose(logits, perm)])
    return array_ops.transpose(out, perm, name=name)


def softmax(logits: Any, axis: Any = None, name: Optional[str] = None, dim: Any = None) -> ops.Tensor:
    """exp(logits) / sum(exp(logits), axis) (tf.compat.v1.nn.softmax; `dim` is the deprecated axis)."""
    return _on_axis("Softmax", logits, axis if axis is not None else dim, name)


def log_softmax(logits: Any, axis: Any = None, name: Optional[str] = None, dim: Any = None) -> ops.Tensor:
    """logits - log(sum(exp(logits), axis))."""
    return _on_axis("LogSoftmax", logits, axis if axis is not None else dim, name)
