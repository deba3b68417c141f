"""Feature specs for parsing Examples: FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, SparseFeature."""
from __future__ import annotations

import collections
from typing import Any

from edgelite.framework import dtypes


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """Configuration for parsing a fixed-length input feature (missing without a default is an error)."""

    def __new__(cls, shape: Any, dtype: Any, default_value: Any = None) -> "FixedLenFeature":
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """Configuration for parsing a variable-length sequence of fixed-shape values (padded in a batch)."""

    def __new__(cls, shape: Any, dtype: Any, allow_missing: bool = False,
                default_value: Any = None) -> "FixedLenSequenceFeature":
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """Configuration for parsing a variable-length input feature into a SparseTensor."""


class SparseFeature(collections.namedtuple("SparseFeature", ["index_key", "value_key", "dtype", "size",
                                                             "already_sorted"])):
    """A SparseTensor built from index feature(s) and a value feature of each Example."""

    def __new__(cls, index_key: Any, value_key: str, dtype: Any, size: Any,
                already_sorted: bool = False) -> "SparseFeature":
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


PARSEABLE = (dtypes.float32, dtypes.int64, dtypes.string)
