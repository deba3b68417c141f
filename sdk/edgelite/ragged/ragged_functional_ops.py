"""tf.ragged.map_flat_values: apply an elementwise op to the flat values of RaggedTensors sharing one partition."""
from __future__ import annotations

from typing import Any, Callable

from edgelite import nest
from edgelite.framework import tensor_shape

from .ragged_tensor import RaggedTensor


def map_flat_values(op: Callable, *args: Any, **kwargs: Any) -> Any:
    """op applied to the flat_values of every RaggedTensor argument, rewrapped in their row partitions."""
    ragged = [x for x in nest.flatten([args, kwargs]) if isinstance(x, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    counts = {tensor_shape.dimension_value(r.flat_values.shape[0]) for r in ragged} - {None}
    if len(counts) > 1:
        raise ValueError("Input RaggedTensors' flat_values must all have the same outer-dimension size.  Got "
                         f"sizes: {counts}")
    if len({r.row_splits.dtype for r in ragged}) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")

    def flat(x: Any) -> Any:
        return x.flat_values if isinstance(x, RaggedTensor) else x
    out = op(*nest.map_structure(flat, list(args)), **nest.map_structure(flat, kwargs))
    return ragged[0].with_flat_values(out)
