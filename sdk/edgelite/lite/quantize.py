"""Quantization passes over the converter graph.

- `calibrate`: run the float model over the representative dataset (in edgelite_runtime, keeping every
  intermediate tensor) and record each float tensor's min/max;
- `full_integer`: int8 (or int16 activations with int8 weights) for every op TFLite has integer
  kernels for, float fallback with DEQUANTIZE/QUANTIZE around the rest (an error when float is not
  allowed); fixed output parameters for SOFTMAX/LOGISTIC/TANH/LOG_SOFTMAX/L2_NORMALIZATION; ops whose
  kernels need equal input and output parameters (reshape, pooling, pad, ...) pass them through, and the
  inputs of CONCATENATION/PACK/MAXIMUM/MINIMUM are requantized to the output's; model inputs and
  outputs in the requested types (QUANTIZE/DEQUANTIZE at the boundaries); degenerate ranges (untrained
  weights) are kept within what the kernels accept (softmax input scale, fused RELU6/RELU_N1_TO_1 bounds);
  a quantization-aware trained graph's fake-quant ranges (lite.qat) stand in for, or override, calibration,
  and its weights keep their fake-quant grid;
- `legacy_uint8`: the TOCO-era uint8 model from quantized_input_stats and default_ranges_stats;
- `dynamic_range`: int8 weights for CONV_2D, DEPTHWISE_CONV_2D (per channel) and FULLY_CONNECTED (per
  tensor, asymmetric input quantization), run by hybrid kernels, in the main graph and in WHILE bodies;
- `to_float16`: float16 weights expanded by DEQUANTIZE ops.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from edgelite.lite import emit, ir, lstm_calibration, lstm_quantize, quant_math, schema
from edgelite.lite.ir import QuantParams

# op -> (weights input, output-channel axis of the weights or None for per tensor, bias input, data input)
_WEIGHTED = {"CONV_2D": (1, 0, 2, 0), "DEPTHWISE_CONV_2D": (1, 3, 2, 0), "FULLY_CONNECTED": (1, 0, 2, 0),
             "TRANSPOSE_CONV": (1, 0, 3, 2)}
# op -> data input whose parameters the output must keep
_SAME_SCALE = {"RESHAPE": 0, "SQUEEZE": 0, "EXPAND_DIMS": 0, "MAX_POOL_2D": 0, "AVERAGE_POOL_2D": 0, "PAD": 0,
               "PADV2": 0, "TRANSPOSE": 0, "STRIDED_SLICE": 0, "SLICE": 0, "GATHER": 0, "SPLIT": 1, "SPLIT_V": 0,
               "UNPACK": 0, "TILE": 0, "DEPTH_TO_SPACE": 0, "SPACE_TO_DEPTH": 0, "RESIZE_NEAREST_NEIGHBOR": 0,
               "RESIZE_BILINEAR": 0, "REVERSE_V2": 0,
               "REDUCE_MAX": 0, "REDUCE_MIN": 0}
_MULTI_SAME = {"CONCATENATION", "PACK", "MAXIMUM", "MINIMUM"}
_FIXED = {
    "int8": {"SOFTMAX": (1 / 256, -128), "LOGISTIC": (1 / 256, -128), "TANH": (1 / 128, 0),
             "LOG_SOFTMAX": (16 / 256, 127), "L2_NORMALIZATION": (1 / 128, 0)},
    "int16": {"SOFTMAX": (1 / 32768, 0), "LOGISTIC": (1 / 32768, 0), "TANH": (1 / 32768, 0)},
    "uint8": {"SOFTMAX": (1 / 256, 0), "LOGISTIC": (1 / 256, 0), "TANH": (1 / 128, 128),
              "L2_NORMALIZATION": (1 / 128, 128)},
}
_INT8_OPS = frozenset({
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV", "ADD", "SUB", "MUL", "AVERAGE_POOL_2D",
    "MAX_POOL_2D", "SOFTMAX", "LOGISTIC", "TANH", "RELU", "RELU6", "RELU_N1_TO_1", "LEAKY_RELU", "HARD_SWISH",
    "LOG_SOFTMAX", "L2_NORMALIZATION", "MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "ARG_MAX", "ARG_MIN",
    "SQUARED_DIFFERENCE", "BATCH_MATMUL", lstm_quantize.CODE,
}) | frozenset(_SAME_SCALE) | frozenset(_MULTI_SAME)
_INT16_OPS = frozenset({
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL", "AVERAGE_POOL_2D", "MAX_POOL_2D",
    "SOFTMAX", "LOGISTIC", "TANH", "RELU", "RELU6", "LEAKY_RELU", "MEAN", "RESHAPE", "SQUEEZE", "EXPAND_DIMS",
    "CONCATENATION", "PAD", "TRANSPOSE", "STRIDED_SLICE", "SLICE", "PACK", "UNPACK", "GATHER", "MAXIMUM",
    "MINIMUM", "SPLIT", "SPLIT_V", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR",
})
_UINT8_OPS = frozenset({
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL", "AVERAGE_POOL_2D", "MAX_POOL_2D",
    "SOFTMAX", "LOGISTIC", "TANH", "RELU", "RELU6", "RELU_N1_TO_1", "MEAN", "RESHAPE", "SQUEEZE", "EXPAND_DIMS",
    "CONCATENATION", "PAD", "TRANSPOSE", "STRIDED_SLICE", "SLICE", "GATHER", "MAXIMUM", "MINIMUM",
    "L2_NORMALIZATION", "RESIZE_NEAREST_NEIGHBOR", "RESIZE_BILINEAR", "SPLIT", "UNPACK", "PACK",
})
_DYNAMIC_MIN_ELEMENTS = 1024
# TFLite's integer softmax scales its input by beta * scale * 2^26 and needs that factor above 1.
_SOFTMAX_MIN_INPUT_SCALE = 2.0 ** -25


def _is_float(t: Optional[ir.Tensor]) -> bool:
    return t is not None and t.dtype.kind == "f"


def _is_activation(t: Optional[ir.Tensor]) -> bool:
    return t is not None and not t.is_const and (_is_float(t) or t.quant is not None)


# ---- calibration -----------------------------------------------------------------------------------------
def _samples(input_gen: Callable, names: list) -> Any:
    for sample in input_gen():
        if isinstance(sample, dict):
            missing = [n for n in names if n not in sample]
            if missing:
                raise ValueError(f"The representative dataset sample has no value for input(s) {missing}.")
            yield [sample[n] for n in names]
        elif isinstance(sample, (list, tuple)):
            yield list(sample)
        else:
            yield [sample]


def calibrate(g: ir.Graph, input_gen: Callable) -> dict:
    """{id(tensor): (min, max)} for every float activation over the representative dataset."""
    from edgelite_runtime import Interpreter
    from edgelite_runtime.interpreter import OpResolverType

    if input_gen is None or not callable(input_gen):
        raise ValueError("representative_dataset must be a callable returning an iterable of input samples "
                         "(or a tf.lite.RepresentativeDataset wrapping one).")
    tensors = g.tensors()
    watched = [i for i, t in enumerate(tensors) if _is_float(t) and not t.is_const]
    interp = Interpreter(model_content=emit.serialize(g), num_threads=1, experimental_preserve_all_tensors=True,
                         experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    inputs = interp.get_input_details()
    interp.allocate_tensors()
    lstm_hidden = lstm_calibration.HiddenRanges(g, tensors)
    lo = np.full(len(tensors), np.inf)
    hi = np.full(len(tensors), -np.inf)
    count = 0
    for values in _samples(input_gen, g.input_names):
        if len(values) != len(inputs):
            raise ValueError(f"The representative dataset yielded {len(values)} input(s) but the model has "
                             f"{len(inputs)}.")
        arrays = [np.asarray(v, dtype=d["dtype"]) for v, d in zip(values, inputs)]
        resized = False
        for arr, d in zip(arrays, inputs):
            if tuple(interp.get_input_details()[inputs.index(d)]["shape"]) != arr.shape:
                interp.resize_tensor_input(d["index"], list(arr.shape))
                resized = True
        if resized:
            interp.allocate_tensors()
        for arr, d in zip(arrays, inputs):
            interp.set_tensor(d["index"], arr)
        lstm_hidden.before(interp)
        interp.invoke()
        lstm_hidden.after(interp)
        for i in watched:
            a = interp.get_tensor(i)
            if a.size:
                finite = a[np.isfinite(a)]
                if finite.size:
                    lo[i] = min(lo[i], float(finite.min()))
                    hi[i] = max(hi[i], float(finite.max()))
        count += 1
    if count == 0:
        raise ValueError("The representative dataset yielded no samples; calibration needs at least one.")
    ranges = {id(tensors[i]): (lo[i], hi[i]) for i in watched if np.isfinite(lo[i])}
    ranges.update(lstm_hidden.ranges)
    return ranges


# ---- integer models ------------------------------------------------------------------------------------
@dataclass
class _Scheme:
    """How one integer mode quantizes: activation type, ops, parameters and weights."""

    act: str
    ops: frozenset
    params: Callable
    weights: Callable
    bias_dtype: str
    fixed: dict = field(default_factory=dict)
    # (weight tensor, axis) -> (data, params) from a fake quant's range, or None to use `weights`.
    weights_for: Optional[Callable] = None


class _Rewriter:
    """Rewrites a graph op by op: quantized ops get integer tensors, the rest float, with conversions between."""

    def __init__(self, g: ir.Graph, scheme: _Scheme, ranges: Optional[dict] = None) -> None:
        self.g, self.s, self.ranges = g, scheme, ranges or {}
        self.ops: list = []
        self.views: dict = {}

    # conversions ------------------------------------------------------------------------------------------
    def _convert(self, t: ir.Tensor, dtype: str, q: Optional[QuantParams], suffix: str) -> ir.Tensor:
        key = (id(t), dtype, None if q is None else (tuple(q.scale.tolist()), tuple(q.zero_point.tolist())))
        if key not in self.views:
            out = ir.Tensor(f"{t.name}/{suffix}", t.shape, dtype, quant=q)
            code = "DEQUANTIZE" if q is None else "QUANTIZE"
            self.ops.append(ir.Op(code, [t], [out], (code.title() + "Options", {}), source="quantization"))
            self.views[key] = out
        return self.views[key]

    def as_float(self, t: ir.Tensor) -> ir.Tensor:
        """A float version of an activation."""
        return t if _is_float(t) else self._convert(t, "float32", None, "dequantize")

    def as_quant(self, t: ir.Tensor, q: Optional[QuantParams] = None) -> ir.Tensor:
        """An activation in the scheme's type, with parameters `q` (or its own)."""
        if t.dtype.name == self.s.act and (q is None or t.quant.same_as(q)):
            return t
        if q is None:
            q = self.s.params(t) if _is_float(t) else _shift_zero_point(t.quant, t.dtype.name, self.s.act)
        return self._convert(t, self.s.act, q, "quantize" if _is_float(t) else "requantize")

    def _softmax_input(self, t: ir.Tensor, beta: float) -> ir.Tensor:
        """A softmax input whose range is too narrow for the integer kernel, requantized to the narrowest
        scale it accepts (a degenerate range, e.g. from untrained weights, would abort TFLite's kernel)."""
        floor = _SOFTMAX_MIN_INPUT_SCALE / max(beta, 1e-12)
        if float(t.quant.scale[0]) >= floor:
            return t
        return self.as_quant(t, QuantParams.per_tensor(floor, int(t.quant.zero_point[0])))

    # ops --------------------------------------------------------------------------------------------------
    def float_op(self, op: ir.Op) -> None:
        """Keep an op in float: dequantize integer activations it reads."""
        op.inputs = [self.as_float(t) if _is_activation(t) and not _is_float(t) else t for t in op.inputs]
        self.ops.append(op)

    def quantized_op(self, op: ir.Op) -> None:
        """Give an op integer inputs, weights, bias and outputs."""
        s = self.s
        if op.code == lstm_quantize.CODE:
            lstm_quantize.rewrite(self, op, self.ranges)
            return
        inputs = list(op.inputs)
        w_idx, axis, b_idx, x_idx = _WEIGHTED.get(op.code, (None, None, None, None))
        data_idx = _SAME_SCALE.get(op.code)
        required = s.params(op.outputs[0]) if op.code in _MULTI_SAME else None
        if data_idx is not None and _is_activation(inputs[data_idx]):
            inputs[data_idx] = self.as_quant(inputs[data_idx])
            required = inputs[data_idx].quant
        for i, t in enumerate(inputs):
            if t is None or i in (w_idx, b_idx) or (i == data_idx and not t.is_const):
                continue
            if t.is_const and _is_float(t):
                q = required if required is not None else s.params(t)
                if required is None and not np.any(t.data) and _is_activation(op.inputs[0]):
                    # An all-zero operand has no range; borrowing the data input's keeps rescaling sane.
                    q = self.as_quant(op.inputs[0]).quant
                inputs[i] = ir.Tensor(t.name, t.shape, s.act, data=quant_math.quantize_array(t.data, q, s.act), quant=q)
            elif _is_activation(t):
                inputs[i] = self.as_quant(t, required)
        if op.code in ("SOFTMAX", "LOG_SOFTMAX") and s.act == "int8":
            inputs[0] = self._softmax_input(inputs[0], float(op.option("beta", 1.0) or 1.0))
        if w_idx is not None:
            w = inputs[w_idx]
            found = s.weights_for(w, axis) if s.weights_for is not None else None
            wq, wp = found if found is not None else s.weights(w.data, axis)
            inputs[w_idx] = ir.Tensor(w.name, w.shape, wq.dtype, data=wq, quant=wp)
            b = inputs[b_idx] if b_idx is not None and b_idx < len(inputs) else None
            if b is not None and b.is_const:
                bq, bp = quant_math.bias(b.data, float(inputs[x_idx].quant.scale[0]), wp.scale, s.bias_dtype)
                inputs[b_idx] = ir.Tensor(b.name, b.shape, s.bias_dtype, data=bq, quant=bp)
        for o in op.outputs:
            if not _is_float(o):
                continue
            if op.code in s.fixed:
                q = QuantParams.per_tensor(*s.fixed[op.code])
            elif required is not None:
                q = required
            else:
                q = _bounded_activation_params(s.params(o), op.option("fused_activation_function", 0))
            o.dtype, o.quant = np.dtype(s.act), q
        if s.act == "int16" and op.code in ("ADD", "SUB"):
            op.set_option("pot_scale_int16", False)
        op.inputs = inputs
        self.ops.append(op)


