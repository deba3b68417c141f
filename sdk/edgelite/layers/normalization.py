"""BatchNormalization layer (tf.compat.v1.layers): moving statistics updated by ops in UPDATE_OPS."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import dtypes, ops
from edgelite.nn import batch_normalization as nn_batch_normalization
from edgelite.nn import fused_batch_norm, moments
from edgelite.ops import array_ops, init_ops, math_ops, state_ops, variable_scope

from .base import Layer
from .core import smart_cond

_FUSED_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32)


class BatchNormalization(Layer):
    """Normalises with batch statistics when training and with the moving statistics otherwise.

    In training, `moving = moving - (moving - batch_stat) * (1 - momentum)` is added to UPDATE_OPS; run
    those ops with the train op (e.g. under control_dependencies) to keep the moving statistics current.
    """

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = init_ops.zeros_initializer(),
                 gamma_initializer: Any = init_ops.ones_initializer(),
                 moving_mean_initializer: Any = init_ops.zeros_initializer(),
                 moving_variance_initializer: Any = init_ops.ones_initializer(),
                 beta_regularizer: Optional[Callable] = None, gamma_regularizer: Optional[Callable] = None,
                 beta_constraint: Any = None, gamma_constraint: Any = None, renorm: bool = False,
                 renorm_clipping: Any = None, renorm_momentum: float = 0.99, fused: Optional[bool] = None,
                 trainable: bool = True, virtual_batch_size: Optional[int] = None, adjustment: Any = None,
                 name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise ValueError("renorm, virtual_batch_size and adjustment are not supported by this BatchNormalization")
        if isinstance(axis, (list, tuple)):
            if len(axis) != 1:
                raise ValueError(f"Only a single normalisation axis is supported, got axis={axis}")
            axis = axis[0]
        self.axis = int(axis)
        self.momentum, self.epsilon = momentum, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.fused = fused

    def build(self, input_shape: Any) -> None:
        """Creates gamma, beta (trainable) and moving_mean, moving_variance (not trainable)."""
        ndims = input_shape.ndims
        if ndims is None:
            raise ValueError(f"Input has undefined rank: {input_shape}")
        if not -ndims <= self.axis < ndims:
            raise ValueError(f"Invalid axis: {self.axis}")
        self.axis %= ndims
        channels = input_shape.as_list()[self.axis]
        if channels is None:
            raise ValueError(f"Input has undefined `axis` dimension. Received input with shape {input_shape}. "
                             f"Axis value: {self.axis}")
        can_fuse = ndims == 4 and self.axis in (1, 3) and self.dtype in _FUSED_DTYPES
        if self.fused and not can_fuse:
            raise ValueError("fused=True needs a 4-D float16/32 input normalised over axis 1 or 3")
        self.fused = can_fuse if self.fused is None else bool(self.fused)
        param_dtype = dtypes.float32 if self.dtype in (dtypes.float16, dtypes.bfloat16) else self.dtype
        shape = [channels]
        self.gamma = self.add_weight("gamma", shape, dtype=param_dtype, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                     trainable=True) if self.scale else None
        self.beta = self.add_weight("beta", shape, dtype=param_dtype, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                    trainable=True) if self.center else None
        # The moving statistics are updated in place, so TF creates them unpartitioned under a partitioned scope.
        scope = variable_scope.get_variable_scope()
        partitioner = scope.partitioner
        scope.set_partitioner(None)
        try:
            self.moving_mean = self.add_weight("moving_mean", shape, dtype=param_dtype,
                                               initializer=self.moving_mean_initializer, trainable=False)
            self.moving_variance = self.add_weight("moving_variance", shape, dtype=param_dtype,
                                                   initializer=self.moving_variance_initializer, trainable=False)
        finally:
            scope.set_partitioner(partitioner)
        self.built = True

    def _assign_moving_average(self, variable: Any, value: Any, momentum: Any) -> Any:
        with ops.name_scope(None, "AssignMovingAvg", [variable, value, momentum]) as scope:
            decay = ops.convert_to_tensor(1.0 - momentum, name="decay")
            if decay.dtype != variable.dtype.base_dtype:
                decay = math_ops.cast(decay, variable.dtype.base_dtype)
            delta = (variable - math_ops.cast(value, variable.dtype.base_dtype)) * decay
            return state_ops.assign_sub(variable, delta, name=scope)

    def _gamma_beta(self, dtype: Any) -> tuple:
        gamma = self.gamma if self.gamma is not None else array_ops.ones_like(self.moving_mean)
        beta = self.beta if self.beta is not None else array_ops.zeros_like(self.moving_mean)
        return gamma, beta

    def call(self, inputs: Any, training: Any = False) -> Any:
        """Normalises inputs; in training also records the moving-average updates."""
        if self.fused:
            return self._call_fused(inputs, training)
        return self._call_plain(inputs, training)

    def _momentum(self, training: Any) -> Any:
        if isinstance(training, bool):
            return ops.convert_to_tensor(self.momentum)
        return smart_cond(training, lambda: ops.convert_to_tensor(self.momentum), lambda: ops.convert_to_tensor(1.0))

    def _call_fused(self, inputs: Any, training: Any) -> Any:
        gamma, beta = self._gamma_beta(inputs.dtype)
        fmt = "NHWC" if self.axis == 3 else "NCHW"

        def train() -> tuple:
            return fused_batch_norm(inputs, gamma, beta, epsilon=self.epsilon, data_format=fmt, is_training=True)

        def infer() -> tuple:
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                                    epsilon=self.epsilon, data_format=fmt, is_training=False)

        output, mean, variance = smart_cond(training, train, infer)
        if training is not False:
            momentum = self._momentum(training)
            self.add_update(self._assign_moving_average(self.moving_mean, mean, momentum))
            self.add_update(self._assign_moving_average(self.moving_variance, variance, momentum))
        return output

    def _call_plain(self, inputs: Any, training: Any) -> Any:
        ndims = inputs.shape.ndims
        reduction_axes = [i for i in range(ndims) if i != self.axis]
        gamma, beta = self._gamma_beta(inputs.dtype)
        if self.axis != ndims - 1:
            bshape = [1] * ndims
            bshape[self.axis] = inputs.shape.as_list()[self.axis]
            gamma, beta = array_ops.reshape(gamma, bshape), array_ops.reshape(beta, bshape)
            reshape = lambda v: array_ops.reshape(v, bshape)  # noqa: E731
        else:
            reshape = lambda v: v  # noqa: E731
        if training is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            batch_mean, batch_var = moments(math_ops.cast(inputs, self.moving_mean.dtype), reduction_axes)
            mean = smart_cond(training, lambda: batch_mean, lambda: ops.convert_to_tensor(self.moving_mean))
            variance = smart_cond(training, lambda: batch_var, lambda: ops.convert_to_tensor(self.moving_variance))
            momentum = self._momentum(training)
            self.add_update(self._assign_moving_average(self.moving_mean, mean, momentum))
            self.add_update(self._assign_moving_average(self.moving_variance, variance, momentum))
        mean = math_ops.cast(mean, inputs.dtype)
        variance = math_ops.cast(variance, inputs.dtype)
        return nn_batch_normalization(inputs, reshape(mean), reshape(variance), math_ops.cast(beta, inputs.dtype),
                                      math_ops.cast(gamma, inputs.dtype), self.epsilon)


def batch_normalization(inputs: Any, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                        center: bool = True, scale: bool = True, beta_initializer: Any = init_ops.zeros_initializer(),
                        gamma_initializer: Any = init_ops.ones_initializer(),
                        moving_mean_initializer: Any = init_ops.zeros_initializer(),
                        moving_variance_initializer: Any = init_ops.ones_initializer(),
                        beta_regularizer: Optional[Callable] = None, gamma_regularizer: Optional[Callable] = None,
                        beta_constraint: Any = None, gamma_constraint: Any = None, training: Any = False,
                        trainable: bool = True, name: Optional[str] = None, reuse: Optional[bool] = None,
                        renorm: bool = False, renorm_clipping: Any = None, renorm_momentum: float = 0.99,
                        fused: Optional[bool] = None, virtual_batch_size: Optional[int] = None,
                        adjustment: Any = None) -> ops.Tensor:
    """Functional BatchNormalization; pass training=True while training and run the UPDATE_OPS."""
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                               beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
                               moving_mean_initializer=moving_mean_initializer,
                               moving_variance_initializer=moving_variance_initializer,
                               beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                               beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
                               renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
                               trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
                               name=name, _reuse=reuse, _scope=name)
    return layer(inputs, training=training)
