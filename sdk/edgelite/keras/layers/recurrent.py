"""Keras SimpleRNN, GRU and LSTM as tf.compat.v1.keras defines them (GRU/LSTM: hard_sigmoid recurrent
activation, GRU reset_after=False, LSTM unit_forget_bias), weights named '<layer>/<cell>/kernel:0'.

A sequence of known length is unrolled step by step; an unknown length runs through edgelite's dynamic_rnn.
With a mask (Embedding(mask_zero=True), Masking), a masked step keeps the states and repeats the previous output
(zeros before the first kept step, or always zeros with zero_output_for_mask), as Keras's rnn loop does.
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.layers.input_spec import InputSpec
from edgelite.nn.rnn import dynamic_rnn
from edgelite.ops import array_ops, init_ops, math_ops, state_ops, variables

from .. import activations, backend, backend_math, initializers, regularizers
from ..engine.base_layer import Layer
from .core import _name_of


class _Recurrent(Layer):
    """The shared recurrent layer; subclasses give the gate count, the cell name, the state count and step()."""

    _gates = 1
    _cell = "simple_rnn_cell"
    _states = 1
    supports_masking = True

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "hard_sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 return_sequences: bool = False, return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, time_major: bool = False,
                 zero_output_for_mask: bool = False, **kwargs: Any) -> None:
        if time_major:
            raise ValueError("time_major=True is not supported by this recurrent layer")
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, got "
                             f"{units}.")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.recurrent_constraint = kernel_constraint, recurrent_constraint
        self.bias_constraint = bias_constraint
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.unroll = go_backwards, unroll
        self.zero_output_for_mask = zero_output_for_mask
        self.stateful = stateful
        self.states: List[Any] = [None] * self._states
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        # the dropout masks of the call being built (one per gate, or one for all with implementation 2)
        self._input_masks: Optional[List[Any]] = None
        self._recurrent_masks: Optional[List[Any]] = None
        self.input_spec = InputSpec(ndim=3)

    def _bias_init(self) -> Any:
        return self.bias_initializer

    def build(self, input_shape: Any) -> None:
        """kernel [input_dim, gates*units], recurrent_kernel [units, gates*units], bias [gates*units]."""
        dim = input_shape.as_list()[-1]
        width = self._gates * self.units
        with ops.name_scope(self._cell):
            self.kernel = self.add_weight("kernel", [dim, width], initializer=self.kernel_initializer,
                                          regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
            self.recurrent_kernel = self.add_weight("recurrent_kernel", [self.units, width],
                                                    initializer=self.recurrent_initializer,
                                                    regularizer=self.recurrent_regularizer,
                                                    constraint=self.recurrent_constraint)
            self.bias = self.add_weight("bias", [width], initializer=self._bias_init(),
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _project(self, x: Any) -> Any:
        """x kernel + bias; with input dropout, each gate's block of the kernel sees x times that gate's mask."""
        if self._input_masks is None:
            out = math_ops.matmul(x, self.kernel)
        else:
            u = self.units
            out = array_ops.concat([math_ops.matmul(x * self._input_masks[k % len(self._input_masks)],
                                                    self.kernel[:, k * u:(k + 1) * u])
                                    for k in range(self._gates)], -1)
        return out + self.bias if self.use_bias else out

    def _recurrent(self, h: Any, gate: int) -> Any:
        """h as the recurrent product of gate `gate` sees it: times that gate's mask under recurrent dropout."""
        masks = self._recurrent_masks
        return h if masks is None else h * masks[gate % len(masks)]

    def _dropout_masks(self, like: Any, rate: float, training: Any) -> Optional[List[Any]]:
        """Keras's per-batch dropout masks: ones scaled and dropped at `rate` in the training phase, ones
        otherwise; one per gate with implementation 1 (SimpleRNN: one), a single one with implementation 2."""
        if not 0.0 < rate < 1.0:
            return None
        ones = array_ops.ones_like(like)
        count = self._gates if getattr(self, "implementation", 1) == 1 else 1
        return [backend_math.in_train_phase(lambda: backend_math.dropout(ones, rate), ones, training=training)
                for _ in range(count)]

    def step(self, x_proj: Any, states: List[Any]) -> tuple:
        """One time step from the projected input: (output, new states)."""
        h = self.activation(x_proj + math_ops.matmul(self._recurrent(states[0], 0), self.recurrent_kernel))
        return h, [h]

    def call(self, inputs: Any, initial_state: Any = None, mask: Any = None, training: Any = None) -> Any:
        """Runs the recurrence over axis 1; the last output, or all of them with return_sequences."""
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        self._input_masks = self._dropout_masks(inputs[:, 0, :], self.dropout, training)
        self._recurrent_masks = self._dropout_masks(
            array_ops.zeros_like(inputs[:, 0, :1]) + array_ops.zeros([self.units], dtype=inputs.dtype),
            self.recurrent_dropout, training)
        if initial_state is None and self.stateful:
            states = self._state_variables(inputs)
        elif initial_state is None:
            zeros = array_ops.zeros_like(math_ops.reduce_sum(inputs, axis=[1, 2]))
            base = array_ops.expand_dims(zeros, 1) + array_ops.zeros([self.units], dtype=inputs.dtype)
            states = [base] * self._states
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
        steps = inputs.shape.as_list()[1]
        if steps is not None:
            outputs, states = self._unrolled(inputs, steps, states, mask)
        else:
            outputs, states = self._looped(inputs, states, mask)
        if steps is None and not self.return_sequences:
            outputs = outputs[:, -1]
        self._input_masks = self._recurrent_masks = None
        if self.stateful:
            # the next batch starts where this one ended (run with every train, test and predict step)
            self.add_update([state_ops.assign(var, s) for var, s in zip(self.states, states)])
        return [outputs] + list(states) if self.return_state else outputs

    def _state_variables(self, inputs: Any) -> List[Any]:
        """The stateful layer's [batch, units] state variables (zeros at first), made on the first call."""
        if self.states[0] is None:
            batch = inputs.shape.as_list()[0]
            if not batch:
                raise ValueError("If a RNN is stateful, it needs to know its batch size. Specify the batch size of "
                                 "your input tensors: \n- If using a Sequential model, specify the batch size by "
                                 "passing a `batch_input_shape` argument to your first layer.\n- If using the "
                                 "functional API, specify the batch size by passing a `batch_shape` argument to "
                                 "your Input layer.")
            with ops.control_dependencies(None):
                self.states = [variables.Variable(np.zeros((batch, self.units), inputs.dtype.as_numpy_dtype),
                                                  trainable=False, name="Variable") for _ in range(self._states)]
            for var in self.states:
                backend.track_variable(var)
        return list(self.states)

    def reset_states(self, states: Any = None) -> None:
        """Sets the state variables of a stateful layer to zeros, or to the given values."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if self.states[0] is None:
            raise ValueError("If a RNN is stateful, it needs to know its batch size: call the layer on an input of "
                             "fixed batch size first.")
        if states is None:
            values = [np.zeros(var.shape.as_list(), var.dtype.base_dtype.as_numpy_dtype) for var in self.states]
        else:
            values = [np.asarray(v) for v in (states if isinstance(states, (list, tuple)) else [states])]
            if len(values) != len(self.states):
                raise ValueError(f"Layer {self.name} expects {len(self.states)} states, but it received "
                                 f"{len(values)} state values. States received: {states}")
            for i, (value, var) in enumerate(zip(values, self.states)):
                if tuple(value.shape) != tuple(var.shape.as_list()):
                    raise ValueError(f"State {i} is incompatible with layer {self.name}: expected shape="
                                     f"{tuple(var.shape.as_list())} but found shape={value.shape}")
        backend.batch_set_value(list(zip(self.states, values)))

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """The input mask for the output sequence (return_sequences), none for the last output and the states."""
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * self._states if self.return_state else output_mask

    def _masked_step(self, x_proj: Any, states: List[Any], keep: Any, previous: Any) -> tuple:
        """step(), then where keep (float [batch, 1], 1 or 0) is 0 the previous output and the old states."""
        out, new_states = self.step(x_proj, states)
        if keep is None:
            return out, new_states
        skip = 1.0 - keep
        if self.zero_output_for_mask:
            previous = array_ops.zeros_like(out)
        return keep * out + skip * previous, [keep * n + skip * s for n, s in zip(new_states, states)]

    def _unrolled(self, inputs: Any, steps: int, states: List[Any], mask: Any = None) -> tuple:
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outs: List[Any] = []
        for t in order:
            keep = None if mask is None else array_ops.expand_dims(math_ops.cast(mask[:, t], inputs.dtype), -1)
            previous = outs[-1] if outs else array_ops.zeros_like(states[0])
            out, states = self._masked_step(self._project(inputs[:, t]), states, keep, previous)
            outs.append(out)
        if self.return_sequences:
            return array_ops.stack(outs, axis=1), states
        return outs[-1], states

    def _looped(self, inputs: Any, states: List[Any], mask: Any = None) -> tuple:
        if mask is not None:
            # the mask rides along as one more input feature; the previous output as one more state
            keep = array_ops.expand_dims(math_ops.cast(mask, inputs.dtype), -1)
            inputs = array_ops.concat([inputs, keep], -1)
            states = states + [array_ops.zeros_like(states[0])]
        if self.go_backwards:
            inputs = array_ops.reverse(inputs, [1])
        cell = _StepCell(self, masked=mask is not None)
        outputs, final = dynamic_rnn(cell, inputs, initial_state=tuple(states), dtype=inputs.dtype)
        final = list(final)
        return outputs, final[:-1] if mask is not None else final

    def get_config(self) -> dict:
        return dict(super().get_config(), units=self.units, activation=_name_of(self.activation),
                    use_bias=self.use_bias, kernel_initializer=_name_of(self.kernel_initializer),
                    recurrent_initializer=_name_of(self.recurrent_initializer),
                    bias_initializer=_name_of(self.bias_initializer),
                    kernel_regularizer=_name_of(self.kernel_regularizer),
                    recurrent_regularizer=_name_of(self.recurrent_regularizer),
                    bias_regularizer=_name_of(self.bias_regularizer),
                    activity_regularizer=_name_of(self.activity_regularizer), kernel_constraint=None,
                    recurrent_constraint=None, bias_constraint=None, dropout=self.dropout,
                    recurrent_dropout=self.recurrent_dropout,
                    return_sequences=self.return_sequences, return_state=self.return_state,
                    go_backwards=self.go_backwards, stateful=self.stateful, unroll=self.unroll, time_major=False)


class _StepCell:
    """The layer's step as the cell dynamic_rnn drives (its weights already exist outside the loop)."""

    def __init__(self, layer: _Recurrent, masked: bool = False) -> None:
        self._layer, self._masked = layer, masked
        self.state_size = tuple([layer.units] * (layer._states + int(masked)))
        self.output_size = layer.units

    def zero_state(self, batch_size: Any, dtype: Any) -> tuple:
        return tuple(array_ops.zeros([batch_size, self._layer.units], dtype) for _ in self.state_size)

    def __call__(self, inputs: Any, state: Any, scope: Optional[str] = None) -> tuple:
        if not self._masked:
            out, states = self._layer.step(self._layer._project(inputs), list(state))
            return out, tuple(states)
        state = list(state)
        out, states = self._layer._masked_step(self._layer._project(inputs[:, :-1]), state[:-1], inputs[:, -1:],
                                               state[-1])
        return out, tuple(states + [out])


