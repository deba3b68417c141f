"""BiasAdd, FusedBatchNormV3 and L2Loss ops with gradients, plus the composite batch_normalization, moments
and l2_normalize wrappers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import FLOAT_TYPES, NUMBER_TYPES, register_op
from edgelite.kernels import normalization as norm
from edgelite.ops import array_ops, math_ops

# ---- BiasAdd ------------------------------------------------------------------------------------------------


def _bias_add_shape(op: Any) -> list:
    x, b = op.inputs[0].shape, op.inputs[1].shape
    if b.ndims is not None and b.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {b.ndims} for '{op.name}' (op: 'BiasAdd')")
    if x.ndims is None:
        return [x]
    if x.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {x.ndims} for '{op.name}' (op: 'BiasAdd')")
    axis = norm.channel_axis(x.ndims, op.get_attr("data_format")) if x.ndims > 2 else x.ndims - 1
    dims = x.as_list()
    bc = b.as_list()[0] if b.ndims == 1 else None
    if dims[axis] is not None and bc is not None and dims[axis] != bc:
        raise ValueError(f"Dimensions must be equal, but are {dims[axis]} and {bc} for '{op.name}' (op: 'BiasAdd') "
                         f"with input shapes: {x}, {b}.")
    if dims[axis] is None:
        dims[axis] = bc
    return [tensor_shape.TensorShape(dims)]


def _bias_add_grad_shape(op: Any) -> list:
    x = op.inputs[0].shape
    if x.ndims is None:
        return [[None]]
    axis = norm.channel_axis(x.ndims, op.get_attr("data_format")) if x.ndims > 2 else x.ndims - 1
    return [[x.as_list()[axis]]]


register_op("BiasAdd", inputs=["value: T", "bias: T"], outputs=["output: T"], attrs={"data_format": "NHWC"},
            kernel=lambda ctx, x, b: norm.bias_add(x, b, ctx.attrs["data_format"]), shape_fn=_bias_add_shape,
            allowed_dtypes={"T": NUMBER_TYPES})
register_op("BiasAddGrad", inputs=["out_backprop: T"], outputs=["output: T"], attrs={"data_format": "NHWC"},
            kernel=lambda ctx, g: norm.bias_add_grad(g, ctx.attrs["data_format"]), shape_fn=_bias_add_grad_shape,
            allowed_dtypes={"T": NUMBER_TYPES})


@ops.RegisterGradient("BiasAdd")
def _bias_add_grad(op: Any, grad: Any) -> list:
    return [grad, ops.apply_op("BiasAddGrad", [grad], {"data_format": op.get_attr("data_format")})]


@ops.RegisterGradient("BiasAddGrad")
def _bias_add_grad_grad(op: Any, grad: Any) -> Any:
    """Broadcasts the bias gradient back over the shape of the BiasAddGrad input."""
    dy = op.inputs[0]
    rank = dy.shape.ndims
    if rank is None:
        raise ValueError("the gradient of BiasAddGrad needs an input of known rank")
    axis = norm.channel_axis(rank, op.get_attr("data_format")) if rank > 2 else rank - 1
    shape = [1] * rank
    shape[axis] = -1
    return array_ops.reshape(grad, shape) * array_ops.ones_like(dy)


def bias_add(value: Any, bias: Any, data_format: Optional[str] = None, name: Optional[str] = None) -> ops.Tensor:
    """value + bias along the channel axis (last for NHWC/N...C, 1 for NCHW)."""
    with ops.name_scope(name, "BiasAdd", [value, bias]) as name:
        value = ops.convert_to_tensor(value, name="input")
        bias = ops.convert_to_tensor(bias, dtype=value.dtype, name="bias")
        fmt = data_format or "NHWC"
        if fmt not in ("NHWC", "NCHW") and not (fmt.startswith("N") and (fmt.endswith("C") or fmt[1] == "C")):
            raise ValueError(f"data_format must be of the form `N...C` or `NC...`, got {data_format!r}")
        return ops.apply_op("BiasAdd", [value, bias], {"data_format": "NCHW" if fmt.startswith("NC") else "NHWC"},
                            name=name)


def xw_plus_b(x: Any, weights: Any, biases: Any, name: Optional[str] = None) -> ops.Tensor:
    """matmul(x, weights) + biases."""
    with ops.name_scope(name, "xw_plus_b", [x, weights, biases]) as name:
        mm = math_ops.matmul(x, weights)
        return bias_add(mm, biases, name=name)


# ---- L2Loss --------------------------------------------------------------------------------------------------
register_op("L2Loss", inputs=["t: T"], outputs=["output: T"],
            kernel=lambda ctx, t: np.asarray(np.sum(np.square(t)) / 2, dtype=t.dtype),
            shape_fn=lambda op: [[]], allowed_dtypes={"T": FLOAT_TYPES})


@ops.RegisterGradient("L2Loss")
def _l2_loss_grad(op: Any, grad: Any) -> Any:
    return op.inputs[0] * grad


def l2_loss(t: Any, name: Optional[str] = None) -> ops.Tensor:
    """sum(t ** 2) / 2."""
    return ops.apply_op("L2Loss", [t], name=name)


# ---- FusedBatchNormV3 -------------------------------------------------------------------------------------------
_BN_ATTRS = {"epsilon": 0.0001, "exponential_avg_factor": 1.0, "data_format": "NHWC", "is_training": True}


def _fused_bn_kernel(ctx: Any, x: np.ndarray, scale: np.ndarray, offset: np.ndarray, mean: np.ndarray,
                     var: np.ndarray) -> tuple:
    a = ctx.attrs
    training, factor = bool(a["is_training"]), float(a["exponential_avg_factor"])
    need_stats = not training or factor != 1.0
    c = x.shape[norm.channel_axis(x.ndim, a["data_format"])]
    for what, arr in (("scale", scale), ("offset", offset)) + ((("mean", mean), ("variance", var)) if need_stats
                                                               else ()):
        if arr.shape != (c,):
            raise ValueError(f"{what} must have the same number of elements as the channels of x, got "
                             f"{arr.shape[0] if arr.ndim else arr.size} and {c}")
    outs = norm.fused_batch_norm(x, scale, offset, mean if need_stats else None, var if need_stats else None,
                                 a["epsilon"], training, factor, a["data_format"])
    return tuple(outs) + (np.zeros((0,), dtype=scale.dtype),)


def _fused_bn_shape(op: Any) -> list:
    x = op.inputs[0].shape
    fmt = op.get_attr("data_format")
    if x.ndims is not None and x.ndims not in (4, 5):
        raise ValueError(f"Shape must be rank 4 but is rank {x.ndims} for '{op.name}' (op: 'FusedBatchNormV3')")
    c = None
    if x.ndims is not None:
        c = x.as_list()[norm.channel_axis(x.ndims, fmt)]
    if c is None and op.inputs[1].shape.ndims == 1:
        c = op.inputs[1].shape.as_list()[0]
    return [x, [c], [c], [c], [c], [None]]


def _fused_bn_grad_kernel(ctx: Any, dy: np.ndarray, x: np.ndarray, scale: np.ndarray, r1: np.ndarray,
                          r2: np.ndarray, r3: np.ndarray) -> tuple:
    a = ctx.attrs
    dx, ds, do = norm.fused_batch_norm_grad(dy, x, scale, r1, r2, a["epsilon"], bool(a["is_training"]),
                                            a["data_format"])
    empty = np.zeros((0,), dtype=scale.dtype)
    return dx, ds, do, empty, empty


def _fused_bn_grad_shape(op: Any) -> list:
    c = op.inputs[2].shape
    return [op.inputs[1].shape, c, c, [0], [0]]


register_op("FusedBatchNormV3",
            inputs=["x: T", "scale: U", "offset: U", "mean: U", "variance: U"],
            outputs=["y: T", "batch_mean: U", "batch_variance: U", "reserve_space_1: U", "reserve_space_2: U",
                     "reserve_space_3: U"],
            attrs=_BN_ATTRS, kernel=_fused_bn_kernel, shape_fn=_fused_bn_shape,
            allowed_dtypes={"T": FLOAT_TYPES, "U": (dtypes.float32, dtypes.float64)})
register_op("FusedBatchNormGradV3",
            inputs=["y_backprop: T", "x: T", "scale: U", "reserve_space_1: U", "reserve_space_2: U",
                    "reserve_space_3: U"],
            outputs=["x_backprop: T", "scale_backprop: U", "offset_backprop: U", "reserve_space_4: U",
                     "reserve_space_5: U"],
            attrs={"epsilon": 0.0001, "data_format": "NHWC", "is_training": True},
            kernel=_fused_bn_grad_kernel, shape_fn=_fused_bn_grad_shape,
            allowed_dtypes={"T": FLOAT_TYPES, "U": (dtypes.float32, dtypes.float64)})


@ops.RegisterGradient("FusedBatchNormV3")
def _fused_bn_grad(op: Any, *grads: Any) -> list:
    training = op.get_attr("is_training")
    if training:
        saved_mean, saved_var = op.outputs[3], op.outputs[4]
    else:
        saved_mean, saved_var = op.inputs[3], op.inputs[4]
    attrs = {"epsilon": op.get_attr("epsilon"), "data_format": op.get_attr("data_format"), "is_training": training}
    dx, dscale, doffset, _, _ = ops.apply_op(
        "FusedBatchNormGradV3", [grads[0], op.inputs[0], op.inputs[1], saved_mean, saved_var, op.outputs[5]], attrs)
    return [dx, dscale, doffset, None, None]


def fused_batch_norm(x: Any, scale: Any, offset: Any, mean: Any = None, variance: Any = None,
                     epsilon: float = 0.001, data_format: str = "NHWC", is_training: bool = True,
                     name: Optional[str] = None, exponential_avg_factor: float = 1.0) -> tuple:
    """Batch normalisation of a 4-D/5-D tensor in one op; returns (y, mean, variance).

    In training, mean/variance are the batch statistics (the variance unbiased), blended into the given
    running statistics when exponential_avg_factor != 1; in inference they must be given.
    """
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both 'mean' and 'variance' must be a 1-D tensor when is_training is False or "
                         f"exponential_avg_factor != 1.0. Got mean: {mean} and variance: {variance}")
    x = ops.convert_to_tensor(x, name="input")
    scale = ops.convert_to_tensor(scale, name="scale")
    offset = ops.convert_to_tensor(offset, name="offset")
    if mean is None:
        mean = array_ops.zeros([0], dtype=scale.dtype)
    if variance is None:
        variance = array_ops.zeros([0], dtype=scale.dtype)
    # Smaller values are rejected by the cuDNN implementation TF mirrors, so TF clamps them here.
    epsilon = max(float(epsilon), 1.001e-5)
    y, running_mean, running_var, _, _, _ = ops.apply_op(
        "FusedBatchNormV3", [x, scale, offset, mean, variance],
        {"epsilon": epsilon, "exponential_avg_factor": float(exponential_avg_factor), "data_format": data_format,
         "is_training": bool(is_training)}, name=name)
    return y, running_mean, running_var


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any, variance_epsilon: float,
                        name: Optional[str] = None) -> ops.Tensor:
    """(x - mean) * scale / sqrt(variance + epsilon) + offset, with broadcasting."""
    with ops.name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        inv = math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv = inv * scale
        x = ops.convert_to_tensor(x)
        shift = offset - mean * inv if offset is not None else -mean * inv
        return x * math_ops.cast(inv, x.dtype) + math_ops.cast(shift, x.dtype)


def batch_norm_with_global_normalization(t: Any = None, m: Any = None, v: Any = None, beta: Any = None,
                                         gamma: Any = None, variance_epsilon: Any = None,
                                         scale_after_normalization: Any = None, name: Optional[str] = None,
                                         input: Any = None, mean: Any = None,  # noqa: A002
                                         variance: Any = None) -> ops.Tensor:
    """batch_normalization with given (global) statistics; gamma applies only if scale_after_normalization."""
    t = input if t is None else t
    m = mean if m is None else m
    v = variance if v is None else v
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon, name)


def moments(x: Any, axes: Any, shift: Any = None, name: Optional[str] = None, keep_dims: Any = None,
            keepdims: Any = None) -> tuple:
    """Mean and (biased) variance of x over axes; the variance does not backpropagate through the mean."""
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with ops.name_scope(name, "moments", [x, axes]):
        x = ops.convert_to_tensor(x, name="x")
        y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(math_ops.squared_difference(y, array_ops.stop_gradient(mean)), axes,
                                        keepdims=True, name="variance")
        if not keep:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: Optional[str] = None,
                 dim: Any = None) -> ops.Tensor:
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = axis if axis is not None else dim
    with ops.name_scope(name, "l2_normalize", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=name)
