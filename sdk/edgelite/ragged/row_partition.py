"""RowPartition: how a RaggedTensor's values split into rows (row_splits, plus whichever encodings it was built
from, kept so that row_lengths() or value_rowids() do not recompute them). Validation adds TF's assertions."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape, tensor_util
from edgelite.ops import array_ops, check_ops, math_ops
from edgelite.ops.control_flow_ops import with_dependencies
from edgelite.ops.histogram_ops import bincount
from edgelite.ops.manip_ops import repeat

from .constant_eval import static_value

_SPLIT_TYPES = (dtypes.int32, dtypes.int64)


def check_validate(validate: Any) -> None:
    """TF refuses anything but a bool for validate."""
    if not isinstance(validate, bool):
        raise TypeError(f"Argument `validate` must have type bool. Received {validate}.")


def convert_partition(partition: Any, name: str, dtype: Any = None, dtype_hint: Any = None) -> ops.Tensor:
    """An int32/int64 tensor for a row-partitioning argument (int64 unless told or already int32)."""
    if isinstance(partition, np.ndarray) and partition.dtype == np.int32 and dtype is None:
        t = ops.convert_to_tensor(partition, name=name)
    else:
        t = ops.convert_to_tensor(partition, dtype=dtype, name=name,
                                  dtype_hint=dtypes.int64 if dtype_hint is None else dtype_hint)
    if t.dtype not in _SPLIT_TYPES:
        raise ValueError(f"{name} must have dtype int32 or int64")
    return t


def _splits_of_lengths(lengths: ops.Tensor) -> ops.Tensor:
    return array_ops.concat([ops.convert_to_tensor([0], dtype=lengths.dtype), math_ops.cumsum(lengths)], axis=0)


def _assert_monotonic(t: ops.Tensor, message: str) -> Any:
    return check_ops.assert_non_negative(t[1:] - t[:-1], message=message)


def _assert_zero(t: ops.Tensor, message: str) -> Any:
    return check_ops.assert_equal(t, ops.convert_to_tensor(0, dtype=t.dtype), message=message)


def _bincount_length(ids: ops.Tensor, count: Optional[ops.Tensor]) -> Optional[int]:
    """The number of bins a bincount of constant ids (clipped to a constant count) yields: TensorFlow's shape
    inference evaluates that constant subgraph, so the row_splits built from it get a known length."""
    const_ids = static_value(ids)
    const_count = static_value(count)
    if const_ids is None or (count is not None and const_count is None):
        return None
    return int(const_count) if count is not None else (int(const_ids.max()) + 1 if const_ids.size else 0)


class RowPartition:
    """row_splits and the cached encodings it was made from (row_lengths, value_rowids, nrows, nvals, uniform)."""

    def __init__(self, row_splits: ops.Tensor, row_lengths: Optional[ops.Tensor] = None,
                 value_rowids: Optional[ops.Tensor] = None, nrows: Optional[ops.Tensor] = None,
                 nvals: Optional[ops.Tensor] = None, uniform_row_length: Optional[ops.Tensor] = None) -> None:
        self._row_splits = row_splits
        self._row_lengths = row_lengths
        self._value_rowids = value_rowids
        self._nrows = nrows
        self._nvals = nvals
        self._uniform_row_length = uniform_row_length

    # ---- factories (TF's RowPartition.from_*) --------------------------------------------------------
    @classmethod
    def from_row_splits(cls, row_splits: Any, validate: bool = True, dtype_hint: Any = None) -> "RowPartition":
        check_validate(validate)
        if isinstance(row_splits, (list, tuple)) and not row_splits:
            raise ValueError("row_splits tensor may not be empty.")
        with ops.name_scope(None, "RowPartitionFromRowSplits", [row_splits]):
            splits = convert_partition(row_splits, "row_splits", dtype_hint=dtype_hint)
            splits.shape.assert_has_rank(1)
            if validate:
                msg = "Arguments to from_row_splits do not form a valid RaggedTensor:"
                checks = [check_ops.assert_rank(splits, 1, message=msg + "rank"),
                          _assert_zero(splits[0], msg + "zero"), _assert_monotonic(splits, msg + "monotonic")]
                splits = with_dependencies(checks, splits)
            return cls(splits)

    @classmethod
    def from_row_lengths(cls, row_lengths: Any, validate: bool = True, dtype_hint: Any = None) -> "RowPartition":
        check_validate(validate)
        with ops.name_scope(None, "RowPartitionFromRowLengths", [row_lengths]):
            lengths = convert_partition(row_lengths, "row_lengths", dtype_hint=dtype_hint)
            lengths.shape.assert_has_rank(1)
            if validate:
                msg = "Arguments to from_row_lengths do not form a valid RowPartition"
                checks = [check_ops.assert_rank(lengths, 1, message=msg),
                          check_ops.assert_non_negative(lengths, message=msg)]
                lengths = with_dependencies(checks, lengths)
            return cls(_splits_of_lengths(lengths), row_lengths=lengths)

    @classmethod
    def from_value_rowids(cls, value_rowids: Any, nrows: Any = None, validate: bool = True,
                          dtype_hint: Any = None) -> "RowPartition":
        check_validate(validate)
        with ops.name_scope(None, "RowPartitionFromValueRowIds", [value_rowids, nrows]):
            rowids = convert_partition(value_rowids, "value_rowids", dtype_hint=dtype_hint)
            if nrows is None:
                const_ids = tensor_util.constant_value(rowids)
                if const_ids is None:
                    nrows = array_ops.concat([rowids[-1:], ops.convert_to_tensor([-1], dtype=rowids.dtype)],
                                             axis=0)[0] + 1
                else:
                    nrows = ops.convert_to_tensor(int(const_ids[-1]) + 1 if const_ids.size else 0, rowids.dtype,
                                                  name="nrows")
            else:
                nrows = ops.convert_to_tensor(nrows, rowids.dtype, name="nrows")
                const_nrows = tensor_util.constant_value(nrows)
                if const_nrows is not None:
                    if const_nrows < 0:
                        raise ValueError("Expected nrows >= 0; got %d" % const_nrows)
                    const_ids = tensor_util.constant_value(rowids)
                    if const_ids is not None and const_ids.size and not const_nrows >= const_ids[-1] + 1:
                        raise ValueError("Expected nrows >= value_rowids[-1] + 1; got nrows=%d, "
                                         "value_rowids[-1]=%d" % (const_nrows, const_ids[-1]))
            rowids.shape.assert_has_rank(1)
            nrows.shape.assert_has_rank(0)
            if validate:
                msg = "Arguments to from_value_rowids do not form a valid RowPartition"
                checks = [check_ops.assert_rank(rowids, 1, message=msg), check_ops.assert_rank(nrows, 0, message=msg),
                          check_ops.assert_non_negative(rowids[:1], message=msg), _assert_monotonic(rowids, msg),
                          check_ops.assert_less(rowids[-1:], nrows, message=msg)]
                rowids = with_dependencies(checks, rowids)
            known = _bincount_length(rowids, nrows)
            nrows32 = math_ops.cast(nrows, dtypes.int32)
            lengths = bincount(math_ops.cast(rowids, dtypes.int32), minlength=nrows32, maxlength=nrows32,
                               dtype=rowids.dtype)
            splits = _splits_of_lengths(lengths)
            if known is not None:
                splits.set_shape([known + 1])
            return cls(splits, row_lengths=lengths, value_rowids=rowids, nrows=nrows)

    @classmethod
    def from_row_starts(cls, row_starts: Any, nvals: Any, validate: bool = True,
                        dtype_hint: Any = None) -> "RowPartition":
        check_validate(validate)
        with ops.name_scope(None, "RowPartitionFromRowStarts", [row_starts]):
            starts = convert_partition(row_starts, "row_starts", dtype_hint=dtype_hint)
            starts.shape.assert_has_rank(1)
            nvals = math_ops.cast(nvals, starts.dtype)
            if validate:
                msg = "Arguments to from_row_starts do not form a valid RaggedTensor"
                checks = [check_ops.assert_rank(starts, 1, message=msg), _assert_zero(starts[:1], msg),
                          _assert_monotonic(starts, msg), check_ops.assert_less_equal(starts[-1:], nvals, message=msg)]
                starts = with_dependencies(checks, starts)
            splits = array_ops.concat([starts, array_ops.reshape(nvals, [1])], axis=0)
            return cls(splits, nvals=nvals)

    @classmethod
    def from_row_limits(cls, row_limits: Any, validate: bool = True, dtype_hint: Any = None) -> "RowPartition":
        check_validate(validate)
        with ops.name_scope(None, "RowPartitionFromRowLimits", [row_limits]):
            limits = convert_partition(row_limits, "row_limits", dtype_hint=dtype_hint)
            limits.shape.assert_has_rank(1)
            if validate:
                msg = "Arguments to from_row_limits do not form a valid RaggedTensor"
                checks = [check_ops.assert_rank(limits, 1, message=msg),
                          check_ops.assert_non_negative(limits[:1], message=msg), _assert_monotonic(limits, msg)]
                limits = with_dependencies(checks, limits)
            splits = array_ops.concat([array_ops.zeros([1], limits.dtype), limits], axis=0)
            return cls(splits)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length: Any, nvals: Any = None, nrows: Any = None,
                                validate: bool = True, dtype_hint: Any = None) -> "RowPartition":
        check_validate(validate)
        if nrows is None and nvals is None:
            raise ValueError("Either (or both) of nvals and nrows must be specified")
        with ops.name_scope(None, "RowPartitionFromUniformRowLength", [uniform_row_length, nrows]):
            length = convert_partition(uniform_row_length, "uniform_row_length", dtype_hint=dtype_hint)
            dt = length.dtype
            nvals = None if nvals is None else convert_partition(nvals, "nvals", dtype=dt)
            nrows = None if nrows is None else convert_partition(nrows, "nrows", dtype=dt)
            length.shape.assert_has_rank(0)
            const_len = tensor_util.constant_value(length)
            const_nvals = None if nvals is None else tensor_util.constant_value(nvals)
            if nrows is None:
                if const_len is None:
                    nrows = nvals // math_ops.maximum(length, ops.convert_to_tensor(1, dt))
                elif const_len == 0:
                    nrows = ops.convert_to_tensor(0, dtype=dt)
                else:
                    nrows = nvals // int(const_len)
            const_nrows = tensor_util.constant_value(nrows)
            const_nvals = None if nvals is None else tensor_util.constant_value(nvals)
            checks = []
            if const_nvals is None and const_nrows is not None and const_len is not None:
                const_nvals = int(const_nrows) * int(const_len)
                if nvals is not None and validate:
                    checks.append(check_ops.assert_equal(nvals, const_nvals))
                nvals = ops.convert_to_tensor(const_nvals, dtype=dt)
            if nvals is None:
                nvals = nrows * length
            if const_nrows is not None and const_len is not None:
                splits = ops.convert_to_tensor([v * int(const_len) for v in range(int(const_nrows) + 1)], dtype=dt)
            else:
                splits = math_ops.range(nrows + 1, dtype=dt) * length
                known = static_value(nrows)
                if known is not None:
                    splits.set_shape([int(known) + 1])
            if validate:
                if const_nrows is None or const_len is None or const_nvals is None:
                    checks.append(check_ops.assert_equal(nrows * length, nvals, (
                        "uniform_row_length", length, "times nrows", nrows, "must equal nvals", nvals)))
                elif int(const_nrows) * int(const_len) != int(const_nvals):
                    raise ValueError("uniform_row_length=%d times nrows=%d must equal nvals=%d"
                                     % (const_len, const_nrows, const_nvals))
                if const_len is None:
                    checks.append(check_ops.assert_greater_equal(length, ops.convert_to_tensor(0, dt),
                                                                 message="uniform_row_length must be >= 0."))
                elif const_len < 0:
                    raise ValueError("uniform_row_length must be >= 0.")
                splits = with_dependencies(checks, splits)
            return cls(splits, nrows=nrows, nvals=nvals, uniform_row_length=length)

    # ---- accessors ----------------------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        """int32 or int64: the type of every partition tensor."""
        return self._row_splits.dtype

    def row_splits(self) -> ops.Tensor:
        return self._row_splits

    def uniform_row_length(self) -> Optional[ops.Tensor]:
        return self._uniform_row_length

    def has_value_rowids(self) -> bool:
        return self._value_rowids is not None

    def nrows(self) -> ops.Tensor:
        """The number of rows (a scalar of the partition dtype)."""
        if self._nrows is not None:
            return self._nrows
        n = tensor_shape.dimension_value(self._row_splits.shape[0])
        if n is None:
            return array_ops.shape(self._row_splits, out_type=self.dtype)[0] - 1
        return ops.convert_to_tensor(n - 1, dtype=self.dtype)

    def nvals(self) -> ops.Tensor:
        """The number of values partitioned (the last split)."""
        return self._nvals if self._nvals is not None else self._row_splits[-1]

    def row_lengths(self) -> ops.Tensor:
        if self._row_lengths is not None:
            return self._row_lengths
        return self._row_splits[1:] - self._row_splits[:-1]

    def row_starts(self) -> ops.Tensor:
        return self._row_splits[:-1]

    def row_limits(self) -> ops.Tensor:
        return self._row_splits[1:]

    def value_rowids(self) -> ops.Tensor:
        if self._value_rowids is not None:
            return self._value_rowids
        return row_splits_to_segment_ids(self._row_splits)

    @property
    def static_nrows(self) -> Optional[int]:
        n = tensor_shape.dimension_value(self._row_splits.shape[0]) if self._row_splits.shape.ndims else None
        if n is not None:
            return n - 1
        value = None if self._nrows is None else tensor_util.constant_value(self._nrows)
        return None if value is None else int(value)

    @property
    def static_uniform_row_length(self) -> Optional[int]:
        if self._uniform_row_length is None:
            return None
        value = tensor_util.constant_value(self._uniform_row_length)
        return None if value is None else int(value)

    def with_dependencies(self, checks: list) -> "RowPartition":
        """The same partition whose tensors are read only after checks have run."""
        def dep(t: Optional[ops.Tensor]) -> Optional[ops.Tensor]:
            return None if t is None else with_dependencies(checks, t)
        return RowPartition(dep(self._row_splits), dep(self._row_lengths), dep(self._value_rowids), dep(self._nrows),
                            dep(self._nvals), dep(self._uniform_row_length))

    def with_dtype(self, dtype: dtypes.DType) -> "RowPartition":
        """The partition with every tensor cast to dtype."""
        def cast(t: Optional[ops.Tensor]) -> Optional[ops.Tensor]:
            return None if t is None else math_ops.cast(t, dtype)
        return RowPartition(cast(self._row_splits), cast(self._row_lengths), cast(self._value_rowids),
                            cast(self._nrows), cast(self._nvals), cast(self._uniform_row_length))


def row_splits_to_segment_ids(splits: Any, name: Optional[str] = None, out_type: Any = None) -> ops.Tensor:
    """The row index of every value: [0, 0, 1, 1, 1, ...] for splits [0, 2, 5, ...]."""
    with ops.name_scope(name, "RaggedSplitsToSegmentIds", [splits]):
        splits = ops.convert_to_tensor(splits, name="splits", dtype_hint=dtypes.int64)
        if splits.dtype not in _SPLIT_TYPES:
            raise ValueError("splits must have dtype int32 or int64")
        splits.shape.assert_has_rank(1)
        if tensor_shape.dimension_value(splits.shape[0]) == 0:
            raise ValueError("Invalid row_splits: []")
        out_type = splits.dtype if out_type is None else dtypes.as_dtype(out_type)
        lengths = splits[1:] - splits[:-1]
        nrows = array_ops.shape(splits, out_type=out_type)[-1] - 1
        return repeat(math_ops.range(nrows), repeats=lengths, axis=0)


def segment_ids_to_row_splits(segment_ids: Any, num_segments: Any = None, out_type: Any = None,
                              name: Optional[str] = None) -> ops.Tensor:
    """row_splits of a sorted segment_ids vector (num_segments rows, empty rows included)."""
    if out_type is None:
        out_type = segment_ids.dtype if isinstance(segment_ids, ops.Tensor) else dtypes.int64
    out_type = dtypes.as_dtype(out_type)
    with ops.name_scope(name, "SegmentIdsToRaggedSplits", [segment_ids]) as name:
        segment_ids = math_ops.cast(convert_partition(segment_ids, "segment_ids"), dtypes.int32)
        segment_ids.shape.assert_has_rank(1)
        if num_segments is not None:
            num_segments = math_ops.cast(convert_partition(num_segments, "num_segments"), dtypes.int32)
            num_segments.shape.assert_has_rank(0)
        known = _bincount_length(segment_ids, num_segments)
        lengths = bincount(segment_ids, minlength=num_segments, maxlength=num_segments, dtype=out_type)
        splits = array_ops.concat([ops.convert_to_tensor([0], dtype=out_type), math_ops.cumsum(lengths)], axis=0,
                                  name=name)
        if known is not None:
            splits.set_shape([known + 1])
        return splits
