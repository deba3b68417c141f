"""QueueRunner, add_queue_runner and start_queue_runners: threads that keep a queue filled.

Each enqueue op gets a thread running it in a loop; when the last one sees the queue closed (or its
input run out: OutOfRangeError) the queue is closed so its consumers end with OutOfRangeError. With a
Coordinator, a further thread cancels pending enqueues once a stop is requested, so no runner thread
stays blocked on a full queue.
"""
from __future__ import annotations

import threading
import weakref
from typing import Any, List, Optional

from edgelite.framework import errors, ops

_CLOSED = (errors.OutOfRangeError, errors.CancelledError)


class QueueRunner:
    """Holds a list of enqueue operations for a queue, each to be run in a thread."""

    def __init__(self, queue: Any = None, enqueue_ops: Optional[list] = None, close_op: Any = None,
                 cancel_op: Any = None, queue_closed_exception_types: Optional[tuple] = None,
                 queue_runner_def: Any = None, import_scope: Optional[str] = None) -> None:
        if queue_runner_def is not None:
            raise ValueError("queue_runner_def is not supported: build the QueueRunner from a queue and its ops")
        if queue is None or not enqueue_ops:
            raise ValueError("Queue and enqueue_ops must be specified.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
        types = tuple(queue_closed_exception_types or _CLOSED)
        if not types or not all(isinstance(t, type) and issubclass(t, errors.OpError) for t in types):
            raise TypeError("queue_closed_exception_types, when provided, must be a tuple of tf.error types, but "
                            f"saw: {queue_closed_exception_types}")
        self._closed_types = types
        self._lock = threading.Lock()
        self._runs_per_session: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        self._exceptions_raised: List[BaseException] = []

    @property
    def queue(self) -> Any:
        return self._queue

    @property
    def enqueue_ops(self) -> list:
        return self._enqueue_ops

    @property
    def close_op(self) -> Any:
        return self._close_op

    @property
    def cancel_op(self) -> Any:
        return self._cancel_op

    @property
    def queue_closed_exception_types(self) -> tuple:
        return self._closed_types

    @property
    def exceptions_raised(self) -> List[BaseException]:
        """Exceptions raised but not handled by the runner threads (when no coordinator was given)."""
        return self._exceptions_raised

    @property
    def name(self) -> str:
        """The string name of the underlying queue."""
        return self._queue.name

    def _run(self, sess: Any, enqueue_op: Any, coord: Any) -> None:
        decremented = False
        try:
            while True:
                if coord is not None and coord.should_stop():
                    break
                try:
                    sess.run(enqueue_op)
                except self._closed_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        last = self._runs_per_session[sess] == 0
                    if last:
                        try:
                            sess.run(self._close_op)
                        except Exception:  # noqa: BLE001 - the queue may already be closed or the session gone
                            pass
                    return
        except Exception as e:  # noqa: BLE001 - reported through the coordinator like TensorFlow's runner
            if coord is not None and not (isinstance(e, RuntimeError) and coord.should_stop()):
                coord.request_stop(e)
            elif coord is None:
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess: Any, coord: Any) -> None:
        coord.wait_for_stop()
        try:
            sess.run(self._cancel_op)
        except Exception:  # noqa: BLE001 - a closed session has already cancelled everything
            pass

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False, start: bool = False) -> list:
        """Threads running the enqueue ops (and, with coord, one cancelling them on stop); started if start."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), daemon=daemon,
                                    name=f"QueueRunnerThread-{self.name}-{op.name}") for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord), daemon=daemon,
                                            name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for t in threads:
            if coord is not None:
                coord.register_thread(t)
            if start:
                t.start()
        return threads


def add_queue_runner(qr: QueueRunner, collection: str = ops.GraphKeys.QUEUE_RUNNERS) -> None:
    """Adds a QueueRunner to a collection in the graph (QUEUE_RUNNERS by default)."""
    ops.add_to_collection(collection, qr)


def start_queue_runners(sess: Any = None, coord: Any = None, daemon: bool = True, start: bool = True,
                        collection: str = ops.GraphKeys.QUEUE_RUNNERS) -> list:
    """Starts all queue runners collected in the graph; returns their threads."""
    if sess is None:
        sess = ops.get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    if not hasattr(sess, "run") or not hasattr(sess, "graph"):
        raise TypeError(f"sess must be a `tf.Session` object. Given class: {sess.__class__}")
    threads = []
    with sess.graph.as_default():
        for qr in ops.get_collection(collection):
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
