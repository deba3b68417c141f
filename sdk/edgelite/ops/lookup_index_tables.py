"""TF's vocabulary-table builders (lookup_ops.index_table_from_tensor/_file, index_to_string_table_from_*):
a StaticHashTable from a vocabulary to its positions (or back), with hash buckets for unknown keys."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, math_ops
from edgelite.ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable, TextFileIndex,
                                     TextFileInitializer)


class HashTable(StaticHashTable):
    """TF1's HashTable (tf.contrib.lookup): a StaticHashTable whose initializer op is also called `init`."""

    def __init__(self, initializer: Any, default_value: Any, shared_name: Optional[str] = None,
                 name: Optional[str] = None) -> None:
        super().__init__(initializer, default_value, name=name)

    init = property(lambda self: self.initializer, doc="The op that fills the table.")


def _positions(vocabulary: ops.Tensor) -> ops.Tensor:
    """0 .. len(vocabulary) - 1 as int64, the ids TF gives the vocabulary entries."""
    return math_ops.cast(math_ops.range(array_ops.size(vocabulary)), dtypes.int64)


def _with_oov_buckets(initializer: Any, num_oov_buckets: int, default_value: Any, key_dtype: Any) -> Any:
    if num_oov_buckets:
        return StaticVocabularyTable(initializer, num_oov_buckets, lookup_key_dtype=key_dtype)
    return HashTable(initializer, default_value)


def _check_buckets(num_oov_buckets: int) -> None:
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater or equal than 0, got {num_oov_buckets}.")


def index_table_from_tensor(vocabulary_list: Any, num_oov_buckets: int = 0, default_value: int = -1,
                            hasher_spec: Any = None, dtype: Any = dtypes.string, name: Optional[str] = None) -> Any:
    """A table mapping each vocabulary entry (string or integer) to its int64 position; other keys get
    default_value, or one of num_oov_buckets hash buckets after the vocabulary."""
    if vocabulary_list is None:
        raise ValueError("`vocabulary_list` must be specified.")
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_integer and dtype != dtypes.string:
        raise TypeError("`dtype` must either be integer or string.")
    _check_buckets(num_oov_buckets)
    with ops.name_scope(name, "string_to_index"):
        keys = ops.convert_to_tensor(vocabulary_list)
        if keys.dtype.is_integer != dtype.is_integer:
            raise ValueError(f"Invalid `dtype`: Expected {'integer' if dtype.is_integer else 'string'}, "
                             f"got <dtype: '{keys.dtype.name}'>.")
        values = _positions(keys)
        with ops.name_scope(None, "hash_table"):
            if keys.dtype.is_integer and keys.dtype != dtypes.int64:
                keys = math_ops.cast(keys, dtypes.int64)
            init = KeyValueTensorInitializer(keys, values, name="table_init")
            return _with_oov_buckets(init, num_oov_buckets, default_value, dtype)


def index_to_string_table_from_tensor(vocabulary_list: Any, default_value: Any = "UNK",
                                      name: Optional[str] = None) -> HashTable:
    """A table mapping int64 positions to the vocabulary's strings; other ids get default_value."""
    if vocabulary_list is None:
        raise ValueError("`vocabulary_list` argument must be specified.")
    with ops.name_scope(name, "index_to_string"):
        values = ops.convert_to_tensor(vocabulary_list, dtypes.string)
        init = KeyValueTensorInitializer(_positions(values), values, name="table_init")
        return HashTable(init, default_value)


def index_table_from_file(vocabulary_file: Any = None, num_oov_buckets: int = 0, vocab_size: Optional[int] = None,
                          default_value: int = -1, hasher_spec: Any = None, key_dtype: Any = dtypes.string,
                          name: Optional[str] = None, key_column_index: int = TextFileIndex.WHOLE_LINE,
                          value_column_index: int = TextFileIndex.LINE_NUMBER, delimiter: str = "\t") -> Any:
    """A table mapping each line of vocabulary_file (or one column of it) to its line number."""
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("`vocabulary_file` must be specified and must not be empty.")
    _check_buckets(num_oov_buckets)
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size} for vocabulary_file: "
                         f"{vocabulary_file}.")
    key_dtype = dtypes.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype != dtypes.string:
        raise TypeError("`key_dtype` must either be integer or string.")
    with ops.name_scope(name, "string_to_index"):
        with ops.name_scope(None, "hash_table"):
            init = TextFileInitializer(vocabulary_file, dtypes.int64 if key_dtype.is_integer else key_dtype,
                                       key_column_index, dtypes.int64, value_column_index, vocab_size=vocab_size,
                                       delimiter=delimiter, name="table_init")
            return _with_oov_buckets(init, num_oov_buckets, default_value, key_dtype)


def index_to_string_table_from_file(vocabulary_file: Any, vocab_size: Optional[int] = None,
                                    default_value: Any = "UNK", name: Optional[str] = None,
                                    key_column_index: int = TextFileIndex.LINE_NUMBER,
                                    value_column_index: int = TextFileIndex.WHOLE_LINE,
                                    delimiter: str = "\t") -> HashTable:
    """A table mapping line numbers of vocabulary_file to its lines (or one column of them)."""
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("`vocabulary_file` must be specified and must not be empty.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    with ops.name_scope(name, "index_to_string"):
        init = TextFileInitializer(vocabulary_file, dtypes.int64, key_column_index, dtypes.string,
                                   value_column_index, vocab_size=vocab_size, delimiter=delimiter,
                                   name="table_init")
        return HashTable(init, default_value)
