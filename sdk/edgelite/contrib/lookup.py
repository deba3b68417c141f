"""tf.contrib.lookup (TF 1.15): the core vocabulary tables under their contrib names, whose first argument
was called `mapping`."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.ops import lookup_index_tables as core
from edgelite.ops.lookup_index_tables import (  # noqa: F401
    HashTable, index_table_from_file, index_to_string_table_from_file)
from edgelite.ops.lookup_ops import KeyValueTensorInitializer, TextFileIndex, TextFileInitializer  # noqa: F401


def index_table_from_tensor(mapping: Any, num_oov_buckets: int = 0, default_value: int = -1,
                            hasher_spec: Any = None, dtype: Any = dtypes.string, name: Optional[str] = None) -> Any:
    """Core index_table_from_tensor with the vocabulary passed as `mapping`."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return core.index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec, dtype, name)


def index_to_string_table_from_tensor(mapping: Any, default_value: Any = "UNK",
                                      name: Optional[str] = None) -> HashTable:
    """Core index_to_string_table_from_tensor with the vocabulary passed as `mapping`."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return core.index_to_string_table_from_tensor(mapping, default_value, name)