def _bounded_activation_params(q: QuantParams, activation: int) -> QuantParams:
    """Kernels quantize a fused RELU6/RELU_N1_TO_1 bound (6 or 1) to int32 at the output scale; keep the
    scale large enough for that even when the calibrated range is degenerate."""
    bound = {schema.ACTIVATIONS["RELU6"]: 6.0, schema.ACTIVATIONS["RELU_N1_TO_1"]: 1.0}.get(activation or 0)
    if bound is None or float(q.scale[0]) >= 2.0 * bound / 2.0 ** 31:
        return q
    return QuantParams.per_tensor(2.0 * bound / 2.0 ** 31, int(q.zero_point[0]))


def _shift_zero_point(q: QuantParams, src: str, dst: str) -> QuantParams:
    """Parameters of the same values in a type whose range is offset by 128 (uint8 <-> int8)."""
    shift = {("uint8", "int8"): -128, ("int8", "uint8"): 128}.get((src, dst), 0)
    return QuantParams(q.scale, q.zero_point + shift, q.dim)


def _choose(g: ir.Graph, s: _Scheme, has_range: Callable) -> tuple:
    """(ops to quantize, ops left in float)."""
    chosen, refused = [], []
    for op in g.ops:
        floats = [t for t in list(op.inputs) + list(op.outputs) if _is_float(t) and not t.is_const]
        if not floats:
            continue
        w_idx = _WEIGHTED.get(op.code, (None,))[0]
        ok = op.code in s.ops and (w_idx is None or op.inputs[w_idx].is_const)
        ok = ok and (op.code != lstm_quantize.CODE or lstm_quantize.integer_ready(op, has_range))
        ok = ok and all(has_range(t) for t in floats if not (t in op.outputs and op.code in s.fixed))
        (chosen if ok else refused).append(op)
    return chosen, refused


