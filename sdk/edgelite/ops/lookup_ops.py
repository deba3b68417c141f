"""tf.lookup tables (StaticHashTable, StaticVocabularyTable) and their initializers (KeyValueTensorInitializer,
TextFileInitializer) as TF's graph ops: HashTableV2, LookupTableImportV2, InitializeTableFromTextFileV2,
LookupTableFindV2, LookupTableSizeV2 and LookupTableExportV2, acting on a per-session table."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops, math_ops
from edgelite.ops.string_convert_ops import as_string, string_to_hash_bucket_fast

from . import lookup_kernels as lk


def _table_kernel(ctx: Any) -> lk.TableState:
    """This session's table for the op (created empty on first use; shared_name shares it between ops)."""
    key = ("lookup_table", ctx.attrs.get("shared_name") or id(ctx.op))
    table = ctx.state.op_state.get(key)
    if table is None:
        table = lk.TableState(dtypes.as_dtype(ctx.attrs["key_dtype"]), dtypes.as_dtype(ctx.attrs["value_dtype"]))
        ctx.state.op_state[key] = table
    return table


def _import_kernel(ctx: Any, table: lk.TableState, keys: np.ndarray, values: np.ndarray) -> tuple:
    table.insert(keys, values)
    return ()


def _text_file_kernel(ctx: Any, table: lk.TableState, filename: np.ndarray) -> tuple:
    path = filename.item()
    path = path.decode("utf-8") if isinstance(path, bytes) else str(path)
    a = ctx.attrs
    table.insert(*lk.read_text_file(path, int(a["key_index"]), int(a["value_index"]), table.key_dtype,
                                    table.value_dtype, int(a["vocab_size"]), a["delimiter"], int(a["offset"])))
    return ()


def _find_kernel(ctx: Any, table: lk.TableState, keys: np.ndarray, default: np.ndarray) -> np.ndarray:
    return table.find(keys, default)


def _size_kernel(ctx: Any, table: lk.TableState) -> np.ndarray:
    return table.size()


def _export_kernel(ctx: Any, table: lk.TableState) -> tuple:
    return table.export()


def _no_outputs(op: Any) -> list:
    return []


register_op("HashTableV2", inputs=[], outputs=["table_handle: resource"], kernel=_table_kernel,
            shape_fn=lambda op: [[]], stateful=True,
            attrs={"container": "", "shared_name": "", "use_node_name_sharing": False, "key_dtype": dtypes.string,
                   "value_dtype": dtypes.int64})
register_op("LookupTableImportV2", inputs=["table_handle: resource", "keys: Tin", "values: Tout"], outputs=[],
            kernel=_import_kernel, shape_fn=_no_outputs, dtype_fn=_no_outputs, stateful=True)
register_op("InitializeTableFromTextFileV2", inputs=["table_handle: resource", "filename: string"], outputs=[],
            kernel=_text_file_kernel, shape_fn=_no_outputs, dtype_fn=_no_outputs, stateful=True,
            attrs={"key_index": 0, "value_index": 0, "vocab_size": -1, "delimiter": "\t", "offset": 0})
register_op("LookupTableFindV2", inputs=["table_handle: resource", "keys: Tin", "default_value: Tout"],
            outputs=["values: Tout"], kernel=_find_kernel, shape_fn=lambda op: [op.inputs[1].shape], stateful=True)
register_op("LookupTableSizeV2", inputs=["table_handle: resource"], outputs=["size: int64"], kernel=_size_kernel,
            shape_fn=lambda op: [[]], stateful=True)
register_op("LookupTableExportV2", inputs=["table_handle: resource"], outputs=["keys: Tkeys", "values: Tvalues"],
            kernel=_export_kernel, shape_fn=lambda op: [[None], [None]], stateful=True,
            dtype_fn=lambda op: [dtypes.as_dtype(op.get_attr("Tkeys")), dtypes.as_dtype(op.get_attr("Tvalues"))])