class SimpleRNN(_Recurrent):
    """h = activation(x W + h U + b)."""

    def __init__(self, units: int, activation: Any = "tanh", **kwargs: Any) -> None:
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, **kwargs)


class GRU(_Recurrent):
    """Update gate z, reset gate r applied before the recurrent product (reset_after=False)."""

    _gates = 3
    _cell = "gru_cell"

    def __init__(self, units: int, reset_after: bool = False, implementation: int = 1, **kwargs: Any) -> None:
        if reset_after:
            raise ValueError("reset_after=True is not supported by this GRU (tf.compat.v1's GRU has False)")
        super().__init__(units, **kwargs)
        self.implementation = implementation

    def step(self, x_proj: Any, states: List[Any]) -> tuple:
        h = states[0]
        u = self.units
        rec = self.recurrent_kernel
        if self._recurrent_masks is None:
            inner = math_ops.matmul(h, rec[:, :2 * u])
        else:
            inner = array_ops.concat([math_ops.matmul(self._recurrent(h, 0), rec[:, :u]),
                                      math_ops.matmul(self._recurrent(h, 1), rec[:, u:2 * u])], -1)
        z = self.recurrent_activation(x_proj[:, :u] + inner[:, :u])
        r = self.recurrent_activation(x_proj[:, u:2 * u] + inner[:, u:])
        candidate = self.activation(x_proj[:, 2 * u:] + math_ops.matmul(r * self._recurrent(h, 2), rec[:, 2 * u:]))
        h = z * h + (1.0 - z) * candidate
        return h, [h]

    def get_config(self) -> dict:
        return dict(super().get_config(), recurrent_activation=_name_of(self.recurrent_activation),
                    implementation=self.implementation, reset_after=False)


