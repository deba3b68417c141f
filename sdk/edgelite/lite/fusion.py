"""Graph rewrites on the lowered TFLite graph before quantization and emission.

- x + 0, x - 0 and x * 1 with constant operands are dropped;
- activation patterns: max(x, 0) -> RELU, min(relu(x), 6) -> RELU6, min(max(x, -1), 1) -> RELU_N1_TO_1;
- PAD with zeros in front of a VALID convolution that then equals SAME -> the convolution alone;
- per-channel constant MUL/ADD/SUB after CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED (batch norm,
  bias add) folded into the weights and bias;
- RELU/RELU6/RELU_N1_TO_1 folded into the fused activation of CONV_2D, DEPTHWISE_CONV_2D,
  FULLY_CONNECTED, ADD, SUB, MUL.
TANH is not fused: TFLite's float convolution, fully connected and add kernels clamp only to the
activation range (CalculateActivationRange), so a fused TANH would be silently skipped at run time.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from edgelite.lite import ir, schema
from edgelite.lite.lstm_layout import batch_major_lstm
from edgelite.lite.zero_folding import fold_zero_products

_WEIGHTED = {"CONV_2D": 0, "DEPTHWISE_CONV_2D": 3, "FULLY_CONNECTED": 0}  # op -> output-channel axis of weights
_FUSES_ACTIVATION = {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL"}
_ACTIVATION_OPS = {"RELU": "RELU", "RELU6": "RELU6", "RELU_N1_TO_1": "RELU_N1_TO_1"}


def optimize(g: ir.Graph) -> None:
    """Run every rewrite until nothing changes."""
    g.prune()
    for rewrite in (fold_zero_products, _drop_identities, _activation_patterns, _fold_pad, _fold_affine,
                    _fuse_activation, _squeeze_to_reshape, batch_major_lstm, _merge_reshapes):
        while rewrite(g):
            g.prune()


def _scalar(t: Optional[ir.Tensor]) -> Optional[float]:
    if t is None or not t.is_const or t.data.size != 1 or not np.issubdtype(t.data.dtype, np.floating):
        return None
    return float(t.data.ravel()[0])


def _sole_consumer(g: ir.Graph, t: ir.Tensor) -> Optional[ir.Op]:
    users = g.consumers(t)
    if len(users) != 1 or g.is_output(t):
        return None
    return users[0]


def _const_operand(op: ir.Op) -> tuple:
    """(dynamic input, constant input) of a binary op, or (None, None)."""
    a, b = op.inputs[0], op.inputs[1]
    if b is not None and b.is_const and not a.is_const:
        return a, b
    if a is not None and a.is_const and not b.is_const and op.code in ("ADD", "MUL", "MAXIMUM", "MINIMUM"):
        return b, a
    return None, None


def _drop_identities(g: ir.Graph) -> bool:
    """x + 0, x - 0, x * 1 (constants that broadcast to x's shape) are x."""
    for op in list(g.ops):
        if op.code not in ("ADD", "SUB", "MUL") or op.option("fused_activation_function", 0):
            continue
        x, c = _const_operand(op)
        if x is None or not np.issubdtype(c.data.dtype, np.floating) or x.shape != op.outputs[0].shape:
            continue
        neutral = 1.0 if op.code == "MUL" else 0.0
        if np.all(c.data == neutral) and not g.is_output(op.outputs[0]):
            g.replace_uses(op.outputs[0], x)
            g.remove(op)
            return True
    return False


def _replace_with(g: ir.Graph, op: ir.Op, code: str, x: ir.Tensor) -> None:
    op.code, op.inputs, op.options = code, [x], None


def _activation_patterns(g: ir.Graph) -> bool:
    changed = False
    for op in list(g.ops):
        if op.code not in ("MAXIMUM", "MINIMUM") or op not in g.ops:
            continue
        x, c = _const_operand(op)
        value = _scalar(c)
        if value is None:
            continue
        if op.code == "MAXIMUM" and value == 0.0:
            _replace_with(g, op, "RELU", x)
            changed = True
            continue
        inner = g.producer(x)
        if inner is None or _sole_consumer(g, x) is not op:
            continue
        if op.code == "MINIMUM" and value == 6.0 and inner.code == "RELU":
            _replace_with(g, op, "RELU6", inner.inputs[0])
            changed = True
            continue
        ix, ic = _const_operand(inner) if inner.code in ("MAXIMUM", "MINIMUM") else (None, None)
        inner_value = _scalar(ic)
        bounds = {op.code: value, inner.code: inner_value}
        if inner.code != op.code and bounds.get("MAXIMUM") == -1.0 and bounds.get("MINIMUM") == 1.0:
            _replace_with(g, op, "RELU_N1_TO_1", ix)
            changed = True
    return changed


def _same_padding(size: int, k: int, stride: int, dilation: int) -> tuple:
    """(output size, pad before) of SAME padding (TFLite padding.h)."""
    eff = (k - 1) * dilation + 1
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + eff - size, 0)
    return out, total // 2


