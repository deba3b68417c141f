"""The numpy side of parse_example / parse_sequence_example: serialized protos to dense arrays and sparse triples.

Error texts follow TensorFlow's kernels, which word them differently for one scalar record ("Key: a.")
and for a batch ("Name: <unknown>, Key: a, Index: 0.").
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np
from google.protobuf.message import DecodeError

from edgelite._codec.wire import encode_varint
from edgelite.framework import errors

from .example_protos import Example, SequenceExample

_KIND_OF = {"int64": "int64_list", "float": "float_list", "string": "bytes_list"}
_TYPE_OF = {v: k for k, v in _KIND_OF.items()}
_NP = {"int64": np.int64, "float": np.float32, "string": object}


@dataclass(frozen=True)
class DenseSpec:
    """A FixedLenFeature (seq=False) or FixedLenSequenceFeature (seq=True) to parse."""

    key: str
    dtype: str  # "int64", "float" or "string"
    shape: tuple
    default: Optional[np.ndarray]
    seq: bool = False
    allow_missing: bool = False


@dataclass(frozen=True)
class SparseSpec:
    """A VarLenFeature (index_keys empty) or a SparseFeature (index keys, value key and dense size)."""

    key: str
    dtype: str
    index_keys: tuple = ()
    size: tuple = ()
    already_sorted: bool = False


class _Where:
    """Formats the record a message is about, as TensorFlow does in batch and in scalar mode."""

    def __init__(self, names: Sequence[Any], scalar: bool) -> None:
        self.names = names
        self.scalar = scalar

    def name(self, i: int) -> str:
        if len(self.names):
            n = self.names[i]
            return n.decode("utf-8", "replace") if isinstance(n, bytes) else str(n)
        return "<unknown>"

    def key(self, key: str, i: int) -> str:
        return f"Key: {key}." if self.scalar else f"Name: {self.name(i)}, Key: {key}, Index: {i}."

    def missing(self, key: str, dtype: str, i: int) -> errors.InvalidArgumentError:
        head = "" if self.scalar else f"Name: {self.name(i)}, "
        return errors.InvalidArgumentError(
            None, None, f"{head}Feature: {key} (data type: {dtype}) is required but could not be found.")


def _shape_text(shape: tuple, seq: bool) -> str:
    dims = (["?"] if seq else []) + [str(d) for d in shape]
    return "[" + ",".join(dims) + "]"


def _values(feature: Any, dtype: str) -> Any:
    """The feature's values as an array (int64/float32) or a list of bytes; None if its kind is another type."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return np.zeros(0, _NP[dtype]) if dtype != "string" else []
    if kind != _KIND_OF[dtype]:
        return None
    vals = getattr(feature, kind).value
    return list(vals) if dtype == "string" else np.asarray(vals, _NP[dtype])


def _typed(feature: Any, spec_dtype: str, where: _Where, key: str, i: int, varlen: bool) -> Any:
    vals = _values(feature, spec_dtype)
    if vals is None:
        actual = _TYPE_OF[feature.WhichOneof("kind")]
        if varlen:
            msg = f"Data types don't match. Expected type: {spec_dtype}, Actual type: {actual}"
        else:
            msg = f"Data types don't match. Data type: {actual} but expected type: {spec_dtype}"
        raise errors.InvalidArgumentError(None, None, f"{where.key(key, i)}  {msg}")
    return vals


def _decode(cls: type, record: Any) -> Any:
    data = record.encode("utf-8") if isinstance(record, str) else bytes(record)
    try:
        return cls.FromString(data)
    except DecodeError:
        text = data.decode("utf-8", "replace")
        raise errors.InvalidArgumentError(None, None, f"Could not parse example input, value: '{text}'") from None


def _decode_all(cls: type, records: np.ndarray) -> list:
    """Every record decoded; bytes records go straight to the parser, and anything else (str records, or a
    record that does not parse) is redone one by one for _decode's conversion and error text."""
    parse = cls.FromString
    try:
        return [parse(r) for r in records]
    except (DecodeError, TypeError):
        return [_decode(cls, r) for r in records]