class LSTM(_Recurrent):
    """Input, forget, cell and output gates (that order in the kernels); states [h, c]."""

    _gates = 4
    _cell = "lstm_cell"
    _states = 2

    def __init__(self, units: int, unit_forget_bias: bool = True, implementation: int = 1, **kwargs: Any) -> None:
        super().__init__(units, **kwargs)
        self.unit_forget_bias, self.implementation = unit_forget_bias, implementation

    def _bias_init(self) -> Any:
        if not self.unit_forget_bias:
            return self.bias_initializer
        u, base = self.units, self.bias_initializer

        def init(shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
            ones = init_ops.Ones()([u], dtype=dtype)
            return array_ops.concat([base([u], dtype=dtype), ones, base([2 * u], dtype=dtype)], 0)
        return init

    def step(self, x_proj: Any, states: List[Any]) -> tuple:
        h, c = states
        u = self.units
        if self._recurrent_masks is None:
            z = x_proj + math_ops.matmul(h, self.recurrent_kernel)
        else:
            z = x_proj + array_ops.concat([math_ops.matmul(self._recurrent(h, k), self.recurrent_kernel[:, k * u:
                                                                                                     (k + 1) * u])
                                           for k in range(4)], -1)
        i = self.recurrent_activation(z[:, :u])
        f = self.recurrent_activation(z[:, u:2 * u])
        c = f * c + i * self.activation(z[:, 2 * u:3 * u])
        o = self.recurrent_activation(z[:, 3 * u:])
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return dict(super().get_config(), recurrent_activation=_name_of(self.recurrent_activation),
                    unit_forget_bias=self.unit_forget_bias, implementation=self.implementation)
