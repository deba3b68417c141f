"""tf.nn.dynamic_rnn, static_rnn, bidirectional and state-saving variants, raw_rnn (TF1 semantics).

dynamic_rnn runs the cell in a while_loop over a TensorArray of time steps, like TensorFlow, so its
gradient is the while_loop gradient. Past an entry's sequence_length the output is zero and the state
is carried through unchanged, so the final state is the state at each entry's last valid step.
"""
from __future__ import annotations

from typing import Any, Optional

from edgelite import nest
from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import array_ops, control_flow_ops, math_ops
from edgelite.ops import variable_scope as vs
from edgelite.ops.reverse_sequence_op import reverse_sequence
from edgelite.ops.tensor_array_ops import TensorArray

from .rnn_cell_impl import BasicLSTMCell, LSTMCell, MultiRNNCell, assert_like_rnncell, batched_zeros, size_shape


def _transpose_batch_time(x: ops.Tensor) -> ops.Tensor:
    """Swap the first two axes (batch-major <-> time-major), keeping the static shape."""
    static = x.shape
    if static.ndims is not None and static.ndims < 2:
        return x
    perm = array_ops.concat([[1, 0], math_ops.range(2, array_ops.rank(x))], axis=0)
    out = array_ops.transpose(x, perm)
    if static.ndims is not None:
        out.set_shape(tensor_shape.TensorShape([static.dims[1].value, static.dims[0].value]).concatenate(static[2:]))
    return out


def _best_effort_batch_size(flat_input: list) -> Any:
    """The static batch size (axis 1 of time-major inputs) if known, else a tensor."""
    for x in flat_input:
        shape = x.shape
        if shape.ndims is None:
            continue
        if shape.ndims < 2:
            raise ValueError(f"Input tensor should have rank >= 2. Received input={x} of rank {shape.ndims}")
        if shape.dims[1].value is not None:
            return shape.dims[1].value
    return array_ops.shape(flat_input[0])[1]


def _infer_state_dtype(explicit: Any, state: Any) -> Any:
    if explicit is not None:
        return explicit
    if nest.is_nested(state):
        found = [s.dtype for s in nest.flatten(state)]
        if not found:
            raise ValueError(f"Unable to infer dtype from argument state={state}.")
        if any(d != found[0] for d in found):
            raise ValueError(f"Argument state={state} has tensors of different inferred dtypes. Unable to infer a "
                             f"single representative dtype. Dtypes received: {found}")
        return found[0]
    return state.dtype


def _initial_state(cell: Any, initial_state: Any, dtype: Any, batch_size: Any) -> Any:
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
    if getattr(cell, "get_initial_state", None) is not None:
        return cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def _copy_through(done: Any, old: Any, new: Any) -> Any:
    """new where the entry is still running, old where done (rows of a [batch, ...] tensor)."""
    if isinstance(old, TensorArray) or old.shape.ndims == 0:
        return new
    out = array_ops.where(done, old, new)
    out.set_shape(old.shape)
    return out


def _masked_step(time: Any, sequence_length: Any, zero_output: Any, state: Any, output: Any,
                 new_state: Any) -> tuple:
    """Zero output and unchanged state for entries whose sequence has ended (time >= length)."""
    nest.assert_same_structure(zero_output, output)
    nest.assert_same_structure(state, new_state)
    done = math_ops.greater_equal(time, sequence_length)
    flat_out = [_copy_through(done, z, o) for z, o in zip(nest.flatten(zero_output), nest.flatten(output))]
    flat_state = [_copy_through(done, s, n) for s, n in zip(nest.flatten(state), nest.flatten(new_state))]
    return (nest.pack_sequence_as(zero_output, flat_out), nest.pack_sequence_as(state, flat_state))


