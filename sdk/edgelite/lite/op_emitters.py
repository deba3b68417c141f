"""SDK op types -> TFLite builtin operators with their option tables and TFLite weight layouts.

Each emitter takes the Lowering and one SDK op, asks for its inputs (`b.value`, or `b.const_of` for
operands TFLite needs constant), and appends TFLite ops writing `b.output(op.outputs[i])`.
Layouts: Conv2D filters HWIO -> OHWI, depthwise HWCM -> 1HW(C*M), MatMul [in, out] -> [out, in].
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from edgelite.lite import schema

EMITTERS: dict = {}


def emitter(*types: str) -> Callable:
    """Register a function as the emitter of the given SDK op types."""
    def register(fn: Callable) -> Callable:
        for t in types:
            EMITTERS[t] = fn
        return fn
    return register


def _attr(op: Any, name: str, default: Any = None) -> Any:
    try:
        value = op.get_attr(name)
    except (ValueError, KeyError):
        return default
    return value.decode() if isinstance(value, bytes) else value


def _act(name: str = "NONE") -> int:
    return schema.ACTIVATIONS[name]


def _nhwc(b: Any, op: Any) -> bool:
    if _attr(op, "data_format", "NHWC") not in ("NHWC", "NWC", "NDHWC"):
        b.unsupported_op(op, "only NHWC data_format converts")
        return False
    return True


def _padding(b: Any, op: Any, x: Any) -> Any:
    """(padding enum, input) for SAME/VALID; EXPLICIT paddings become a PAD op in front."""
    pad = _attr(op, "padding", "VALID")
    if pad in ("SAME", "VALID"):
        return schema.PADDINGS[pad], x
    explicit = np.asarray(_attr(op, "explicit_paddings", []), np.int32).reshape(-1, 2)
    padded = b.new_tensor(x.name + "/pad", _padded_shape(x.shape, explicit), x.dtype)
    b.emit("PAD", [x, b.const(explicit, x.name + "/paddings", np.int32)], [padded], ("PadOptions", {}), "Pad")
    return schema.PADDINGS["VALID"], padded


def _padded_shape(shape: tuple, pads: np.ndarray) -> tuple:
    return tuple(d if d < 0 else d + int(p.sum()) for d, p in zip(shape, pads))


def _positive_axis(axis: int, rank: int) -> int:
    return int(axis) + rank if int(axis) < 0 else int(axis)


# ---- convolutions and fully connected --------------------------------------------------------------------
@emitter("Conv2D")
def _conv2d(b: Any, op: Any) -> None:
    if not _nhwc(b, op):
        return
    w = b.const_of(op.inputs[1])
    if w is None:
        b.unsupported_op(op, "the filter must be constant")
        return
    x = b.value(op.inputs[0])
    padding, x = _padding(b, op, x)
    strides, dil = _attr(op, "strides"), _attr(op, "dilations", [1, 1, 1, 1])
    wt = b.const(np.transpose(w, (3, 0, 1, 2)), op.inputs[1].op.name)
    bias = b.const(np.zeros(w.shape[3], w.dtype), op.name + "/bias")
    b.emit("CONV_2D", [x, wt, bias], [b.output(op.outputs[0])],
           ("Conv2DOptions", {"padding": padding, "stride_w": int(strides[2]), "stride_h": int(strides[1]),
                              "fused_activation_function": _act(), "dilation_w_factor": int(dil[2]),
                              "dilation_h_factor": int(dil[1])}), op.type)


@emitter("DepthwiseConv2dNative")
def _depthwise(b: Any, op: Any) -> None:
    if not _nhwc(b, op):
        return
    w = b.const_of(op.inputs[1])
    if w is None:
        b.unsupported_op(op, "the filter must be constant")
        return
    x = b.value(op.inputs[0])
    padding, x = _padding(b, op, x)
    strides, dil = _attr(op, "strides"), _attr(op, "dilations", [1, 1, 1, 1])
    kh, kw, c, m = w.shape
    wt = b.const(w.reshape(1, kh, kw, c * m), op.inputs[1].op.name)
    bias = b.const(np.zeros(c * m, w.dtype), op.name + "/bias")
    b.emit("DEPTHWISE_CONV_2D", [x, wt, bias], [b.output(op.outputs[0])],
           ("DepthwiseConv2DOptions", {"padding": padding, "stride_w": int(strides[2]), "stride_h": int(strides[1]),
                                       "depth_multiplier": int(m), "fused_activation_function": _act(),
                                       "dilation_w_factor": int(dil[2]), "dilation_h_factor": int(dil[1])}), op.type)


@emitter("MatMul")
def _matmul(b: Any, op: Any) -> None:
    w = b.const_of(op.inputs[1])
    if w is None or _attr(op, "transpose_a", False):
        _batch_matmul(b, op, adj_x=bool(_attr(op, "transpose_a", False)), adj_y=bool(_attr(op, "transpose_b", False)))
        return
    _fully_connected(b, op, w if _attr(op, "transpose_b", False) else w.T, keep_num_dims=False)


def _fully_connected(b: Any, op: Any, weights: np.ndarray, keep_num_dims: bool) -> None:
    """FULLY_CONNECTED of op's first input with [out, in] weights and a zero bias (for a later ADD to fold into)."""
    wt = b.const(weights, op.inputs[1].op.name)
    bias = b.const(np.zeros(weights.shape[0], weights.dtype), op.name + "/bias")
    b.emit("FULLY_CONNECTED", [b.value(op.inputs[0]), wt, bias], [b.output(op.outputs[0])],
           ("FullyConnectedOptions", {"fused_activation_function": _act(), "keep_num_dims": keep_num_dims}),
           op.type)


