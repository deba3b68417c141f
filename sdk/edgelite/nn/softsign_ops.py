"""Softsign x / (1 + |x|) with its SoftsignGrad op."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes, ops
from edgelite.framework.op_def_registry import FLOAT_TYPES, register_op

register_op("Softsign", inputs=["features: T"], outputs=["activations: T"],
            kernel=lambda ctx, x: x / (1 + np.abs(x)), shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"T": FLOAT_TYPES})
register_op("SoftsignGrad", inputs=["gradients: T", "features: T"], outputs=["backprops: T"],
            kernel=lambda ctx, g, x: g / np.square(1 + np.abs(x)), shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"T": FLOAT_TYPES})


@ops.RegisterGradient("Softsign")
def _softsign_grad(op: Any, grad: Any) -> Any:
    return ops.apply_op("SoftsignGrad", [grad, op.inputs[0]])


def softsign(features: Any, name: Optional[str] = None) -> ops.Tensor:
    """features / (abs(features) + 1)."""
    return ops.apply_op("Softsign", [features], name=name)
