"""TF1's older spellings that take different argument names from their modern forms (tf.arg_max, tf.arg_min)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops
from edgelite.ops.math_ops import argmax, argmin


def arg_max(input: Any, dimension: Any, output_type: Any = dtypes.int64,  # noqa: A002 - TensorFlow's name
            name: Optional[str] = None) -> ops.Tensor:
    """Index of the largest value along `dimension` (the raw ArgMax op's signature)."""
    return argmax(input, axis=dimension, name=name, output_type=output_type)


def arg_min(input: Any, dimension: Any, output_type: Any = dtypes.int64,  # noqa: A002 - TensorFlow's name
            name: Optional[str] = None) -> ops.Tensor:
    """Index of the smallest value along `dimension` (the raw ArgMin op's signature)."""
    return argmin(input, axis=dimension, name=name, output_type=output_type)


def executing_eagerly_outside_functions() -> bool:
    """False: edgelite always builds graphs."""
    return False
