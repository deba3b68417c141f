"""A fused LSTM between batch<->time transposes reads and writes batch-major data itself (time_major=False).

dynamic_rnn works time-major, so its fused loop sits between two TRANSPOSE(perm [1, 0, 2]) ops; TFLite's
UNIDIRECTIONAL_SEQUENCE_LSTM can take batch-major input directly, which is also how TF's converter
writes a Keras LSTM. The last-step slice of the final h is re-pointed at the batch-major layout.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from edgelite.lite import ir

_SWAP = [1, 0, 2]


def _is_swap(g: ir.Graph, op: Optional[ir.Op]) -> bool:
    return (op is not None and op.code == "TRANSPOSE" and op.inputs[1].is_const
            and list(np.ravel(op.inputs[1].data)) == _SWAP)


def _is_last_step(op: ir.Op) -> bool:
    begin = op.inputs[1]
    return (op.code == "STRIDED_SLICE" and begin.is_const and list(np.ravel(begin.data)) == [-1, 0, 0]
            and op.option("shrink_axis_mask") == 1)


def _time_major_lstm(op: ir.Op) -> bool:
    return op.code == "UNIDIRECTIONAL_SEQUENCE_LSTM" and bool(op.option("time_major"))


def _chain(g: ir.Graph, first: ir.Op) -> Optional[list]:
    """first and the time-major LSTMs stacked on it, if every output is read only by the next layer and
    last-step slices, and the last one's also by swap transposes (at least one reader)."""
    chain = [first]
    while True:
        out = chain[-1].outputs[0]
        if g.is_output(out):
            return None
        users = g.consumers(out)
        nxt = [u for u in users if _time_major_lstm(u) and u.inputs[0] is out]
        rest = [u for u in users if u not in nxt]
        if len(nxt) == 1 and all(_is_last_step(u) for u in rest):
            chain.append(nxt[0])
            continue
        if nxt or not users or not all(_is_swap(g, u) or _is_last_step(u) for u in users):
            return None
        return chain


def batch_major_lstm(g: ir.Graph) -> bool:
    """Drop the transposes around time-major UNIDIRECTIONAL_SEQUENCE_LSTMs (one, or stacked layers); True if
    something changed."""
    for op in g.ops:
        if not _time_major_lstm(op):
            continue
        x = op.inputs[0]
        before = g.producer(x)
        if not _is_swap(g, before) or len(g.consumers(x)) != 1 or g.is_output(x):
            continue
        chain = _chain(g, op)
        if chain is None:
            continue
        op.inputs[0] = before.inputs[0]
        for layer in chain:
            layer.set_option("time_major", False)
            out = layer.outputs[0]
            steps, batch, units = out.shape
            out.shape = (batch, steps, units)
            for u in g.consumers(out):
                if _is_swap(g, u):
                    g.replace_uses(u.outputs[0], out)
                elif _is_last_step(u):
                    u.inputs[1] = ir.Tensor(u.inputs[1].name + "/batch_major", (3,), np.int32,
                                            data=np.array([0, -1, 0], np.int32))
                    u.options[1].update({"begin_mask": 5, "end_mask": 5, "shrink_axis_mask": 2})
        g.prune()
        return True
    return False
