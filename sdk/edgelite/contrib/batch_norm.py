"""tf.contrib.layers.batch_norm: batch normalisation with the moving statistics updated in place or via a collection.

As in TF 1.15 there are three ways through: the fused kernel (2-D and 4-D inputs whose updates do not go to the
default UPDATE_OPS collection, or with a zero-debiased moving mean), the core BatchNormalization layer (default
UPDATE_OPS), and moments + batch_normalization for the rest (batch_weights, other ranks with custom collections).
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from edgelite.framework import dtypes, ops, tensor_util
from edgelite.layers.core import smart_cond
from edgelite.layers.normalization import BatchNormalization
from edgelite.nn.moments_ops import weighted_moments
from edgelite.nn.normalization_ops import batch_normalization, fused_batch_norm, moments
from edgelite.ops import array_ops, init_ops, variable_scope
from edgelite.train.moving_averages import assign_moving_average

from .framework import add_arg_scope
from .layer_functions import _collect, _variable_collections

NHWC, NCHW = "NHWC", "NCHW"


def _param(name: str, shape: list, dtype: Any, initializers: dict, regularizers: dict, default_init: Any,
           variables_collections: Any, trainable: bool) -> Any:
    """One normalisation parameter as a model variable (GLOBAL_VARIABLES and MODEL_VARIABLES, plus the caller's)."""
    extra = _variable_collections(variables_collections, name) or []
    collections = list(dict.fromkeys([ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.MODEL_VARIABLES] + extra))
    return variable_scope.get_variable(name, shape, dtype=dtype, initializer=initializers.get(name, default_init),
                                       regularizer=regularizers.get(name), trainable=trainable,
                                       collections=collections)


def _with_updates(is_training: Any, stats: tuple, moving: tuple, decay: float, zero_debias: bool,
                  updates_collections: Any, forced: Callable[[], Any], unforced: Callable[[], Any]) -> Any:
    """Moving averages of the batch stats while training: run before the result (updates_collections None) or put
    in updates_collections; forced/unforced build the result with and without the updates run first."""
    def updates() -> tuple:
        return (assign_moving_average(moving[0], stats[0], decay, zero_debias=zero_debias),
                assign_moving_average(moving[1], stats[1], decay, zero_debias=False))

    if updates_collections is None:
        def run_updates_first() -> Any:
            with ops.control_dependencies(list(updates())):
                return forced()
        return smart_cond(is_training, run_updates_first, unforced)
    update_mean, update_variance = smart_cond(is_training, updates, lambda: moving)
    names = [updates_collections] if isinstance(updates_collections, str) else list(updates_collections)
    ops.add_to_collections(names, update_mean)
    ops.add_to_collections(names, update_variance)
    return None


def _fused(inputs: Any, decay: float, center: bool, scale: bool, epsilon: float, initializers: dict,
           regularizers: dict, updates_collections: Any, is_training: Any, variables_collections: Any,
           trainable: bool, data_format: str, zero_debias: bool) -> ops.Tensor:
    """The fused kernel on a 4-D view; its batch variance (unbiased) feeds the moving variance."""
    original_shape = inputs.shape
    if original_shape.ndims == 2:
        channels = original_shape.as_list()[-1]
        if channels is None:
            raise ValueError("`C` dimension must be known but is None")
        inputs = array_ops.reshape(inputs, [-1, channels, 1, 1] if data_format == NCHW else [-1, 1, 1, channels])
    channels = inputs.shape.as_list()[1 if data_format == NCHW else -1]
    if channels is None:
        raise ValueError(f"Inputs {inputs.name} has undefined channels dimension {[channels]}.")
    dtype = dtypes.float32 if inputs.dtype.base_dtype == dtypes.float16 else inputs.dtype.base_dtype
    shape = [channels]
    beta = (_param("beta", shape, dtype, initializers, regularizers, init_ops.zeros_initializer(),
                   variables_collections, trainable) if center else array_ops.zeros(shape, dtype))
    gamma = (_param("gamma", shape, dtype, initializers, regularizers, init_ops.ones_initializer(),
                    variables_collections, trainable) if scale else array_ops.ones(shape, dtype))
    moving_mean = _param("moving_mean", shape, dtype, initializers, {}, init_ops.zeros_initializer(),
                         variables_collections, False)
    moving_variance = _param("moving_variance", shape, dtype, initializers, {}, init_ops.ones_initializer(),
                             variables_collections, False)
    outputs, mean, variance = smart_cond(
        is_training,
        lambda: fused_batch_norm(inputs, gamma, beta, epsilon=epsilon, data_format=data_format),
        lambda: fused_batch_norm(inputs, gamma, beta, mean=moving_mean, variance=moving_variance, epsilon=epsilon,
                                 is_training=False, data_format=data_format))
    if _may_train(is_training):
        forced = _with_updates(is_training, (mean, variance), (moving_mean, moving_variance), decay, zero_debias,
                               updates_collections, lambda: array_ops.identity(outputs), lambda: outputs)
        outputs = outputs if forced is None else forced
    outputs.set_shape(inputs.shape)
    if original_shape.ndims == 2:
        outputs = array_ops.reshape(outputs, [-1, channels])
    return outputs


def _may_train(is_training: Any) -> bool:
    """False only when is_training is known at build time to be False."""
    if isinstance(is_training, bool):
        return is_training
    value = tensor_util.constant_value(ops.convert_to_tensor(is_training))
    return value is None or bool(value)


def _moments_path(inputs: Any, decay: float, center: bool, scale: bool, epsilon: float, initializers: dict,
                  regularizers: dict, updates_collections: Any, is_training: Any, variables_collections: Any,
                  trainable: bool, batch_weights: Any, data_format: str, zero_debias: bool) -> ops.Tensor:
    """Batch moments (biased variance, optionally weighted per example) and nn.batch_normalization."""
    rank = inputs.shape.ndims
    if rank is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    dtype = inputs.dtype.base_dtype
    if data_format == NCHW:
        axes, params_shape = [0] + list(range(2, rank)), inputs.shape.as_list()[1:2]
        broadcast = params_shape + [1] * (rank - 2)
    else:
        axes, params_shape, broadcast = list(range(rank - 1)), inputs.shape.as_list()[-1:], None
    if None in params_shape:
        raise ValueError(f"Inputs {inputs.name} has undefined channels dimension {params_shape}.")
    beta = (_param("beta", params_shape, dtype, initializers, regularizers, init_ops.zeros_initializer(),
                   variables_collections, trainable) if center else None)
    gamma = (_param("gamma", params_shape, dtype, initializers, regularizers, init_ops.ones_initializer(),
                    variables_collections, trainable) if scale else None)
    moving_mean = _param("moving_mean", params_shape, dtype, initializers, {}, init_ops.zeros_initializer(),
                         variables_collections, False)
    moving_variance = _param("moving_variance", params_shape, dtype, initializers, {}, init_ops.ones_initializer(),
                             variables_collections, False)
    if _may_train(is_training):
        if batch_weights is not None:
            weights = array_ops.reshape(ops.convert_to_tensor(batch_weights), [-1] + [1] * (rank - 1))
            mean, variance = weighted_moments(inputs, axes, weights, keepdims=data_format == NCHW)
        else:
            mean, variance = moments(inputs, axes, keepdims=data_format == NCHW)
        if data_format == NCHW:
            mean, variance = array_ops.reshape(mean, [-1]), array_ops.reshape(variance, [-1])
        moving = (moving_mean, moving_variance)
        forced = _with_updates(is_training, (mean, variance), moving, decay, zero_debias, updates_collections,
                               lambda: (array_ops.identity(mean), array_ops.identity(variance)), lambda: moving)
        if forced is None:
            batch = (mean, variance)
            mean, variance = smart_cond(is_training, lambda: batch, lambda: moving)
        else:
            mean, variance = forced
    else:
        mean, variance = moving_mean, moving_variance
    if broadcast is not None:
        mean, variance = array_ops.reshape(mean, broadcast), array_ops.reshape(variance, broadcast)
        beta = array_ops.reshape(beta, broadcast) if beta is not None else None
        gamma = array_ops.reshape(gamma, broadcast) if gamma is not None else None
    outputs = batch_normalization(inputs, mean, variance, beta, gamma, epsilon)
    outputs.set_shape(inputs.shape)
    return outputs


@add_arg_scope
def batch_norm(inputs: Any, decay: float = 0.999, center: bool = True, scale: bool = False, epsilon: float = 0.001,
               activation_fn: Optional[Callable] = None, param_initializers: Optional[dict] = None,
               param_regularizers: Optional[dict] = None, updates_collections: Any = ops.GraphKeys.UPDATE_OPS,
               is_training: Any = True, reuse: Any = None, variables_collections: Any = None,
               outputs_collections: Optional[Sequence[str]] = None, trainable: bool = True,
               batch_weights: Any = None, fused: Optional[bool] = None, data_format: str = NHWC,
               zero_debias_moving_mean: bool = False, scope: Optional[str] = None) -> ops.Tensor:
    """Normalises over every axis but the channel one with batch statistics while is_training, else the moving
    statistics (decay-weighted averages of the batch ones); beta always, gamma only with scale=True."""
    if data_format not in (NHWC, NCHW):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    initializers, regularizers = param_initializers or {}, param_regularizers or {}
    inputs = ops.convert_to_tensor(inputs)
    rank = inputs.shape.ndims
    fused = True if fused is None else fused
    default_updates = updates_collections == ops.GraphKeys.UPDATE_OPS
    with variable_scope.variable_scope(scope, "BatchNorm", [inputs], reuse=reuse) as sc:
        if fused and batch_weights is None and rank in (2, 4) and (
                zero_debias_moving_mean or rank == 2 or not default_updates):
            outputs = _fused(inputs, decay, center, scale, epsilon, initializers, regularizers, updates_collections,
                             is_training, variables_collections, trainable, data_format, zero_debias_moving_mean)
        elif batch_weights is None and default_updates and not zero_debias_moving_mean:
            layer = BatchNormalization(
                axis=1 if data_format == NCHW else -1, momentum=decay, epsilon=epsilon, center=center, scale=scale,
                beta_initializer=initializers.get("beta", init_ops.zeros_initializer()),
                gamma_initializer=initializers.get("gamma", init_ops.ones_initializer()),
                moving_mean_initializer=initializers.get("moving_mean", init_ops.zeros_initializer()),
                moving_variance_initializer=initializers.get("moving_variance", init_ops.ones_initializer()),
                beta_regularizer=regularizers.get("beta"), gamma_regularizer=regularizers.get("gamma"),
                trainable=trainable, fused=fused if rank == 4 else None, name=sc.name, _scope=sc, _reuse=reuse)
            outputs = layer.apply(inputs, training=is_training)
            for name in ("beta", "gamma", "moving_mean", "moving_variance"):
                variable = getattr(layer, name)
                if variable is not None and _variable_collections(variables_collections, name):
                    ops.add_to_collections(_variable_collections(variables_collections, name)[1:], variable)
        else:
            outputs = _moments_path(inputs, decay, center, scale, epsilon, initializers, regularizers,
                                    updates_collections, is_training, variables_collections, trainable,
                                    batch_weights, data_format, zero_debias_moving_mean)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
    return _collect(outputs_collections, outputs)