def _fold_pad(g: ir.Graph) -> bool:
    changed = False
    for pad in list(g.ops):
        if pad.code not in ("PAD", "PADV2") or not pad.inputs[1].is_const:
            continue
        if pad.code == "PADV2" and _scalar(pad.inputs[2]) != 0.0:
            continue
        conv = _sole_consumer(g, pad.outputs[0])
        if conv is None or conv.code not in ("CONV_2D", "DEPTHWISE_CONV_2D") or conv.inputs[0] is not pad.outputs[0]:
            continue
        if conv.option("padding") != schema.PADDINGS["VALID"]:
            continue
        p = pad.inputs[1].data.reshape(-1, 2)
        x = pad.inputs[0]
        if p.shape[0] != 4 or p[0].any() or p[3].any() or x.shape[1] < 0 or x.shape[2] < 0:
            continue
        w = conv.inputs[1].shape
        ok = True
        for axis, k, s, d in ((1, w[1], conv.option("stride_h"), conv.option("dilation_h_factor", 1)),
                              (2, w[2], conv.option("stride_w"), conv.option("dilation_w_factor", 1))):
            out_same, before = _same_padding(x.shape[axis], k, s, d)
            out_valid = (x.shape[axis] + int(p[axis].sum()) - ((k - 1) * d + 1)) // s + 1
            ok = ok and out_same == out_valid and before == int(p[axis][0])
        if ok:
            conv.inputs[0] = x
            conv.set_option("padding", schema.PADDINGS["SAME"])
            g.remove(pad)
            changed = True
    return changed


def _channel_vector(c: ir.Tensor, channels: int) -> Optional[np.ndarray]:
    """A constant that broadcasts only along the last axis, as a vector of `channels` values."""
    data = c.data
    if not np.issubdtype(data.dtype, np.floating):
        return None
    if data.size == 1:
        return np.full(channels, float(data.ravel()[0]), np.float64)
    if data.shape[-1] == channels and data.size == channels:
        return data.astype(np.float64).ravel()
    return None


def _fold_affine(g: ir.Graph) -> bool:
    changed = False
    for op in list(g.ops):
        if op.code not in _WEIGHTED or op not in g.ops or op.option("fused_activation_function", 0):
            continue
        w, bias = op.inputs[1], op.inputs[2]
        if not w.is_const or bias is None or not bias.is_const:
            continue
        nxt = _sole_consumer(g, op.outputs[0])
        if nxt is None or nxt.code not in ("MUL", "ADD", "SUB") or nxt.option("fused_activation_function", 0):
            continue
        x, c = _const_operand(nxt)
        if x is not op.outputs[0] or (nxt.code == "SUB" and nxt.inputs[0] is not x):
            continue
        channels = bias.shape[0]
        vec = _channel_vector(c, channels)
        if vec is None or nxt.outputs[0].shape[-1:] != op.outputs[0].shape[-1:]:
            continue
        if nxt.outputs[0].shape != op.outputs[0].shape:
            continue
        new_bias = bias.data.astype(np.float64)
        if nxt.code == "MUL":
            axis = _WEIGHTED[op.code]
            shape = [1] * w.data.ndim
            shape[axis] = channels
            w.data = (w.data.astype(np.float64) * vec.reshape(shape)).astype(w.data.dtype)
            new_bias = new_bias * vec
        else:
            new_bias = new_bias + vec if nxt.code == "ADD" else new_bias - vec
        bias.data = new_bias.astype(bias.data.dtype)
        op.outputs = list(nxt.outputs)
        g.remove(nxt)
        changed = True
    return changed


def _fuse_activation(g: ir.Graph) -> bool:
    changed = False
    for op in list(g.ops):
        if op.code not in _FUSES_ACTIVATION or op not in g.ops or op.options is None:
            continue
        if op.option("fused_activation_function", 0) != 0:
            continue
        act = _sole_consumer(g, op.outputs[0])
        if act is None or act.code not in _ACTIVATION_OPS:
            continue
        op.set_option("fused_activation_function", schema.ACTIVATIONS[_ACTIVATION_OPS[act.code]])
        op.outputs = list(act.outputs)
        g.remove(act)
        changed = True
    return changed


def _squeeze_to_reshape(g: ir.Graph) -> bool:
    """A SQUEEZE becomes a RESHAPE to its result shape when only the batch dimension is unknown, as TensorFlow's
    (v1) converter rewrites squeezes once it has fixed the batch size (the batch stays -1 in the new shape)."""
    if any(d < 0 for t in g.inputs for d in t.shape[1:]):
        return False
    for op in g.ops:
        out = op.outputs[0] if op.outputs else None
        if op.code != "SQUEEZE" or any(d < 0 for d in out.shape[1:]):
            continue
        shape = ir.Tensor(out.name + "/shape", (len(out.shape),), np.int32, data=np.asarray(out.shape, np.int32))
        op.code, op.inputs, op.options = "RESHAPE", [op.inputs[0], shape], None
        return True
    return False


def _merge_reshapes(g: ir.Graph) -> bool:
    """RESHAPE(RESHAPE(x)) is one RESHAPE of x when the inner result feeds nothing else."""
    for op in g.ops:
        if op.code != "RESHAPE" or not op.inputs[1].is_const:
            continue
        inner = g.producer(op.inputs[0])
        if inner is None or inner.code != "RESHAPE" or g.is_output(inner.outputs[0]) or \
                _sole_consumer(g, inner.outputs[0]) is not op:
            continue
        op.inputs = [inner.inputs[0], op.inputs[1]]
        g.remove(inner)
        return True
    return False