for _type in ("HashTableV2", "LookupTableImportV2", "InitializeTableFromTextFileV2", "LookupTableFindV2",
              "LookupTableSizeV2", "LookupTableExportV2"):
    ops.NoGradient(_type)


class TextFileIndex:
    """Special column indices of TextFileInitializer: the whole line, or the line number, as key or value."""
    WHOLE_LINE = lk.WHOLE_LINE
    LINE_NUMBER = lk.LINE_NUMBER


class TableInitializerBase:
    """Key and value dtypes of an initializer, and the op that fills a table from it."""

    def __init__(self, key_dtype: Any, value_dtype: Any) -> None:
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self) -> dtypes.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> dtypes.DType:
        return self._value_dtype


class KeyValueTensorInitializer(TableInitializerBase):
    """A table's contents given as a keys tensor and a values tensor of the same length."""

    def __init__(self, keys: Any, values: Any, key_dtype: Any = None, value_dtype: Any = None,
                 name: Optional[str] = None) -> None:
        with ops.name_scope(name, "key_value_init", [keys, values]) as scope:
            self._keys = ops.convert_to_tensor(keys, dtype=key_dtype, name="keys")
            self._values = ops.convert_to_tensor(values, dtype=value_dtype, name="values")
            self._name = scope
        super().__init__(self._keys.dtype, self._values.dtype)

    def initialize(self, table: "StaticHashTable") -> ops.Operation:
        """The LookupTableImportV2 op filling table, registered in TABLE_INITIALIZERS."""
        _check_table_dtypes(table, self.key_dtype, self.value_dtype)
        with ops.name_scope(self._name, values=(table.resource_handle, self._keys, self._values)):
            init_op = ops.apply_op("LookupTableImportV2", [table.resource_handle, self._keys, self._values])
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init_op)
        return init_op


class TextFileInitializer(TableInitializerBase):
    """A table's contents read from a text file: one entry per line, key and value taken from delimited columns,
    the whole line (TextFileIndex.WHOLE_LINE) or the line number (TextFileIndex.LINE_NUMBER)."""

    def __init__(self, filename: Any, key_dtype: Any, key_index: int, value_dtype: Any, value_index: int,
                 vocab_size: Optional[int] = None, delimiter: str = "\t", name: Optional[str] = None,
                 value_index_offset: int = 0) -> None:
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        if key_index < -2:
            raise ValueError(f"`key_index` should be >= -2, received: {key_index}.")
        if key_index == TextFileIndex.LINE_NUMBER and key_dtype != dtypes.int64:
            raise ValueError("`key_dtype` must be int64 if `key_index` is "
                             f"{TextFileIndex.LINE_NUMBER}, received: {key_dtype}")
        if (key_index == TextFileIndex.WHOLE_LINE and not key_dtype.is_integer and key_dtype != dtypes.string):
            raise ValueError("`key_dtype` should be either integer or string for `key_index` "
                             f"{TextFileIndex.WHOLE_LINE}, received: {key_dtype}")
        if value_index < -2:
            raise ValueError(f"`value_index` should be >= -2, received: {value_index}.")
        if value_index == TextFileIndex.LINE_NUMBER and value_dtype != dtypes.int64:
            raise ValueError("`value_dtype` must be int64 for `value_index` "
                             f"{TextFileIndex.LINE_NUMBER}, received: {value_dtype}")
        if value_index == TextFileIndex.WHOLE_LINE and value_dtype != dtypes.string:
            raise ValueError("`value_dtype` must be string for `value_index` "
                             f"{TextFileIndex.WHOLE_LINE}, received: {value_dtype}")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._filename = filename
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size = -1 if vocab_size is None else int(vocab_size)
        self._delimiter, self._offset = delimiter, int(value_index_offset)
        self._name = name
        super().__init__(key_dtype, value_dtype)

    def initialize(self, table: "StaticHashTable") -> ops.Operation:
        """The InitializeTableFromTextFileV2 op filling table, registered in TABLE_INITIALIZERS."""
        _check_table_dtypes(table, self.key_dtype, self.value_dtype)
        with ops.name_scope(self._name, "text_file_init", (table.resource_handle,)):
            filename = ops.convert_to_tensor(self._filename, dtypes.string, name="asset_filepath")
            init_op = ops.apply_op("InitializeTableFromTextFileV2", [table.resource_handle, filename],
                                   attrs={"key_index": self._key_index, "value_index": self._value_index,
                                          "vocab_size": self._vocab_size, "delimiter": self._delimiter,
                                          "offset": self._offset})
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init_op)
        ops.add_to_collection(ops.GraphKeys.ASSET_FILEPATHS, filename)
        return init_op


