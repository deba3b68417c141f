"""tf.initializers.identity: gain times the identity matrix, for 2-D variables."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.framework import constant_op, dtypes, tensor_shape
from edgelite.ops.init_ops import Initializer


class Identity(Initializer):
    """gain * I for a 2-D (possibly non-square) shape; ValueError for any other rank, as in TensorFlow."""

    def __init__(self, gain: float = 1.0, dtype: Any = dtypes.float32) -> None:
        self.gain = gain
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        dims = tensor_shape.as_shape(shape).as_list()
        if len(dims) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices.")
        dtype = dtypes.as_dtype(dtype or self.dtype)
        value = self.gain * np.eye(dims[0], dims[1], dtype=np.float64)
        return constant_op.constant(value.astype(dtype.as_numpy_dtype), dtype=dtype)

    def get_config(self) -> dict:
        return {"gain": self.gain, "dtype": self.dtype.name}