@emitter("BatchMatMulV2", "BatchMatMul")
def _batch_matmul_op(b: Any, op: Any) -> None:
    adj_x, adj_y = bool(_attr(op, "adj_x", False)), bool(_attr(op, "adj_y", False))
    w = b.const_of(op.inputs[1])
    if w is not None and w.ndim == 2 and not adj_x:
        # TF's converter writes a batched product with constant 2-D weights as FULLY_CONNECTED keeping the
        # leading dimensions (version 5), which also runs with a dimension unknown until run time
        _fully_connected(b, op, w if adj_y else w.T, keep_num_dims=True)
        return
    _batch_matmul(b, op, adj_x, adj_y)


def _batch_matmul(b: Any, op: Any, adj_x: bool, adj_y: bool) -> None:
    ins = [b.value(op.inputs[0]), b.value(op.inputs[1])]
    b.emit("BATCH_MATMUL", ins, [b.output(op.outputs[0])],
           ("BatchMatMulOptions", {"adj_x": adj_x, "adj_y": adj_y}), op.type)


@emitter("Conv2DBackpropInput")
def _transpose_conv(b: Any, op: Any) -> None:
    if not _nhwc(b, op):
        return
    shape, w = b.const_of(op.inputs[0]), b.const_of(op.inputs[1])
    if shape is None or w is None or _attr(op, "padding") not in ("SAME", "VALID"):
        b.unsupported_op(op, "output shape and filter must be constant, padding SAME or VALID")
        return
    strides = _attr(op, "strides")
    out_shape = b.const(np.asarray(shape, np.int32), op.inputs[0].op.name)
    wt = b.const(np.transpose(w, (2, 0, 1, 3)), op.inputs[1].op.name)
    b.emit("TRANSPOSE_CONV", [out_shape, wt, b.value(op.inputs[2])], [b.output(op.outputs[0])],
           ("TransposeConvOptions", {"padding": schema.PADDINGS[_attr(op, "padding")], "stride_w": int(strides[2]),
                                     "stride_h": int(strides[1])}), op.type)


