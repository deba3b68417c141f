"""RaggedFeature in the parse ops: which keys are parsed as ragged (values plus row splits) and how each
RaggedFeature's RaggedTensor is assembled from its value key and partition keys, for one record or a batch."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, check_ops, math_ops
from edgelite.ops.manip_ops import repeat
from edgelite.ops.segment_ops import unsorted_segment_max
from edgelite.ragged.ragged_tensor import RaggedTensor

from .parsing_config import FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature, VarLenFeature
from .ragged_parser import RaggedSpec


def _value_key(key: str, feature: RaggedFeature) -> str:
    return key if feature.value_key is None else feature.value_key


def ragged_specs(features: dict, short: Callable[[Any, str], str]) -> list:
    """The ragged keys of a features dict (value keys, then partition keys, by sorted feature key), checked for
    conflicting types and for overlap with dense and sparse keys as TensorFlow checks them."""
    found: dict = {}

    def add(key: str, dtype: dtypes.DType, splits: dtypes.DType) -> None:
        if key in found:
            old_dtype, old_splits = found[key]
            if old_dtype != dtype:
                raise ValueError(f"Conflicting type {old_dtype} vs {dtype} for feature {key}.")
            if old_splits != splits:
                raise ValueError(f"Conflicting partition type {old_splits} vs {splits} for feature {key}.")
        else:
            found[key] = (dtype, splits)

    dense_keys, sparse_keys = [], []
    for key in sorted(features):
        spec = features[key]
        if isinstance(spec, RaggedFeature):
            add(_value_key(key, spec), spec.dtype, spec.row_splits_dtype)
            for p in spec.partitions:
                if not isinstance(p, RaggedFeature.UniformRowLength):
                    add(p.key, dtypes.int64, spec.row_splits_dtype)
        elif isinstance(spec, (FixedLenFeature, FixedLenSequenceFeature)):
            dense_keys.append(key)
        elif isinstance(spec, VarLenFeature):
            sparse_keys.append(key)
        elif isinstance(spec, SparseFeature):
            index = list(spec.index_key) if isinstance(spec.index_key, (list, tuple)) else [spec.index_key]
            sparse_keys.extend(k for k in index + [spec.value_key] if k not in sparse_keys)
    ragged_keys = list(found)
    both = set(dense_keys) & set(ragged_keys)
    if both:
        # TF 2.21 passes its message to ValueError as two arguments
        raise ValueError("Dense and ragged keys must not intersect; dense_keys: ",
                         f"{dense_keys}, ragged_keys: {ragged_keys}, intersection: {both}")
    both = set(ragged_keys) & set(sparse_keys)
    if both:
        raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: {ragged_keys}, sparse_keys: "
                         f"{sparse_keys}, intersection: {both}")
    return [RaggedSpec(k, short(dt, k), splits.name) for k, (dt, splits) in found.items()]


def ragged_keys_of(features: dict) -> set:
    """Every key a RaggedFeature reads (to drop those that are not features themselves)."""
    keys = set()
    for key, spec in features.items():
        if isinstance(spec, RaggedFeature):
            keys.add(_value_key(key, spec))
            keys.update(p.key for p in spec.partitions if not isinstance(p, RaggedFeature.UniformRowLength))
    return keys


def parsed_ragged(specs: list, values: list, splits: list, scalar: bool, inner: Optional[list] = None) -> dict:
    """Each ragged key's parse output: its values for one record, a RaggedTensor over the batch otherwise
    (with inner splits, feature lists gain a [steps, values] level first)."""
    out = {}
    for i, spec in enumerate(specs):
        v = values[i]
        if inner is not None:
            v = RaggedTensor.from_row_splits(v, inner[i], validate=False)
        out[spec.key] = v if scalar else RaggedTensor.from_row_splits(v, splits[i], validate=False)
    return out


def assemble(features: dict, parsed: dict) -> dict:
    """The RaggedTensor of every RaggedFeature, built from the parsed value and partition keys."""
    result = {}
    for key in sorted(features):
        feature = features[key]
        if not isinstance(feature, RaggedFeature):
            continue
        rt = parsed[_value_key(key, feature)]
        if isinstance(rt, RaggedTensor):
            outer = None
            if rt.ragged_rank > 1:  # a batch of SequenceExamples: two batch dimensions, restored at the end
                outer = rt.row_splits
                rt = rt.values
            checks: list = []
            for partition in reversed(feature.partitions):
                rt = _batched_partition(rt, partition, parsed, key, feature.validate, outer, checks)
            if outer is not None:
                # after the alignment checks, whose message says more than a row-count mismatch
                with ops.control_dependencies(checks):
                    rt = RaggedTensor.from_row_splits(rt, outer, validate=feature.validate)
        else:
            for partition in reversed(feature.partitions):
                rt = _partition(rt, partition, parsed, feature.row_splits_dtype, feature.validate)
        result[key] = rt
    return result


def _partition(values: Any, partition: Any, parsed: dict, splits_dtype: dtypes.DType, validate: bool) -> Any:
    """One record: values split by one partition feature."""
    if isinstance(partition, RaggedFeature.UniformRowLength):
        if isinstance(values, RaggedTensor):
            length = ops.convert_to_tensor(partition.length, dtype=splits_dtype)
            return RaggedTensor.from_uniform_row_length(values, length, validate=validate)
        return array_ops.reshape(values, array_ops.concat(
            [ops.convert_to_tensor([-1, partition.length]), array_ops.shape(values)[1:]], axis=0))
    t = math_ops.cast(parsed[partition.key], splits_dtype)
    factory = {RaggedFeature.RowSplits: RaggedTensor.from_row_splits,
               RaggedFeature.RowLengths: RaggedTensor.from_row_lengths,
               RaggedFeature.RowStarts: RaggedTensor.from_row_starts,
               RaggedFeature.RowLimits: RaggedTensor.from_row_limits,
               RaggedFeature.ValueRowIds: RaggedTensor.from_value_rowids}[type(partition)]
    return factory(values, t, validate=validate)


def _batched_partition(rt: RaggedTensor, partition: Any, parsed: dict, key: str, validate: bool,
                       outer: Optional[ops.Tensor], checks: list) -> RaggedTensor:
    """A batch: each record's values (rt[i]) split by that record's partition feature, offsets adjusted;
    with two batch dimensions (outer) and validate, the alignment check is appended to checks."""
    if isinstance(partition, RaggedFeature.UniformRowLength):
        if rt.ragged_rank > 1:
            length = ops.convert_to_tensor(partition.length, dtype=rt.row_splits.dtype)
            return RaggedTensor.from_row_splits(
                RaggedTensor.from_uniform_row_length(rt.values, length, validate=validate),
                rt.row_splits // length, validate=validate)
        vals = array_ops.reshape(rt.values, array_ops.concat(
            [ops.convert_to_tensor([-1, partition.length]), array_ops.shape(rt.values)[1:]], axis=0))
        return RaggedTensor.from_row_splits(vals, rt.row_splits // partition.length, validate=validate)
    part = parsed[partition.key]
    if part.values.dtype != rt.row_splits.dtype:
        part = part.with_flat_values(math_ops.cast(part.flat_values, rt.row_splits.dtype)) \
            if part.ragged_rank > 1 else part.with_values(math_ops.cast(part.values, rt.row_splits.dtype))
    if outer is not None:
        if validate:
            checks.append(check_ops.assert_equal(outer, part.row_splits, message=f"Feature {key}: values and "
                                                                                  f"partitions are not aligned"))
        part = part.values
    with ops.control_dependencies(checks):
        if isinstance(partition, (RaggedFeature.RowSplits, RaggedFeature.RowLimits)):
            if isinstance(partition, RaggedFeature.RowSplits):
                part = _drop_first_of_each_row(part)
            limits = part.values + repeat(rt.row_starts(), part.row_lengths())
            return part.with_values(RaggedTensor.from_row_limits(rt.values, limits, validate=validate))
        if isinstance(partition, RaggedFeature.RowStarts):
            starts = part.values + repeat(rt.row_starts(), part.row_lengths())
            return part.with_values(RaggedTensor.from_row_starts(rt.values, starts, validate=validate))
        if isinstance(partition, RaggedFeature.RowLengths):
            return part.with_values(RaggedTensor.from_row_lengths(rt.values, part.values, validate=validate))
        nrows = math_ops.maximum(_row_max(part) + 1, 0)
        rowids = part.values + repeat(math_ops.cumsum(nrows, exclusive=True), part.row_lengths())
        return RaggedTensor.from_row_lengths(RaggedTensor.from_value_rowids(rt.values, rowids, validate=validate),
                                             nrows, validate=validate)


def _drop_first_of_each_row(part: RaggedTensor) -> RaggedTensor:
    """part[:, 1:]: every row without its first value (rows that are empty stay empty)."""
    starts, limits = part.row_starts(), part.row_limits()
    new_starts = math_ops.minimum(starts + 1, limits)
    lengths = limits - new_starts
    positions = math_ops.range(math_ops.reduce_sum(lengths), dtype=lengths.dtype) + \
        repeat(new_starts - math_ops.cumsum(lengths, exclusive=True), lengths)
    return RaggedTensor.from_row_lengths(array_ops.gather(part.values, positions), lengths, validate=False)


def _row_max(part: RaggedTensor) -> ops.Tensor:
    """The largest value of each row (the dtype's lowest value for an empty row), as ragged reduce_max gives."""
    return unsorted_segment_max(part.values, part.value_rowids(), part.nrows())
