"""Random recurrent single-op models (LSTM, RNN, SVDF in float and int8) for the differential
tests. Each builder takes a numpy Generator and returns (model bytes, input shape, input dtype);
the state tensors are variable tensors, so successive invokes see the previous state."""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from support.tflite_builder import ModelBuilder, Quant, options

F32 = np.float32


def _w(rng: np.random.Generator, shape, scale: float = 0.5) -> np.ndarray:
    return rng.uniform(-scale, scale, size=shape).astype(F32)


def lstm_float(rng: np.random.Generator, *, cifg: bool = False, peephole: bool = False,
               projection: bool = False, layer_norm: bool = False, time_major: bool = False,
               batch: int = 2, time: int = 3, n_input: int = 5, n_cell: int = 4,
               cell_clip: float = 0.0, proj_clip: float = 0.0, sequence: bool = True,
               hybrid: bool = False, asymmetric: bool = False) -> Tuple[bytes, List[int], type]:
    """A float UNIDIRECTIONAL_SEQUENCE_LSTM (or LSTM when sequence is False); hybrid: int8
    weights (input, recurrent, peephole, projection)."""
    n_output = 3 if projection else n_cell
    mb = ModelBuilder()
    g = mb.subgraph("main")
    if sequence:
        in_shape = [time, batch, n_input] if time_major else [batch, time, n_input]
        out_shape = in_shape[:2] + [n_output]
    else:
        in_shape, out_shape = [batch, n_input], [batch, n_output]
    x = g.tensor(in_shape, F32, name="x")

    def const(shape, name, scale=0.5):
        return g.tensor(shape, F32, name=name, data=_w(rng, shape, scale))

    def weight(shape, name):
        return _weights(g, rng, shape, name, hybrid)

    ops = [x]
    for gate in "ifco":
        ops.append(-1 if (cifg and gate == "i") else weight([n_cell, n_input], f"w_x_{gate}"))
    for gate in "ifco":
        ops.append(-1 if (cifg and gate == "i") else weight([n_cell, n_output], f"w_h_{gate}"))
    for gate in "ifo":
        ops.append(weight([n_cell], f"w_c_{gate}") if peephole and not (cifg and gate == "i") else -1)
    for gate in "ifco":
        ops.append(-1 if (cifg and gate == "i") else const([n_cell], f"b_{gate}", 1.0))
    ops.append(weight([n_output, n_cell], "w_proj") if projection else -1)
    ops.append(const([n_output], "b_proj") if projection else -1)
    ops.append(g.tensor([batch, n_output], F32, name="h", is_variable=True))
    ops.append(g.tensor([batch, n_cell], F32, name="c", is_variable=True))
    for gate in "ifco":
        ops.append(const([n_cell], f"ln_{gate}", 1.0) if layer_norm and not (cifg and gate == "i") else -1)
    y = g.tensor(out_shape, F32, name="y")
    if sequence:
        opts = options("UnidirectionalSequenceLSTM", fused_activation_function="TANH", cell_clip=cell_clip,
                       proj_clip=proj_clip, time_major=time_major, asymmetric_quantize_inputs=asymmetric)
        g.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ops, [y], options=opts)
    else:
        opts = options("LSTM", fused_activation_function="TANH", cell_clip=cell_clip, proj_clip=proj_clip,
                       asymmetric_quantize_inputs=asymmetric)
        g.op("LSTM", ops, [y], options=opts)
    g.set_io([x], [y])
    return mb.build(), in_shape, F32


def _q8(rng: np.random.Generator, shape, scale: float) -> Tuple[np.ndarray, Quant]:
    return rng.integers(-127, 128, size=shape).astype(np.int8), Quant(scale, 0)


