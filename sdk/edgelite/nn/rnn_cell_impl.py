"""tf.nn.rnn_cell: the TF1 recurrent cells, whose weights carry TensorFlow's variable names.

A cell is a layer called as `cell(inputs, state) -> (output, new_state)`. Its first call opens
`variable_scope(<current scope>)` with a getter that builds new variables in the outermost graph (so a
cell first called inside a while_loop body, as dynamic_rnn does, still owns ordinary graph variables),
then the layer scope `<class name in snake case>`: `rnn/basic_lstm_cell/kernel` exactly as TensorFlow.
"""
from __future__ import annotations

import collections
from typing import Any, Optional

from edgelite import nest
from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.tensor_util import constant_value
from edgelite.layers import base
from edgelite.ops import array_ops, init_ops, math_ops, variables
from edgelite.ops import variable_scope as vs

_BIAS = "bias"
_KERNEL = "kernel"


def _outermost_graph() -> ops.Graph:
    g = ops.get_default_graph()
    while getattr(g, "outer_graph", None) is not None:
        g = g.outer_graph
    return g


def _lifting_getter(getter: Any, *args: Any, **kwargs: Any) -> Any:
    """Create (or find) the variable in the outermost graph when called from a function body."""
    if getattr(ops.get_default_graph(), "outer_graph", None) is None:
        return getter(*args, **kwargs)
    with _outermost_graph().as_default(), ops.control_dependencies(None), ops.name_scope(None):
        return getter(*args, **kwargs)


def check_supported_dtype(dtype: Any) -> None:
    """RNN cells compute in floating point (their activations are tanh and sigmoid)."""
    if dtype is None:
        return
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_complex):
        raise ValueError(f"RNN cell only supports floating point inputs, but received dtype: {dtype}")


def get_activation(activation: Any) -> Any:
    """None -> tanh; a callable as is; a name of a tf.nn / tf.math activation ('relu', 'sigmoid', ...)."""
    if activation is None:
        return math_ops.tanh
    if callable(activation):
        return activation
    if isinstance(activation, str):
        from edgelite import nn
        fn = getattr(nn, activation, None) or getattr(math_ops, activation, None)
        if activation == "linear":
            return lambda x: x
        if callable(fn):
            return fn
    raise ValueError(f"Unknown activation function: '{activation}'. Please ensure you are using a "
                     "`keras.utils.custom_object_scope` and that this object is included in the scope.")


def size_shape(size: Any) -> tensor_shape.TensorShape:
    """A state or output size (int, TensorShape, shape tensor) as a TensorShape without the batch axis."""
    if isinstance(size, ops.Tensor):
        return tensor_shape.as_shape(constant_value(size))
    if isinstance(size, int):
        return tensor_shape.TensorShape([size])
    return tensor_shape.as_shape(size)


def batched_zeros(batch_size: Any, size: Any, dtype: Any) -> ops.Tensor:
    """Zeros of shape [batch_size] + size, with the static shape set as far as it is known."""
    inner = size_shape(size)
    if isinstance(batch_size, ops.Tensor):
        static_batch = constant_value(batch_size)
        static_batch = None if static_batch is None else int(static_batch)
        shape = array_ops.concat([array_ops.reshape(math_ops.cast(batch_size, dtypes.int32), [1]),
                                  ops.convert_to_tensor(inner.as_list(), dtypes.int32)], 0)
    else:
        static_batch = None if batch_size is None else int(batch_size)
        shape = [static_batch] + inner.as_list()
    z = array_ops.zeros(shape, dtype=dtype)
    z.set_shape(tensor_shape.TensorShape([static_batch]).concatenate(inner))
    return z