def _rewrite(g: ir.Graph, s: _Scheme, chosen: list, input_type: str, output_type: str,
             ranges: Optional[dict] = None) -> None:
    rw = _Rewriter(g, s, ranges)
    for t in g.inputs:
        if not _is_float(t) or input_type == "float32":
            continue
        q = s.params(t)
        t.quant = q if input_type == s.act else _shift_zero_point(q, s.act, input_type)
        t.dtype = np.dtype(input_type)
    chosen_ids = {id(op) for op in chosen}
    for op in list(g.ops):
        (rw.quantized_op if id(op) in chosen_ids else rw.float_op)(op)
    outputs = []
    for o in g.outputs:
        if not _is_activation(o):
            outputs.append(o)
            continue
        if output_type == "float32":
            final = rw.as_float(o)
        elif output_type == s.act:
            final = rw.as_quant(o)
        else:
            src = rw.as_quant(o)
            final = rw._convert(src, output_type, _shift_zero_point(src.quant, s.act, output_type), "requantize")
        if final is not o:
            final.name, o.name = o.name, final.name
        outputs.append(final)
    g.outputs = outputs
    g.ops = rw.ops


def _shared_concat_params(g: ir.Graph, chosen: list, params: Callable, fixed: dict) -> dict:
    """Concatenated tensors take the concatenation's parameters where their producer lets them choose
    (as TFLite's quantizer does), so no requantization is needed; the output range covers the inputs'.
    A REVERSE_V2 in between (a bidirectional RNN's backward output) passes them on to its input's producer."""
    chosen_ids = {id(op) for op in chosen}
    shared: dict = {}
    for op in chosen:
        if op.code not in ("CONCATENATION", "PACK"):
            continue
        q = params(op.outputs[0])
        for t in op.inputs:
            producer = g.producer(t) if _is_activation(t) else None
            while (producer is not None and producer.code == "REVERSE_V2" and id(producer) in chosen_ids
                   and len(g.consumers(t)) == 1 and not g.is_output(t)):
                t = producer.inputs[0]
                producer = g.producer(t)
            if (producer is None or id(producer) not in chosen_ids or producer.code in fixed
                    or producer.code in _SAME_SCALE or producer.code in _MULTI_SAME or id(t) in shared):
                continue
            shared[id(t)] = q
    return shared