@emitter("FusedBatchNormV3", "FusedBatchNorm", "FusedBatchNormV2")
def _fused_batch_norm(b: Any, op: Any) -> None:
    """Inference batch norm as x * s + t with s = scale / sqrt(var + eps), t = offset - mean * s."""
    params = [b.const_of(t) for t in op.inputs[1:5]]
    if _attr(op, "is_training", True) or any(p is None for p in params) or not _nhwc(b, op):
        b.unsupported_op(op, "batch norm converts only in inference mode with constant statistics")
        return
    scale, offset, mean, var = (np.asarray(p, np.float64) for p in params)
    s = scale / np.sqrt(var + float(_attr(op, "epsilon", 1e-3)))
    t = offset - mean * s
    x = b.value(op.inputs[0])
    dtype = x.dtype
    mul_out = b.new_tensor(op.name + "/mul", x.shape, dtype)
    b.emit("MUL", [x, b.const(s.astype(dtype), op.name + "/scale")], [mul_out], ("MulOptions", {}), op.type)
    b.emit("ADD", [mul_out, b.const(t.astype(dtype), op.name + "/offset")], [b.output(op.outputs[0])],
           ("AddOptions", {}), op.type)


# ---- elementwise -----------------------------------------------------------------------------------------
_BINARY = {
    "Add": ("ADD", "AddOptions"), "AddV2": ("ADD", "AddOptions"), "BiasAdd": ("ADD", "AddOptions"),
    "Sub": ("SUB", "SubOptions"), "Mul": ("MUL", "MulOptions"), "Maximum": ("MAXIMUM", "MaximumMinimumOptions"),
    "Minimum": ("MINIMUM", "MaximumMinimumOptions"), "SquaredDifference": ("SQUARED_DIFFERENCE",
                                                                           "SquaredDifferenceOptions"),
    "Pow": ("POW", "PowOptions"), "FloorDiv": ("FLOOR_DIV", "FloorDivOptions"),
    "FloorMod": ("FLOOR_MOD", "FloorModOptions"), "Equal": ("EQUAL", "EqualOptions"),
    "NotEqual": ("NOT_EQUAL", "NotEqualOptions"), "Less": ("LESS", "LessOptions"),
    "LessEqual": ("LESS_EQUAL", "LessEqualOptions"), "Greater": ("GREATER", "GreaterOptions"),
    "GreaterEqual": ("GREATER_EQUAL", "GreaterEqualOptions"), "LogicalAnd": ("LOGICAL_AND", "LogicalAndOptions"),
    "LogicalOr": ("LOGICAL_OR", "LogicalOrOptions"),
}
_FUSABLE_BINARY = {"AddOptions", "SubOptions", "MulOptions", "DivOptions"}


@emitter(*_BINARY)
def _binary(b: Any, op: Any) -> None:
    if op.type == "BiasAdd" and not _nhwc(b, op):
        return
    code, table = _BINARY[op.type]
    options = {"fused_activation_function": _act()} if table in _FUSABLE_BINARY else {}
    b.emit(code, [b.value(op.inputs[0]), b.value(op.inputs[1])], [b.output(op.outputs[0])], (table, options),
           op.type)


@emitter("RealDiv", "Div")
def _div(b: Any, op: Any) -> None:
    """Division by a float constant becomes a multiplication by its reciprocal (as TF's optimizer does)."""
    divisor = b.const_of(op.inputs[1])
    x = b.value(op.inputs[0])
    if divisor is not None and np.issubdtype(np.asarray(divisor).dtype, np.floating):
        inv = b.const((1.0 / np.asarray(divisor, np.float64)).astype(divisor.dtype), op.inputs[1].op.name + "/inv")
        b.emit("MUL", [x, inv], [b.output(op.outputs[0])], ("MulOptions", {"fused_activation_function": _act()}),
               op.type)
        return
    b.emit("DIV", [x, b.value(op.inputs[1])], [b.output(op.outputs[0])],
           ("DivOptions", {"fused_activation_function": _act()}), op.type)


_UNARY = {
    "Relu": ("RELU", None), "Relu6": ("RELU6", None), "Sigmoid": ("LOGISTIC", None), "Tanh": ("TANH", None),
    "Elu": ("ELU", None), "Exp": ("EXP", "ExpOptions"), "Log": ("LOG", None), "Sqrt": ("SQRT", None),
    "Rsqrt": ("RSQRT", None), "Square": ("SQUARE", "SquareOptions"), "Neg": ("NEG", "NegOptions"),
    "Abs": ("ABS", "AbsOptions"), "Floor": ("FLOOR", None), "Ceil": ("CEIL", None), "Round": ("ROUND", None),
    "Sin": ("SIN", None), "Cos": ("COS", "CosOptions"), "Sign": ("SIGN", "SignOptions"),
    "LogicalNot": ("LOGICAL_NOT", "LogicalNotOptions"), "LogSoftmax": ("LOG_SOFTMAX", "LogSoftmaxOptions"),
    "ZerosLike": ("ZEROS_LIKE", "ZerosLikeOptions"),
}


