"""Tensors sized by values known only at run time (shapes read from an input with an unknown dimension):
FILL, RANGE and a TILE whose multiples are computed, as TensorFlow's converter keeps them."""
from __future__ import annotations

from typing import Any

from edgelite.lite.op_emitters import emitter


@emitter("Fill")
def _fill(b: Any, op: Any) -> None:
    b.emit("FILL", [b.value(op.inputs[0]), b.value(op.inputs[1])], [b.output(op.outputs[0])], ("FillOptions", {}),
           op.type)


@emitter("Range")
def _range(b: Any, op: Any) -> None:
    b.emit("RANGE", [b.value(t) for t in op.inputs], [b.output(op.outputs[0])], ("RangeOptions", {}), op.type)
