"""tf.nn.rnn_cell wrappers: DropoutWrapper, ResidualWrapper and DeviceWrapper around another cell.

A wrapper adds no variable scope of its own: the wrapped cell is called with the wrapper's scope, so
`DropoutWrapper(BasicLSTMCell(n))` in dynamic_rnn still owns `rnn/basic_lstm_cell/kernel`.
"""
from __future__ import annotations

import hashlib
import numbers
from typing import Any, Callable, Optional

from edgelite import nest
from edgelite.framework import ops, tensor_shape
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import math_ops, random_ops
from edgelite.ops.tensor_array_ops import TensorArray

from .rnn_cell_impl import LSTMStateTuple, RNNCell, assert_like_rnncell


def _is_leaf(x: Any) -> bool:
    return not nest.is_nested(x) or isinstance(x, tensor_shape.TensorShape)


def _map_up_to(shallow: Any, fn: Callable, *structures: Any) -> Any:
    """fn(index, *parts) for every leaf of shallow (numbered in flatten order), parts being the
    matching sub-structures of each structure; the results packed like shallow."""
    counter = [0]

    def walk(s: Any, parts: tuple) -> Any:
        if _is_leaf(s):
            i = counter[0]
            counter[0] += 1
            return fn(i, *parts)
        kids = [walk(child, tuple(_child(p, k) for p in parts)) for k, child in enumerate(_children(s))]
        return _rebuild(s, kids)

    return walk(shallow, structures)


def _children(s: Any) -> list:
    if isinstance(s, dict):
        return [s[k] for k in sorted(s)]
    return list(s)


def _child(s: Any, k: int) -> Any:
    if isinstance(s, dict):
        return s[sorted(s)[k]]
    return s[k]


def _rebuild(s: Any, kids: list) -> Any:
    if isinstance(s, dict):
        return type(s)((key, kids[i]) for i, key in enumerate(sorted(s)))
    if hasattr(s, "_fields"):
        return type(s)(*kids)
    return type(s)(kids)


def _traverse_shallow(fn: Callable, structure: Any) -> Any:
    """The structure of booleans that fn selects: True levels are descended into, False ones are not."""
    choice = fn(structure)
    if _is_leaf(structure):
        if not isinstance(choice, bool):
            raise TypeError(f"traverse_fn returned structure: {choice} for non-structure: {structure}")
        return choice
    if isinstance(choice, bool):
        if not choice:
            return False
        return _rebuild(structure, [_traverse_shallow(fn, c) for c in _children(structure)])
    picks = _children(choice)
    kids = _children(structure)
    return _rebuild(structure, [_traverse_shallow(fn, c) if p else False for p, c in zip(picks, kids)])


def _default_dropout_state_filter_visitor(substate: Any) -> Any:
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    if isinstance(substate, TensorArray):
        return False
    return True