@emitter(*_UNARY)
def _unary(b: Any, op: Any) -> None:
    code, table = _UNARY[op.type]
    b.emit(code, [b.value(op.inputs[0])], [b.output(op.outputs[0])], (table, {}) if table else None, op.type)


@emitter("AddN")
def _add_n(b: Any, op: Any) -> None:
    # TF writes ADD_N (version 1) without an options table
    b.emit("ADD_N", [b.value(t) for t in op.inputs], [b.output(op.outputs[0])], None, op.type)


@emitter("Softmax")
def _softmax(b: Any, op: Any) -> None:
    b.emit("SOFTMAX", [b.value(op.inputs[0])], [b.output(op.outputs[0])], ("SoftmaxOptions", {"beta": 1.0}), op.type)


@emitter("LeakyRelu")
def _leaky_relu(b: Any, op: Any) -> None:
    b.emit("LEAKY_RELU", [b.value(op.inputs[0])], [b.output(op.outputs[0])],
           ("LeakyReluOptions", {"alpha": float(_attr(op, "alpha", 0.2))}), op.type)


@emitter("Bucketize")
def _bucketize(b: Any, op: Any) -> None:
    # the feature-column bucketizer: TFLite's BUCKETIZE takes the same sorted float boundaries
    b.emit("BUCKETIZE", [b.value(op.inputs[0])], [b.output(op.outputs[0])],
           ("BucketizeOptions", {"boundaries": [float(x) for x in _attr(op, "boundaries", [])]}), op.type)


@emitter("OneHot")
def _one_hot(b: Any, op: Any) -> None:
    # inputs as TF orders them: indices, depth, on_value, off_value
    b.emit("ONE_HOT", [b.value(t) for t in op.inputs], [b.output(op.outputs[0])],
           ("OneHotOptions", {"axis": int(_attr(op, "axis", -1))}), op.type)


@emitter("Cast")
def _cast(b: Any, op: Any) -> None:
    x = b.value(op.inputs[0])
    out = b.output(op.outputs[0])
    b.emit("CAST", [x], [out], ("CastOptions", {"in_data_type": _tensor_type(x.dtype),
                                                "out_data_type": _tensor_type(out.dtype)}), op.type)


def _tensor_type(dtype: Any) -> int:
    return schema.TENSOR_TYPES[schema.NUMPY_TENSOR_TYPES[np.dtype(dtype).name]]


@emitter("Select", "SelectV2")
def _select(b: Any, op: Any) -> None:
    cond, x = op.inputs[0].shape, op.inputs[1].shape
    if op.type == "Select" and cond.ndims == 1 and x.ndims is not None and x.ndims > 1:
        # v1 where with a vector condition picks whole rows: TFLite's SELECT does that, SELECT_V2 broadcasts
        b.emit("SELECT", [b.value(i) for i in op.inputs], [b.output(op.outputs[0])], ("SelectOptions", {}), op.type)
        return
    b.emit("SELECT_V2", [b.value(i) for i in op.inputs], [b.output(op.outputs[0])], ("SelectV2Options", {}), op.type)


# ---- pooling and reductions -----------------------------------------------------------------------------
@emitter("MaxPool", "AvgPool")
def _pool(b: Any, op: Any) -> None:
    if not _nhwc(b, op):
        return
    ksize, strides = _attr(op, "ksize"), _attr(op, "strides")
    code = "MAX_POOL_2D" if op.type == "MaxPool" else "AVERAGE_POOL_2D"
    b.emit(code, [b.value(op.inputs[0])], [b.output(op.outputs[0])],
           ("Pool2DOptions", {"padding": schema.PADDINGS[_attr(op, "padding")], "stride_w": int(strides[2]),
                              "stride_h": int(strides[1]), "filter_width": int(ksize[2]),
                              "filter_height": int(ksize[1]), "fused_activation_function": _act()}), op.type)


