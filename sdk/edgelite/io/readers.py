"""TF1 readers (TFRecordReader, TextLineReader, WholeFileReader, FixedLengthRecordReader, IdentityReader).

A reader takes work items (file names) from a queue as it needs them and yields (key, value) records;
its per-session state (current file, position, counters) lives in the session like a queue's.
"""
from __future__ import annotations

from typing import Any, Iterator, Optional, Tuple

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op

from . import reader_state, tf_record
from ._errors import from_os_error


def _text(x: Any) -> str:
    return x.decode("utf-8") if isinstance(x, bytes) else str(x)


def _tfrecords(path: str, attrs: dict) -> Iterator[Tuple[str, bytes]]:
    offset = 0
    for data in tf_record.tf_record_iterator(path, attrs.get("compression_type") or None):
        yield f"{path}:{offset}", data
        offset += 16 + len(data)


def _lines(path: str, attrs: dict) -> Iterator[Tuple[str, bytes]]:
    skip = int(attrs.get("skip_header_lines", 0))
    try:
        f = open(path, "rb")
    except OSError as e:
        raise from_os_error(e, path) from None
    with f:
        for number, line in enumerate(f, start=1):
            if number <= skip:
                continue
            yield f"{path}:{number}", line.rstrip(b"\n").rstrip(b"\r")


def _whole(path: str, attrs: dict) -> Iterator[Tuple[str, bytes]]:
    try:
        with open(path, "rb") as f:
            yield path, f.read()
    except OSError as e:
        raise from_os_error(e, path) from None


def _fixed(path: str, attrs: dict) -> Iterator[Tuple[str, bytes]]:
    size, header, footer = int(attrs["record_bytes"]), int(attrs["header_bytes"]), int(attrs["footer_bytes"])
    hop = int(attrs["hop_bytes"]) or size
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise from_os_error(e, path) from None
    if attrs.get("encoding") in ("ZLIB", "GZIP"):
        import zlib
        data = zlib.decompress(data, zlib.MAX_WBITS + (16 if attrs["encoding"] == "GZIP" else 0))
    body = data[header:len(data) - footer]
    n = 0
    for start in range(0, len(body) - size + 1, hop):
        yield f"{path}:{n}", body[start:start + size]
        n += 1


def _identity(work: str, attrs: dict) -> Iterator[Tuple[str, bytes]]:
    yield work, work.encode("utf-8")


_SOURCES = {"TFRecordReaderV2": _tfrecords, "TextLineReaderV2": _lines, "WholeFileReaderV2": _whole,
            "FixedLengthRecordReaderV2": _fixed, "IdentityReaderV2": _identity}


class ReaderRuntime:
    """A reader's state in one session: the current work item's records (one looked ahead) and counters."""

    def __init__(self, source: Any, attrs: dict, label: Optional[str] = None) -> None:
        self.source = source
        self.attrs = attrs
        self.label = label
        self.records: Optional[Iterator] = None
        self.head: Optional[Tuple[str, bytes]] = None
        self.produced = 0
        self.completed = 0
        self.work = b""

    def _advance(self) -> None:
        """Look the next record of the current work item up (None and one more unit completed at its end)."""
        try:
            self.head = next(self.records)
        except StopIteration:
            self.records = None
            self.head = None
            self.completed += 1

    def _next(self, run_lock: Any, queue: Any) -> Tuple[str, bytes]:
        while self.head is None:
            work = _text(np.asarray(queue.dequeue(run_lock, None)[0]).item())
            self.work = work.encode("utf-8")
            self.records = iter(self.source(work, self.attrs))
            self._advance()
        rec = self.head
        self._advance()
        self.produced += 1
        return rec

    def read(self, run_lock: Any, queue: Any, n: Optional[int]) -> Tuple[list, list]:
        """One record (n None) or up to n records, stopping at the end of the current work item."""
        keys, values = [], []
        want = 1 if n is None else n
        while len(keys) < want:
            k, v = self._next(run_lock, queue)
            keys.append(k.encode("utf-8"))
            values.append(v)
            if self.head is None:
                break
        return keys, values

    def reset(self) -> None:
        self.records = None
        self.head = None
        self.produced = 0
        self.completed = 0
        self.work = b""

    def serialize(self) -> bytes:
        """The ReaderBaseState bytes (UnimplementedError for readers whose position inside a file is not kept)."""
        if self.label is None:
            raise errors.UnimplementedError(None, None, "Reader SerializeState")
        started = self.completed + (self.head is not None)
        return reader_state.encode_state(started, self.completed, self.produced, self.work)

    def restore(self, state: bytes) -> None:
        """Counters and current work from serialized state; the next read dequeues a new work item."""
        if self.label is None:
            raise errors.UnimplementedError(None, None, "Reader RestoreState")
        fields = reader_state.decode_state(state, self.label)
        self.records = None
        self.head = None
        self.produced = fields["num_records_produced"]
        self.completed = fields["work_finished"]
        self.work = fields["current_work"]


