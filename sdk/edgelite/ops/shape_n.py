"""tf.shape_n: the shapes of several tensors in one op (TensorFlow's gradient graphs use it for Conv2D)."""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op


def _shape_n_kernel(ctx: Any, xs: list) -> tuple:
    out_type = ctx.attrs["out_type"].as_numpy_dtype
    return tuple(np.array(np.shape(x), dtype=out_type) for x in xs)


register_op("ShapeN", inputs=["input: N * T"], outputs=["output: N * out_type"], kernel=_shape_n_kernel,
            dtype_fn=lambda op: [op.get_attr("out_type")] * len(op.inputs),
            shape_fn=lambda op: [[t.shape.ndims] for t in op.inputs], attrs={"out_type": dtypes.int32})


def shape_n(input: List[Any], out_type: Any = dtypes.int32, name: Optional[str] = None) -> List[ops.Tensor]:  # noqa: A002
    """The dynamic shape of each input, as 1-D int tensors of dtype out_type."""
    with ops.name_scope(name, "ShapeN") as scope:
        ts = [ops.convert_to_tensor(x) for x in input]
        if not ts:
            raise ValueError("shape_n needs at least one input")
        out_type = dtypes.as_dtype(out_type)
        op = ops.get_default_graph().create_op(
            "ShapeN", ts, [out_type] * len(ts), name=scope,
            attrs={"N": len(ts), "T": ts[0].dtype.base_dtype, "out_type": out_type})
        return op.outputs