def _activation_params(ranges: dict, act: str, shared: Optional[dict] = None) -> Callable:
    def params(t: ir.Tensor) -> QuantParams:
        if shared and id(t) in shared:
            return shared[id(t)]
        if t.is_const:
            data = np.asarray(t.data, np.float64)
            rmin, rmax = (float(data.min()), float(data.max())) if data.size else (0.0, 0.0)
        else:
            rmin, rmax = ranges[id(t)]
        return quant_math.symmetric(rmin, rmax, act) if act == "int16" else quant_math.asymmetric(rmin, rmax, act)
    return params


def full_integer(g: ir.Graph, ranges: dict, int16: bool, input_type: Any, output_type: Any,
                 allow_float: bool, weights_for: Optional[Callable] = None) -> None:
    """Full-integer quantization from calibrated (or fake-quant) ranges (int8, or int16 activations with int8
    weights); `weights_for` may quantize weights from their own fake-quant ranges."""
    act = "int16" if int16 else "int8"
    s = _Scheme(act, _INT16_OPS if int16 else _INT8_OPS, _activation_params(ranges, act),
                quant_math.symmetric_weights, "int64" if int16 else "int32", _FIXED[act], weights_for)
    chosen, refused = _choose(g, s, lambda t: (t if isinstance(t, tuple) else id(t)) in ranges)
    s.params = _activation_params(ranges, act, _shared_concat_params(g, chosen, s.params, s.fixed))
    if refused and not allow_float:
        int8_only = [op.code for op in refused if int16 and op.code in _INT8_OPS - _INT16_OPS]
        if int8_only:  # TF's quantizer stops at the first op it quantizes to int8 but not to 16x8
            raise RuntimeError(f"Quantization to 16x8-bit not yet supported for op: '{int8_only[0]}'.")
        listed = ", ".join(sorted({op.code for op in refused}))
        raise ValueError(f"Quantization not yet supported for op(s): {listed}. They cannot be left in float "
                         f"because target_spec.supported_ops does not include TFLITE_BUILTINS.")
    _rewrite(g, s, chosen, np.dtype(input_type.as_numpy_dtype).name, np.dtype(output_type.as_numpy_dtype).name,
             ranges)