class _RNNCellWrapper(RNNCell):
    """A cell that runs another cell (called in the wrapper's own scope) and changes its inputs/outputs."""

    def __init__(self, cell: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        assert_like_rnncell("cell", cell)
        self.cell = cell

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        return self._call_wrapped_cell(inputs, state, cell_call_fn=self.cell.__call__, scope=scope)

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable, **kwargs: Any) -> Any:
        raise NotImplementedError("Abstract method")

    @property
    def wrapped_cell(self) -> Any:
        """The cell inside."""
        return self.cell

    @property
    def state_size(self) -> Any:
        """The wrapped cell's state size."""
        return self.cell.state_size

    @property
    def output_size(self) -> Any:
        """The wrapped cell's output size."""
        return self.cell.output_size

    @property
    def trainable_weights(self) -> list:
        """The wrapped cell's trainable variables."""
        return list(getattr(self.cell, "trainable_weights", [])) if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        """The wrapped cell's non-trainable variables."""
        return list(getattr(self.cell, "non_trainable_weights", []))

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """The wrapped cell's zero state."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)


class DropoutWrapper(_RNNCellWrapper):
    """Dropout on the cell's inputs, outputs and states (never on an LSTM's c by default).

    With variational_recurrent=True one mask, drawn when the wrapper is built, is reused at every step.
    """

    def __init__(self, cell: Any, input_keep_prob: Any = 1.0, output_keep_prob: Any = 1.0,
                 state_keep_prob: Any = 1.0, variational_recurrent: bool = False, input_size: Any = None,
                 dtype: Any = None, seed: Optional[int] = None, dropout_state_filter_visitor: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError(f"dropout_state_filter_visitor must be callable. Received: {dropout_state_filter_visitor}")
        self._dropout_state_filter = dropout_state_filter_visitor or _default_dropout_state_filter_visitor
        with ops.name_scope("DropoutWrapperInit"):
            for prob, attr in ((input_keep_prob, "input_keep_prob"), (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")):
                tensor_prob = ops.convert_to_tensor(prob)
                const_prob = constant_value(tensor_prob)
                if const_prob is not None:
                    if const_prob < 0 or const_prob > 1:
                        raise ValueError(f"Parameter {attr} must be between 0 and 1. Received {const_prob}")
                    setattr(self, f"_{attr}", float(const_prob))
                else:
                    setattr(self, f"_{attr}", tensor_prob)
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._recurrent_input_noise = None
        self._recurrent_state_noise = None
        self._recurrent_output_noise = None
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def batch_noise(s: Any, inner_seed: Optional[int]) -> ops.Tensor:
                shape = [1] + tensor_shape.as_shape([s] if isinstance(s, int) else s).as_list()
                return random_ops.random_uniform(shape, seed=inner_seed, dtype=dtype)

            if not isinstance(self._input_keep_prob, numbers.Real) or self._input_keep_prob < 1.0:
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                     "input_size must be provided")
                self._recurrent_input_noise = _map_up_to(
                    input_size, lambda i, s: batch_noise(s, self._gen_seed("input", i)), input_size)
            self._recurrent_state_noise = _map_up_to(
                cell.state_size, lambda i, s: batch_noise(s, self._gen_seed("state", i)), cell.state_size)
            self._recurrent_output_noise = _map_up_to(
                cell.output_size, lambda i, s: batch_noise(s, self._gen_seed("output", i)), cell.output_size)

    def _gen_seed(self, salt_prefix: str, index: int) -> Optional[int]:
        if self._seed is None:
            return None
        digest = hashlib.md5((str(self._seed) + f"{salt_prefix}_{index}").encode("utf-8")).hexdigest()
        return int(digest[:8], 16) & 0x7FFFFFFF

    def _dropout(self, values: Any, salt_prefix: str, recurrent_noise: Any, keep_prob: Any,
                 shallow: Any = None) -> Any:
        from edgelite.nn.dropout import dropout
        shallow = values if shallow is None else shallow
        if not self._variational_recurrent:
            def one(i: int, do: Any, v: Any) -> Any:
                if not isinstance(do, bool) or do:
                    return dropout(v, rate=1.0 - keep_prob, seed=self._gen_seed(salt_prefix, i))
                return v
            return _map_up_to(shallow, one, shallow, values)

        def one_variational(i: int, do: Any, v: Any, noise: Any) -> Any:
            if not isinstance(do, bool) or do:
                kept = math_ops.floor(keep_prob + noise)
                out = math_ops.divide(v, keep_prob) * kept
                out.set_shape(v.shape)
                return out
            return v
        return _map_up_to(shallow, one_variational, shallow, values, recurrent_noise)

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable, **kwargs: Any) -> Any:
        def should(p: Any) -> bool:
            return not isinstance(p, float) or p < 1

        if should(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise, self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if should(self._state_keep_prob):
            shallow = _traverse_shallow(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise, self._state_keep_prob,
                                      shallow)
        if should(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise, self._output_keep_prob)
        return output, new_state


class ResidualWrapper(_RNNCellWrapper):
    """output = residual_fn(inputs, cell output), by default their sum."""

    def __init__(self, cell: Any, residual_fn: Optional[Callable] = None, **kwargs: Any) -> None:
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable, **kwargs: Any) -> Any:
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def default_residual_fn(inputs: Any, outputs: Any) -> Any:
            nest.assert_same_structure(inputs, outputs)

            def add(inp: Any, out: Any) -> Any:
                inp.shape.assert_is_compatible_with(out.shape)
                return inp + out
            return nest.map_structure(add, inputs, outputs)

        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_RNNCellWrapper):
    """Runs the wrapped cell (and its zero state) under tf.device(device)."""

    def __init__(self, cell: Any, device: Any, **kwargs: Any) -> None:
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """The wrapped cell's zero state, placed on the device."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            with ops.device(self._device):
                return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable, **kwargs: Any) -> Any:
        with ops.device(self._device):
            return cell_call_fn(inputs, state, **kwargs)

