"""Reading raw features for columns: the per-call cache TF calls the transformation cache, and the dense to
sparse conversion that drops TF's ignore values (-1 for integers, '' for strings)."""
from __future__ import annotations

from typing import Any, Dict

from edgelite.framework import dtypes, ops
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops, math_ops


def _convert(value: Any) -> Any:
    if isinstance(value, SparseTensor):
        return value
    if hasattr(value, "indices") and hasattr(value, "dense_shape"):
        return SparseTensor.from_value(value)
    return ops.convert_to_tensor(value)


class FeatureCache:
    """Features by key, each converted once (rank-1 dense features become [batch, 1]), and column outputs."""

    def __init__(self, features: Dict[Any, Any]) -> None:
        if not isinstance(features, dict):
            raise ValueError(f"We expected a dictionary here. Instead we got: {features}")
        self._features = dict(features)
        self._cache: Dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        """The feature (string key) or the transformed output of a column (column key)."""
        if key in self._cache:
            return self._cache[key]
        if isinstance(key, str):
            if key not in self._features:
                raise ValueError(f"Feature {key} is not in features dictionary.")
            value = _convert(self._features[key])
            if not isinstance(value, SparseTensor) and value.shape.ndims == 1:
                value = array_ops.expand_dims(value, -1)
        else:
            value = key.transform_feature(self)
        self._cache[key] = value
        return value


def ignore_value_for(dtype: Any) -> Any:
    """TF's default value treated as missing in dense categorical input."""
    return "" if dtypes.as_dtype(dtype) == dtypes.string else -1


def to_sparse_input(value: Any, ignore_value: Any = None) -> SparseTensor:
    """value itself when sparse; otherwise a SparseTensor of its entries that differ from ignore_value."""
    if isinstance(value, SparseTensor):
        return value
    if ignore_value is None:
        ignore_value = ignore_value_for(value.dtype) if value.dtype in (dtypes.string,) or \
            value.dtype.is_integer else 0.0
    with ops.name_scope(None, "to_sparse_input", [value]):
        keep = math_ops.not_equal(value, ops.convert_to_tensor(ignore_value, dtype=value.dtype))
        indices = array_ops.where(keep)
        return SparseTensor(indices, array_ops.gather_nd(value, indices),
                            array_ops.shape(value, out_type=dtypes.int64))