def _packed_floats(spec: DenseSpec, feats: list, size: int) -> Optional[np.ndarray]:
    """[batch, size] float32 values read straight from each FloatList's packed bytes, or None when any record
    lacks the feature, holds another type or another count (the general path then says what is wrong).

    The protobuf runtime writes a FloatList as tag 0x0a, the byte count as a varint, then the little-endian
    floats, so one join and one frombuffer replace a Python-level conversion of every value. A Feature of
    another kind has an empty float_list, whose bytes are too short, so no per-record kind check is needed.
    """
    header = b"\x0a" + encode_varint(4 * size)
    key = spec.key
    try:
        raws = [fmap.get(key).float_list.SerializeToString() for fmap in feats]
    except AttributeError:  # a record without the feature: get gave None
        return None
    want = len(header) + 4 * size
    if set(map(len, raws)) != {want}:
        return None
    rows = np.frombuffer(b"".join(raws), np.uint8).reshape(len(raws), want)
    if not (rows[:, :len(header)] == np.frombuffer(header, np.uint8)).all():
        return None
    return np.ascontiguousarray(rows[:, len(header):]).view("<f4").astype(np.float32, copy=False)


def _chained_ints(spec: DenseSpec, feats: list, size: int) -> Optional[np.ndarray]:
    """[batch * size] int64 values taken in one pass over every record's Int64List, or None when any record
    lacks the feature, holds another type or another count (the general path then says what is wrong).

    A Feature of another kind has an empty int64_list, so the count check also catches a kind mismatch."""
    key = spec.key
    try:
        lists = [fmap.get(key).int64_list.value for fmap in feats]
    except AttributeError:  # a record without the feature: get gave None
        return None
    if set(map(len, lists)) != {size}:
        return None
    return np.fromiter(itertools.chain.from_iterable(lists), np.int64, count=size * len(lists))


def _fixed(spec: DenseSpec, feats: list, where: _Where) -> np.ndarray:
    """[batch] + shape values of a FixedLenFeature; each record must hold exactly prod(shape) values."""
    size = math.prod(spec.shape)
    if size > 0 and feats and spec.dtype != "string":
        fast = (_packed_floats if spec.dtype == "float" else _chained_ints)(spec, feats, size)
        if fast is not None:
            return fast.reshape((len(feats),) + spec.shape)
    out = np.empty((len(feats), size), _NP[spec.dtype])
    for i, fmap in enumerate(feats):
        f = fmap.get(spec.key)
        if f is None:
            if spec.default is None:
                raise where.missing(spec.key, spec.dtype, i)
            out[i] = spec.default.reshape(-1)
            continue
        vals = _typed(f, spec.dtype, where, spec.key, i, varlen=False)
        if len(vals) != size:
            if where.scalar:
                msg = f"Can't parse serialized Example: Some {_KIND_OF[spec.dtype]} slice was not parsed."
            else:
                msg = (f"Number of {spec.dtype} values != expected.  Values size: {len(vals)} but output shape: "
                       f"{_shape_text(spec.shape, False)}")
            raise errors.InvalidArgumentError(None, None, f"{where.key(spec.key, i)}  {msg}")
        out[i] = vals
    return out.reshape((len(feats),) + spec.shape)


def _padded(rows: list, spec: DenseSpec) -> np.ndarray:
    """Stack per-record [n_i] + shape arrays into [batch, max n] + shape, padding with the default."""
    longest = max((len(r) for r in rows), default=0)
    fill: Any = spec.default if spec.default is not None else (b"" if spec.dtype == "string" else 0)
    out = np.empty((len(rows), longest) + spec.shape, _NP[spec.dtype])
    out[...] = fill
    for i, r in enumerate(rows):
        if len(r):
            out[i, :len(r)] = r
    return out


