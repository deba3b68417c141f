"""RaggedTensor (graph mode): a flat values tensor split into rows by one row partition per ragged dimension.

Like SparseTensor it is a composite: Session.run fetches its flat_values and nested_row_splits and returns a
RaggedTensorValue; feeding a RaggedTensor feeds those component tensors.
"""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.sparse_tensor import SparseTensor, convert_to_tensor_or_sparse_tensor, is_sparse
from edgelite.ops import array_ops, check_ops, math_ops
from edgelite.ops.logging_ops import Assert

from . import ragged_conversion_ops  # noqa: F401 - registers RaggedTensorToTensor / RaggedTensorToSparse
from . import ragged_operators
from .row_partition import RowPartition, check_validate, convert_partition


def _partition_dtype_hint(values: Any) -> Optional[dtypes.DType]:
    return values.row_splits.dtype if isinstance(values, RaggedTensor) else None


def _nrows(values: Any, out_type: dtypes.DType) -> ops.Tensor:
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=out_type)
    return array_ops.shape(values, out_type=out_type)[0]


def convert_values(values: Any) -> Any:
    """A RaggedTensor stays; anything else becomes a Tensor named "values"."""
    if isinstance(values, RaggedTensor):
        return values
    from .ragged_tensor_value import RaggedTensorValue
    if isinstance(values, RaggedTensorValue):
        return RaggedTensor.from_nested_row_splits(values.flat_values, values.nested_row_splits, validate=False)
    return ops.convert_to_tensor(values, name="values")