def lstm_int8(rng: np.random.Generator, *, cifg: bool = False, peephole: bool = False,
              projection: bool = False, layer_norm: bool = False, time_major: bool = False,
              batch: int = 2, time: int = 3, n_input: int = 6, n_cell: int = 4,
              cell_clip: float = 0.0, proj_clip: float = 0.0) -> Tuple[bytes, List[int], type]:
    """An integer (8x8->16) UNIDIRECTIONAL_SEQUENCE_LSTM with five quantized intermediates."""
    n_output = 3 if projection else n_cell
    mb = ModelBuilder()
    g = mb.subgraph("main")
    in_shape = [time, batch, n_input] if time_major else [batch, time, n_input]
    x_q = Quant(float(rng.uniform(0.01, 0.05)), int(rng.integers(-20, 20)))
    h_q = Quant(float(rng.uniform(0.005, 0.02)), int(rng.integers(-10, 10)))
    x = g.tensor(in_shape, np.int8, name="x", quant=x_q)

    def w8(shape, name):
        data, q = _q8(rng, shape, float(rng.uniform(0.002, 0.01)))
        return g.tensor(shape, np.int8, name=name, data=data, quant=q)

    def bias(name):
        data = rng.integers(-5000, 5000, size=[n_cell]).astype(np.int32)
        return g.tensor([n_cell], np.int32, name=name, data=data, quant=Quant(float(rng.uniform(1e-5, 1e-4)), 0))

    def w16(shape, name, lo, hi):
        data = rng.integers(lo, hi, size=shape).astype(np.int16)
        return g.tensor(shape, np.int16, name=name, data=data, quant=Quant(float(rng.uniform(1e-4, 5e-4)), 0))

    ops = [x]
    for gate in "ifco":
        ops.append(-1 if (cifg and gate == "i") else w8([n_cell, n_input], f"w_x_{gate}"))
    for gate in "ifco":
        ops.append(-1 if (cifg and gate == "i") else w8([n_cell, n_output], f"w_h_{gate}"))
    for gate in "ifo":
        ops.append(w16([n_cell], f"w_c_{gate}", -3000, 3000) if peephole and not (cifg and gate == "i") else -1)
    for gate in "ifco":
        ops.append(-1 if (cifg and gate == "i") else bias(f"b_{gate}"))
    ops.append(w8([n_output, n_cell], "w_proj") if projection else -1)
    if projection:
        data = rng.integers(-2000, 2000, size=[n_output]).astype(np.int32)
        ops.append(g.tensor([n_output], np.int32, name="b_proj", data=data, quant=Quant(1e-4, 0)))
    else:
        ops.append(-1)
    ops.append(g.tensor([batch, n_output], np.int8, name="h", is_variable=True, quant=h_q))
    ops.append(g.tensor([batch, n_cell], np.int16, name="c", is_variable=True, quant=Quant(2.0 ** -11, 0)))
    for gate in "ifco":
        ops.append(w16([n_cell], f"ln_{gate}", 10000, 30000) if layer_norm and not (cifg and gate == "i") else -1)
    inter = []
    for k in range(5):
        if k < 4:
            q = Quant(float(rng.uniform(5e-4, 2e-3)), 0)
            inter.append(g.tensor([0], np.int16, name=f"inter{k}", quant=q))
        else:
            q = h_q if not projection else Quant(float(rng.uniform(0.005, 0.02)), int(rng.integers(-10, 10)))
            inter.append(g.tensor([0], np.int8, name="hidden", quant=q))
    y = g.tensor(in_shape[:2] + [n_output], np.int8, name="y", quant=h_q)
    opts = options("UnidirectionalSequenceLSTM", fused_activation_function="TANH", cell_clip=cell_clip,
                   proj_clip=proj_clip, time_major=time_major)
    g.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ops, [y], options=opts, intermediates=inter)
    g.set_io([x], [y])
    return mb.build(), in_shape, np.int8


def _weights(g, rng, shape, name, hybrid):
    """Float weights, or (hybrid) int8 weights with a per-tensor scale."""
    if not hybrid:
        return g.tensor(shape, F32, name=name, data=_w(rng, shape))
    data, q = _q8(rng, shape, 0.5 / 127)
    return g.tensor(shape, np.int8, name=name, data=data, quant=q)


def rnn_float(rng: np.random.Generator, *, sequence: bool = True, time_major: bool = False,
              activation: str = "TANH", batch: int = 2, time: int = 4, n_input: int = 3,
              units: int = 5, hybrid: bool = False, asymmetric: bool = False) -> Tuple[bytes, List[int], type]:
    """A float UNIDIRECTIONAL_SEQUENCE_RNN (or RNN); hybrid: int8 weights."""
    mb = ModelBuilder()
    g = mb.subgraph("main")
    if sequence:
        in_shape = [time, batch, n_input] if time_major else [batch, time, n_input]
        out_shape = in_shape[:2] + [units]
    else:
        in_shape, out_shape = [batch, n_input], [batch, units]
    x = g.tensor(in_shape, F32, name="x")
    wx = _weights(g, rng, [units, n_input], "w_x", hybrid)
    wh = _weights(g, rng, [units, units], "w_h", hybrid)
    b = g.tensor([units], F32, name="b", data=_w(rng, [units]))
    h = g.tensor([batch, units], F32, name="h", is_variable=True)
    y = g.tensor(out_shape, F32, name="y")
    if sequence:
        opts = options("SequenceRNN", time_major=time_major, fused_activation_function=activation,
                       asymmetric_quantize_inputs=asymmetric)
        g.op("UNIDIRECTIONAL_SEQUENCE_RNN", [x, wx, wh, b, h], [y], options=opts)
    else:
        opts = options("RNN", fused_activation_function=activation, asymmetric_quantize_inputs=asymmetric)
        g.op("RNN", [x, wx, wh, b, h], [y], options=opts)
    g.set_io([x], [y])
    return mb.build(), in_shape, F32


