"""Bucketize (TF's math_ops._bucketize): the index of the bucket each value falls in, given sorted boundaries."""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from edgelite.framework import common_shapes, dtypes, ops
from edgelite.framework.op_def_registry import register_op


def _bucketize_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    # bucket i holds boundaries[i-1] <= v < boundaries[i], which is searchsorted's right side
    return np.searchsorted(np.asarray(ctx.attrs["boundaries"], np.float64), x.astype(np.float64),
                           side="right").astype(np.int32)


register_op("Bucketize", inputs=["input: T"], outputs=["output: int32"], attrs={"boundaries": []},
            kernel=_bucketize_kernel, shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"T": [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]})
ops.NoGradient("Bucketize")


def bucketize(input: Any, boundaries: Sequence[float], name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """int32 bucket ids of input for the sorted boundaries."""
    return ops.apply_op("Bucketize", [input], {"boundaries": [float(b) for b in boundaries]},
                        name=name or "Bucketize")