def legacy_uint8(g: ir.Graph, stats: Optional[list], default_ranges: Any, input_type: Any,
                 output_type: Any, ranges: Optional[dict] = None, weights_for: Optional[Callable] = None) -> None:
    """The uint8 model of inference_type=tf.uint8: inputs from (mean, std), other ranges from fake quants
    (`ranges`, `weights_for`) or default_ranges_stats."""
    input_params = {}
    for t, (mean, std) in zip(g.inputs, stats or []):
        if std == 0:
            raise ValueError(f"quantized_input_stats for '{t.name}' has a zero standard deviation")
        input_params[id(t)] = QuantParams.per_tensor(1.0 / std, int(quant_math.round_away(mean)))

    def params(t: ir.Tensor) -> QuantParams:
        if id(t) in input_params:
            return input_params[id(t)]
        if t.is_const:
            return _activation_params({}, "uint8")(t)
        if ranges and id(t) in ranges:
            return quant_math.asymmetric(*ranges[id(t)], "uint8")
        if default_ranges is None:
            raise ValueError(
                f"Array {t.name} is lacking min/max data, which is necessary for quantization. If accuracy "
                "matters, either target a non-quantized output format, or run quantized training with your model "
                "from a floating point checkpoint to change the input graph to contain min/max information. If you "
                "don't care about accuracy, you can set default_ranges_stats=(min, max) for easy experimentation.")
        return quant_math.asymmetric(float(default_ranges[0]), float(default_ranges[1]), "uint8")

    s = _Scheme("uint8", _UINT8_OPS, params, lambda w, axis: quant_math.asymmetric_weights(w, "uint8"), "int32",
                _FIXED["uint8"], weights_for)
    chosen, _refused = _choose(g, s, lambda t: True)
    _rewrite(g, s, chosen, np.dtype(input_type.as_numpy_dtype).name, np.dtype(output_type.as_numpy_dtype).name)