def svdf(rng: np.random.Generator, *, int8: bool = False, rank: int = 1, batch: int = 2, n_input: int = 6,
         units: int = 3, memory: int = 4, activation: str = "RELU", with_bias: bool = True,
         hybrid: bool = False, asymmetric: bool = False) -> Tuple[bytes, List[int], type]:
    """An SVDF, float, int8 (int16 time weights and state, int32 bias) or hybrid (int8 weights)."""
    filters = units * rank
    mb = ModelBuilder()
    g = mb.subgraph("main")
    opts = options("SVDF", rank=rank, fused_activation_function=activation, asymmetric_quantize_inputs=asymmetric)
    if not int8:
        x = g.tensor([batch, n_input], F32, name="x")
        wf = _weights(g, rng, [filters, n_input], "w_feature", hybrid)
        wt = _weights(g, rng, [filters, memory], "w_time", hybrid)
        b = g.tensor([units], F32, name="b", data=_w(rng, [units])) if with_bias else -1
        s = g.tensor([batch, filters * memory], F32, name="state", is_variable=True)
        y = g.tensor([batch, units], F32, name="y")
        g.op("SVDF", [x, wf, wt, b, s], [y], options=opts)
        g.set_io([x], [y])
        return mb.build(), [batch, n_input], F32
    x = g.tensor([batch, n_input], np.int8, name="x", quant=Quant(0.05, int(rng.integers(-10, 10))))
    wf_data, wf_q = _q8(rng, [filters, n_input], 0.01)
    wf = g.tensor([filters, n_input], np.int8, name="w_feature", data=wf_data, quant=wf_q)
    wt_data = rng.integers(-2000, 2000, size=[filters, memory]).astype(np.int16)
    wt = g.tensor([filters, memory], np.int16, name="w_time", data=wt_data, quant=Quant(0.004, 0))
    b = -1
    if with_bias:
        b_data = rng.integers(-3000, 3000, size=[units]).astype(np.int32)
        b = g.tensor([units], np.int32, name="b", data=b_data, quant=Quant(2e-5, 0))
    s = g.tensor([batch, filters * memory], np.int16, name="state", is_variable=True, quant=Quant(0.004, 0))
    y = g.tensor([batch, units], np.int8, name="y", quant=Quant(0.1, int(rng.integers(-10, 10))))
    g.op("SVDF", [x, wf, wt, b, s], [y], options=opts)
    g.set_io([x], [y])
    return mb.build(), [batch, n_input], np.int8


def random_inputs(rng: np.random.Generator, shape: List[int], dtype: type, n: int,
                  scale: Optional[float] = None) -> List[List[np.ndarray]]:
    """n single-input steps of random values of the model's input dtype."""
    if np.dtype(dtype) == np.int8:
        return [[rng.integers(-128, 128, size=shape).astype(np.int8)] for _ in range(n)]
    return [[rng.uniform(-(scale or 1.0), scale or 1.0, size=shape).astype(F32)] for _ in range(n)]


