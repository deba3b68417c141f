"""Resource-variable op types (VarHandleOp, ReadVariableOp, AssignVariableOp, ...) so graphs TensorFlow wrote with
resource variables (tf-keras layers, get_variable(use_resource=True)) import, restore, run, train and freeze.

A handle evaluates to the same session storage a VariableV2 of that shared name uses (an executor VarRef, held in a
0-d object array as the resource tensor's value).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.client.executor import VarRef
from edgelite.framework import errors
from edgelite.framework import tensor_shape
from edgelite.framework.op_def_registry import register_op


def _ref(handle: Any) -> VarRef:
    return handle.item() if isinstance(handle, np.ndarray) else handle


def _handle_kernel(ctx: Any) -> VarRef:
    shared = ctx.attrs.get("shared_name") or ctx.op.name
    return VarRef(ctx.state, f"{ctx.attrs.get('container', '')}/{shared}", ctx.op)


def _handle_shape(t: Any) -> Any:
    """The variable shape a VarHandleOp declared for the handle t (unknown when t comes from elsewhere)."""
    if t.op.type == "VarHandleOp":
        return t.op.get_attr("shape")
    return tensor_shape.unknown_shape()


def _read_kernel(ctx: Any, handle: Any) -> np.ndarray:
    return _ref(handle).read()


def _checked_write(ctx: Any, ref: VarRef, value: np.ndarray) -> None:
    if ref.initialized:
        old = ref.read()
        if old.shape != np.shape(value):
            raise errors.InvalidArgumentError(
                None, ctx.op, f"Trying to assign variable with wrong dtype or shape. Expected {old.dtype} of shape "
                              f"{list(old.shape)} got {np.asarray(value).dtype} of shape {list(np.shape(value))}.")
    ref.write(np.array(value, dtype=ctx.attrs["dtype"].as_numpy_dtype, copy=True))


def _assign_kernel(ctx: Any, handle: Any, value: np.ndarray) -> tuple:
    _checked_write(ctx, _ref(handle), value)
    return ()


def _update_kernel(sign: float) -> Any:
    def kernel(ctx: Any, handle: Any, value: np.ndarray) -> tuple:
        ref = _ref(handle)
        _checked_write(ctx, ref, ref.read() + sign * np.asarray(value))
        return ()
    return kernel


register_op("VarHandleOp", inputs=[], outputs=["resource: resource"], kernel=_handle_kernel,
            shape_fn=lambda op: [tensor_shape.TensorShape([])],
            attrs={"container": "", "shared_name": "", "debug_name": "", "allowed_devices": [],
                   "shape": tensor_shape.unknown_shape()}, stateful=True)
register_op("ReadVariableOp", inputs=["resource: resource"], outputs=["value: dtype"], kernel=_read_kernel,
            shape_fn=lambda op: [_handle_shape(op.inputs[0])], stateful=True)
register_op("AssignVariableOp", inputs=["resource: resource", "value: dtype"], outputs=[], kernel=_assign_kernel,
            shape_fn=lambda op: [], attrs={"validate_shape": False}, stateful=True)
register_op("AssignAddVariableOp", inputs=["resource: resource", "value: dtype"], outputs=[],
            kernel=_update_kernel(1.0), shape_fn=lambda op: [], stateful=True)
register_op("AssignSubVariableOp", inputs=["resource: resource", "value: dtype"], outputs=[],
            kernel=_update_kernel(-1.0), shape_fn=lambda op: [], stateful=True)
register_op("VarIsInitializedOp", inputs=["resource: resource"], outputs=["is_initialized: bool"],
            kernel=lambda ctx, handle: np.array(_ref(handle).initialized), shape_fn=lambda op: [[]], stateful=True)
register_op("DestroyResourceOp", inputs=["resource: resource"], outputs=[], kernel=lambda ctx, handle: (),
            shape_fn=lambda op: [], attrs={"ignore_lookup_error": True}, stateful=True)