_REDUCERS = {"Mean": "MEAN", "Sum": "SUM", "Max": "REDUCE_MAX", "Min": "REDUCE_MIN", "Prod": "REDUCE_PROD",
             "Any": "REDUCE_ANY", "All": "REDUCE_ALL"}


@emitter(*_REDUCERS)
def _reduce(b: Any, op: Any) -> None:
    axes = b.const_of(op.inputs[1])
    if axes is None:
        b.unsupported_op(op, "reduction axes must be constant")
        return
    x = b.value(op.inputs[0])
    rank = len(x.shape)
    axes = np.asarray([_positive_axis(a, rank) for a in np.atleast_1d(axes)], np.int32)
    b.emit(_REDUCERS[op.type], [x, b.const(axes, op.inputs[1].op.name, np.int32)], [b.output(op.outputs[0])],
           ("ReducerOptions", {"keep_dims": bool(_attr(op, "keep_dims", False))}), op.type)


@emitter("ArgMax", "ArgMin")
def _arg(b: Any, op: Any) -> None:
    axis = b.const_of(op.inputs[1])
    if axis is None:
        b.unsupported_op(op, "the axis must be constant")
        return
    out = b.output(op.outputs[0])
    code, table = ("ARG_MAX", "ArgMaxOptions") if op.type == "ArgMax" else ("ARG_MIN", "ArgMinOptions")
    b.emit(code, [b.value(op.inputs[0]), b.const(np.atleast_1d(axis).astype(np.int32), op.inputs[1].op.name)], [out],
           (table, {"output_type": _tensor_type(out.dtype)}), op.type)


# ---- shapes and data movement --------------------------------------------------------------------------------
def _batch_reshape(b: Any, op: Any) -> Any:
    """New shape for reshape(x, [tf.shape(x)[0], ...]) with an unknown batch: the batch entry becomes -1
    and a -1 among the others is solved from x's static non-batch dimensions."""
    pack = op.inputs[1].op
    x_shape = op.inputs[0].shape.as_list() if op.inputs[0].shape.ndims else None
    if pack.type != "Pack" or not x_shape or None in x_shape[1:]:
        return None
    entries = []
    for t in pack.inputs:
        value = b.const_of(t)
        if value is not None:
            entries.append(int(value))
            continue
        sl = t.op
        if (sl.type != "StridedSlice" or sl.inputs[0].op.type != "Shape" or
                sl.inputs[0].op.inputs[0] is not op.inputs[0] or b.const_of(sl.inputs[1]) is None):
            return None
        entries.append("batch" if int(np.ravel(b.const_of(sl.inputs[1]))[0]) == 0 else None)
    if entries.count("batch") != 1 or None in entries:
        return None
    known = [e for e in entries if e not in ("batch", -1)]
    inner = int(np.prod(x_shape[1:], dtype=np.int64))
    solved = inner // int(np.prod(known, dtype=np.int64)) if -1 in entries else None
    return np.asarray([-1 if e == "batch" else (solved if e == -1 else e) for e in entries], np.int32)


@emitter("Reshape")
def _reshape(b: Any, op: Any) -> None:
    shape = b.const_of(op.inputs[1])
    out = b.output(op.outputs[0])
    if shape is None and b.unknown_inner_dims:
        b.emit("RESHAPE", [b.value(op.inputs[0]), b.value(op.inputs[1])], [out], None, op.type)
        return
    if shape is None:
        shape = _batch_reshape(b, op)
    if shape is None:
        if sum(d < 0 for d in out.shape) > 1:
            b.unsupported_op(op, "the new shape must be constant or have at most one unknown dimension")
            return
        shape = np.asarray(out.shape, np.int32)
    b.emit("RESHAPE", [b.value(op.inputs[0]), b.const(np.asarray(shape, np.int32).ravel(), op.inputs[1].op.name)],
           [out], None, op.type)


