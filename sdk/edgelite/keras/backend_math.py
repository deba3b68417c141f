"""The tensor functions of tf.keras.backend (K.mean, K.dot, K.variable, ...), as thin layers over edgelite ops
with Keras's conventions: booleans averaged as floatx, `axis` keywords, K.zeros/K.ones/K.variable as variables."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from edgelite import nn
from edgelite.framework import dtypes, ops
from edgelite.ops import (
    array_ops, control_flow_ops, gradients_impl, math_ops, random_ops, state_ops, variables,
)

from . import activations, backend, losses


def _floatx() -> dtypes.DType:
    return dtypes.as_dtype(backend.floatx())


def _as_float(x: Any) -> Any:
    x = ops.convert_to_tensor(x)
    return math_ops.cast(x, _floatx()) if x.dtype.base_dtype == dtypes.bool else x


# ---- creation -----------------------------------------------------------------------------------------
def variable(value: Any, dtype: Any = None, name: Optional[str] = None, constraint: Any = None) -> Any:
    """A variable holding `value` (floatx unless dtype is given), initialised by the Keras session."""
    value = np.asarray(value, dtype=dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype)
    var = variables.Variable(value, name=name or "Variable", constraint=constraint)
    backend.track_variable(var)
    return var


def constant(value: Any, dtype: Any = None, shape: Any = None, name: Optional[str] = None) -> Any:
    """A constant tensor of floatx (or dtype)."""
    from edgelite.framework.constant_op import constant as make
    return make(value, dtype=dtypes.as_dtype(dtype or backend.floatx()), shape=shape, name=name)


def zeros(shape: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    """A variable of zeros."""
    return variable(np.zeros(shape), dtype=dtype, name=name)


def ones(shape: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    """A variable of ones."""
    return variable(np.ones(shape), dtype=dtype, name=name)


def eye(size: int, dtype: Any = None, name: Optional[str] = None) -> Any:
    """A variable holding the identity matrix."""
    return variable(np.eye(size), dtype=dtype, name=name)


def zeros_like(x: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    """Zeros of x's shape."""
    return array_ops.zeros_like(x, dtype=dtype, name=name)


def ones_like(x: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    """Ones of x's shape."""
    return array_ops.ones_like(x, dtype=dtype, name=name)


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: Optional[int] = None) -> Any:
    """Uniform samples in [minval, maxval)."""
    return random_ops.random_uniform(shape, minval, maxval, dtype=dtype or _floatx(), seed=seed)


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: Optional[int] = None) -> Any:
    """Normal samples."""
    return random_ops.random_normal(shape, mean, stddev, dtype=dtype or _floatx(), seed=seed)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: str = "int32") -> Any:
    """range(start, stop, step) as a 1-D tensor (arange(n) counts 0 .. n-1)."""
    if stop is None:
        start, stop = 0, start
    return math_ops.cast(math_ops.range(start, stop, step), dtypes.as_dtype(dtype))


# ---- inspection -----------------------------------------------------------------------------------------
def int_shape(x: Any) -> Optional[tuple]:
    """The static shape as a tuple of ints/None (None for unknown rank)."""
    shape = ops.convert_to_tensor(x).shape if not hasattr(x, "shape") else x.shape
    try:
        return tuple(shape.as_list())
    except ValueError:
        return None


def ndim(x: Any) -> Optional[int]:
    """The rank, or None."""
    return x.shape.ndims


def dtype(x: Any) -> str:
    """The dtype's name ('float32')."""
    return x.dtype.base_dtype.name


def count_params(x: Any) -> int:
    """Number of elements of a variable or tensor of static shape."""
    return int(np.prod(x.shape.as_list()))


def is_keras_tensor(x: Any) -> bool:
    """True for tensors produced by a Keras layer or Input; ValueError for non-tensors."""
    if not isinstance(x, (ops.Tensor, variables.Variable)):
        raise ValueError(f"Unexpectedly found an instance of type `{type(x)}`. Expected a symbolic tensor "
                         "instance.")
    return hasattr(x, "_keras_history")


def eval(x: Any) -> np.ndarray:  # noqa: A001 - Keras's name
    """The value of x in the Keras session."""
    return backend.get_session().run(x)


# ---- reductions ---------------------------------------------------------------------------------------
def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Sum over axis (all axes when None)."""
    return math_ops.reduce_sum(_as_float(x), axis, keepdims=keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Mean over axis; booleans count as floatx 0/1."""
    return math_ops.reduce_mean(_as_float(x), axis, keepdims=keepdims)