def _check_sequence_length(sequence_length: Any) -> ops.Tensor:
    sequence_length = math_ops.cast(sequence_length, dtypes.int32)
    if sequence_length.shape.ndims not in (None, 1):
        raise ValueError("Argument sequence_length must be a vector of length batch_size. Received "
                         f"sequence_length={sequence_length} of shape: {sequence_length.shape}")
    return array_ops.identity(sequence_length, name="sequence_length")


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: Any = None, initial_state: Any = None, dtype: Any = None,
                parallel_iterations: Optional[int] = None, swap_memory: bool = False, time_major: bool = False,
                scope: Any = None) -> tuple:
    """(outputs, final_state) of cell unrolled over the time axis of inputs in a while_loop."""
    assert_like_rnncell("cell", cell)
    with vs.variable_scope(scope or "rnn"):
        flat_input = [ops.convert_to_tensor(x) for x in nest.flatten(inputs)]
        if not time_major:
            flat_input = [_transpose_batch_time(x) for x in flat_input]
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = _check_sequence_length(sequence_length)
        batch_size = _best_effort_batch_size(flat_input)
        state = _initial_state(cell, initial_state, dtype, batch_size)
        inputs = nest.pack_sequence_as(inputs, flat_input)
        outputs, final_state = _dynamic_rnn_loop(cell, inputs, state, parallel_iterations, sequence_length, dtype,
                                                 zero_start=initial_state is None)
        if not time_major:
            outputs = nest.map_structure(_transpose_batch_time, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell: Any, inputs: Any, initial_state: Any, parallel_iterations: int,
                      sequence_length: Any, dtype: Any, zero_start: bool = False) -> tuple:
    state = initial_state
    flat_input = nest.flatten(inputs)
    flat_output_size = nest.flatten(cell.output_size)
    time_steps = array_ops.shape(flat_input[0])[0]
    batch_size = _best_effort_batch_size(flat_input)
    got_shapes = [x.shape.with_rank_at_least(3) for x in flat_input]
    const_time_steps, const_batch_size = got_shapes[0].as_list()[:2]
    for x, shape in zip(flat_input, got_shapes):
        if not shape[2:].is_fully_defined():
            raise ValueError("Input size (depth of inputs) must be accessible via shape inference, but saw value "
                             f"None for input={x}.")
        if shape.dims[0].value != const_time_steps:
            raise ValueError("Time steps is not the same for all the elements in the input in a batch. Received "
                             f"time steps={shape.dims[0].value} for input={x}.")
        if shape.dims[1].value != const_batch_size:
            raise ValueError("Batch_size is not the same for all the elements in the input. Received batch "
                             f"size={shape.dims[1].value} for input={x}.")
    out_dtype = _infer_state_dtype(dtype, state)
    zero_output = nest.pack_sequence_as(
        cell.output_size, [batched_zeros(batch_size, s, out_dtype) for s in flat_output_size])
    if sequence_length is not None:
        max_sequence_length = math_ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = ops.convert_to_tensor(0, dtypes.int32, name="time")
    with ops.name_scope("dynamic_rnn") as base_name:
        pass
    output_ta = tuple(
        TensorArray(dtype=out_dtype, size=time_steps, tensor_array_name=base_name + f"output_{i}",
                    element_shape=tensor_shape.TensorShape([const_batch_size]).concatenate(size_shape(size)))
        for i, size in enumerate(flat_output_size))
    input_ta = tuple(
        TensorArray(dtype=x.dtype, size=time_steps, element_shape=x.shape[1:],
                    tensor_array_name=base_name + f"input_{i}").unstack(x)
        for i, x in enumerate(flat_input))

    def _time_step(time: Any, output_ta_t: tuple, state: Any) -> tuple:
        input_t = tuple(ta.read(time) for ta in input_ta)
        for x, shape in zip(input_t, got_shapes):
            x.set_shape(shape[1:])
        input_t = nest.pack_sequence_as(inputs, list(input_t))
        output, new_state = cell(input_t, state)
        if sequence_length is not None:
            output, new_state = _masked_step(time, sequence_length, zero_output, state, output, new_state)
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, nest.flatten(output)))
        return time + 1, output_ta_t, new_state

    loop_bound = math_ops.minimum(time_steps, math_ops.maximum(1, max_sequence_length))
    _, final_ta, final_state = control_flow_ops.while_loop(
        cond=lambda time, *_: time < loop_bound, body=_time_step, loop_vars=(time, output_ta, state),
        parallel_iterations=parallel_iterations, maximum_iterations=time_steps)
    if sequence_length is None and len(flat_input) == 1:
        spec = _fusable_lstm(cell, flat_input[0], state)
        if spec is not None:
            spec["zero_start"] = zero_start
            final_ta[0].flow.op._fused_lstm = spec
    final_outputs = []
    for ta, size in zip(final_ta, flat_output_size):
        out = ta.stack()
        out.set_shape(tensor_shape.TensorShape([const_time_steps, const_batch_size]).concatenate(size_shape(size)))
        final_outputs.append(out)
    return nest.pack_sequence_as(cell.output_size, final_outputs), final_state