def assert_like_rnncell(cell_name: str, cell: Any) -> None:
    """TypeError unless cell has output_size, state_size, zero_state/get_initial_state and is callable."""
    checks = [(hasattr(cell, "output_size"), "'output_size' property is missing"),
              (hasattr(cell, "state_size"), "'state_size' property is missing"),
              (hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
               "either 'zero_state' or 'get_initial_state' method is required"),
              (callable(cell), "is not callable")]
    missing = [msg for ok, msg in checks if not ok]
    if missing:
        raise TypeError(f"The argument {cell_name!r} ({cell}) is not an RNNCell: {', '.join(missing)}.")


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """(c, h): the memory and the output state of an LSTM cell."""

    __slots__ = ()

    @property
    def dtype(self) -> Any:
        """The dtype shared by c and h (TypeError when they differ)."""
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent dtypes for internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


class RNNCell(base.Layer):
    """Abstract recurrent cell: `(output, new_state) = cell(inputs, state)`; subclasses define call()."""

    def __init__(self, trainable: bool = True, name: Optional[str] = None, dtype: Any = None,
                 _reuse: Optional[bool] = None, **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, dtype=dtype, _reuse=_reuse)
        self._rnncell_scope = None

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        if scope is not None:
            with vs.variable_scope(scope, custom_getter=self._rnn_get_variable) as opened:
                return self._call_in_scope(inputs, state, opened)
        if self._rnncell_scope is None:
            self._rnncell_scope = vs.variable_scope(vs.get_variable_scope(), custom_getter=self._rnn_get_variable)
        with self._rnncell_scope:
            return self._call_in_scope(inputs, state, None)

    def _rnn_get_variable(self, getter: Any, *args: Any, **kwargs: Any) -> Any:
        var = _lifting_getter(getter, *args, **kwargs)
        first = list(var)[0] if isinstance(var, variables.PartitionedVariable) else var
        trainable = any(first is v for v in _outermost_graph().get_collection(ops.GraphKeys.TRAINABLE_VARIABLES))
        own = self._trainable_weights if trainable else self._non_trainable_weights
        if all(var is not v for v in own):
            own.append(var)
        return var

    @property
    def trainable_variables(self) -> list:
        """Same as trainable_weights (also for subclasses that redefine it)."""
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> list:
        """Same as non_trainable_weights."""
        return self.non_trainable_weights

    def _check_inputs(self, inputs: Any) -> None:
        """Hook for cells with an input spec (LayerRNNCell subclasses take rank-2 inputs)."""

    def _call_in_scope(self, inputs: Any, state: Any, scope: Any) -> Any:
        """The layer part of a call: the cell's own scope, build() on the first call, then call()."""
        if self._scope is None:
            self._scope_arg = scope
            self._set_scope()
        flat = [ops.convert_to_tensor(x) for x in nest.flatten(inputs)]
        inputs = nest.pack_sequence_as(inputs, flat)
        self._check_inputs(inputs)
        if self._dtype is None:
            self._dtype = flat[0].dtype.base_dtype
        reuse = True if self.built else self._reuse
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as opened:
            with ops.name_scope(opened.original_name_scope):
                if not self.built:
                    self.build(nest.map_structure(lambda t: t.shape, inputs))
                    self.built = True
                return self.call(inputs, state)

    def add_weight(self, name: str, shape: Any, dtype: Any = None, initializer: Any = None,
                   regularizer: Any = None, trainable: bool = True, constraint: Any = None,
                   partitioner: Any = None) -> Any:
        """get_variable(name) in the cell's scope; the getter lifts it out of loop bodies."""
        dtype = dtypes.as_dtype(dtype or self._dtype or dtypes.float32)
        var = vs.get_variable(name, shape=list(shape), dtype=dtype, initializer=initializer,
                              trainable=trainable and self.trainable, constraint=constraint,
                              partitioner=partitioner, regularizer=regularizer)
        own = self._trainable_weights if trainable and self.trainable else self._non_trainable_weights
        if all(var is not v for v in own):
            own.append(var)
        return var

    @property
    def state_size(self) -> Any:
        """Size(s) of the state: an int, a TensorShape or a nested tuple of them."""
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self) -> Any:
        """Size of the output: an int or a TensorShape."""
        raise NotImplementedError("Abstract method")

    def call(self, inputs: Any, state: Any) -> Any:
        """One step: (output, new_state)."""
        raise NotImplementedError("Abstract method")

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None, dtype: Any = None) -> Any:
        """zero_state, taking batch size and dtype from inputs when given."""
        if inputs is not None:
            inputs = ops.convert_to_tensor(inputs, name="inputs")
            if batch_size is not None:
                static = constant_value(batch_size) if isinstance(batch_size, ops.Tensor) else batch_size
                if inputs.shape.dims[0].value != static:
                    raise ValueError("batch size from input tensor is different from the input param. Input tensor "
                                     f"batch: {inputs.shape.dims[0].value}, batch_size: {batch_size}")
            if dtype is not None and inputs.dtype != dtype:
                raise ValueError("dtype from input tensor is different from the input param. Input tensor dtype: "
                                 f"{inputs.dtype}, dtype: {dtype}")
            batch_size = inputs.shape.dims[0].value or array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                             f"batch_size={batch_size}, dtype={dtype}")
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """Zero-filled state(s): [batch_size, s] for every s in state_size."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return nest.map_structure(lambda s: batched_zeros(batch_size, s, dtype), self.state_size)


class LayerRNNCell(RNNCell):
    """A cell whose variables are made in build(); its inputs must be rank-2 [batch, depth]."""

    def _check_inputs(self, inputs: Any) -> None:
        ndim = inputs.shape.ndims
        if ndim is not None and ndim != 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected ndim=2, '
                             f"found ndim={ndim}. Full shape received: {inputs.shape}")
        check_supported_dtype(inputs.dtype)


def _input_depth(input_shape: Any) -> int:
    input_shape = tensor_shape.as_shape(input_shape)
    if input_shape.ndims is None or input_shape[-1] is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: {input_shape}")
    return int(input_shape[-1])


def _check_state_dtypes(*tensors: Any) -> None:
    for t in nest.flatten(tensors):
        check_supported_dtype(t.dtype)


class _UnitsCell(LayerRNNCell):
    """A cell whose state and output are both num_units wide (BasicRNNCell, GRUCell)."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Optional[bool] = None,
                 name: Optional[str] = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtype(self.dtype)
        self._num_units = num_units
        self._activation = get_activation(activation)

    @property
    def state_size(self) -> int:
        """num_units."""
        return self._num_units

    @property
    def output_size(self) -> int:
        """num_units."""
        return self._num_units


