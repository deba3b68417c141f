"""Operator versions and minimum runtime versions, by the rules TFLite's converter applies.

`op_version(op)` looks at the same things TFLite's versioning does (tools/versioning/op_version.cc with
the op signature of op_signature.cc): input/output tensor types, option fields, per-channel weights,
ranks and broadcasting. `min_runtime_version(ops)` is the largest minimum runtime of the (op, version)
pairs (tools/versioning/runtime_version.cc); pairs TFLite lists no runtime for are skipped, as there.
"""
from __future__ import annotations

from typing import Callable, Iterable

import numpy as np

from edgelite.lite import ir

F32, F16, I8, U8, I16, I32, I64, BOOL = (np.dtype(n) for n in
                                         ("float32", "float16", "int8", "uint8", "int16", "int32", "int64", "bool"))
_RULES: dict = {}


def _rule(*codes: str) -> Callable:
    def register(fn: Callable) -> Callable:
        for c in codes:
            _RULES[c] = fn
        return fn
    return register


def _t(op: ir.Op, i: int) -> np.dtype:
    """dtype of input i (None when absent)."""
    return op.inputs[i].dtype if i < len(op.inputs) and op.inputs[i] is not None else None


def _o(op: ir.Op, i: int = 0) -> np.dtype:
    return op.outputs[i].dtype


def _rank(op: ir.Op, i: int) -> int:
    return len(op.inputs[i].shape)


def _per_channel(t: ir.Tensor, axis: int) -> bool:
    return t.quant is not None and len(t.shape) > axis and t.quant.scale.size == t.shape[axis] and t.shape[axis] > 0


def _broadcast_over_4d(op: ir.Op) -> bool:
    dims = [tuple(t.shape) for t in op.inputs[:2] if t is not None]
    return len(dims) == 2 and dims[0] != dims[1] and max(len(d) for d in dims) > 4


def op_version(op: ir.Op) -> int:
    """The builtin operator version TFLite's converter would record for this op."""
    rule = _RULES.get(op.code)
    return 1 if rule is None else rule(op)


@_rule("CONV_2D")
def _conv(op: ir.Op) -> int:
    i, w, o = _t(op, 0), _t(op, 1), _o(op)
    if i == I16 and w == I8 and o == I16 and op.option("quantized_bias_type", 0):
        return 8
    if op.inputs[0].shape and op.inputs[0].shape[-1] != op.inputs[1].shape[-1] and op.inputs[0].shape[-1] > 0:
        return 6
    if i == I8 and w == I8 and o == I8:
        return 3
    if i == F32 and w == I8 and o == F32:
        return 5 if _per_channel(op.inputs[1], 0) else 2
    return 1


@_rule("DEPTHWISE_CONV_2D")
def _depthwise(op: ir.Op) -> int:
    i, w, o = _t(op, 0), _t(op, 1), _o(op)
    if i == F32 and w == I8 and o == F32:
        return 6 if _per_channel(op.inputs[1], 3) else 4
    if i == I8 and w == I8 and o == I8:
        return 3
    if op.option("dilation_w_factor", 1) != 1 or op.option("dilation_h_factor", 1) != 1:
        return 2
    return 1


@_rule("FULLY_CONNECTED")
def _fully_connected(op: ir.Op) -> int:
    i, w, o = _t(op, 0), _t(op, 1), _o(op)
    weights = op.inputs[1]
    per_channel = (weights.quant is not None and len(weights.shape) > 0
                   and weights.quant.scale.size == weights.shape[0])
    if i == F32 and w == I8 and o == F32 and per_channel:
        return 12
    if i == I16 and w == I8 and o == I16 and op.option("quantized_bias_type", 0):
        return 11
    if i == I16 and w == I16 and o == I16:
        return 7
    if len(op.inputs) == 2:
        return 6
    if op.option("keep_num_dims", False):
        return 5
    if i == I8 and w == I8 and o == I8:
        return 4
    if i == F32 and w == I8 and o == F32:
        return 9 if op.option("asymmetric_quantize_inputs", False) else 3
    if op.option("weights_format", 0) == 1:
        return 2
    return 1


