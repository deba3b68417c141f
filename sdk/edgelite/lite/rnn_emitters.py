"""dynamic_rnn loops of LSTM cells as TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM.

dynamic_rnn marks its While op with `_fused_lstm` (the cell's variables, forget bias, clips and the
time-major input) when the cell is a plain BasicLSTMCell/LSTMCell. The While's output list becomes the
fused op's time-major output, its final h the last step of that output (a loop whose final c is fetched
stays a WHILE). TF's gate order i, j, f, o
maps to TFLite's input, cell, forget, output weights ([units, depth], i.e. transposed); forget_bias is
folded into the forget-gate bias. The state tensors are TFLite variables, starting at zero.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.lite import schema
from edgelite.lite.op_emitters import emitter
from edgelite.lite.while_emitters import emit_while


def _value(b: Any, var: Any) -> Optional[np.ndarray]:
    return None if var is None else b.const_of(var.value())


def _lstm_operands(b: Any, spec: dict, depth: int, name: str) -> Optional[list]:
    """The 16 weight/bias operands (inputs 1-17 minus the state) or None if a weight is not constant."""
    kernel, bias = _value(b, spec["kernel"]), _value(b, spec["bias"])
    if kernel is None or bias is None:
        return None
    units = bias.shape[0] // 4
    i, j, f, o = (slice(k * units, (k + 1) * units) for k in range(4))
    gates = (i, f, j, o)  # TFLite's input, forget, cell, output order
    w_in = [b.const(kernel[:depth, g].T, f"{name}/input_to_{n}_weights")
            for g, n in zip(gates, ("input", "forget", "cell", "output"))]
    w_rec = [b.const(kernel[depth:, g].T, f"{name}/recurrent_to_{n}_weights")
             for g, n in zip(gates, ("input", "forget", "cell", "output"))]
    biases = [bias[i], bias[f] + np.float32(spec["forget_bias"]), bias[j], bias[o]]
    gate_bias = [b.const(v.astype(np.float32), f"{name}/{n}_gate_bias")
                 for v, n in zip(biases, ("input", "forget", "cell", "output"))]
    peep: list = [None, None, None]
    if spec["peepholes"] is not None:
        values = [_value(b, v) for v in spec["peepholes"]]
        if any(v is None for v in values):
            return None
        peep = [b.const(v, f"{name}/cell_to_{n}_weights") for v, n in zip(values, ("input", "forget", "output"))]
    projection = None
    if spec["projection"] is not None:
        p = _value(b, spec["projection"])
        if p is None:
            return None
        projection = b.const(p.T, f"{name}/projection_weights")
    return w_in + w_rec + peep + gate_bias + [projection, None]


def _is_zero(b: Any, t: Any) -> bool:
    v = b.const_of(t)
    return v is not None and not np.any(v)


@emitter("StatelessWhile", "While")
def _while(b: Any, op: Any) -> None:
    spec = getattr(op, "_fused_lstm", None)
    layers = _fused_layers(b, op, spec) if spec is not None and not _cell_state_fetched(b, op, spec) else None
    if layers is None:
        emit_while(b, op)  # TF's form for every loop it does not fuse
        return
    x = b.value(spec["input"])
    steps, batch, _ = x.shape
    batch = 1 if batch < 0 else batch  # the state variables take the batch size the model is written with
    outputs = []
    for k, (layer, operands) in enumerate(zip(spec["layers"], layers)):
        name = op.name if len(spec["layers"]) == 1 else f"{op.name}/layer_{k}"
        last = k == len(spec["layers"]) - 1
        x = _emit_lstm(b, op, layer, x, operands, steps, batch, name, op.outputs[1] if last else None)
        outputs.append(x)
    for k, out in enumerate(outputs):
        b.defer(op.outputs[3 + 2 * k], lambda k=k, out=out: _last_step(b, op, op.outputs[3 + 2 * k], out))


def _cell_state_fetched(b: Any, op: Any, spec: dict) -> bool:
    """Whether a model output reads a layer's final cell state: the fused op keeps c in a variable tensor
    it does not output, so such a loop stays a WHILE (TF's form for every rnn_cell loop)."""
    return any(b.feeds_an_output(op.outputs[2 + 2 * k]) for k in range(len(spec["layers"])))


def _fused_layers(b: Any, op: Any, spec: dict) -> Optional[list]:
    """Each layer's fused-op operands, or None when the loop cannot fuse (a non-zero initial state, weights
    computed on the device)."""
    if not (spec.get("zero_start") or all(_is_zero(b, s) for layer in spec["layers"] for s in layer["initial_state"])):
        return None
    depth = b.value(spec["input"]).shape[2]
    layers = []
    for k, layer in enumerate(spec["layers"]):
        operands = _lstm_operands(b, layer, depth, op.name if len(spec["layers"]) == 1 else f"{op.name}/layer_{k}")
        if operands is None:
            return None
        layers.append(operands)
        depth = (operands[15] if operands[15] is not None else operands[0]).shape[0]
    return layers


def _emit_lstm(b: Any, op: Any, layer: dict, x: Any, operands: list, steps: int, batch: int, name: str,
               sdk_output: Any) -> Any:
    """One time-major UNIDIRECTIONAL_SEQUENCE_LSTM with zero-started variable state; its output tensor."""
    projection = operands[15]
    units = operands[0].shape[0]
    out_units = projection.shape[0] if projection is not None else units
    h_state = b.new_tensor(f"{name}/output_state", (batch, out_units), np.float32)
    c_state = b.new_tensor(f"{name}/cell_state", (batch, units), np.float32)
    h_state.is_variable = c_state.is_variable = True
    shape = (steps, batch, out_units)
    out = (b.output(sdk_output, shape=shape, dtype=np.float32) if sdk_output is not None
           else b.new_tensor(f"{name}/output", shape, np.float32))
    b.emit("UNIDIRECTIONAL_SEQUENCE_LSTM", [x] + operands + [h_state, c_state, None, None, None, None], [out],
           ("UnidirectionalSequenceLSTMOptions",
            {"fused_activation_function": schema.ACTIVATIONS["TANH"], "cell_clip": layer["cell_clip"],
             "proj_clip": layer["proj_clip"], "time_major": True}), op.type)
    return out


def _last_step(b: Any, op: Any, sdk_h: Any, out: Any) -> Any:
    """A final h: the layer's fused output at the last time step."""
    steps, batch, units = out.shape
    h = b.output(sdk_h, shape=(batch, units), dtype=np.float32)
    b.emit("STRIDED_SLICE", [out, b.const(np.array([-1, 0, 0], np.int32), f"{op.name}/last/begin"),
                             b.const(np.array([0, 0, 0], np.int32), f"{op.name}/last/end"),
                             b.const(np.array([1, 1, 1], np.int32), f"{op.name}/last/strides")], [h],
           ("StridedSliceOptions", {"begin_mask": 0, "end_mask": 6, "shrink_axis_mask": 1}), "StridedSlice")
    return h


@emitter("TensorListStack")
def _tensor_list_stack(b: Any, op: Any) -> None:
    """A TensorList is carried as its stacked tensor (a loop's output, or the fused LSTM's)."""
    b.alias(op.outputs[0], b.value(op.inputs[0]))


@emitter("ReverseV2")
def _reverse_v2(b: Any, op: Any) -> None:
    """REVERSE_V2 (bidirectional_dynamic_rnn reverses the backward cell's inputs and outputs with it)."""
    axis = b.const_of(op.inputs[1])
    if axis is None:
        b.unsupported_op(op, "the axis must be constant")
        return
    rank = len(op.inputs[0].shape)
    axis = np.array([int(a) + rank if int(a) < 0 else int(a) for a in np.ravel(axis)], np.int32)
    b.emit("REVERSE_V2", [b.value(op.inputs[0]), b.const(axis, op.name + "/axis")], [b.output(op.outputs[0])],
           ("ReverseV2Options", {}), op.type)


@emitter("ReverseSequence")
def _reverse_sequence(b: Any, op: Any) -> None:
    """REVERSE_SEQUENCE (the bidirectional RNNs reverse variable-length sequences with it)."""
    dims = {"seq_dim": int(op.get_attr("seq_dim")), "batch_dim": int(op.get_attr("batch_dim"))}
    b.emit("REVERSE_SEQUENCE", [b.value(op.inputs[0]), b.value(op.inputs[1])], [b.output(op.outputs[0])],
           ("ReverseSequenceOptions", dims), op.type)