def bidi_rnn_float(rng: np.random.Generator, *, time_major: bool = False, merge: bool = False,
                   aux: Optional[str] = None, activation: str = "TANH", batch: int = 2, time: int = 4,
                   n_input: int = 3, fw_units: int = 5, bw_units: int = 4, hybrid: bool = False,
                   asymmetric: bool = False) -> Tuple[bytes, List[List[int]], type]:
    """A float BIDIRECTIONAL_SEQUENCE_RNN (hybrid: int8 weights); aux "cross": an auxiliary input (a
    second model input, as wide as the main one) with auxiliary weights for both cells; aux "bw": an
    auxiliary input that the backward cell reads instead of the main one. Returns the input shapes."""
    mb = ModelBuilder()
    g = mb.subgraph("main")
    in_shape = [time, batch, n_input] if time_major else [batch, time, n_input]
    x = g.tensor(in_shape, F32, name="x")
    ops, inputs = [x], [x]
    for d, units in (("fw", fw_units), ("bw", bw_units)):
        ops += [_weights(g, rng, [units, n_input], f"{d}_w", hybrid),
                _weights(g, rng, [units, units], f"{d}_w_h", hybrid),
                g.tensor([units], F32, name=f"{d}_b", data=_w(rng, [units])),
                g.tensor([batch, units], F32, name=f"{d}_h", is_variable=True)]
    if aux is None:
        ops += [-1, -1, -1]
    else:
        a = g.tensor(in_shape, F32, name="aux")
        inputs.append(a)
        ops.append(a)
        if aux == "cross":
            ops += [_weights(g, rng, [u, n_input], f"{d}_w_aux", hybrid) for d, u in (("fw", fw_units), ("bw", bw_units))]
        else:
            ops += [-1, -1]
    outs = [g.tensor(in_shape[:2] + [fw_units + bw_units if merge else fw_units], F32, name="y_fw")]
    if not merge:
        outs.append(g.tensor(in_shape[:2] + [bw_units], F32, name="y_bw"))
    opts = options("BidirectionalSequenceRNN", time_major=time_major, fused_activation_function=activation,
                   merge_outputs=merge, asymmetric_quantize_inputs=asymmetric)
    g.op("BIDIRECTIONAL_SEQUENCE_RNN", ops, outs, options=opts)
    g.set_io(inputs, outs)
    return mb.build(), [in_shape] * len(inputs), F32


def bidi_lstm_float(rng: np.random.Generator, *, time_major: bool = False, merge: bool = False,
                    aux: Optional[str] = None, cifg: bool = False, peephole: bool = False,
                    projection: bool = False, cell_clip: float = 0.0, proj_clip: float = 0.0,
                    batch: int = 2, time: int = 3, n_input: int = 4, n_aux: int = 3,
                    n_cell: int = 4) -> Tuple[bytes, List[List[int]], type]:
    """A float BIDIRECTIONAL_SEQUENCE_LSTM (48 operands); aux "cross": an auxiliary input (a second
    model input, n_aux wide) with auxiliary weights for both cells; aux "bw": an auxiliary input the
    backward cell reads instead of the main one. Returns the input shapes."""
    n_output = 3 if projection else n_cell
    mb = ModelBuilder()
    g = mb.subgraph("main")
    in_shape = [time, batch, n_input] if time_major else [batch, time, n_input]
    x = g.tensor(in_shape, F32, name="x")
    inputs = [x]

    def w(shape, name, scale=0.5):
        return g.tensor(shape, F32, name=name, data=_w(rng, shape, scale))

    ops = [x]
    for d in ("fw", "bw"):
        ops += [-1 if (cifg and k == "i") else w([n_cell, n_input], f"{d}_w_x_{k}") for k in "ifco"]
        ops += [-1 if (cifg and k == "i") else w([n_cell, n_output], f"{d}_w_h_{k}") for k in "ifco"]
        ops += [w([n_cell], f"{d}_w_c_{k}") if peephole and not (cifg and k == "i") else -1 for k in "ifo"]
        ops += [-1 if (cifg and k == "i") else w([n_cell], f"{d}_b_{k}", 1.0) for k in "ifco"]
        ops += [w([n_output, n_cell], f"{d}_w_proj") if projection else -1,
                w([n_output], f"{d}_b_proj") if projection else -1]
    for d in ("fw", "bw"):
        ops += [g.tensor([batch, n_output], F32, name=f"{d}_h", is_variable=True),
                g.tensor([batch, n_cell], F32, name=f"{d}_c", is_variable=True)]
    if aux is None:
        ops += [-1] * 9
    else:
        aux_shape = in_shape[:2] + [n_aux if aux == "cross" else n_input]
        a = g.tensor(aux_shape, F32, name="aux")
        inputs.append(a)
        ops.append(a)
        for d in ("fw", "bw"):
            ops += [w([n_cell, n_aux], f"{d}_w_aux_{k}") if aux == "cross" and not (cifg and k == "i") else -1
                    for k in "ifco"]
    outs = [g.tensor(in_shape[:2] + [2 * n_output if merge else n_output], F32, name="y_fw")]
    if not merge:
        outs.append(g.tensor(in_shape[:2] + [n_output], F32, name="y_bw"))
    opts = options("BidirectionalSequenceLSTM", fused_activation_function="TANH", cell_clip=cell_clip,
                   proj_clip=proj_clip, merge_outputs=merge, time_major=time_major)
    g.op("BIDIRECTIONAL_SEQUENCE_LSTM", ops, outs, options=opts)
    g.set_io(inputs, outs)
    shapes = [in_shape] + ([in_shape[:2] + [n_aux if aux == "cross" else n_input]] if aux else [])
    return mb.build(), shapes, F32