def _check_table_dtypes(table: Any, key_dtype: dtypes.DType, value_dtype: dtypes.DType) -> None:
    if key_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype for table, expected {table.key_dtype} but got {key_dtype}.")
    if value_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype for table, expected {table.value_dtype} but got {value_dtype}.")


def _lookup_values(keys: Any, compute: Any) -> Any:
    """Apply compute to a dense tensor of keys, or to a SparseTensor's values keeping its indices."""
    if isinstance(keys, SparseTensor):
        return SparseTensor(keys.indices, compute(keys.values), keys.dense_shape)
    return compute(keys)


def _key_tensor(keys: Any, expected: dtypes.DType) -> Any:
    if isinstance(keys, SparseTensor):
        key_dtype = keys.dtype
    else:
        keys = ops.convert_to_tensor(keys, dtype=None if isinstance(keys, ops.Tensor) else expected, name="keys")
        key_dtype = keys.dtype
    if key_dtype != expected:
        raise TypeError(f"Dtype of argument `keys` must be {expected}, received: {key_dtype}")
    return keys


class StaticHashTable:
    """An immutable key -> value table filled once by its initializer (run by tf.tables_initializer())."""

    def __init__(self, initializer: TableInitializerBase, default_value: Any, name: Optional[str] = None,
                 experimental_is_anonymous: bool = False) -> None:
        self._initializer = initializer
        self._key_dtype, self._value_dtype = initializer.key_dtype, initializer.value_dtype
        self._default_value = ops.convert_to_tensor(default_value, dtype=self._value_dtype)
        handle = ops.apply_op("HashTableV2", [], attrs={"key_dtype": self._key_dtype,
                                                        "value_dtype": self._value_dtype},
                              name=name or "hash_table")
        self._resource_handle = handle
        self._name = handle.op.name.split("/")[-1]
        self._init_op = initializer.initialize(self)

    key_dtype = property(lambda self: self._key_dtype, doc="The table's key dtype.")
    value_dtype = property(lambda self: self._value_dtype, doc="The table's value dtype.")
    default_value = property(lambda self: self._default_value, doc="The value of keys not in the table.")
    name = property(lambda self: self._name, doc="The table's op name.")
    resource_handle = property(lambda self: self._resource_handle, doc="The HashTableV2 output.")
    initializer = property(lambda self: self._init_op, doc="The op that fills the table.")

    def lookup(self, keys: Any, name: Optional[str] = None) -> Any:
        """Values of keys (a Tensor or SparseTensor), default_value for keys not in the table."""
        keys = _key_tensor(keys, self._key_dtype)
        with ops.name_scope(name, f"{self._name}_Lookup", [self._resource_handle]):
            return _lookup_values(keys, lambda k: ops.apply_op(
                "LookupTableFindV2", [self._resource_handle, k, self._default_value]))

    def size(self, name: Optional[str] = None) -> ops.Tensor:
        """The number of entries (int64)."""
        with ops.name_scope(name, f"{self._name}_Size", [self._resource_handle]):
            return ops.apply_op("LookupTableSizeV2", [self._resource_handle])

    def export(self, name: Optional[str] = None) -> tuple:
        """All keys and values of the table, in an unspecified order."""
        with ops.name_scope(name, f"{self._name}_Export", [self._resource_handle]):
            keys, values = ops.apply_op("LookupTableExportV2", [self._resource_handle],
                                        attrs={"Tkeys": self._key_dtype, "Tvalues": self._value_dtype})
        return keys, values