class BasicRNNCell(_UnitsCell):
    """output = new_state = activation(W [inputs, state] + b)."""

    def build(self, input_shape: Any) -> None:
        """kernel [depth + num_units, num_units], bias [num_units] (zeros)."""
        depth = _input_depth(input_shape)
        self._kernel = self.add_weight(_KERNEL, shape=[depth + self._num_units, self._num_units])
        self._bias = self.add_weight(_BIAS, shape=[self._num_units],
                                     initializer=init_ops.zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        """One step of the plain recurrence."""
        _check_state_dtypes(inputs, state)
        from edgelite.nn import bias_add
        gate = bias_add(math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel), self._bias)
        output = self._activation(gate)
        return output, output


class GRUCell(_UnitsCell):
    """Gated recurrent unit (Cho et al. 2014): gates/{kernel,bias} for r and u, candidate/{kernel,bias}."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Optional[bool] = None,
                 kernel_initializer: Any = None, bias_initializer: Any = None, name: Optional[str] = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(num_units, activation=activation, reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, input_shape: Any) -> None:
        """Gate weights [depth + n, 2n] (bias ones by default) and candidate weights [depth + n, n]."""
        depth = _input_depth(input_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight(f"gates/{_KERNEL}", shape=[depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            f"gates/{_BIAS}", shape=[2 * n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else init_ops.constant_initializer(1.0, dtype=self.dtype))
        self._candidate_kernel = self.add_weight(f"candidate/{_KERNEL}", shape=[depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            f"candidate/{_BIAS}", shape=[n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else init_ops.zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        """r, u = sigmoid(gates); c = act(W_c [x, r*h] + b_c); h' = u*h + (1-u)*c."""
        _check_state_dtypes(inputs, state)
        from edgelite.nn import bias_add
        gates = bias_add(math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel), self._gate_bias)
        r, u = array_ops.split(value=math_ops.sigmoid(gates), num_or_size_splits=2, axis=1)
        candidate = bias_add(math_ops.matmul(array_ops.concat([inputs, r * state], 1), self._candidate_kernel),
                             self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


def _split_state(cell: Any, state: Any, c_size: int, h_size: int) -> tuple:
    if cell._state_is_tuple:
        return state[0], state[1]
    return (array_ops.slice(state, [0, 0], [-1, c_size]), array_ops.slice(state, [0, c_size], [-1, h_size]))


def _join_state(cell: Any, c: Any, h: Any) -> Any:
    return LSTMStateTuple(c, h) if cell._state_is_tuple else array_ops.concat([c, h], 1)


class BasicLSTMCell(LayerRNNCell):
    """LSTM without peepholes or projection; gates i, j, f, o in one kernel, forget_bias added to f."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Any = None, reuse: Optional[bool] = None, name: Optional[str] = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtype(self.dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = get_activation(activation)

    @property
    def state_size(self) -> Any:
        """LSTMStateTuple(num_units, num_units), or 2 * num_units for a concatenated state."""
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self) -> int:
        """num_units."""
        return self._num_units

    def build(self, input_shape: Any) -> None:
        """kernel [depth + n, 4n], bias [4n] (zeros)."""
        depth = _input_depth(input_shape)
        n = self._num_units
        self._kernel = self.add_weight(_KERNEL, shape=[depth + n, 4 * n])
        self._bias = self.add_weight(_BIAS, shape=[4 * n], initializer=init_ops.zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        """c' = c*sigmoid(f + forget_bias) + sigmoid(i)*act(j); h' = act(c')*sigmoid(o)."""
        _check_state_dtypes(inputs, state)
        from edgelite.nn import bias_add
        c, h = _split_state(self, state, self._num_units, self._num_units)
        gates = bias_add(math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel), self._bias)
        i, j, f, o = array_ops.split(value=gates, num_or_size_splits=4, axis=1)
        forget_bias = ops.convert_to_tensor(self._forget_bias, dtype=f.dtype)
        new_c = math_ops.add(math_ops.multiply(c, math_ops.sigmoid(math_ops.add(f, forget_bias))),
                             math_ops.multiply(math_ops.sigmoid(i), self._activation(j)))
        new_h = math_ops.multiply(self._activation(new_c), math_ops.sigmoid(o))
        return new_h, _join_state(self, new_c, new_h)


class LSTMCell(LayerRNNCell):
    """LSTM with optional peepholes (w_f_diag, w_i_diag, w_o_diag), cell clipping and a projection."""

    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: Optional[float] = None,
                 initializer: Any = None, num_proj: Optional[int] = None, proj_clip: Optional[float] = None,
                 num_unit_shards: Optional[int] = None, num_proj_shards: Optional[int] = None,
                 forget_bias: float = 1.0, state_is_tuple: bool = True, activation: Any = None,
                 reuse: Optional[bool] = None, name: Optional[str] = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtype(self.dtype)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = get_activation(activation)
        h = num_proj if num_proj else num_units
        self._state_size = LSTMStateTuple(num_units, h) if state_is_tuple else num_units + h
        self._output_size = h

    @property
    def state_size(self) -> Any:
        """LSTMStateTuple(num_units, num_proj or num_units), or their sum for a concatenated state."""
        return self._state_size

    @property
    def output_size(self) -> int:
        """num_proj if set, else num_units."""
        return self._output_size

    def build(self, input_shape: Any) -> None:
        """kernel [depth + h, 4n], bias [4n]; peephole diagonals [n]; projection/kernel [n, num_proj]."""
        from edgelite.ops.variable_scope import fixed_size_partitioner
        depth = _input_depth(input_shape)
        n = self._num_units
        h = self._output_size
        self._kernel = self.add_weight(
            _KERNEL, shape=[depth + h, 4 * n], initializer=self._initializer,
            partitioner=fixed_size_partitioner(self._num_unit_shards) if self._num_unit_shards is not None else None)
        self._bias = self.add_weight(_BIAS, shape=[4 * n], initializer=init_ops.zeros_initializer(dtype=self.dtype))
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[n], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[n], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight(
                f"projection/{_KERNEL}", shape=[n, self._num_proj], initializer=self._initializer,
                partitioner=fixed_size_partitioner(self._num_proj_shards) if self._num_proj_shards is not None
                else None)
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        """One LSTM step with the optional peepholes, clip and projection, in TensorFlow's order."""
        _check_state_dtypes(inputs, state)
        from edgelite.nn import bias_add
        if inputs.shape.with_rank(2)[1].value is None:
            raise ValueError(f"Could not infer input size from inputs.get_shape()[-1].Received input shape: "
                             f"{inputs.shape}")
        sigmoid = math_ops.sigmoid
        c_prev, m_prev = _split_state(self, state, self._num_units, self._output_size)
        lstm_matrix = bias_add(math_ops.matmul(array_ops.concat([inputs, m_prev], 1), _as_tensor(self._kernel)),
                               self._bias)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev +
                 sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, _as_tensor(self._proj_kernel))
            if self._proj_clip is not None:
                m = math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        return m, _join_state(self, c, m)


