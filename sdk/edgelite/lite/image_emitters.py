"""tf.image ops -> TFLite: ResizeBilinear and ResizeNearestNeighbor become RESIZE_BILINEAR and
RESIZE_NEAREST_NEIGHBOR with the output size as a constant int32 operand, as TensorFlow's converter writes them."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.lite.op_emitters import _attr, emitter

_RESIZES = {"ResizeBilinear": ("RESIZE_BILINEAR", "ResizeBilinearOptions"),
            "ResizeNearestNeighbor": ("RESIZE_NEAREST_NEIGHBOR", "ResizeNearestNeighborOptions")}


@emitter(*_RESIZES)
def _resize(b: Any, op: Any) -> None:
    size = b.const_of(op.inputs[1])
    if size is None:
        b.unsupported_op(op, "the output size must be constant")
        return
    code, options = _RESIZES[op.type]
    flags = {"align_corners": bool(_attr(op, "align_corners", False)),
             "half_pixel_centers": bool(_attr(op, "half_pixel_centers", False))}
    b.emit(code, [b.value(op.inputs[0]), b.const(np.asarray(size, np.int32).ravel(), op.inputs[1].op.name)],
           [b.output(op.outputs[0])], (options, flags), op.type)