def _fusable_lstm(cell: Any, time_major_input: ops.Tensor, state: Any) -> Optional[dict]:
    """What the converter needs to write this loop as UNIDIRECTIONAL_SEQUENCE_LSTM ops (one per layer), or None.

    Plain LSTM cells with a tuple state and tanh qualify, alone or stacked in a MultiRNNCell; the
    converter still checks that the weights are constant and the initial state is zero.
    """
    if type(cell) is MultiRNNCell and cell._state_is_tuple:
        layers = [_lstm_layer(c, s) for c, s in zip(cell._cells, state)]
    else:
        layers = [_lstm_layer(cell, state)]
    if any(layer is None for layer in layers):
        return None
    return {"input": time_major_input, "layers": layers}


def _lstm_layer(cell: Any, state: Any) -> Optional[dict]:
    if type(cell) not in (BasicLSTMCell, LSTMCell) or not cell._state_is_tuple or not cell.built:
        return None
    if cell._activation is not math_ops.tanh:
        return None
    layer = {"initial_state": (state[0], state[1]), "kernel": cell._kernel, "bias": cell._bias,
             "forget_bias": float(cell._forget_bias), "peepholes": None, "projection": None, "cell_clip": 0.0,
             "proj_clip": 0.0}
    if isinstance(cell, LSTMCell):
        if cell._num_unit_shards is not None or cell._num_proj_shards is not None:
            return None
        if any(clip is not None and clip <= 0 for clip in (cell._cell_clip, cell._proj_clip)):
            return None  # TFLite reads a clip of 0 as "no clipping"
        if cell._use_peepholes:
            layer["peepholes"] = (cell._w_i_diag, cell._w_f_diag, cell._w_o_diag)
        if cell._num_proj is not None:
            layer["projection"] = cell._proj_kernel
            layer["proj_clip"] = float(cell._proj_clip or 0.0)
        layer["cell_clip"] = float(cell._cell_clip or 0.0)
    return layer


def static_rnn(cell: Any, inputs: Any, initial_state: Any = None, dtype: Any = None, sequence_length: Any = None,
               scope: Any = None) -> tuple:
    """(outputs list, final_state) of cell applied to each input of a Python list in turn."""
    assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    outputs = []
    with vs.variable_scope(scope or "rnn") as varscope:
        first = inputs
        while nest.is_nested(first):
            first = first[0]
        first = ops.convert_to_tensor(first)
        if first.shape.ndims != 1:
            fixed_batch = first.shape.with_rank_at_least(2).dims[0]
            for x in nest.flatten(inputs):
                shape = ops.convert_to_tensor(x).shape.with_rank_at_least(2)
                fixed_batch.assert_is_compatible_with(shape.dims[0])
                for i, size in enumerate(shape[1:].dims):
                    if size.value is None:
                        raise ValueError(f"Input size (dimension {i} of input {x}) must be accessible via shape "
                                         "inference, but saw value None.")
        else:
            fixed_batch = first.shape.with_rank_at_least(1).dims[0]
        batch_size = fixed_batch.value if fixed_batch.value else array_ops.shape(first)[0]
        state = _initial_state(cell, initial_state, dtype, batch_size)
        if sequence_length is not None:
            sequence_length = ops.convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError(f"Argument `sequence_length` must be a vector of length {batch_size}. Received "
                                 f"sequence_length={sequence_length}.")
            out_dtype = _infer_state_dtype(dtype, state)
            zero_output = nest.pack_sequence_as(
                cell.output_size, [batched_zeros(batch_size, s, out_dtype) for s in nest.flatten(cell.output_size)])
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            output, new_state = cell(input_, state)
            if sequence_length is not None:
                output, new_state = _masked_step(time, sequence_length, zero_output, state, output, new_state)
            state = new_state
            outputs.append(output)
        return outputs, state