# ---- weight-only modes ---------------------------------------------------------------------------------------
def dynamic_range(g: ir.Graph) -> None:
    """int8 weights for the hybrid kernels of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED."""
    for op in [op for graph in [g] + g.subgraphs for op in graph.ops]:
        if op.code not in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED") or not _is_float(op.inputs[0]):
            continue
        w = op.inputs[1]
        if not (w.is_const and _is_float(w) and w.data.size >= _DYNAMIC_MIN_ELEMENTS):
            continue
        axis = {"CONV_2D": 0, "DEPTHWISE_CONV_2D": 3, "FULLY_CONNECTED": None}[op.code]
        q, p = quant_math.symmetric_weights(w.data, axis)
        op.inputs[1] = ir.Tensor(w.name, w.shape, np.int8, data=q, quant=p)
        if op.code == "FULLY_CONNECTED":
            op.set_option("asymmetric_quantize_inputs", True)
    for op in g.ops:
        if op.code == "UNIDIRECTIONAL_SEQUENCE_LSTM" and _is_float(op.inputs[0]):
            _hybrid_lstm(op)


_LSTM_MATRICES = (1, 2, 3, 4, 5, 6, 7, 8, 16)  # input and recurrent weights, projection


def _hybrid_lstm(op: ir.Op) -> None:
    """int8 per-tensor weight matrices for the hybrid LSTM kernel, all of them or none: the kernel reads
    every matrix as int8 once one is. Peephole LSTMs stay float (their diagonals are too small to quantize)."""
    present = [op.inputs[i] for i in _LSTM_MATRICES if op.inputs[i] is not None]
    if any(op.inputs[i] is not None for i in (9, 10, 11)):
        return
    if not all(w.is_const and _is_float(w) and w.data.size >= _DYNAMIC_MIN_ELEMENTS for w in present):
        return
    for i in _LSTM_MATRICES:
        w = op.inputs[i]
        if w is not None:
            q, p = quant_math.symmetric_weights(w.data, None)
            op.inputs[i] = ir.Tensor(w.name, w.shape, np.int8, data=q, quant=p)
    op.set_option("asymmetric_quantize_inputs", True)


_FLOAT16_OPERANDS = {"CONV_2D": (1, 2), "DEPTHWISE_CONV_2D": (1, 2), "FULLY_CONNECTED": (1, 2),
                     "TRANSPOSE_CONV": (1, 3), "ADD": (0, 1), "SUB": (0, 1), "MUL": (0, 1),
                     "MAXIMUM": (0, 1), "MINIMUM": (0, 1), "CONCATENATION": None, "BATCH_MATMUL": (0, 1)}


def to_float16(g: ir.Graph) -> None:
    """Store float32 weights and constant operands as float16, expanded to float32 by DEQUANTIZE at run time."""
    expanded: dict = {}
    front: list = []
    for op in g.ops:
        if op.code not in _FLOAT16_OPERANDS:
            continue
        slots = _FLOAT16_OPERANDS[op.code] or range(len(op.inputs))
        for i in slots:
            t = op.inputs[i] if i < len(op.inputs) else None
            if t is None or not t.is_const or t.dtype != np.float32 or t.data.size < 2:
                continue
            if id(t) not in expanded:
                half = ir.Tensor(t.name, t.shape, np.float16, data=t.data.astype(np.float16))
                out = ir.Tensor(t.name + "/dequantize", t.shape, np.float32)
                front.append(ir.Op("DEQUANTIZE", [half], [out], ("DequantizeOptions", {}), source="float16"))
                expanded[id(t)] = out
            op.inputs[i] = expanded[id(t)]
    g.ops = front + g.ops
