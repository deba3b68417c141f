"""Full-integer UNIDIRECTIONAL_SEQUENCE_LSTM as TensorFlow's quantizer writes it (TFLite's 8x8->16 kernel).

Input, output and output state are int8 (the output state shares the output's parameters); the eight
weight matrices and the projection symmetric per-tensor int8, the peephole diagonals symmetric int16;
each gate bias int32 at input scale x that gate's input-weight scale; the cell state int16 with a
power-of-two scale covering the calibrated cell values (2^pot / 32768 with the smallest pot in [0, 10]
whose 2^pot reaches max|c|). Five intermediate tensors follow TF's layout: without layer normalisation
the four gate intermediates are empty float tensors (the kernel uses Q3.12 gates); the effective hidden
one is o * tanh(c) before the projection: asymmetric int8 over its calibrated range when there is a
projection, the output's parameters otherwise (the two are the same values). Clips stay float options
(the kernel quantizes them).

The cell state's range is calibrated as TF's calibrator does it: the state variable's value after each
representative sample (the float recurrence carrying its state from one sample to the next), i.e. the
final cell states, not every time step's.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from edgelite.lite import ir, lstm_calibration, quant_math, schema
from edgelite.lite.ir import QuantParams

CODE = "UNIDIRECTIONAL_SEQUENCE_LSTM"
_INPUT_W, _RECURRENT_W, _BIAS = (1, 2, 3, 4), (5, 6, 7, 8), (12, 13, 14, 15)  # gates i, f, c, o
_PEEPHOLES, _PROJECTION = (9, 10, 11), 16
_ABSENT = (17, 20, 21, 22, 23)  # projection bias and layer norm: an rnn_cell LSTM has none
_OUTPUT_STATE, _CELL_STATE = 18, 19
INTERMEDIATES = ("input_to_input_intermediate", "input_to_forget_intermediate", "input_to_cell_intermediate",
                 "input_to_output_intermediate")
EFFECTIVE_HIDDEN = "effective_hidden_scale_intermediate"
_MAX_POT = 10


def integer_ready(op: ir.Op, has_range: Callable = lambda key: True) -> bool:
    """A float LSTM with an 8x8->16 integer form: constant weights (peepholes and projection optional), no
    projection bias or layer norm, tanh activation; a projected one needs its calibrated hidden range
    (`has_range(lstm_calibration.hidden_key(op))`)."""
    if op.code != CODE or op.inputs[0].dtype != np.float32 or len(op.inputs) != 24:
        return False
    if any(op.inputs[i] is not None for i in _ABSENT):
        return False
    optional = [i for i in _PEEPHOLES + (_PROJECTION,) if op.inputs[i] is not None]
    consts = [op.inputs[i] for i in _INPUT_W + _RECURRENT_W + _BIAS + tuple(optional)]
    if op.inputs[_PROJECTION] is not None and not has_range(lstm_calibration.hidden_key(op)):
        return False
    return (all(t is not None and t.is_const and t.dtype == np.float32 for t in consts)
            and op.option("fused_activation_function") == schema.ACTIVATIONS["TANH"])


def cell_state_params(rmin: float, rmax: float) -> QuantParams:
    """int16 power-of-two scale 2^pot / 32768 for the smallest pot (at most 10) with 2^pot >= max|c|."""
    extent = max(abs(rmin), abs(rmax))
    pot = 0
    while pot < _MAX_POT and 2.0 ** pot < extent:
        pot += 1
    return QuantParams.per_tensor(2.0 ** pot / 32768.0, 0)


def _int16_diagonal(w: ir.Tensor) -> ir.Tensor:
    """A peephole diagonal as symmetric int16: scale max|w| / 32767, values in [-32767, 32767]."""
    extent = float(np.abs(w.data).max()) if w.data.size else 0.0
    q = QuantParams.per_tensor(extent / 32767.0 if extent > 0 else 1.0, 0)
    data = np.clip(quant_math.quantize_array(w.data, q, "int32"), -32767, 32767).astype(np.int16)
    return ir.Tensor(w.name, w.shape, np.int16, data=data, quant=q)


def rewrite(rw: Any, op: ir.Op, ranges: dict) -> None:
    """Give an integer-ready LSTM its int8/int16/int32 operands, state and intermediates (rw: the quantize
    pass's rewriter, for the input conversion and the output's parameters)."""
    inputs = list(op.inputs)
    x = rw.as_quant(inputs[0])
    inputs[0] = x
    out = op.outputs[0]
    out_q = rw.s.params(out)
    weight_scales = {}
    for i in _INPUT_W + _RECURRENT_W:
        w = inputs[i]
        data, q = quant_math.symmetric_weights(w.data, None)
        inputs[i] = ir.Tensor(w.name, w.shape, np.int8, data=data, quant=q)
        weight_scales[i] = q.scale
    for i in _PEEPHOLES:
        if inputs[i] is not None:
            inputs[i] = _int16_diagonal(inputs[i])
    if inputs[_PROJECTION] is not None:
        w = inputs[_PROJECTION]
        data, q = quant_math.symmetric_weights(w.data, None)
        inputs[_PROJECTION] = ir.Tensor(w.name, w.shape, np.int8, data=data, quant=q)
    for gate_w, i in zip(_INPUT_W, _BIAS):
        b = inputs[i]
        data, q = quant_math.bias(b.data, float(x.quant.scale[0]), weight_scales[gate_w], "int32")
        inputs[i] = ir.Tensor(b.name, b.shape, np.int32, data=data, quant=q)
    h, c = inputs[_OUTPUT_STATE], inputs[_CELL_STATE]
    inputs[_OUTPUT_STATE] = ir.Tensor(h.name, h.shape, np.int8, quant=out_q, is_variable=True)
    inputs[_CELL_STATE] = ir.Tensor(c.name, c.shape, np.int16, quant=cell_state_params(*ranges[id(c)]),
                                    is_variable=True)
    out.dtype, out.quant = np.dtype(np.int8), out_q
    op.inputs = inputs
    hidden_q = (quant_math.asymmetric(*ranges[lstm_calibration.hidden_key(op)], "int8")
                if inputs[_PROJECTION] is not None else out_q)
    op.intermediates = ([ir.Tensor(name, (0,), np.float32) for name in INTERMEDIATES]
                        + [ir.Tensor(EFFECTIVE_HIDDEN, (0,), np.int8, quant=hidden_q)])
    rw.ops.append(op)
