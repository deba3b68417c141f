"""tf.switch_case: run the branch selected by an integer index (the default, or else the last branch, when the
index is out of range), as nested conds."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import dtypes, ops
from edgelite.ops import math_ops
from edgelite.ops.control_flow_ops import case


def _branches(branch_fns: Any) -> list:
    """The callables in key order, checking TensorFlow's rules: int keys 0..n-1, each once, callable values."""
    if isinstance(branch_fns, dict):
        items = list(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)) and branch_fns and all(isinstance(b, tuple) for b in branch_fns):
        items = list(branch_fns)
    elif isinstance(branch_fns, (list, tuple)):
        items = list(enumerate(branch_fns))
    else:
        raise TypeError("branch_fns must be a list, tuple, or dict")
    if not items:
        raise ValueError("Must provide at least one item in branch_fns")
    keys = [k for k, _ in items]
    for key, fn in items:
        if not isinstance(key, int):
            raise TypeError(f"branch_index must an int: {key}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    if sorted(keys) != list(range(len(items))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(items)}) but found "
                         f"{sorted(keys)}")
    return [fn for _, fn in sorted(items, key=lambda kv: kv[0])]


def switch_case(branch_index: Any, branch_fns: Any, default: Optional[Callable] = None,
                name: str = "switch_case") -> Any:
    """branch_fns[branch_index](); an index outside [0, n) runs default, or the last branch when there is none."""
    fns = _branches(branch_fns)
    with ops.name_scope(name, "switch_case", [branch_index]):
        index = ops.convert_to_tensor(branch_index, name="branch_index")
        if index.dtype.base_dtype != dtypes.int32:
            raise TypeError(f"branch_index must be an int32 Tensor, got {index.dtype.base_dtype.name}")
        fallback = default if default is not None else fns[-1]
        pairs = [(math_ops.equal(index, k), fn) for k, fn in enumerate(fns)]
        return case(pairs, default=fallback, exclusive=False)