def _sequence(spec: DenseSpec, feats: list, where: _Where) -> np.ndarray:
    """[batch, max rows] + shape values of a FixedLenSequenceFeature (a flat list in each record)."""
    stride = math.prod(spec.shape)
    rows = []
    for i, fmap in enumerate(feats):
        f = fmap.get(spec.key)
        vals = np.zeros(0, _NP[spec.dtype]) if f is None else _typed(f, spec.dtype, where, spec.key, i, False)
        n = len(vals)
        if stride == 0 or n % stride:
            if where.scalar:
                msg = (f"Error while parsing feature with key {spec.key}: number of elements should be divisible "
                       f"by {stride}, found {n} instead")
                raise errors.InvalidArgumentError(None, None, msg)
            msg = (f"Number of {spec.dtype} values is not a multiple of stride length. Saw {n} values but output "
                   f"shape is: {_shape_text(spec.shape, True)}")
            raise errors.InvalidArgumentError(None, None, f"{where.key(spec.key, i)}  {msg}")
        rows.append(np.asarray(vals, _NP[spec.dtype]).reshape((n // stride,) + spec.shape) if stride else vals)
    return _padded(rows, spec)


def _sparse(key: str, dtype: str, feats: list, where: _Where) -> tuple:
    """(indices [N, 2], values [N], dense_shape [2]) of a VarLenFeature over the batch."""
    per = []
    for i, fmap in enumerate(feats):
        f = fmap.get(key)
        per.append(np.zeros(0, _NP[dtype]) if f is None else _typed(f, dtype, where, key, i, varlen=True))
    lengths = np.array([len(v) for v in per], np.int64)
    total = int(lengths.sum())
    rows = np.repeat(np.arange(len(per), dtype=np.int64), lengths)
    starts = np.cumsum(lengths) - lengths
    cols = np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
    values = np.empty(total, _NP[dtype])
    if total:
        values[:] = np.concatenate([np.asarray(v, _NP[dtype]) for v in per]) if dtype != "string" else \
            [b for v in per for b in v]
    width = int(lengths.max()) if len(per) else 0
    return np.stack([rows, cols], axis=1), values, np.array([len(per), width], np.int64)


def _sparse_feature(spec: SparseSpec, feats: list, where: _Where) -> tuple:
    """A SparseFeature: index features give the coordinates of the value feature's entries, per record."""
    idx_parts = [_sparse(k, "int64", feats, where) for k in spec.index_keys]
    val_ind, values, _ = _sparse(spec.key, spec.dtype, feats, where)
    rows = val_ind[:, 0]
    coords = [p[1] for p in idx_parts]
    for (ind, _, _), k in zip(idx_parts, spec.index_keys):
        if len(ind) != len(rows) or not np.array_equal(ind[:, 0], rows):
            raise errors.InvalidArgumentError(
                None, None, f"Inconsistent number of indices and values for SparseFeature {k}: the index and "
                            f"value features must have the same number of entries in every record")
    indices = np.stack([rows] + coords, axis=1) if len(rows) else np.zeros((0, 1 + len(coords)), np.int64)
    if not spec.already_sorted and len(rows):
        order = np.lexsort(indices.T[::-1])
        indices, values = indices[order], values[order]
    return indices, values, np.array((len(feats),) + spec.size, np.int64)


def _scalarized(triple: tuple) -> tuple:
    """Drop the batch dimension of a one-record sparse result (scalar input)."""
    ind, vals, shape = triple
    return ind[:, 1:], vals, shape[1:]


def parse_examples(serialized: np.ndarray, names: np.ndarray, dense: Sequence[DenseSpec],
                   sparse: Sequence[SparseSpec]) -> tuple:
    """Parse a scalar or a vector of serialized Examples: ([dense arrays], [(indices, values, shape)], the
    records' feature maps and their _Where, for the ragged keys)."""
    scalar = serialized.ndim == 0
    records = serialized.reshape(-1)
    where = _Where(np.asarray(names).reshape(-1), scalar)
    feats = _decode_all(Example, records)
    feats = [p.features.feature for p in feats]
    dense_out = [(_sequence if s.seq else _fixed)(s, feats, where) for s in dense]
    sparse_out = [_sparse_feature(s, feats, where) if s.index_keys else _sparse(s.key, s.dtype, feats, where)
                  for s in sparse]
    if scalar:
        # d[0, ...] keeps a 0-d array: d[0] of a string feature is a bare bytes object, which kernels reading
        # this output (decode_raw, string ops) cannot reshape.
        dense_out = [d[0, ...] for d in dense_out]
        sparse_out = [_scalarized(t) for t in sparse_out]
    return dense_out, sparse_out, feats, where


def _step_values(spec_key: str, dtype: str, steps: Any, where: _Where, i: int) -> list:
    return [_typed(f, dtype, where, spec_key, i, varlen=True) for f in steps]


def parse_sequence_examples(serialized: np.ndarray, names: np.ndarray, context_dense: Sequence[DenseSpec],
                            context_sparse: Sequence[SparseSpec], seq_dense: Sequence[DenseSpec],
                            seq_sparse: Sequence[SparseSpec]) -> tuple:
    """Parse SequenceExamples: context like parse_examples, then per feature list dense [steps] + shape
    (padded over a batch) with the step counts, and sparse [steps, values] triples; then the context feature
    maps, feature lists and _Where for the ragged keys."""
    scalar = serialized.ndim == 0
    records = serialized.reshape(-1)
    where = _Where(np.asarray(names).reshape(-1), scalar)
    protos = [_decode(SequenceExample, r) for r in records]
    ctx = [p.context.feature for p in protos]
    ctx_dense = [(_sequence if s.seq else _fixed)(s, ctx, where) for s in context_dense]
    ctx_sparse = [_sparse(s.key, s.dtype, ctx, where) for s in context_sparse]
    lists = [p.feature_lists.feature_list for p in protos]
    seq_out, lengths = [], []
    for s in seq_dense:
        stride = math.prod(s.shape)
        rows = []
        for i, fl in enumerate(lists):
            entry = fl.get(s.key)
            if entry is None:
                if not s.allow_missing:
                    raise errors.InvalidArgumentError(
                        None, None, f"Name: {where.name(i)}, Feature list '{s.key}' is required but could not be "
                                    "found.  Did you mean to include it in feature_list_dense_missing_assumed_empty "
                                    "or feature_list_dense_defaults?")
                rows.append(np.zeros((0,) + s.shape, _NP[s.dtype]))
                continue
            steps = _step_values(s.key, s.dtype, entry.feature, where, i)
            for v in steps:
                if len(v) != stride:
                    raise errors.InvalidArgumentError(
                        None, None, f"{where.key(s.key, i)}  Number of {s.dtype} values != expected.  "
                                    f"values size: {len(v)} but output shape: {_shape_text(s.shape, False)}")
            arr = np.empty((len(steps), stride), _NP[s.dtype])
            for j, v in enumerate(steps):
                arr[j] = v
            rows.append(arr.reshape((len(steps),) + s.shape))
        seq_out.append(_padded(rows, s))
        lengths.append(np.array([len(r) for r in rows], np.int64))
    seq_sp = []
    for s in seq_sparse:
        entries = []
        for i, fl in enumerate(lists):
            entry = fl.get(s.key)
            steps = [] if entry is None else _step_values(s.key, s.dtype, entry.feature, where, i)
            for j, v in enumerate(steps):
                entries.extend((i, j, k, x) for k, x in enumerate(v))
            entries.append((i, len(steps), -1, None))
        seq_sp.append(_step_triple(entries, len(lists), s.dtype))
    if scalar:
        ctx_dense = [d[0, ...] for d in ctx_dense]
        ctx_sparse = [_scalarized(t) for t in ctx_sparse]
        seq_out = [d[0, ...] for d in seq_out]
        seq_sp = [_scalarized(t) for t in seq_sp]
    return ctx_dense, ctx_sparse, seq_out, seq_sp, lengths, ctx, lists, where


def _step_triple(entries: list, batch: int, dtype: str) -> tuple:
    """Sparse [batch, steps, values] triple from (record, step, position, value) entries; position -1 marks
    a record's step count."""
    real = [e for e in entries if e[2] >= 0]
    steps = max((e[1] for e in entries if e[2] < 0), default=0)
    width = max((e[2] + 1 for e in real), default=0)
    indices = np.array([e[:3] for e in real], np.int64).reshape(-1, 3)
    values = np.empty(len(real), _NP[dtype])
    if real:
        values[:] = [e[3] for e in real]
    return indices, values, np.array([batch, steps, width], np.int64)