@emitter("ExpandDims")
def _expand_dims(b: Any, op: Any) -> None:
    axis = b.const_of(op.inputs[1])
    if axis is None:
        b.unsupported_op(op, "the axis must be constant")
        return
    b.emit("EXPAND_DIMS", [b.value(op.inputs[0]), b.const(np.asarray(axis, np.int32).ravel(), op.inputs[1].op.name)],
           [b.output(op.outputs[0])], ("ExpandDimsOptions", {}), op.type)


@emitter("Squeeze")
def _squeeze(b: Any, op: Any) -> None:
    dims = list(_attr(op, "squeeze_dims", []) or [])
    b.emit("SQUEEZE", [b.value(op.inputs[0])], [b.output(op.outputs[0])],
           ("SqueezeOptions", {"squeeze_dims": [int(d) for d in dims] or None}), op.type)


@emitter("ConcatV2")
def _concat(b: Any, op: Any) -> None:
    axis = b.const_of(op.inputs[-1])
    if axis is None:
        b.unsupported_op(op, "the axis must be constant")
        return
    values = [b.value(t) for t in op.inputs[:-1]]
    out = b.output(op.outputs[0])
    b.emit("CONCATENATION", values, [out],
           ("ConcatenationOptions", {"axis": _positive_axis(int(axis), len(out.shape)),
                                     "fused_activation_function": _act()}), op.type)


@emitter("Pack")
def _pack(b: Any, op: Any) -> None:
    out = b.output(op.outputs[0])
    b.emit("PACK", [b.value(t) for t in op.inputs], [out],
           ("PackOptions", {"values_count": len(op.inputs),
                            "axis": _positive_axis(int(_attr(op, "axis", 0)), len(out.shape))}), op.type)


@emitter("Unpack")
def _unpack(b: Any, op: Any) -> None:
    x = b.value(op.inputs[0])
    b.emit("UNPACK", [x], [b.output(o) for o in op.outputs],
           ("UnpackOptions", {"num": len(op.outputs),
                              "axis": _positive_axis(int(_attr(op, "axis", 0)), len(x.shape))}), op.type)


@emitter("Split")
def _split(b: Any, op: Any) -> None:
    axis = b.const_of(op.inputs[0])
    if axis is None:
        b.unsupported_op(op, "the axis must be constant")
        return
    b.emit("SPLIT", [b.const(np.asarray(axis, np.int32), op.inputs[0].op.name), b.value(op.inputs[1])],
           [b.output(o) for o in op.outputs], ("SplitOptions", {"num_splits": len(op.outputs)}), op.type)


@emitter("SplitV")
def _split_v(b: Any, op: Any) -> None:
    sizes, axis = b.const_of(op.inputs[1]), b.const_of(op.inputs[2])
    if sizes is None or axis is None:
        b.unsupported_op(op, "sizes and axis must be constant")
        return
    b.emit("SPLIT_V", [b.value(op.inputs[0]), b.const(np.asarray(sizes, np.int32), op.inputs[1].op.name),
                       b.const(np.asarray(axis, np.int32), op.inputs[2].op.name)],
           [b.output(o) for o in op.outputs], ("SplitVOptions", {"num_splits": len(op.outputs)}), op.type)


def _const_operands(b: Any, op: Any, first: int, what: str) -> Any:
    """Constant int32 ir tensors for op.inputs[first:], or None (op recorded as unsupported)."""
    values = [b.const_of(t) for t in op.inputs[first:]]
    if any(v is None for v in values):
        b.unsupported_op(op, f"{what} must be constant")
        return None
    return [b.const(np.asarray(v, np.int32), t.op.name) for v, t in zip(values, op.inputs[first:])]


def _int_operand(b: Any, t: Any) -> Any:
    """An int32 constant for t, or the run-time tensor computing it (e.g. from tf.shape of an input whose
    dimensions are known only at run time, which TFLite's TILE and BROADCAST_TO read as they run)."""
    value = b.const_of(t)
    return b.value(t) if value is None else b.const(np.asarray(value, np.int32), t.op.name)