def _reader_kernel(ctx: Any) -> Any:
    key = ("reader", ctx.attrs.get("shared_name") or id(ctx.op))
    r = ctx.state.op_state.get(key)
    if r is None:
        label = f"{reader_state.SERIALIZABLE[ctx.op.type]} '{ctx.op.name}'" \
            if ctx.op.type in reader_state.SERIALIZABLE else None
        r = ReaderRuntime(_SOURCES[ctx.op.type], ctx.attrs, label)
        ctx.state.op_state[key] = r
    return r


for _type in _SOURCES:
    register_op(_type, inputs=[], outputs=["reader_handle: resource"], kernel=_reader_kernel,
                shape_fn=lambda op: [[]], stateful=True, attrs={"container": "", "shared_name": ""})


def _obj(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _read_kernel(ctx: Any, reader: ReaderRuntime, queue: Any) -> list:
    keys, values = reader.read(ctx.state.run_lock, queue, None)
    return [np.asarray(keys[0], dtype=object), np.asarray(values[0], dtype=object)]


def _read_up_to_kernel(ctx: Any, reader: ReaderRuntime, queue: Any, n: np.ndarray) -> list:
    if int(n) < 1:
        raise errors.InvalidArgumentError(None, None, f"num_records must be positive, got {int(n)}")
    keys, values = reader.read(ctx.state.run_lock, queue, int(n))
    return [_obj(keys), _obj(values)]


def _int64_kernel(attr: str) -> Any:
    return lambda ctx, reader: np.int64(getattr(reader, attr))


def _reset_kernel(ctx: Any, reader: ReaderRuntime) -> tuple:
    reader.reset()
    return ()


register_op("ReaderReadV2", inputs=["reader_handle: resource", "queue_handle: resource"],
            outputs=["key: string", "value: string"], kernel=_read_kernel, shape_fn=lambda op: [[], []],
            stateful=True)
register_op("ReaderReadUpToV2", inputs=["reader_handle: resource", "queue_handle: resource", "num_records: int64"],
            outputs=["keys: string", "values: string"], kernel=_read_up_to_kernel,
            shape_fn=lambda op: [[None], [None]], stateful=True)
register_op("ReaderNumRecordsProducedV2", inputs=["reader_handle: resource"], outputs=["records_produced: int64"],
            kernel=_int64_kernel("produced"), shape_fn=lambda op: [[]], stateful=True)
register_op("ReaderNumWorkUnitsCompletedV2", inputs=["reader_handle: resource"], outputs=["units_completed: int64"],
            kernel=_int64_kernel("completed"), shape_fn=lambda op: [[]], stateful=True)
def _serialize_kernel(ctx: Any, reader: ReaderRuntime) -> np.ndarray:
    return np.asarray(reader.serialize(), dtype=object)


def _restore_kernel(ctx: Any, reader: ReaderRuntime, state: np.ndarray) -> tuple:
    if np.ndim(state) != 0:
        raise errors.InvalidArgumentError(None, None, f"Could not restore state: state should be a scalar string, "
                                                      f"got shape [{','.join(map(str, np.shape(state)))}]")
    reader.restore(reader_state.as_state_bytes(state))
    return ()


register_op("ReaderSerializeStateV2", inputs=["reader_handle: resource"], outputs=["state: string"],
            kernel=_serialize_kernel, shape_fn=lambda op: [[]], stateful=True)
register_op("ReaderRestoreStateV2", inputs=["reader_handle: resource", "state: string"], outputs=[],
            kernel=_restore_kernel, shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)
register_op("ReaderResetV2", inputs=["reader_handle: resource"], outputs=[], kernel=_reset_kernel,
            shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)


def _queue_ref(queue: Any) -> ops.Tensor:
    return queue if isinstance(queue, ops.Tensor) else queue.queue_ref


class ReaderBase:
    """Base class for readers: each read takes the next record, dequeuing a new work item when needed."""

    def __init__(self, reader_ref: ops.Tensor, supports_serialize: bool = False) -> None:
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self) -> ops.Tensor:
        """Op that implements the reader."""
        return self._reader_ref

    @property
    def supports_serialize(self) -> bool:
        """Whether the Reader implementation can serialize its state."""
        return self._supports_serialize

    def read(self, queue: Any, name: Optional[str] = None) -> Tuple[ops.Tensor, ops.Tensor]:
        """Returns the next record (key, value) produced by the reader."""
        return tuple(ops.apply_op("ReaderReadV2", [self._reader_ref, _queue_ref(queue)], name=name))

    def read_up_to(self, queue: Any, num_records: Any, name: Optional[str] = None) -> Tuple[ops.Tensor, ops.Tensor]:
        """Returns up to num_records (key, value) pairs produced by a reader (fewer at the end of a file)."""
        n = ops.convert_to_tensor(num_records, dtype=dtypes.int64, name="num_records")
        return tuple(ops.apply_op("ReaderReadUpToV2", [self._reader_ref, _queue_ref(queue), n], name=name))

    def num_records_produced(self, name: Optional[str] = None) -> ops.Tensor:
        """Returns the number of records this reader has produced."""
        return ops.apply_op("ReaderNumRecordsProducedV2", [self._reader_ref], name=name)

    def num_work_units_completed(self, name: Optional[str] = None) -> ops.Tensor:
        """Returns the number of work units this reader has finished processing."""
        return ops.apply_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref], name=name)

    def reset(self, name: Optional[str] = None) -> ops.Operation:
        """Restore a reader to its initial clean state."""
        return ops.apply_op("ReaderResetV2", [self._reader_ref], name=name)

    def serialize_state(self, name: Optional[str] = None) -> ops.Tensor:
        """A string tensor: the reader's state (UnimplementedError at run time where unsupported)."""
        return ops.apply_op("ReaderSerializeStateV2", [self._reader_ref], name=name)

    def restore_state(self, state: Any, name: Optional[str] = None) -> ops.Operation:
        """Restore a reader to a previously saved state (see serialize_state)."""
        state = ops.convert_to_tensor(state, dtype=dtypes.string, name="state")
        return ops.apply_op("ReaderRestoreStateV2", [self._reader_ref, state], name=name)