def max(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Maximum over axis."""
    return math_ops.reduce_max(x, axis, keepdims=keepdims)


def min(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Minimum over axis."""
    return math_ops.reduce_min(x, axis, keepdims=keepdims)


def prod(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Product over axis."""
    return math_ops.reduce_prod(x, axis, keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Population variance over axis."""
    return math_ops.reduce_variance(_as_float(x), axis, keepdims=keepdims)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Population standard deviation over axis."""
    return math_ops.reduce_std(_as_float(x), axis, keepdims=keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Logical or over axis (x cast to bool)."""
    return math_ops.reduce_any(math_ops.cast(x, dtypes.bool), axis, keepdims=keepdims)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001
    """Logical and over axis (x cast to bool)."""
    return math_ops.reduce_all(math_ops.cast(x, dtypes.bool), axis, keepdims=keepdims)


def argmax(x: Any, axis: int = -1) -> Any:
    """Index of the maximum along axis."""
    return math_ops.argmax(x, axis)


def argmin(x: Any, axis: int = -1) -> Any:
    """Index of the minimum along axis."""
    return math_ops.argmin(x, axis)


def cumsum(x: Any, axis: int = 0) -> Any:
    """Cumulative sum along axis."""
    return math_ops.cumsum(x, axis=axis)


def cumprod(x: Any, axis: int = 0) -> Any:
    """Cumulative product along axis."""
    return math_ops.cumprod(x, axis=axis)


# ---- element-wise ---------------------------------------------------------------------------------------

def sqrt(x: Any) -> Any:
    """sqrt(max(x, 0)) (Keras clips negatives to 0 first)."""
    x = ops.convert_to_tensor(x)
    return math_ops.sqrt(math_ops.maximum(x, math_ops.cast(0.0, x.dtype)))


def clip(x: Any, min_value: Any, max_value: Any) -> Any:
    """x clipped to [min_value, max_value] (max_value raised to min_value when smaller)."""
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    if min_value is None:
        min_value = -np.inf
    if max_value is None:
        max_value = np.inf
    return math_ops.clip_by_value(x, min_value, max_value)


def cast(x: Any, dtype: Any) -> Any:
    """x converted to dtype."""
    return math_ops.cast(x, dtypes.as_dtype(dtype))


def stop_gradient(variables_: Any) -> Any:
    """x with its gradient blocked (a list maps element-wise)."""
    if isinstance(variables_, (list, tuple)):
        return [array_ops.stop_gradient(v) for v in variables_]
    return array_ops.stop_gradient(variables_)


# ---- shapes ----------------------------------------------------------------------------------------------

def flatten(x: Any) -> Any:
    """x as 1-D."""
    return array_ops.reshape(x, [-1])


def batch_flatten(x: Any) -> Any:
    """[batch, ...] -> [batch, prod(...)]."""
    dims = x.shape.as_list()[1:]
    if _all_known(dims):
        return array_ops.reshape(x, [-1, int(np.prod(dims))])
    return array_ops.reshape(x, array_ops.stack([-1, math_ops.reduce_prod(array_ops.shape(x)[1:])]))


def _all_known(dims: Sequence[Any]) -> bool:
    """True when no dimension is None."""
    return not [d for d in dims if d is None]


def expand_dims(x: Any, axis: int = -1) -> Any:
    """A size-1 axis inserted at axis."""
    return array_ops.expand_dims(x, axis)


def squeeze(x: Any, axis: int) -> Any:
    """The size-1 axis removed."""
    return array_ops.squeeze(x, [axis])


def permute_dimensions(x: Any, pattern: Sequence[int]) -> Any:
    """transpose(x, pattern)."""
    return array_ops.transpose(x, list(pattern))


def transpose(x: Any) -> Any:
    """Reversed axes."""
    return array_ops.transpose(x)


def concatenate(tensors: List[Any], axis: int = -1) -> Any:
    """Concatenation along axis (negative counts from the end of the first tensor's rank)."""
    if axis < 0:
        rank = tensors[0].shape.ndims
        axis = axis % rank if rank else 0
    return array_ops.concat(list(tensors), axis)


def stack(x: List[Any], axis: int = 0) -> Any:
    """Stack along a new axis."""
    return array_ops.stack(list(x), axis=axis)


def tile(x: Any, n: Any) -> Any:
    """x repeated n times per axis (an int for 1-D)."""
    return array_ops.tile(x, [n] if isinstance(n, int) else n)


def one_hot(indices: Any, num_classes: int) -> Any:
    """One-hot rows of length num_classes (floatx)."""
    return array_ops.one_hot(indices, depth=num_classes, axis=-1)


def dot(x: Any, y: Any) -> Any:
    """Matrix product; for higher ranks the last axis of x with the second-to-last axis of y."""
    x_rank, y_rank = x.shape.ndims, y.shape.ndims
    if x_rank is not None and y_rank is not None and (x_rank > 2 or y_rank > 2):
        return math_ops.tensordot(x, y, [[x_rank - 1], [y_rank - 2 if y_rank > 1 else 0]])
    return math_ops.matmul(x, y)


def l2_normalize(x: Any, axis: Any = None) -> Any:
    """x / sqrt(max(sum(x**2, axis), 1e-12))."""
    return nn.l2_normalize(x, axis=axis)


# ---- control ---------------------------------------------------------------------------------------------
def switch(condition: Any, then_expression: Any, else_expression: Any) -> Any:
    """then or else by a scalar bool tensor (a cond), or element-wise for a tensor condition."""
    condition = ops.convert_to_tensor(condition)
    if condition.dtype != dtypes.bool:
        condition = math_ops.cast(condition, dtypes.bool)
    then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
    else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
    if condition.shape.ndims == 0:
        return control_flow_ops.cond(condition, then_fn, else_fn)
    return array_ops.where_v2(condition, then_fn(), else_fn())


def in_train_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """x while training (the learning phase, or `training`), alt otherwise."""
    training = backend.learning_phase() if training is None else training
    if training in (1, True):
        return x() if callable(x) else x
    if training in (0, False):
        return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """x at test time, alt while training."""
    return in_train_phase(alt, x, training=training)


def gradients(loss: Any, variables_: Any) -> list:
    """d loss / d variables."""
    return gradients_impl.gradients(loss, variables_)


def update(x: Any, new_x: Any) -> Any:
    """assign(x, new_x)."""
    return state_ops.assign(x, new_x)


def update_add(x: Any, increment: Any) -> Any:
    """assign_add(x, increment)."""
    return state_ops.assign_add(x, increment)


def update_sub(x: Any, decrement: Any) -> Any:
    """assign_sub(x, decrement)."""
    return state_ops.assign_sub(x, decrement)


# Keras names for edgelite ops with the same arguments.
maximum = math_ops.maximum
minimum = math_ops.minimum
equal = math_ops.equal
not_equal = math_ops.not_equal
greater = math_ops.greater
greater_equal = math_ops.greater_equal
less = math_ops.less
less_equal = math_ops.less_equal
square = math_ops.square
exp = math_ops.exp
log = math_ops.log
sign = math_ops.sign
abs = math_ops.abs  # noqa: A001
round = math_ops.round  # noqa: A001
pow = math_ops.pow  # noqa: A001
reshape = array_ops.reshape
gather = array_ops.gather
shape = array_ops.shape


# ---- neural network ----------------------------------------------------------------------------------------
relu = activations.relu
elu = activations.elu
sigmoid = activations.sigmoid
hard_sigmoid = activations.hard_sigmoid
tanh = activations.tanh
softplus = activations.softplus
softsign = activations.softsign


def softmax(x: Any, axis: int = -1) -> Any:
    """Softmax along axis."""
    return nn.softmax(x, axis=axis)


def dropout(x: Any, level: float, noise_shape: Any = None, seed: Optional[int] = None) -> Any:
    """Drops a `level` fraction of x, scaling the rest by 1 / (1 - level)."""
    return nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def bias_add(x: Any, bias: Any, data_format: Optional[str] = None) -> Any:
    """x + bias on the channel axis."""
    fmt = data_format or backend.image_data_format()
    if fmt == "channels_first" and x.shape.ndims == 4:
        return nn.bias_add(x, bias, data_format="NCHW")
    return nn.bias_add(x, bias)


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """Per-sample cross-entropy of one-hot targets."""
    return losses.categorical_crossentropy(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """Per-sample cross-entropy of integer targets."""
    return losses.sparse_categorical_crossentropy(target, output, from_logits=from_logits, axis=axis)


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    """Element-wise binary cross-entropy (not averaged)."""
    return losses.binary_elementwise(target, output, from_logits)
