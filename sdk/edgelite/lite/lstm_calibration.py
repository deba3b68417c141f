"""Ranges TF's calibrator records inside a float UNIDIRECTIONAL_SEQUENCE_LSTM that are not model tensors.

TF's calibrating LSTM kernel logs the hidden value o * tanh(c) (before the projection) into the op's
fifth intermediate; with a projection its range sets that intermediate's int8 parameters. The float
recurrence is re-run here in numpy on each sample's input from the state the model held before the sample
(TF's calibrator carries the state variables from one sample to the next).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.lite import ir

_CODE = "UNIDIRECTIONAL_SEQUENCE_LSTM"
_PROJECTION, _OUTPUT_STATE, _CELL_STATE = 16, 18, 19


def hidden_key(op: ir.Op) -> tuple:
    """The calibration-range key of an LSTM's hidden value."""
    return ("lstm_hidden", id(op))


def _sigmoid(v: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # a saturated gate: exp overflows to inf and the sigmoid is 0, as it should
        return (1.0 / (1.0 + np.exp(-v))).astype(np.float32)


def _hidden_extent(op: ir.Op, x: np.ndarray, h: np.ndarray, c: np.ndarray) -> tuple:
    """(min, max) of o * tanh(c) over every step of one float run from state (h, c)."""
    t = op.inputs
    w = lambda i: None if t[i] is None else t[i].data.astype(np.float32)  # noqa: E731
    w_in, w_rec, bias, peep = [w(i) for i in (1, 2, 3, 4)], [w(i) for i in (5, 6, 7, 8)], \
        [w(i) for i in (12, 13, 14, 15)], [w(i) for i in (9, 10, 11)]
    cell_clip, proj_clip = float(op.option("cell_clip") or 0.0), float(op.option("proj_clip") or 0.0)
    steps = x if op.option("time_major") else np.swapaxes(x, 0, 1)
    lo, hi = np.inf, -np.inf
    for step in steps:
        gate = [step @ w_in[k].T + h @ w_rec[k].T + bias[k] for k in range(4)]
        if peep[0] is not None:
            gate[0], gate[1] = gate[0] + peep[0] * c, gate[1] + peep[1] * c
        c = _sigmoid(gate[1]) * c + _sigmoid(gate[0]) * np.tanh(gate[2])
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        o = _sigmoid(gate[3] + peep[2] * c) if peep[2] is not None else _sigmoid(gate[3])
        hidden = o * np.tanh(c)
        lo, hi = min(lo, float(hidden.min())), max(hi, float(hidden.max()))
        h = hidden @ w(_PROJECTION).T if t[_PROJECTION] is not None else hidden
        if t[_PROJECTION] is not None and proj_clip > 0:
            h = np.clip(h, -proj_clip, proj_clip)
    return lo, hi


class HiddenRanges:
    """Follows the projected float LSTMs of a graph through calibration: call `before` ahead of each invoke
    and `after` once it ran; `ranges` then holds each op's hidden range under `hidden_key(op)`."""

    def __init__(self, g: ir.Graph, tensors: list) -> None:
        index = {id(t): i for i, t in enumerate(tensors)}
        self.watched = [(op, index[id(op.inputs[0])], index[id(op.inputs[_OUTPUT_STATE])],
                         index[id(op.inputs[_CELL_STATE])]) for op in g.ops
                        if op.code == _CODE and op.inputs[_PROJECTION] is not None
                        and op.inputs[0].dtype == np.float32 and all(op.inputs[i] is not None and
                                                                     op.inputs[i].is_const for i in (1, 2, 3, 4))]
        self.states: list = []
        self.ranges: dict = {}

    def before(self, interp: Any) -> None:
        self.states = [(interp.get_tensor(h).copy(), interp.get_tensor(c).copy()) for _, _, h, c in self.watched]

    def after(self, interp: Any) -> None:
        for (op, x, _, _), (h, c) in zip(self.watched, self.states):
            lo, hi = _hidden_extent(op, interp.get_tensor(x).astype(np.float32), h, c)
            old = self.ranges.get(hidden_key(op), (np.inf, -np.inf))
            self.ranges[hidden_key(op)] = (min(old[0], lo), max(old[1], hi))
