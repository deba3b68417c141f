"""Values TensorFlow's shape inference knows at graph-construction time: a small subgraph fed only by constants
and free of stateful ops is evaluated (as TF's C++ shape functions do for the inputs they read), so row
partitions built from constant data get the same static shapes as in TensorFlow."""
from __future__ import annotations

from typing import Optional

import numpy as np

from edgelite.framework import errors, ops, tensor_util

_MAX_OPS = 200


def _constant_subgraph(t: ops.Tensor) -> bool:
    seen, stack = set(), [t.op]
    while stack:
        op = stack.pop()
        if op.name in seen:
            continue
        seen.add(op.name)
        if len(seen) > _MAX_OPS or op.type.startswith("Placeholder") or op.op_def.stateful:
            return False
        if not op.inputs and op.type != "Const":
            return False
        stack.extend(x.op for x in op.inputs)
    return True


def static_value(t: Optional[ops.Tensor]) -> Optional[np.ndarray]:
    """t's value if it is constant or computed from constants only; None otherwise."""
    if t is None:
        return None
    value = tensor_util.constant_value(t)
    if value is not None or not _constant_subgraph(t):
        return value
    from edgelite.client.session import Session
    try:
        with Session(graph=t.graph) as sess:
            return np.asarray(sess.run(t))
    except errors.OpError:
        return None
