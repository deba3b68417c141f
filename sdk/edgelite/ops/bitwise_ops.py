"""tf.bitwise: and, or, xor, invert and shifts of integer tensors (elementwise, broadcasting; no gradients)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import INT_TYPES, register_op

_BINARY = {"BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor,
           "LeftShift": np.left_shift, "RightShift": np.right_shift}


def _shift_kernel(fn: Any) -> Any:
    def kernel(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        # TF clamps the shift to [0, bits - 1] (so 5 << 8 in int8 is 5 << 7 = -128, and shifts by < 0 are no-ops)
        return fn(x, np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype))
    return kernel


for _name, _fn in _BINARY.items():
    _kernel = _shift_kernel(_fn) if "Shift" in _name else (lambda f: lambda ctx, x, y: f(x, y))(_fn)
    register_op(_name, inputs=["x: T", "y: T"], outputs=["z: T"], kernel=_kernel,
                shape_fn=common_shapes.broadcast_shape, allowed_dtypes={"T": list(INT_TYPES)})
    ops.NoGradient(_name)
register_op("Invert", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: np.invert(x),
            shape_fn=common_shapes.unchanged_shape, allowed_dtypes={"T": list(INT_TYPES)})
ops.NoGradient("Invert")


def _binary(op_type: str, x: Any, y: Any, name: Optional[str]) -> ops.Tensor:
    return ops.apply_op(op_type, [x, y], name=name)


def bitwise_and(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x & y."""
    return _binary("BitwiseAnd", x, y, name)


def bitwise_or(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x | y."""
    return _binary("BitwiseOr", x, y, name)


def bitwise_xor(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x ^ y."""
    return _binary("BitwiseXor", x, y, name)


def left_shift(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x << y."""
    return _binary("LeftShift", x, y, name)


def right_shift(x: Any, y: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise x >> y (arithmetic for signed types)."""
    return _binary("RightShift", x, y, name)


def invert(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """Elementwise ~x."""
    return ops.apply_op("Invert", [x], name=name)