def static_state_saving_rnn(cell: Any, inputs: Any, state_saver: Any, state_name: Any, sequence_length: Any = None,
                            scope: Any = None) -> tuple:
    """static_rnn starting from state_saver.state(name) and saving the final state back with save_state."""
    state_size = cell.state_size
    state_is_tuple = nest.is_nested(state_size)
    if state_is_tuple != nest.is_nested(state_name):
        raise ValueError("Argument `state_name` should be the same type as `cell.state_size`. Received: "
                         f"state_name={state_name!s}, cell.state_size={state_size!s}.")
    if state_is_tuple:
        names = nest.flatten(state_name)
        sizes = nest.flatten(state_size)
        if len(names) != len(sizes):
            raise ValueError("Number of elements in argument `state_name` and `cell.state_size` are mismatched. "
                             f"Received state_name={state_name} with {len(names)} elements and "
                             f"cell.state_size={cell.state_size} with {len(sizes)} elements.")
        initial_state = nest.pack_sequence_as(state_size, [state_saver.state(s) for s in names])
    else:
        initial_state = state_saver.state(state_name)
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state, sequence_length=sequence_length,
                                scope=scope)
    if state_is_tuple:
        flat_state = nest.flatten(state)
        saves = [state_saver.save_state(n, s) for n, s in zip(nest.flatten(state_name), flat_state)]
    else:
        saves = [state_saver.save_state(state_name, state)]
    with ops.control_dependencies(saves):
        last = outputs[-1]
        outputs[-1] = nest.pack_sequence_as(last, [array_ops.identity(o) for o in nest.flatten(last)])
        if state_is_tuple:
            state = nest.pack_sequence_as(state, [array_ops.identity(s) for s in flat_state])
        else:
            state = array_ops.identity(state)
    return outputs, state


def _reverse(x: Any, lengths: Any, seq_axis: int, batch_axis: int) -> Any:
    if lengths is not None:
        return reverse_sequence(x, lengths, seq_axis=seq_axis, batch_axis=batch_axis)
    return array_ops.reverse(x, axis=[seq_axis])


def bidirectional_dynamic_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, sequence_length: Any = None,
                              initial_state_fw: Any = None, initial_state_bw: Any = None, dtype: Any = None,
                              parallel_iterations: Optional[int] = None, swap_memory: bool = False,
                              time_major: bool = False, scope: Any = None) -> tuple:
    """((output_fw, output_bw), (state_fw, state_bw)): dynamic_rnn forwards and over the reversed sequences."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw, dtype,
                                              parallel_iterations, swap_memory, time_major, scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_inputs = nest.map_structure(
                lambda x: _reverse(x, sequence_length, time_axis, batch_axis), inputs)
            tmp, state_bw = dynamic_rnn(cell_bw, reversed_inputs, sequence_length, initial_state_bw, dtype,
                                        parallel_iterations, swap_memory, time_major, scope=bw_scope)
    output_bw = _reverse(tmp, sequence_length, time_axis, batch_axis)
    return (output_fw, output_bw), (state_fw, state_bw)


def _reverse_seq(input_seq: list, lengths: Any) -> list:
    """A list of time steps reversed, per entry only over its first lengths[b] steps."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_steps = [nest.flatten(x) for x in input_seq]
    flat_results: list = [[] for _ in input_seq]
    for sequence in zip(*flat_steps):
        shape = tensor_shape.unknown_shape(rank=sequence[0].shape.ndims)
        for x in sequence:
            shape = shape.merge_with(x.shape)
        reversed_steps = array_ops.unstack(reverse_sequence(array_ops.stack(list(sequence)), lengths, 0, 1))
        for r, result in zip(reversed_steps, flat_results):
            r.set_shape(shape)
            result.append(r)
    return [nest.pack_sequence_as(x, r) for x, r in zip(input_seq, flat_results)]