def _as_tensor(var: Any) -> Any:
    """A variable, or the concatenated shards of a partitioned one."""
    if isinstance(var, variables.PartitionedVariable):
        return array_ops.concat(list(var), 0)
    return var


class MultiRNNCell(RNNCell):
    """Cells stacked in order; cell i runs in variable scope cell_i and its state is the i-th entry."""

    def __init__(self, cells: list, state_is_tuple: bool = True) -> None:
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError(f"cells must be a list or tuple, but received: {cells}.")
        self._cells = cells
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. State "
                             f"sizes are: {[c.state_size for c in cells]}")

    @property
    def state_size(self) -> Any:
        """A tuple of the cells' state sizes (or their sum for a concatenated state)."""
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    @property
    def output_size(self) -> Any:
        """The last cell's output size."""
        return self._cells[-1].output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """The cells' zero states."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return super().zero_state(batch_size, dtype)

    @property
    def trainable_weights(self) -> list:
        """The cells' trainable variables."""
        if not self.trainable:
            return []
        return [w for cell in self._cells for w in getattr(cell, "trainable_weights", [])]

    @property
    def non_trainable_weights(self) -> list:
        """The cells' non-trainable variables (all of them when frozen)."""
        weights = [w for cell in self._cells for w in getattr(cell, "non_trainable_weights", [])]
        if not self.trainable:
            return [w for cell in self._cells for w in getattr(cell, "trainable_weights", [])] + weights
        return weights

    def call(self, inputs: Any, state: Any) -> Any:
        """Run the cells in turn, each on the previous one's output."""
        position = 0
        cur_inp = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with vs.variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError(f"Expected state to be a tuple of length {len(self.state_size)}, but "
                                         f"received: {state}")
                    cur_state = state[i]
                else:
                    cur_state = array_ops.slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                cur_inp, new_state = cell(cur_inp, cur_state)
                new_states.append(new_state)
        return cur_inp, (tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1))