@_rule("ADD")
def _add(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == F16:
        return 6
    if i == I16 and op.inputs[0].quant is None:
        return 5
    if i == I64:
        return 4
    if i == I16 and _o(op) == I16 and not op.option("pot_scale_int16", True):
        return 3
    return 2 if i == I8 else 1


@_rule("SUB")
def _sub(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16 and _o(op) == I16 and not op.option("pot_scale_int16", True):
        return 5
    if i == I64:
        return 4
    if _broadcast_over_4d(op):
        return 3
    return 2 if i == I8 else 1


@_rule("MUL")
def _mul(op: ir.Op) -> int:
    i = _t(op, 0)
    a, b, o = op.inputs[0].quant, op.inputs[1].quant, op.outputs[0].quant
    if i == F16:
        return 8
    if i == I16 and a is None and b is None:
        return 7
    if i == I64:
        return 5
    if i == I16:
        return 4
    if a is not None and b is not None and o is not None:
        if float(a.scale[0]) * float(b.scale[0]) / float(o.scale[0]) >= 1.0:
            return 3
    return 2 if i == I8 else 1


@_rule("DIV")
def _div(op: ir.Op) -> int:
    return 2 if _broadcast_over_4d(op) else 1


@_rule("MAXIMUM", "MINIMUM")
def _max_min(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16 and _o(op) == I16:
        return 4
    if _broadcast_over_4d(op):
        return 3
    return 2 if i == I8 else 1


@_rule("AVERAGE_POOL_2D", "MAX_POOL_2D", "TANH", "LOGISTIC")
def _int16_3_int8_2(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16 and _o(op) == I16:
        return 3
    return 2 if i == I8 else 1


@_rule("SOFTMAX", "MEAN", "MIRROR_PAD", "REDUCE_MAX", "REDUCE_MIN", "RELU6", "RSQRT")
def _int16_3_int8_2_any_output(op: ir.Op) -> int:
    i = _t(op, 0)
    if op.code == "SOFTMAX" and i == F16:
        return 4
    if i == I16:
        return 3
    return 2 if i == I8 else 1


@_rule("RELU")
def _relu(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16:
        return 3
    return 2 if i in (I8, U8) else 1


@_rule("CONCATENATION")
def _concat(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == F16:
        return 6
    if i == np.dtype("uint32"):
        return 4
    if i == I16:
        return 3
    return 2 if i == I8 else 1


@_rule("PAD", "PADV2")
def _pad(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == BOOL:
        return 5
    if _rank(op, 0) > 4:
        return 4
    if i == I16:
        return 3
    return 2 if i == I8 else 1


@_rule("QUANTIZE")
def _quantize(op: ir.Op) -> int:
    out = op.outputs[0]
    if out.quant is not None and out.quant.scale.size > 1 and out.quant.scale.size == out.shape[out.quant.dim]:
        return 3
    return 2 if _o(op) == I16 else 1


@_rule("DEQUANTIZE")
def _dequantize(op: ir.Op) -> int:
    i = _t(op, 0)
    x = op.inputs[0]
    if i in (I16, F16):
        return 3
    if i == I8:
        if x.quant is not None and x.quant.scale.size > 1 and x.quant.scale.size == x.shape[x.quant.dim]:
            return 5
        return 2
    return 1


@_rule("TRANSPOSE")
def _transpose(op: ir.Op) -> int:
    i, r = _t(op, 0), _rank(op, 0)
    if i == F16:
        return 9
    if r > 6:
        return 8
    if r > 5:
        return 6
    if i == I16:
        return 5
    if r > 4:
        return 4
    if i == BOOL:
        return 3
    return 2 if i == I8 else 1


@_rule("STRIDED_SLICE")
def _strided_slice(op: ir.Op) -> int:
    i = _t(op, 0)
    if op.option("offset", False):
        return 8
    if op.option("ellipsis_mask", 0) or op.option("new_axis_mask", 0):
        return 6
    if _rank(op, 0) > 4:
        return 4
    if i == BOOL:
        return 3
    return 2 if i == I8 else 1


@_rule("SLICE")
def _slice(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == F16:
        return 8
    if _rank(op, 0) > 4:
        return 5
    if i == I16:
        return 4
    return 2 if i == I8 else 1


@_rule("PACK")
def _pack(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I8:
        return 2
    return 3 if i == I16 and _o(op) == I16 else 1


@_rule("UNPACK")
def _unpack(op: ir.Op) -> int:
    i = _t(op, 0)
    if i in (I8, U8):
        return 2
    if i == BOOL:
        return 3
    if i == I16 and _o(op) == I16:
        return 4
    return 5 if i == F16 else 1


@_rule("SPLIT")
def _split(op: ir.Op) -> int:
    i = _t(op, 1)
    if i == I16:
        return 4
    if i == I32:
        return 3
    return 2 if i == I8 else 1


@_rule("UNIDIRECTIONAL_SEQUENCE_LSTM")
def _sequence_lstm(op: ir.Op) -> int:
    """4 with diagonal recurrent weights; hybrid (float input, int8 weights) 3 with asymmetric inputs, else 2."""
    if op.option("diagonal_recurrent_tensors", False):
        return 4
    if _t(op, 0) == F32 and _t(op, 4) == I8:
        return 3 if op.option("asymmetric_quantize_inputs", False) else 2
    return 1


@_rule("GATHER")
def _gather(op: ir.Op) -> int:
    i, idx = _t(op, 0), _t(op, 1)
    if idx == I16:
        return 6
    if op.option("batch_dims", 0):
        return 5
    if i == I16:
        return 4
    if i == BOOL:
        return 3
    return 2 if i == I8 else 1


@_rule("SPLIT_V", "SUM", "LOG_SOFTMAX", "GREATER", "LESS_EQUAL", "SQUARED_DIFFERENCE", "SPACE_TO_DEPTH",
       "DEPTH_TO_SPACE")
def _int8_2(op: ir.Op) -> int:
    return 2 if _t(op, 0) == I8 else 1


@_rule("LESS", "GREATER_EQUAL")
def _less(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16:
        return 3
    return 2 if i == I8 else 1


@_rule("EXP", "LOG", "REDUCE_PROD", "SQRT")
def _int8_or_16_2(op: ir.Op) -> int:
    return 2 if _t(op, 0) in (I8, I16) else 1


@_rule("ARG_MAX", "ARG_MIN")
def _arg(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == BOOL:
        return 3
    return 2 if i == I8 else 1


@_rule("ABS")
def _abs(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I32:
        return 5
    if i == I16:
        return 3 if op.inputs[0].quant is not None else 4
    return 2 if i in (I8, U8) else 1


@_rule("LEAKY_RELU")
def _leaky_relu(op: ir.Op) -> int:
    return 2 if _t(op, 0) == I16 else 1


@_rule("TILE")
def _tile(op: ir.Op) -> int:
    return 3 if _t(op, 0) == I8 else 1


@_rule("TRANSPOSE_CONV")
def _transpose_conv(op: ir.Op) -> int:
    if op.option("fused_activation_function", 0):
        return 4
    if len(op.inputs) == 4 and op.inputs[3] is not None:
        return 3
    return 2 if _t(op, 1) == I8 else 1


@_rule("BATCH_MATMUL")
def _batch_matmul(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16:
        return 3
    if i == I8:
        return 2
    if i == F32 and _t(op, 1) == I8 and _o(op) == F32 and op.option("asymmetric_quantize_inputs", False):
        return 4
    return 1


@_rule("CAST")
def _cast(op: ir.Op) -> int:
    a, b = _t(op, 0), _o(op)
    kinds = {a.name, b.name}
    if kinds & {"float64", "float16"}:
        return 5
    if "uint16" in kinds:
        return 4
    if "int8" in kinds:
        return 3
    return 2 if "uint32" in kinds else 1


@_rule("EQUAL")
def _equal(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16:
        return 5
    return 2 if i == I8 else 1


@_rule("NOT_EQUAL")
def _not_equal(op: ir.Op) -> int:
    i = _t(op, 0)
    if i == I16:
        return 4
    return 2 if i == I8 else 1


@_rule("L2_NORMALIZATION")
def _l2_norm(op: ir.Op) -> int:
    return 2 if _o(op) == I8 else 1


@_rule("RESIZE_BILINEAR")
def _resize_bilinear(op: ir.Op) -> int:
    if _t(op, 0) == I16:
        return 4
    if op.option("half_pixel_centers", False):
        return 3
    return 2 if _t(op, 0) == I8 else 1


@_rule("RESIZE_NEAREST_NEIGHBOR")
def _resize_nearest(op: ir.Op) -> int:
    if _t(op, 0) == I16:
        return 4
    if op.option("half_pixel_centers", False) or op.option("align_corners", False):
        return 3
    return 2 if _t(op, 0) == I8 else 1


@_rule("REVERSE_V2")
def _reverse_v2(op: ir.Op) -> int:
    i = _t(op, 0)
    return 3 if i == I8 else 2 if i == BOOL else 1


@_rule("SIN", "COS")
def _trig(op: ir.Op) -> int:
    return 2 if _t(op, 0) == F16 else 1


@_rule("BROADCAST_TO")
def _broadcast_to(op: ir.Op) -> int:
    """Version 1 was withdrawn when the op got its code above 127, so the first version is 2."""
    return 3 if _t(op, 0) in (I8, I16) else 2


# (op, version) -> the first TFLite runtime that runs it (runtime_version.cc), for the ops emitted here.
_RUNTIME = {
    "ADD": ["1.5.0", "1.14.0", "2.4.0", "2.6.0", "2.13.0", "2.23.0"],
    "AVERAGE_POOL_2D": ["1.5.0", "1.14.0", "2.3.0"],
    "BATCH_MATMUL": ["2.3.0", "2.3.0", "2.4.0", "2.5.0"],
    "BROADCAST_TO": ["", "2.5.0", "2.5.0"],
    "CAST": ["1.5.0", "2.7.0", "2.8.0", "2.9.0", "2.12.0", "2.15.0", "2.17.0"],
    "CONCATENATION": ["1.5.0", "1.14.0", "2.3.0", "2.14.0", "2.21.0", "2.23.0"],
    "CONV_2D": ["1.5.0", "1.14.0", "1.14.0", "2.3.0", "2.4.0", "2.9.0", "2.11.0", "2.15.0"],
    "DEPTHWISE_CONV_2D": ["1.5.0", "1.12.0", "1.14.0", "2.2.0", "2.3.0", "2.3.0", "2.11.0"],
    "DEQUANTIZE": ["1.13.1", "1.14.0", "1.15.0", "2.2.0", "2.7.0", "2.18.0"],
    "DIV": ["1.6.0", "2.3.0"],
    "EQUAL": ["1.14.0", "1.14.0", "2.3.0", "2.13.0", "2.21.0"],
    "NOT_EQUAL": ["1.14.0", "1.14.0", "2.3.0", "2.21.0"],
    "EXP": ["1.7.0", "2.12.0"],
    "EXPAND_DIMS": ["1.10.0"],
    "FULLY_CONNECTED": ["1.5.0", "1.10.0", "1.14.0", "1.14.0", "2.0.0", "2.1.0", "2.3.0", "2.3.0", "2.3.0",
                        "2.11.0", "2.15.0", "2.17.0", "2.18.0"],
    "GATHER": ["1.6.0", "1.14.0", "1.15.0", "2.4.0", "2.5.0", "2.13.0", "2.15.0"],
    "GREATER": ["1.14.0", "1.14.0"], "GREATER_EQUAL": ["1.14.0", "1.14.0", "2.13.0"],
    "LESS": ["1.14.0", "1.14.0", "2.13.0"], "LESS_EQUAL": ["1.14.0", "1.14.0"],
    "L2_NORMALIZATION": ["1.5.0", "1.14.0"],
    "LEAKY_RELU": ["1.13.1", "2.3.0"],
    "LOGISTIC": ["1.14.0", "1.14.0", "2.3.0"],
    "LOG_SOFTMAX": ["1.14.0", "1.14.0"],
    "MAX_POOL_2D": ["1.5.0", "1.14.0", "2.3.0"],
    "MAXIMUM": ["1.14.0", "1.14.0", "2.3.0", "2.3.0"], "MINIMUM": ["1.14.0", "1.14.0", "2.3.0", "2.3.0"],
    "MEAN": ["1.6.0", "1.14.0", "2.4.0"],
    "MIRROR_PAD": ["1.13.1", "2.3.0", "2.12.0"],
    "MUL": ["1.5.0", "1.14.0", "1.15.0", "2.3.0", "2.6.0", "2.11.0", "2.13.0", "2.23.0"],
    "PACK": ["1.11.0", "1.14.0", "2.3.0", "2.13.0"], "UNPACK": ["1.11.0", "1.14.0", "2.2.0", "2.3.0", "2.22.0"],
    "PAD": ["1.5.0", "1.14.0", "2.4.0", "2.6.0", "2.20.0"], "PADV2": ["1.9.0", "1.14.0", "2.4.0", "2.6.0", "2.20.0"],
    "QUANTIZE": ["1.14.0", "1.15.0", "2.7.0"],
    "REDUCE_MAX": ["1.11.0", "1.14.0", "2.5.0"], "REDUCE_MIN": ["1.11.0", "1.14.0", "2.5.0"],
    "REDUCE_PROD": ["1.11.0", "2.6.0"], "REDUCE_ANY": ["1.11.0"], "REDUCE_ALL": ["2.6.0"],
    "RELU": ["1.5.0", "2.1.0", "2.5.0"], "RELU6": ["1.5.0", "1.14.0", "2.5.0"], "RELU_N1_TO_1": ["1.5.0"],
    "RESHAPE": ["1.5.0"],
    "RESIZE_BILINEAR": ["1.7.0", "1.14.0", "2.2.0", "2.5.0"],
    "RESIZE_NEAREST_NEIGHBOR": ["1.13.1", "1.14.0", "2.3.0", "2.4.0"],
    "RSQRT": ["1.10.0", "2.5.0", "2.15.0"], "SQRT": ["1.10.0", "2.21.0"], "LOG": ["1.14.0", "2.15.0"],
    "SHAPE": ["1.10.0"],
    "SLICE": ["1.14.0", "1.14.0", "1.14.0", "2.4.0", "2.5.0", "2.14.0", "2.21.0", "2.23.0"],
    "SOFTMAX": ["1.5.0", "1.14.0", "2.3.0", "2.23.0"],
    "SPLIT": ["1.5.0", "1.14.0", "1.14.0", "2.3.0"], "SPLIT_V": ["1.13.1", "2.3.0"],
    "SQUARED_DIFFERENCE": ["1.13.1", "2.5.0"], "SQUARE": ["1.12.0"], "SQUEEZE": ["1.6.0", "2.5.0"],
    "REVERSE_V2": ["1.14.0", "2.2.0", "2.5.0"],
    "STRIDED_SLICE": ["1.6.0", "1.14.0", "2.1.0", "2.2.0", "2.5.0", "2.6.0", "2.14.0", "2.14.0"],
    "SUB": ["1.6.0", "1.14.0", "2.3.0", "2.4.0", "2.4.0"],
    "SUM": ["1.10.0", "1.15.0"],
    "TANH": ["1.14.0", "1.14.0", "2.3.0"],
    "TILE": ["1.10.1", "2.2.0", "2.8.0"],
    "TRANSPOSE": ["1.6.0", "1.14.0", "1.15.0", "2.3.0", "2.4.0", "2.12.0", "2.14.4", "2.22.0", "2.23.0"],
    "TRANSPOSE_CONV": ["1.9.0", "2.2.0", "2.3.0", "2.13.0", "2.15.0"],
    "ARG_MAX": ["1.9.0", "1.14.0", "2.9.0"], "ARG_MIN": ["1.9.0", "1.14.0", "2.9.0"],
    "ABS": ["1.13.0", "2.4.0", "2.5.0", "2.6.0", "2.12.0"], "NEG": ["1.9.0"], "ELU": ["1.14.0"],
    "FLOOR": ["1.9.0"], "CEIL": ["1.14.0"], "ROUND": ["1.14.0"], "SIN": ["1.9.0", "2.23.0"],
    "COS": ["1.14.0", "2.23.0"], "POW": ["1.10.0"], "FLOOR_DIV": ["1.14.0", "1.14.0", "2.13.0"],
    "FLOOR_MOD": ["1.13.0", "2.13.0"], "LOGICAL_OR": ["1.11.0"], "LOGICAL_AND": ["1.11.0"],
    "LOGICAL_NOT": ["1.11.0"], "SELECT_V2": ["2.2.0", "2.12.0"], "ZEROS_LIKE": ["1.12.0"],
    "HARD_SWISH": ["1.15.0"], "SIGN": ["2.11.0", "2.12.0"],
}


def runtime_version_of(code: str, version: int) -> str:
    """Minimum runtime of one (op, version), '' when TFLite lists none."""
    versions = _RUNTIME.get(code, [])
    return versions[version - 1] if 0 < version <= len(versions) else ""


def _version_key(v: str) -> tuple:
    return tuple(int(p) for p in v.split("."))


def min_runtime_version(pairs: Iterable) -> str:
    """Largest minimum runtime over (op code name, version) pairs."""
    found = [runtime_version_of(c, v) for c, v in pairs]
    found = [v for v in found if v]
    return max(found, key=_version_key) if found else ""
