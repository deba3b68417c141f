"""Base class of the tf.compat.v1.layers: variable-scope naming, weights via get_variable, losses and updates."""
from __future__ import annotations

import re
from typing import Any, Callable, List, Optional, Sequence

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops
from edgelite.ops import variable_scope as vs

from .input_spec import assert_input_compatibility


def to_snake_case(name: str) -> str:
    """'BatchNormalization' -> 'batch_normalization', 'Conv2D' -> 'conv2d' (TF's layer base names)."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()


def normalize_tuple(value: Any, n: int, name: str) -> tuple:
    """An int or an n-sequence of ints as an n-tuple (ValueError otherwise)."""
    if isinstance(value, int):
        return (value,) * n
    try:
        vals = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: {value}") from None
    if len(vals) != n:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: {value}")
    return vals


def normalize_padding(value: str) -> str:
    """'same' / 'valid' (case-insensitive) as the upper-case op attr."""
    if not isinstance(value, str) or value.lower() not in ("same", "valid"):
        raise ValueError(f"The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or \"causal\", "
                         f"only for `Conv1D). Received: {value}")
    return value.upper()


def op_data_format(data_format: str) -> str:
    """'channels_last' -> 'NHWC', 'channels_first' -> 'NCHW'."""
    if data_format in (None, "channels_last"):
        return "NHWC"
    if data_format == "channels_first":
        return "NCHW"
    raise ValueError(f"The `data_format` argument must be one of 'channels_first', 'channels_last'. "
                     f"Received: {data_format}")


class Layer:
    """A callable building block owning variables created under its own variable scope (TF 1.x layers).

    The first call opens `variable_scope(name or None, default_name=<snake_case class name>)`, so
    unnamed layers become 'dense', 'dense_1', ... and their variables 'dense/kernel'; later calls reuse
    the scope and its variables.
    """

    # An InputSpec (or list of them) checked on every call; subclasses set it in __init__.
    input_spec: Any = None

    def __init__(self, trainable: bool = True, name: Optional[str] = None, dtype: Any = None,
                 activity_regularizer: Optional[Callable] = None, _reuse: Optional[bool] = None,
                 _scope: Any = None) -> None:
        self.trainable = trainable
        self.activity_regularizer = activity_regularizer
        self.built = False
        self._reuse = _reuse
        self._base_name = name or to_snake_case(type(self).__name__)
        self._name = name
        self._scope = None
        self._scope_arg = _scope
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype).base_dtype
        self._trainable_weights: List[Any] = []
        self._non_trainable_weights: List[Any] = []
        self._losses: List[Any] = []
        self._updates: List[Any] = []
        self._call_count = 0

    # ---- properties ------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The layer's name (its variable scope's name once called)."""
        return self._name or self._base_name

    @property
    def dtype(self) -> Optional[dtypes.DType]:
        """The dtype of the layer's weights (set from the first input when not given)."""
        return self._dtype

    @property
    def scope_name(self) -> str:
        """Full name of the variable scope; ValueError before the first call."""
        if self._scope is None:
            raise ValueError("No name available for layer scope because the layer \"" + self.name +
                             "\" has not been used yet. The scope name is determined the first time the layer "
                             "instance is called.")
        return self._scope.name

    @property
    def trainable_weights(self) -> list:
        """Trainable variables (empty when the layer is frozen)."""
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        """Non-trainable variables (all of them when the layer is frozen)."""
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def weights(self) -> list:
        """All variables, trainable first."""
        return self.trainable_weights + self.non_trainable_weights

    variables = weights

    @property
    def losses(self) -> list:
        """Regularization and activity losses created by this layer."""
        return list(self._losses)

    @property
    def updates(self) -> list:
        """Update ops (e.g. batch-norm moving averages) created by this layer."""
        return list(self._updates)

    # ---- subclass API ----------------------------------------------------------------------------------
    def build(self, input_shape: Any) -> None:
        """Creates the variables; called once with the static shape of the first input."""
        self.built = True

    def call(self, inputs: Any, **kwargs: Any) -> Any:
        """The layer's computation."""
        return inputs

    def add_loss(self, loss: Any) -> None:
        """Records a loss tensor and adds it to the REGULARIZATION_LOSSES collection."""
        if loss is None:
            return
        self._losses.append(loss)
        ops.add_to_collection(ops.GraphKeys.REGULARIZATION_LOSSES, loss)

    def add_update(self, update: Any) -> None:
        """Records an update op; __call__ adds it to the UPDATE_OPS collection."""
        self._updates.append(update)

    def add_weight(self, name: str, shape: Sequence[Any], dtype: Any = None, initializer: Any = None,
                   regularizer: Optional[Callable] = None, trainable: bool = True, constraint: Any = None) -> Any:
        """get_variable(name) inside the layer's scope, with the regularizer loss in REGULARIZATION_LOSSES."""
        dtype = dtypes.as_dtype(dtype or self._dtype or dtypes.float32)
        trainable = trainable and self.trainable
        var = vs.get_variable(name, shape=list(shape), dtype=dtype, initializer=initializer, trainable=trainable,
                              constraint=constraint)
        if trainable:
            self._trainable_weights.append(var)
        else:
            self._non_trainable_weights.append(var)
        if regularizer is not None and not vs.get_variable_scope().reuse:
            with ops.name_scope(var.op.name + "/Regularizer/"):
                self.add_loss(regularizer(var))
        return var

    # ---- calling -----------------------------------------------------------------------------------------
    def _set_scope(self) -> None:
        if self._scope is not None:
            return
        if self._reuse:
            with vs.variable_scope(self._scope_arg if self._scope_arg is not None else self._base_name) as s:
                self._scope = s
        else:
            with vs.variable_scope(self._scope_arg, default_name=self._base_name) as s:
                self._scope = s
        self._name = self._scope.name.split("/")[-1]

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        self._set_scope()
        inputs = _to_tensors(inputs)
        if self.input_spec is not None:
            assert_input_compatibility(self.input_spec, inputs, self.name)
        if self._dtype is None:
            first = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
            self._dtype = first.dtype.base_dtype if first.dtype.is_floating else dtypes.float32
        reuse = True if self.built else self._reuse
        n_updates = len(self._updates)
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            with ops.name_scope(scope.original_name_scope):
                if not self.built:
                    shapes = ([t.shape for t in inputs] if isinstance(inputs, (list, tuple)) else inputs.shape)
                    self.build(shapes)
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
                if self.activity_regularizer is not None:
                    self._activity_loss(outputs)
        self._call_count += 1
        for u in self._updates[n_updates:]:
            ops.add_to_collection(ops.GraphKeys.UPDATE_OPS, u)
        return outputs

    apply = __call__

    def _activity_loss(self, outputs: Any) -> None:
        """activity_regularizer(output) / batch size, as a regularization loss."""
        with ops.name_scope("ActivityRegularizer"):
            for out in outputs if isinstance(outputs, (list, tuple)) else [outputs]:
                loss = self.activity_regularizer(out)
                batch = math_ops.cast(array_ops.shape(out)[0], loss.dtype)
                self.add_loss(loss / batch)


def _to_tensors(inputs: Any) -> Any:
    if isinstance(inputs, (list, tuple)):
        return [ops.convert_to_tensor(t) for t in inputs]
    return ops.convert_to_tensor(inputs)


def apply_layer(layer_class: type, args: dict) -> Any:
    """Builds and calls a layer from a functional form's arguments (its locals()): `inputs` is what the layer is
    called on, `name` also opens its variable scope and `reuse` (if any) reuses that scope's variables."""
    args = dict(args)
    inputs = args.pop("inputs")
    reuse = args.pop("reuse", None)
    return layer_class(**args, _reuse=reuse, _scope=args.get("name"))(inputs)