@emitter("Pad", "PadV2", "MirrorPad")
def _pad(b: Any, op: Any) -> None:
    consts = _const_operands(b, op, 1, "paddings")
    if consts is None:
        return
    x, out = b.value(op.inputs[0]), b.output(op.outputs[0])
    if op.type == "Pad":
        b.emit("PAD", [x, consts[0]], [out], ("PadOptions", {}), op.type)
    elif op.type == "PadV2":
        value = b.const(np.asarray(b.const_of(op.inputs[2]), x.dtype).reshape(()), op.inputs[2].op.name)
        b.emit("PADV2", [x, consts[0], value], [out], ("PadV2Options", {}), op.type)
    else:
        mode = 0 if _attr(op, "mode", "REFLECT") == "REFLECT" else 1
        b.emit("MIRROR_PAD", [x, consts[0]], [out], ("MirrorPadOptions", {"mode": mode}), op.type)


@emitter("Transpose")
def _transpose(b: Any, op: Any) -> None:
    consts = _const_operands(b, op, 1, "the permutation")
    if consts is not None:
        b.emit("TRANSPOSE", [b.value(op.inputs[0]), consts[0]], [b.output(op.outputs[0])],
               ("TransposeOptions", {}), op.type)


@emitter("StridedSlice")
def _strided_slice(b: Any, op: Any) -> None:
    consts = _const_operands(b, op, 1, "begin, end and strides")
    if consts is None:
        return
    names = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
    masks = {k: int(_attr(op, k, 0)) for k in names}
    b.emit("STRIDED_SLICE", [b.value(op.inputs[0])] + consts, [b.output(op.outputs[0])],
           ("StridedSliceOptions", masks), op.type)


@emitter("Slice")
def _slice(b: Any, op: Any) -> None:
    consts = _const_operands(b, op, 1, "begin and size")
    if consts is not None:
        b.emit("SLICE", [b.value(op.inputs[0])] + consts, [b.output(op.outputs[0])], ("SliceOptions", {}), op.type)


@emitter("Tile")
def _tile(b: Any, op: Any) -> None:
    b.emit("TILE", [b.value(op.inputs[0]), _int_operand(b, op.inputs[1])], [b.output(op.outputs[0])],
           ("TileOptions", {}), op.type)


@emitter("GatherV2")
def _gather(b: Any, op: Any) -> None:
    axis = b.const_of(op.inputs[2])
    if axis is None:
        b.unsupported_op(op, "the axis must be constant")
        return
    params = b.value(op.inputs[0])
    b.emit("GATHER", [params, b.value(op.inputs[1])], [b.output(op.outputs[0])],
           ("GatherOptions", {"axis": _positive_axis(int(axis), len(params.shape)),
                              "batch_dims": int(_attr(op, "batch_dims", 0))}), op.type)


@emitter("Shape")
def _shape(b: Any, op: Any) -> None:
    x = b.value(op.inputs[0])
    dtype = np.dtype(op.outputs[0].dtype.as_numpy_dtype)
    for existing in b.graph.ops:
        # each tf.shape(x) call is its own op; TF's converter merges those of one tensor into one SHAPE
        if existing.code == "SHAPE" and existing.inputs[0] is x and existing.outputs[0].dtype == dtype:
            b.alias(op.outputs[0], existing.outputs[0])
            return
    out = b.output(op.outputs[0])
    b.emit("SHAPE", [x], [out], ("ShapeOptions", {"out_type": _tensor_type(out.dtype)}), op.type)


@emitter("BroadcastTo")
def _broadcast_to(b: Any, op: Any) -> None:
    b.emit("BROADCAST_TO", [b.value(op.inputs[0]), _int_operand(b, op.inputs[1])], [b.output(op.outputs[0])],
           ("BroadcastToOptions", {}), op.type)
from edgelite.lite import rnn_emitters as _rnn_emitters  # noqa: E402,F401  (registers While/TensorListStack)
from edgelite.lite import image_emitters as _image_emitters  # noqa: E402,F401  (registers the tf.image resizes)
from edgelite.lite import shape_emitters as _shape_emitters  # noqa: E402,F401  (registers Fill/Range)