class StaticVocabularyTable:
    """String or int64 keys -> int64 ids: a key in the vocabulary gets its id, any other key
    vocab_size + Fingerprint64(key) mod num_oov_buckets (TF's StringToHashBucketFast)."""

    def __init__(self, initializer: Optional[TableInitializerBase], num_oov_buckets: int,
                 lookup_key_dtype: Any = None, name: Optional[str] = None,
                 experimental_is_anonymous: bool = False) -> None:
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer is not None and initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got {initializer.value_dtype}.")
        key_dtype = dtypes.string if initializer is None else initializer.key_dtype
        if key_dtype not in (dtypes.string, dtypes.int64):
            raise TypeError(f"Invalid `key_dtype`, expected one of {(dtypes.int64, dtypes.string)}, "
                            f"received: {key_dtype}")
        self._lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype) if lookup_key_dtype is not None else key_dtype
        allowed = (dtypes.int64, dtypes.int32) if key_dtype == dtypes.int64 else (dtypes.string,)
        if self._lookup_key_dtype not in allowed:
            raise TypeError(f"Invalid `key_dtype`, expected one of {allowed}, received: {self._lookup_key_dtype}")
        self._num_oov_buckets = int(num_oov_buckets)
        self._key_dtype = key_dtype
        self._table = None
        if initializer is not None:
            self._table = StaticHashTable(initializer, -1, name=name or "hash_table")
            self._name = self._table.name
        else:
            with ops.name_scope(name, "hash_table") as scope:
                self._name = scope.rstrip("/").split("/")[-1]

    key_dtype = property(lambda self: self._lookup_key_dtype, doc="The dtype lookup() accepts.")
    value_dtype = property(lambda self: dtypes.int64, doc="Always int64 ids.")
    name = property(lambda self: self._name, doc="The table's name.")

    @property
    def resource_handle(self) -> Optional[ops.Tensor]:
        """The vocabulary table's handle (None without an initializer)."""
        return None if self._table is None else self._table.resource_handle

    @property
    def initializer(self) -> ops.Operation:
        """The op that fills the vocabulary (a no_op without an initializer)."""
        if self._table is None:
            from edgelite.ops.control_flow_ops import no_op
            return no_op()
        return self._table.initializer

    def size(self, name: Optional[str] = None) -> ops.Tensor:
        """Vocabulary size plus num_oov_buckets (int64)."""
        with ops.name_scope(name, f"{self._name}_Size"):
            if self._table is None:
                return ops.convert_to_tensor(np.int64(self._num_oov_buckets))
            return math_ops.add(self._table.size(), np.int64(self._num_oov_buckets))

    def lookup(self, keys: Any, name: Optional[str] = None) -> Any:
        """int64 ids of keys (a Tensor or SparseTensor)."""
        keys = _key_tensor(keys, self._lookup_key_dtype)
        with ops.name_scope(name, f"{self._name}_Lookup"):
            return _lookup_values(keys, self._ids)

    def _ids(self, keys: ops.Tensor) -> ops.Tensor:
        if keys.dtype == dtypes.int32:
            keys = math_ops.cast(keys, dtypes.int64)
        text = keys if keys.dtype == dtypes.string else as_string(keys)
        buckets = string_to_hash_bucket_fast(text, self._num_oov_buckets, name="hash_bucket")
        if self._table is None:
            return buckets
        ids = self._table.lookup(keys)
        buckets = math_ops.add(buckets, self._table.size())
        return array_ops.where_v2(math_ops.not_equal(ids, self._table.default_value), ids, buckets)
