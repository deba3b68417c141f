"""tf.image ops -> TFLite, as TensorFlow's converter writes them: ResizeBilinear and ResizeNearestNeighbor become
RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (output size a constant int32 operand), NonMaxSuppressionV3 becomes
NON_MAX_SUPPRESSION_V4 and NonMaxSuppressionV5 NON_MAX_SUPPRESSION_V5."""
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


@emitter("NonMaxSuppressionV3", "NonMaxSuppressionV5")
def _nms(b: Any, op: Any) -> None:
    """V3 becomes NON_MAX_SUPPRESSION_V4 (its count output unused), V5 stays V5; both select as TF does and
    size their index output to the number selected at run time."""
    if op.type == "NonMaxSuppressionV5" and bool(_attr(op, "pad_to_max_output_size", False)):
        b.unsupported_op(op, "pad_to_max_output_size is not supported")
        return
    ins = [b.value(t) for t in op.inputs[:2]]
    for t in op.inputs[2:]:
        value = b.const_of(t)
        if value is None:
            ins.append(b.value(t))
            continue
        # TFLite's NMS kernels require rank-0 size and thresholds (b.const makes 1-element vectors of scalars)
        scalar = b.const(np.asarray(value).reshape(1), t.op.name)
        scalar.shape, scalar.data = (), scalar.data.reshape(())
        ins.append(scalar)
    if op.type == "NonMaxSuppressionV3":
        count = b.new_tensor(op.name + "/valid_outputs", (), np.int32)
        b.emit("NON_MAX_SUPPRESSION_V4", ins, [b.output(op.outputs[0]), count], ("NonMaxSuppressionV4Options", {}),
               op.type)
        return
    b.emit("NON_MAX_SUPPRESSION_V5", ins, [b.output(o) for o in op.outputs], ("NonMaxSuppressionV5Options", {}),
           op.type)