def _make(op_type: str, name: Optional[str], default: str, attrs: dict) -> ops.Tensor:
    return ops.apply_op(op_type, [], attrs, name=name or default)


class TFRecordReader(ReaderBase):
    """A Reader that outputs the records from a TFRecords file (key 'file:offset')."""

    def __init__(self, name: Optional[str] = None, options: Any = None) -> None:
        kind = tf_record.TFRecordOptions.get_compression_type_string(options)
        super().__init__(_make("TFRecordReaderV2", name, "TFRecordReaderV2", {"compression_type": kind}))


class TextLineReader(ReaderBase):
    """A Reader that outputs the lines of a file, newline stripped (key 'file:line number')."""

    def __init__(self, skip_header_lines: Optional[int] = None, name: Optional[str] = None) -> None:
        super().__init__(_make("TextLineReaderV2", name, "TextLineReaderV2",
                               {"skip_header_lines": int(skip_header_lines or 0)}))


class WholeFileReader(ReaderBase):
    """A Reader that outputs the entire contents of a file as a value (key: the file name)."""

    def __init__(self, name: Optional[str] = None) -> None:
        super().__init__(_make("WholeFileReaderV2", name, "WholeFileReaderV2", {}), supports_serialize=True)


class FixedLengthRecordReader(ReaderBase):
    """A Reader that outputs fixed-length records from a file (after header_bytes, before footer_bytes)."""

    def __init__(self, record_bytes: int, header_bytes: Optional[int] = None, footer_bytes: Optional[int] = None,
                 hop_bytes: Optional[int] = None, name: Optional[str] = None, encoding: Optional[str] = None) -> None:
        if int(record_bytes) <= 0:
            raise ValueError(f"record_bytes must be > 0, got {record_bytes}")
        super().__init__(_make("FixedLengthRecordReaderV2", name, "FixedLengthRecordReaderV2",
                               {"record_bytes": int(record_bytes), "header_bytes": int(header_bytes or 0),
                                "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0),
                                "encoding": encoding or ""}))


class IdentityReader(ReaderBase):
    """A Reader that outputs each work item as both key and value."""

    def __init__(self, name: Optional[str] = None) -> None:
        super().__init__(_make("IdentityReaderV2", name, "IdentityReaderV2", {}), supports_serialize=True)

