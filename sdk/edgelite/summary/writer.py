"""FileWriter: append Event records to a TensorBoard event file in a log directory."""
from __future__ import annotations

import os
import socket
import threading
import time
from typing import Any, List, Optional, Union

from .protos import Event, SessionLog, Summary, TaggedRunMetadata
from .record import encode_record

FILE_VERSION = "brain.Event:2"


def _event_file_name(logdir: str, suffix: str) -> str:
    """TensorFlow's naming: events.out.tfevents.<10-digit seconds>.<host><suffix>; unique within a directory."""
    stamp = int(time.time())
    host = socket.gethostname()
    path = os.path.join(logdir, f"events.out.tfevents.{stamp:010d}.{host}{suffix}")
    while os.path.exists(path):
        stamp += 1
        path = os.path.join(logdir, f"events.out.tfevents.{stamp:010d}.{host}{suffix}")
    return path


class FileWriter:
    """Writes Summary protos and events to an event file in `logdir`, buffering up to `max_queue` events."""

    def __init__(self, logdir: str, graph: Any = None, max_queue: int = 10, flush_secs: float = 120,
                 graph_def: Any = None, filename_suffix: Optional[str] = None, session: Any = None) -> None:
        if session is not None:
            raise ValueError("session-based summary writers are not supported; pass logdir only")
        self._logdir = str(logdir)
        self._max_queue = max(1, int(max_queue))
        self._flush_secs = float(flush_secs)
        self._suffix = filename_suffix or ""
        self._lock = threading.Lock()
        self._seen_tags: set = set()
        self._file = None
        self._pending: List[bytes] = []
        self._closed = True
        self._path = ""
        self._open()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)
            from ..framework.meta_graph import export_meta_graph
            self.add_meta_graph(export_meta_graph(graph_def=graph_def if graph is None else
                                                  graph.as_graph_def(add_shapes=True)))

    def _open(self) -> None:
        os.makedirs(self._logdir, exist_ok=True)
        self._path = _event_file_name(self._logdir, self._suffix)
        self._file = open(self._path, "wb")
        self._closed = False
        self._last_flush = time.time()
        self._write_event_now(Event(wall_time=time.time(), file_version=FILE_VERSION))

    def _write_event_now(self, event: Event) -> None:
        self._file.write(encode_record(event.SerializeToString()))
        self._file.flush()

    def get_logdir(self) -> str:
        """The directory this writer writes into."""
        return self._logdir

    @property
    def path(self) -> str:
        """Path of the event file currently being written."""
        return self._path

    def add_event(self, event: Event) -> None:
        """Queue one Event; ignored after close() as in TensorFlow."""
        if not isinstance(event, Event):
            raise TypeError(f"add_event expects an Event, got {type(event).__name__}")
        with self._lock:
            if self._closed:
                return
            self._pending.append(encode_record(event.SerializeToString()))
            if len(self._pending) >= self._max_queue or time.time() - self._last_flush >= self._flush_secs:
                self._flush_locked()

    def add_summary(self, summary: Union[Summary, bytes], global_step: Optional[int] = None) -> None:
        """Wrap a Summary (proto or serialized bytes) in an Event; plugin metadata is kept only on a tag's first use."""
        if isinstance(summary, (bytes, bytearray)):
            summary = Summary.FromString(bytes(summary))
        elif hasattr(summary, "dtype") and getattr(summary, "dtype", None) == object and summary.shape == ():
            summary = Summary.FromString(bytes(summary.item()))
        if not isinstance(summary, Summary):
            raise TypeError("add_summary expects a Summary proto or its serialized bytes, got "
                            f"{type(summary).__name__}")
        trimmed = Summary()
        for value in summary.value:
            copy = Summary.Value.FromString(value.SerializeToString())
            if copy.HasField("metadata"):
                if value.tag in self._seen_tags:
                    copy.metadata = None
                else:
                    self._seen_tags.add(value.tag)
            trimmed.value.append(copy)
        self.add_event(self._event(global_step, summary=trimmed))

    def add_session_log(self, session_log: SessionLog, global_step: Optional[int] = None) -> None:
        """Record a SessionLog (START/STOP/CHECKPOINT) event."""
        if not isinstance(session_log, SessionLog):
            raise TypeError(f"add_session_log expects a SessionLog, got {type(session_log).__name__}")
        self.add_event(self._event(global_step, session_log=session_log))

    def add_graph(self, graph: Any = None, global_step: Optional[int] = None, graph_def: Any = None) -> None:
        """Store a serialized GraphDef; `graph` must offer as_graph_def() returning something serializable."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        if graph is not None:
            if not hasattr(graph, "as_graph_def"):
                raise TypeError("add_graph expects a Graph with as_graph_def()")
            graph_def = graph.as_graph_def()
        if isinstance(graph_def, (bytes, bytearray)):
            raw = bytes(graph_def)
        elif hasattr(graph_def, "SerializeToString"):
            raw = graph_def.SerializeToString()
        else:
            raise TypeError("graph_def must be serialized bytes or a message with SerializeToString()")
        self.add_event(self._event(global_step, graph_def=raw))

    def add_meta_graph(self, meta_graph_def: Any, global_step: Optional[int] = None) -> None:
        """Store a serialized MetaGraphDef (TensorBoard reads the graph's collections and saver from it)."""
        from ..framework.meta_graph_protos import MetaGraphDef
        if not isinstance(meta_graph_def, MetaGraphDef) and type(meta_graph_def).__name__ != "MetaGraphDef":
            raise TypeError(f"meta_graph_def must be type MetaGraphDef, saw type: {type(meta_graph_def)}")
        self.add_event(self._event(global_step, meta_graph_def=meta_graph_def.SerializeToString()))

    def add_run_metadata(self, run_metadata: Any, tag: str, global_step: Optional[int] = None) -> None:
        """Store serialized RunMetadata bytes under `tag`."""
        raw = run_metadata if isinstance(run_metadata, (bytes, bytearray)) else run_metadata.SerializeToString()
        self.add_event(self._event(global_step, tagged_run_metadata=TaggedRunMetadata(tag=tag, run_metadata=raw)))

    @staticmethod
    def _event(global_step: Optional[int], **what: Any) -> Event:
        event = Event(wall_time=time.time(), **what)
        if global_step is not None:
            event.step = int(global_step)
        return event

    def _flush_locked(self) -> None:
        if self._file is None:
            return
        for record in self._pending:
            self._file.write(record)
        self._pending.clear()
        self._file.flush()
        self._last_flush = time.time()

    def flush(self) -> None:
        """Write every queued event to disk."""
        with self._lock:
            self._flush_locked()

    def close(self) -> None:
        """Flush and close the file; later add_* calls are ignored until reopen()."""
        with self._lock:
            if self._closed:
                return
            self._flush_locked()
            self._file.close()
            self._file = None
            self._closed = True

    def reopen(self) -> None:
        """After close(), start a new event file in the same directory."""
        with self._lock:
            if self._closed:
                self._open()

    def __enter__(self) -> "FileWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class FileWriterCache:
    """One FileWriter per log directory, shared by hooks that write to the same place."""

    _writers: dict = {}
    _lock = threading.Lock()

    @staticmethod
    def get(logdir: str) -> FileWriter:
        """The cached writer for `logdir`, created on first use (and reopened if it was closed)."""
        key = os.path.abspath(str(logdir))
        with FileWriterCache._lock:
            writer = FileWriterCache._writers.get(key)
            if writer is None:
                from ..framework import ops
                writer = FileWriter(logdir, graph=ops.get_default_graph())
                FileWriterCache._writers[key] = writer
            else:
                writer.reopen()
            return writer

    @staticmethod
    def clear() -> None:
        """Close and forget every cached writer."""
        with FileWriterCache._lock:
            for writer in FileWriterCache._writers.values():
                writer.close()
            FileWriterCache._writers.clear()