class RaggedTensor:
    """Rows of varying length: values[row_splits[i]:row_splits[i + 1]] is row i (values may be ragged too)."""

    def __init__(self, values: Any, row_partition: RowPartition, internal: bool = False) -> None:
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        values.shape.with_rank_at_least(1)
        self._values = values
        self._row_partition = row_partition

    # ---- factories -------------------------------------------------------------------------------------
    @classmethod
    def _from_row_partition(cls, values: Any, partition: RowPartition, validate: bool = True) -> "RaggedTensor":
        check_validate(validate)
        values = convert_values(values)
        if isinstance(values, RaggedTensor) and values.row_splits.dtype != partition.dtype:
            raise ValueError(f"Argument `row_partition` of RaggedTensor with name: partition must have same dtype "
                             f"as Argument `values`. ({partition.dtype} vs. {values.row_splits.dtype}).")
        if partition.has_value_rowids():
            values.shape[:1].assert_is_compatible_with(partition.value_rowids().shape)
        if validate:
            msg = "Arguments to _from_row_partition do not form a valid RaggedTensor"
            checks = [check_ops.assert_equal(math_ops.cast(partition.nvals(), partition.dtype),
                                             _nrows(values, partition.dtype), message=msg)]
            if not isinstance(values, RaggedTensor):
                checks.append(check_ops.assert_rank_at_least(values, 1))
            partition = partition.with_dependencies(checks)
        return cls(values, partition, internal=True)

    @classmethod
    def from_row_splits(cls, values: Any, row_splits: Any, name: Optional[str] = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i is values[row_splits[i]:row_splits[i + 1]]."""
        check_validate(validate)
        with ops.name_scope(name, "RaggedFromRowSplits", [values, row_splits]):
            partition = RowPartition.from_row_splits(row_splits, validate, _partition_dtype_hint(values))
            return cls._from_row_partition(values, partition, validate)

    @classmethod
    def from_row_lengths(cls, values: Any, row_lengths: Any, name: Optional[str] = None,
                         validate: bool = True) -> "RaggedTensor":
        """Row i holds the next row_lengths[i] values."""
        check_validate(validate)
        with ops.name_scope(name, "RaggedFromRowLengths", [values, row_lengths]):
            partition = RowPartition.from_row_lengths(row_lengths, validate, _partition_dtype_hint(values))
            return cls._from_row_partition(values, partition, validate)

    @classmethod
    def from_value_rowids(cls, values: Any, value_rowids: Any, nrows: Any = None, name: Optional[str] = None,
                          validate: bool = True) -> "RaggedTensor":
        """values[j] belongs to row value_rowids[j] (sorted); nrows adds empty trailing rows."""
        check_validate(validate)
        with ops.name_scope(name, "RaggedFromValueRowIds", [values, value_rowids, nrows]):
            partition = RowPartition.from_value_rowids(value_rowids, nrows, validate, _partition_dtype_hint(values))
            return cls._from_row_partition(values, partition, validate)

    @classmethod
    def from_row_starts(cls, values: Any, row_starts: Any, name: Optional[str] = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i starts at values[row_starts[i]]; the last row ends with values."""
        check_validate(validate)
        with ops.name_scope(name, "RaggedFromRowStarts", [values, row_starts]):
            values = convert_values(values)
            hint = _partition_dtype_hint(values) or dtypes.int64
            starts = convert_partition(row_starts, "row_starts", dtype_hint=hint)
            partition = RowPartition.from_row_starts(starts, _nrows(values, starts.dtype), validate, hint)
            return cls._from_row_partition(values, partition, validate)

    @classmethod
    def from_row_limits(cls, values: Any, row_limits: Any, name: Optional[str] = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i ends before values[row_limits[i]]; the first row starts at 0."""
        check_validate(validate)
        with ops.name_scope(name, "RaggedFromRowLimits", [values, row_limits]):
            partition = RowPartition.from_row_limits(row_limits, validate, _partition_dtype_hint(values))
            return cls._from_row_partition(values, partition, validate)

    @classmethod
    def from_uniform_row_length(cls, values: Any, uniform_row_length: Any, nrows: Any = None,
                                validate: bool = True, name: Optional[str] = None) -> "RaggedTensor":
        """Every row holds uniform_row_length values (a dimension of known size in the shape)."""
        check_validate(validate)
        with ops.name_scope(name, "RaggedFromUniformRowLength", [values, uniform_row_length, nrows]):
            values = convert_values(values)
            hint = _partition_dtype_hint(values) or dtypes.int64
            length = convert_partition(uniform_row_length, "UniformRowLength", dtype_hint=hint)
            known = tensor_shape.dimension_value(values.shape[0])
            nvals = _nrows(values, length.dtype) if known is None else ops.convert_to_tensor(known, length.dtype)
            partition = RowPartition.from_uniform_row_length(length, nvals, nrows, validate, hint)
            return cls._from_row_partition(values, partition, validate)

    @classmethod
    def from_nested_value_rowids(cls, flat_values: Any, nested_value_rowids: Any, nested_nrows: Any = None,
                                 name: Optional[str] = None, validate: bool = True) -> "RaggedTensor":
        """from_value_rowids applied once per ragged dimension, innermost first."""
        check_validate(validate)
        if isinstance(nested_value_rowids, ops.Tensor):
            raise TypeError(f"Argument `nested_value_rowids` must be a list of Tensors. Received "
                            f"{nested_value_rowids}.")
        if nested_nrows is None:
            nested_nrows = [None] * len(nested_value_rowids)
        elif len(nested_nrows) != len(nested_value_rowids):
            raise ValueError(f"Argument `nested_nrows` must have the same length as argument "
                             f"`nested_value_rowids`. len(nested_nrows) = {len(nested_nrows)} vs. "
                             f"len(nested_values_rowids) = {len(nested_value_rowids)}.")
        with ops.name_scope(name, "RaggedFromNestedValueRowIds", [flat_values]):
            result = flat_values
            for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
                result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
            return result

    @classmethod
    def from_nested_row_splits(cls, flat_values: Any, nested_row_splits: Any, name: Optional[str] = None,
                               validate: bool = True) -> "RaggedTensor":
        """from_row_splits applied once per ragged dimension, innermost first."""
        return _nested(cls.from_row_splits, flat_values, nested_row_splits, "nested_row_splits",
                       "RaggedFromNestedRowSplits", name, validate)

    @classmethod
    def from_nested_row_lengths(cls, flat_values: Any, nested_row_lengths: Any, name: Optional[str] = None,
                                validate: bool = True) -> "RaggedTensor":
        """from_row_lengths applied once per ragged dimension, innermost first."""
        return _nested(cls.from_row_lengths, flat_values, nested_row_lengths, "nested_row_lengths",
                       "RaggedFromNestedRowlengths", name, validate)

    @classmethod
    def from_tensor(cls, tensor: Any, lengths: Any = None, padding: Any = None, ragged_rank: int = 1,
                    name: Optional[str] = None, row_splits_dtype: Any = dtypes.int64) -> "RaggedTensor":
        """The rows of a dense tensor, cut to lengths or before trailing padding (all of each row otherwise)."""
        from .ragged_from_tensor import from_tensor
        return from_tensor(cls, tensor, lengths, padding, ragged_rank, name, dtypes.as_dtype(row_splits_dtype))

    @classmethod
    def from_sparse(cls, st_input: Any, name: Optional[str] = None,
                    row_splits_dtype: Any = dtypes.int64) -> "RaggedTensor":
        """The rows of a 2-D SparseTensor, each holding its stored values in order (ragged-right input)."""
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if not is_sparse(st_input):
            raise TypeError(f"Argument `st_input` must be of type SparseTensor, but is of type "
                            f"{type(st_input).__name__}.")
        with ops.name_scope(name, "RaggedFromSparse", [st_input]):
            st_input = convert_to_tensor_or_sparse_tensor(st_input, name="st_input")
            from_shape = st_input.dense_shape.shape.as_list()[0] if st_input.dense_shape.shape.ndims else None
            from_indices = st_input.indices.shape.as_list()[1] if st_input.indices.shape.ndims else None
            if from_shape != 2 and from_indices != 2:
                raise ValueError("rank(st_input) must be 2.")
            with ops.control_dependencies(_assert_ragged_right(st_input.indices)):
                segment_ids = math_ops.cast(st_input.indices[:, 0], row_splits_dtype)
                num_segments = math_ops.cast(st_input.dense_shape[0], row_splits_dtype)
                return cls.from_value_rowids(st_input.values, segment_ids, num_segments, validate=False)

    # ---- accessors -------------------------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        """The element type."""
        return self._values.dtype

    @property
    def shape(self) -> tensor_shape.TensorShape:
        """[nrows, uniform length or None] + the inner dimensions of values."""
        p = self._row_partition
        return tensor_shape.TensorShape([p.static_nrows, p.static_uniform_row_length]).concatenate(
            self._values.shape[1:])

    def get_shape(self) -> tensor_shape.TensorShape:
        """The static shape."""
        return self.shape

    @property
    def ragged_rank(self) -> int:
        """The number of ragged (partitioned) dimensions."""
        inner = self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0
        return inner + 1

    @property
    def values(self) -> Any:
        """The concatenated rows (a Tensor, or a RaggedTensor for ragged_rank > 1)."""
        return self._values

    @property
    def row_splits(self) -> ops.Tensor:
        """int32/int64 [nrows + 1]: where each row starts in values."""
        return self._row_partition.row_splits()

    @property
    def uniform_row_length(self) -> Optional[ops.Tensor]:
        """The common length of all rows, when built from one (None otherwise)."""
        return self._row_partition.uniform_row_length()

    @property
    def flat_values(self) -> ops.Tensor:
        """The innermost values tensor."""
        rt = self._values
        while isinstance(rt, RaggedTensor):
            rt = rt.values
        return rt

    @property
    def nested_row_splits(self) -> tuple:
        """The row_splits of every ragged dimension, outermost first."""
        out = [self.row_splits]
        rt = self._values
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_splits)
            rt = rt.values
        return tuple(out)

    @property
    def graph(self) -> ops.Graph:
        """The graph holding the component tensors."""
        return self.flat_values.graph

    def value_rowids(self, name: Optional[str] = None) -> ops.Tensor:
        """The row of every value."""
        with ops.name_scope(name, "RaggedValueRowIds", [self]):
            return self._row_partition.value_rowids()

    def nested_value_rowids(self, name: Optional[str] = None) -> tuple:
        """value_rowids of every ragged dimension, outermost first."""
        with ops.name_scope(name, "RaggedNestedValueRowIds", [self]):
            out = [self.value_rowids()]
            if isinstance(self._values, RaggedTensor):
                out.extend(self._values.nested_value_rowids())
            return tuple(out)

    def nrows(self, out_type: Any = None, name: Optional[str] = None) -> ops.Tensor:
        """The number of rows."""
        with ops.name_scope(name, "RaggedNRows", [self]):
            n = self._row_partition.nrows()
            return n if out_type is None else math_ops.cast(n, out_type)

    def row_starts(self, name: Optional[str] = None) -> ops.Tensor:
        """Where each row starts in values."""
        with ops.name_scope(name, "RaggedRowStarts", [self]):
            return self._row_partition.row_starts()

    def row_limits(self, name: Optional[str] = None) -> ops.Tensor:
        """Where each row ends in values (exclusive)."""
        with ops.name_scope(name, "RaggedRowLimits", [self]):
            return self._row_partition.row_limits()

    def row_lengths(self, axis: int = 1, name: Optional[str] = None) -> Any:
        """The length of every row along axis (1: this tensor's rows; deeper axes give a ragged result)."""
        if axis == 0:
            return self._row_partition.nrows()
        if axis == 1:
            with ops.name_scope(name, "RaggedRowLengths", [self]):
                return self._row_partition.row_lengths()
        with ops.name_scope(name, "RaggedRowLengths", [self]):
            if axis < 0:
                if self.shape.ndims is None:
                    raise ValueError(f"axis may not be negative if rank is unknown; got axis={axis}")
                axis += self.shape.ndims
            if isinstance(self._values, RaggedTensor):
                return self.with_values(self._values.row_lengths(axis - 1))
            shape = array_ops.shape(self._values, out_type=self.row_splits.dtype)
            return self.with_values(array_ops.ones(shape[:axis - 1], self.row_splits.dtype) * shape[axis - 1])

    def nested_row_lengths(self, name: Optional[str] = None) -> tuple:
        """row_lengths of every ragged dimension, outermost first."""
        with ops.name_scope(name, "RaggedNestedRowLengths", [self]):
            out = [self.row_lengths()]
            if isinstance(self._values, RaggedTensor):
                out.extend(self._values.nested_row_lengths())
            return tuple(out)

    def bounding_shape(self, axis: Any = None, name: Optional[str] = None, out_type: Any = None) -> ops.Tensor:
        """The smallest dense shape holding this tensor: [nrows, longest row, ...]."""
        out_type = self.row_splits.dtype if out_type is None else dtypes.as_dtype(out_type)
        with ops.name_scope(name, "RaggedBoundingBox", [self, axis]):
            nested = self.nested_row_splits
            dims = [math_ops.cast(self.nrows(), out_type)]
            for splits in nested:
                lengths = splits[1:] - splits[:-1]
                dims.append(math_ops.cast(math_ops.reduce_max(array_ops.concat(
                    [lengths, ops.convert_to_tensor([0], dtype=lengths.dtype)], axis=0)), out_type))
            inner = array_ops.shape(self.flat_values, out_type=out_type)[1:]
            bbox = array_ops.concat([array_ops.stack(dims), inner], axis=0)
            return bbox if axis is None else array_ops.gather(bbox, axis)

    # ---- derived tensors ---------------------------------------------------------------------------------
    def with_values(self, new_values: Any) -> "RaggedTensor":
        """The same row partition over new values (same number of rows as values)."""
        new_values = convert_values(new_values)
        new_values.shape.with_rank_at_least(1)
        self._values.shape[:1].assert_is_compatible_with(new_values.shape[:1])
        if isinstance(new_values, RaggedTensor) and self._row_partition.dtype != new_values.row_splits.dtype:
            raise ValueError("self and new_values have mismatched row_splits dtypes; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
        return RaggedTensor(new_values, self._row_partition, internal=True)

    def with_flat_values(self, new_values: Any) -> "RaggedTensor":
        """The same nested row partitions over new flat values."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(convert_values(new_values))

    def with_row_splits_dtype(self, dtype: Any) -> "RaggedTensor":
        """A copy whose row partitions (at every level) are cast to int32 or int64."""
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits` dtype must be int32 or int64. Received {dtype}.")
        if self._row_partition.dtype == dtype:
            return self
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        return RaggedTensor(values, self._row_partition.with_dtype(dtype), internal=True)

    def merge_dims(self, outer_axis: int, inner_axis: int) -> Any:
        """The dimensions outer_axis..inner_axis flattened into one (row-major)."""
        from .ragged_merge_dims import merge_dims
        return merge_dims(self, outer_axis, inner_axis)

    def to_tensor(self, default_value: Any = None, name: Optional[str] = None, shape: Any = None) -> ops.Tensor:
        """The dense tensor of bounding shape (or shape), empty cells filled with default_value (zero)."""
        with ops.name_scope(name, "RaggedToTensor", [self, default_value, shape]):
            if default_value is not None:
                default_value = ops.convert_to_tensor(default_value, name="default_value", dtype=self.dtype)
            else:
                default_value = array_ops.zeros((), self.dtype)
            splits = list(self.nested_row_splits)
            if isinstance(shape, (list, tuple)) and any(isinstance(v, ops.Tensor) for v in shape):
                shape = array_ops.stack(shape)
            shape_tensor = _shape_as_tensor(shape, splits[0].dtype)
            out = ops.apply_op("RaggedTensorToTensor", [shape_tensor, self.flat_values, default_value, splits],
                               {"row_partition_types": ["ROW_SPLITS"] * len(splits)})
            ragged_shape = self.shape
            if ragged_shape.ndims is not None and not isinstance(shape, ops.Tensor):
                given = tensor_shape.as_shape(shape)
                if given.ndims is None:
                    out.set_shape(ragged_shape)
                else:
                    out.set_shape([a if a is not None else b for a, b in zip(given.as_list(),
                                                                             ragged_shape.as_list())])
            return out

    def to_sparse(self, name: Optional[str] = None) -> SparseTensor:
        """The SparseTensor of every value at its [row, position, ...] coordinates."""
        with ops.name_scope(name, "RaggedToSparse", [self]):
            ind, vals, shape = ops.apply_op("RaggedTensorToSparse", [list(self.nested_row_splits),
                                                                      self.flat_values])
            return SparseTensor(ind, vals, shape)

    def consumers(self) -> list:
        """The ops taking any component tensor."""
        seen: dict = {}
        for t in (self.flat_values,) + self.nested_row_splits:
            for op in t.consumers():
                seen.setdefault(op.name, op)
        return list(seen.values())

    def eval(self, feed_dict: Optional[dict] = None, session: Any = None) -> Any:
        """Run the graph up to this tensor in a session (the default one if None)."""
        return ops.run_using_default_session(self, feed_dict, self.graph, session)

    def _as_graph_element(self) -> ops.Tensor:
        return self.flat_values

    def __repr__(self) -> str:
        return f"tf.RaggedTensor(values={self._values}, row_splits={self.row_splits})"

    __str__ = __repr__


def _nested(factory: Any, flat_values: Any, partitions: Any, arg: str, scope: str, name: Optional[str],
            validate: bool) -> RaggedTensor:
    """factory(values, partition) applied from the innermost partition outwards."""
    check_validate(validate)
    if isinstance(partitions, ops.Tensor):
        raise TypeError(f"Argument `{arg}` must be a list of Tensors. Received {partitions}.")
    with ops.name_scope(name, scope, [flat_values]):
        result = flat_values
        for partition in reversed(list(partitions)):
            result = factory(result, partition, validate=validate)
        return result


def _shape_as_tensor(shape: Any, dtype: dtypes.DType) -> ops.Tensor:
    """-1 for an unknown shape; a vector with -1 for each unknown dimension otherwise."""
    if isinstance(shape, ops.Tensor):
        return math_ops.cast(shape, dtype) if shape.dtype != dtype else shape
    shape = tensor_shape.as_shape(shape)
    if shape.ndims is None:
        return ops.convert_to_tensor(-1, dtype=dtype)
    return ops.convert_to_tensor([-1 if d is None else d for d in shape.as_list()], dtype=dtype)


def _assert_ragged_right(indices: ops.Tensor) -> list:
    """Checks a 2-D SparseTensor's indices fill each row from column 0 without gaps, in order."""
    prefix = indices[:, :-1]
    suffix = indices[:, -1]
    new_row = math_ops.reduce_any(math_ops.not_equal(prefix[1:], prefix[:-1]), axis=1)
    ok = array_ops.where(new_row, math_ops.equal(suffix[1:], 0), math_ops.equal(suffix[1:], suffix[:-1] + 1))
    right = math_ops.logical_and(math_ops.reduce_all(math_ops.equal(suffix[:1], 0)), math_ops.reduce_all(ok))
    return [Assert(right, ["SparseTensor is not right-ragged", "SparseTensor.indices =", indices])]


def is_ragged(value: Any) -> bool:
    """True for a RaggedTensor or a RaggedTensorValue."""
    from .ragged_tensor_value import RaggedTensorValue
    return isinstance(value, (RaggedTensor, RaggedTensorValue))


def _refuse_dense_conversion(value: RaggedTensor, dtype: Any = None, name: Optional[str] = None,
                             as_ref: bool = False) -> ops.Tensor:
    raise TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a supported "
                    "type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")


ops.register_tensor_conversion_function(RaggedTensor, _refuse_dense_conversion)
ragged_operators.install(RaggedTensor)
