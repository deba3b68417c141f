"""How checkpoint code reads and assigns variable values through a session, in one place."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from ..framework import errors, ops


def resolve_session(session: Any) -> Any:
    """`session`, else the default session; ValueError when there is neither."""
    if session is None:
        session = ops.get_default_session()
    if session is None:
        raise ValueError("No session: pass `session=` or run inside `with sess.as_default():`")
    return session


_REF_VARIABLE_OPS = ("VariableV2", "Variable")


class VariableOpTensor:
    """The output of a VariableV2 op imported from a GraphDef (no Variable object exists for it), saveable as
    TF's Saver saves such tensors: read by running it, written straight into the session's variable."""

    def __init__(self, tensor: Any) -> None:
        self.op, self.name = tensor.op, tensor.name
        self.dtype, self.shape = tensor.dtype.base_dtype, tensor.shape
        self._tensor = tensor
        self.device = tensor.op.device

    def value(self) -> Any:
        return self._tensor

    def load(self, value: Any, session: Any) -> None:
        from ..ops.state_ops import _var_key
        session._state.set_variable(_var_key(self.op), np.array(value, dtype=self.dtype.as_numpy_dtype))


def variable_op_tensor(obj: Any) -> Optional[VariableOpTensor]:
    """A saveable for a Tensor that is a reference variable's output, else None."""
    if isinstance(obj, ops.Tensor) and obj.op.type in _REF_VARIABLE_OPS:
        return VariableOpTensor(obj)
    return None


def variable_name(var: Any) -> str:
    """A variable's checkpoint name under name-based saving: its op name."""
    return var.op.name


def is_variable(obj: Any) -> bool:
    """Whether `obj` is a variable whose value can be saved."""
    return hasattr(obj, "op") and hasattr(obj, "load") and hasattr(obj, "dtype") and hasattr(obj, "shape")


def read_values(session: Any, variables: Sequence[Any]) -> List[np.ndarray]:
    """Current values of `variables` in one session run (FailedPreconditionError if uninitialized)."""
    if not variables:
        return []
    return [np.asarray(v) for v in session.run([v.value() if isinstance(v, VariableOpTensor) else v
                                                for v in variables])]


def static_shape(var: Any) -> Optional[tuple]:
    """The fully-defined static shape of a variable, or None if partly unknown."""
    shape = var.shape
    dims = getattr(shape, "as_list", lambda: list(shape))() if getattr(shape, "ndims", 0) is not None else None
    if dims is None or any(d is None for d in dims):
        return None
    return tuple(int(d) for d in dims)


def check_and_cast(var: Any, name: str, value: np.ndarray, reshape: bool) -> np.ndarray:
    """Validates a restored value against the variable: dtype must match, shape must match (or size, with reshape)."""
    want = var.dtype.base_dtype
    got_np = np.asarray(value).dtype
    want_np = np.dtype(want.as_numpy_dtype) if want.name != "string" else np.dtype(object)
    if got_np != want_np and not (want.name == "string" and got_np.kind == "O"):
        raise errors.InvalidArgumentError(
            None, None, f"tensor_name = {name}; expected dtype {want.name} does not equal original dtype "
            f"{getattr(got_np, 'name', got_np)}")
    shape = static_shape(var)
    if shape is not None and tuple(value.shape) != shape:
        if reshape and int(np.prod(shape, dtype=np.int64)) == value.size:
            return value.reshape(shape)
        raise errors.InvalidArgumentError(
            None, None, f"Assign requires shapes of both tensors to match. lhs shape= {list(shape)} rhs shape= "
            f"{list(value.shape)} (restoring {name})")
    return value


def assign_values(session: Any, pairs: Sequence[tuple]) -> None:
    """Writes each (variable, value) into the session without adding ops to the graph."""
    for var, value in pairs:
        var.load(value, session)
