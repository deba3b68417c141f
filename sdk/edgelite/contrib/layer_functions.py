"""tf.contrib.layers' layer functions (fully_connected, dropout, flatten) over core ops and variable scopes."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from edgelite.framework import ops
from edgelite.layers.core import dropout as _core_dropout
from edgelite.layers.core import flatten as _core_flatten
from edgelite.nn import relu
from edgelite.ops import init_ops, math_ops, variable_scope

from .framework import add_arg_scope
from .initializers import xavier_initializer


def _collect(collections: Any, value: Any) -> Any:
    """Add value to the named collection(s) (a name, or a sequence of names) and return it."""
    if collections:
        ops.add_to_collections([collections] if isinstance(collections, str) else collections, value)
    return value


def _variable_collections(collections: Any, name: str) -> Optional[list]:
    """The collections a variable named name goes to besides the defaults: a dict is looked up by name."""
    if isinstance(collections, dict):
        collections = collections.get(name)
    if not collections:
        return None
    names = [collections] if isinstance(collections, str) else list(collections)
    return [ops.GraphKeys.GLOBAL_VARIABLES] + names


@add_arg_scope
def flatten(inputs: Any, outputs_collections: Optional[Sequence[str]] = None,
            scope: Optional[str] = None) -> ops.Tensor:
    """[batch, d1, d2, ...] -> [batch, d1 * d2 * ...] under a 'Flatten' name scope, as tf.layers.flatten computes it."""
    with ops.name_scope(scope, "Flatten", [inputs]):
        outputs = _core_flatten(ops.convert_to_tensor(inputs))
    return _collect(outputs_collections, outputs)


@add_arg_scope
def dropout(inputs: Any, keep_prob: Any = 0.5, noise_shape: Any = None, is_training: Any = True,
            outputs_collections: Optional[Sequence[str]] = None, scope: Optional[str] = None,
            seed: Optional[int] = None) -> ops.Tensor:
    """Keeps each element with probability keep_prob (scaled by 1 / keep_prob) while is_training, else identity."""
    with variable_scope.variable_scope(scope, "Dropout", [inputs]) as sc:
        outputs = _core_dropout(ops.convert_to_tensor(inputs), rate=1 - keep_prob, noise_shape=noise_shape,
                                seed=seed, training=is_training, name=sc.name)
    return _collect(outputs_collections, outputs)


@add_arg_scope
def fully_connected(inputs: Any, num_outputs: int, activation_fn: Optional[Callable] = relu,
                    normalizer_fn: Optional[Callable] = None, normalizer_params: Optional[dict] = None,
                    weights_initializer: Any = xavier_initializer(), weights_regularizer: Optional[Callable] = None,
                    biases_initializer: Any = init_ops.zeros_initializer(),
                    biases_regularizer: Optional[Callable] = None, reuse: Any = None,
                    variables_collections: Any = None, outputs_collections: Optional[Sequence[str]] = None,
                    trainable: bool = True, scope: Optional[str] = None) -> ops.Tensor:
    """activation_fn(normalizer_fn(inputs @ weights) or inputs @ weights + biases) with variables 'weights' and
    'biases' in a 'fully_connected' variable scope; inputs of rank > 2 contract their last axis."""
    if not isinstance(num_outputs, int) or isinstance(num_outputs, bool):
        raise ValueError(f"num_outputs type should be one of [<class 'int'>], got {type(num_outputs)}.")
    with variable_scope.variable_scope(scope, "fully_connected", [inputs], reuse=reuse):
        inputs = ops.convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        if not dtype.is_floating:
            raise ValueError(f"Unable to build `Dense` layer with non-floating point dtype {dtype.name}")
        depth = inputs.shape[-1] if inputs.shape.ndims else None
        depth = getattr(depth, "value", depth)
        if depth is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
        weights = variable_scope.get_variable(
            "weights", [int(depth), num_outputs], dtype=dtype, initializer=weights_initializer,
            regularizer=weights_regularizer, trainable=trainable,
            collections=_variable_collections(variables_collections, "weights"))
        rank = inputs.shape.ndims
        if rank == 2:
            outputs = math_ops.matmul(inputs, weights)
        else:
            outputs = math_ops.tensordot(inputs, weights, [[rank - 1], [0]])
        if normalizer_fn is None and biases_initializer is not None:
            biases = variable_scope.get_variable(
                "biases", [num_outputs], dtype=dtype, initializer=biases_initializer,
                regularizer=biases_regularizer, trainable=trainable,
                collections=_variable_collections(variables_collections, "biases"))
            outputs = math_ops.add(outputs, biases)
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
    return _collect(outputs_collections, outputs)


