"""map(num_parallel_calls=n): the map function runs on n worker threads, several elements in flight.

The input is read on the consuming thread (dataset generators are not thread-safe); workers take
(index, element) tasks and hand back (index, outcome). Deterministic order yields results by index; otherwise
each result goes out as soon as it is ready. Kernels that release the GIL (numpy on large arrays, decoders)
run side by side. Workers watch the pipeline's stop flag, so closing the session or the iterator ends them.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Any, Callable, Iterator

_POLL = 0.05


def worker_count(num_parallel_calls: int) -> int:
    """Workers for num_parallel_calls (AUTOTUNE: one per CPU)."""
    return max(1, os.cpu_count() or 1) if num_parallel_calls < 0 else num_parallel_calls


def parallel_map(source: Iterator[list], fn: Callable[[list], list], workers: int, deterministic: bool,
                 stop: threading.Event) -> Iterator[list]:
    """fn over source's elements on worker threads; an error (of fn or of the source) surfaces at its element."""
    tasks: "queue.Queue" = queue.Queue()
    results: "queue.Queue" = queue.Queue()
    done = threading.Event()

    def work() -> None:
        while not (done.is_set() or stop.is_set()):
            try:
                index, element = tasks.get(timeout=_POLL)
            except queue.Empty:
                continue
            try:
                outcome = (True, fn(element))
            except BaseException as e:  # noqa: BLE001 - handed to the consumer, which raises it at this element
                outcome = (False, e)
            results.put((index, outcome))

    threads = [threading.Thread(target=work, daemon=True, name="edgelite-map") for _ in range(workers)]
    for t in threads:
        t.start()
    limit = 2 * workers
    sent = received = emitted = 0
    ready: dict = {}
    end: Any = None  # (index, exception or None) once the source is exhausted or failed
    try:
        while True:
            while end is None and sent - received < limit:
                try:
                    element = next(source)
                except StopIteration:
                    end = (sent, None)
                    break
                except BaseException as e:  # noqa: BLE001 - raised once the elements before it are out
                    end = (sent, e)
                    break
                tasks.put((sent, element))
                sent += 1
            key = emitted if deterministic else next(iter(ready), None)
            if key is not None and key in ready:
                ok, value = ready.pop(key)
                emitted += 1
                if not ok:
                    raise value
                yield value
                continue
            if end is not None and emitted == end[0] and not ready and received == sent:
                if end[1] is not None:
                    raise end[1]
                return
            while True:
                if stop.is_set():
                    from edgelite.framework import errors
                    raise errors.CancelledError(None, None, "Iterator was cancelled (its session was closed).")
                try:
                    index, outcome = results.get(timeout=_POLL)
                    break
                except queue.Empty:
                    continue
            received += 1
            ready[index] = outcome
    finally:
        done.set()
        for t in threads:
            t.join(timeout=5)