def static_bidirectional_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, initial_state_fw: Any = None,
                             initial_state_bw: Any = None, dtype: Any = None, sequence_length: Any = None,
                             scope: Any = None) -> tuple:
    """(outputs, state_fw, state_bw): each output is [fw, bw] concatenated along the depth axis."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    inputs = [nest.map_structure(ops.convert_to_tensor, x) for x in inputs]
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                             scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            tmp, state_bw = static_rnn(cell_bw, _reverse_seq(inputs, sequence_length), initial_state_bw, dtype,
                                       sequence_length, scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat = [array_ops.concat([fw, bw], 1) for fw, bw in zip(nest.flatten(output_fw), nest.flatten(output_bw))]
    return nest.pack_sequence_as(output_fw, flat), state_fw, state_bw


def raw_rnn(cell: Any, loop_fn: Any, parallel_iterations: Optional[int] = None, swap_memory: bool = False,
            scope: Any = None) -> tuple:
    """(emit_ta, final_state, final_loop_state): a while_loop whose inputs and stopping come from loop_fn."""
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    parallel_iterations = parallel_iterations or 32
    with vs.variable_scope(scope or "rnn"):
        time = ops.convert_to_tensor(0, dtypes.int32)
        elements_finished, next_input, initial_state, emit_structure, init_loop_state = loop_fn(time, None, None, None)
        flat_input = [ops.convert_to_tensor(x) for x in nest.flatten(next_input)]
        next_input = nest.pack_sequence_as(next_input, flat_input)
        loop_state = init_loop_state if init_loop_state is not None else ops.convert_to_tensor(0, dtypes.int32)
        static_batch = tensor_shape.Dimension(None)
        for x in flat_input:
            static_batch = static_batch.merge_with(x.shape.with_rank_at_least(1).dims[0])
        const_batch = static_batch.value
        batch_size = const_batch if const_batch is not None else array_ops.shape(flat_input[0])[0]
        nest.assert_same_structure(initial_state, cell.state_size)
        state = nest.map_structure(ops.convert_to_tensor, initial_state)
        flat_state = nest.flatten(state)
        if emit_structure is not None:
            flat_emit = nest.flatten(emit_structure)
            emit_sizes = [e.shape if e.shape.is_fully_defined() else array_ops.shape(e) for e in flat_emit]
            emit_dtypes = [e.dtype for e in flat_emit]
        else:
            emit_structure = cell.output_size
            emit_sizes = nest.flatten(emit_structure)
            emit_dtypes = [flat_state[0].dtype] * len(emit_sizes)
        emit_ta = nest.pack_sequence_as(emit_structure, [
            TensorArray(dtype=dt, dynamic_size=True, size=0, name=f"rnn_output_{i}",
                        element_shape=tensor_shape.TensorShape([const_batch]).concatenate(
                            size_shape(size) if not isinstance(size, ops.Tensor) else tensor_shape.unknown_shape()))
            for i, (dt, size) in enumerate(zip(emit_dtypes, emit_sizes))])
        zero_emit = nest.pack_sequence_as(emit_structure, [
            _zeros_like_size(batch_size, size, dt) for size, dt in zip(emit_sizes, emit_dtypes)])

        def condition(unused_time: Any, finished: Any, *_: Any) -> Any:
            return math_ops.logical_not(math_ops.reduce_all(finished))

        def body(time: Any, finished: Any, current_input: Any, emit_ta: Any, state: Any, loop_state: Any) -> tuple:
            next_output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            nest.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            next_finished, next_in, next_state, emit_output, next_loop_state = loop_fn(
                next_time, next_output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            nest.assert_same_structure(current_input, next_in)
            nest.assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state
            emit_output = nest.map_structure(lambda z, e: _copy_through(finished, z, e), zero_emit, emit_output)
            next_state = nest.map_structure(lambda s, n: _copy_through(finished, s, n), state, next_state)
            emit_ta = nest.map_structure(lambda ta, e: ta.write(time, e), emit_ta, emit_output)
            finished = math_ops.logical_or(finished, next_finished)
            return next_time, finished, next_in, emit_ta, next_state, loop_state

        returned = control_flow_ops.while_loop(
            condition, body, loop_vars=[time, elements_finished, next_input, emit_ta, state, loop_state],
            parallel_iterations=parallel_iterations, swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state


def _zeros_like_size(batch_size: Any, size: Any, dtype: Any) -> ops.Tensor:
    if isinstance(size, ops.Tensor):
        batch = array_ops.reshape(ops.convert_to_tensor(batch_size, dtypes.int32), [1])
        return array_ops.zeros(array_ops.concat([batch, size], 0), dtype)
    return batched_zeros(batch_size, size, dtype)
