"""map(num_parallel_calls=n): the map function runs on worker threads, several elements in flight.

As in TensorFlow, at most the pipeline's pool size runs at once: Options.threading.private_threadpool_size, or
(unset or 0) one thread per CPU the process may use; AUTOTUNE takes the whole pool.

The input is read on the consuming thread (dataset generators are not thread-safe); workers take
(index, element) tasks and hand back (index, outcome). Deterministic order yields results by index; otherwise
each result goes out as soon as it is ready. Kernels that release the GIL (numpy on large arrays, decoders)
run side by side. Workers watch the pipeline's stop flag, so closing the session or the iterator ends them.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Any, Callable, Iterator, Optional

from edgelite.framework import op_def_registry as registry

_POLL = 0.05


# Stateless ops that run Python code: the only stateless map functions whose parallel calls can overlap (the
# graph kernels hold the GIL) and be told apart from sequential ones.
_PYTHON_CALLS = frozenset({"PyFuncStateless"})


def op_types(graph: Any) -> set:
    """The op types of a function graph and of the branch and loop bodies inside it."""
    found = set()
    for op in graph.get_operations():
        found.add(op.type)
        for value in op._attrs.values():
            if hasattr(value, "graph") and hasattr(value, "outputs"):
                found |= op_types(value.graph)
    return found


def pool_size(options: Any) -> int:
    """The threads a pipeline's functions may use at once, as TensorFlow sizes its pool."""
    size = options.threading.private_threadpool_size
    if size:
        return size
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # platforms without affinity masks
        return max(1, os.cpu_count() or 1)


def map_workers(num_parallel_calls: Optional[int], deterministic: Optional[bool], synchronous: Optional[bool],
                op_types: set, options: Any) -> tuple:
    """(threads, keep input order) for a map. With num_parallel_calls: that many, at most the pool. Without:
    TensorFlow's map_parallelization rewrite (on by default, or when set with the default optimizations off)
    runs a stateless function as with AUTOTUNE, in order, unless synchronous; it is applied to functions
    calling Python, where calls can overlap, while other functions keep to the consuming thread."""
    pool = pool_size(options)
    if num_parallel_calls is not None:
        workers = pool if num_parallel_calls < 0 else min(num_parallel_calls, pool)
        ordered = deterministic if deterministic is not None else options.deterministic
        return workers, ordered is not False
    opt = options.experimental_optimization
    rewrite = opt.map_parallelization if opt.map_parallelization is not None else \
        opt.apply_default_optimizations is not False
    if rewrite and not synchronous and op_types & _PYTHON_CALLS and not any(
            registry.get_op_def(t).stateful for t in op_types if registry.is_registered(t)):
        return pool, True
    return 1, True


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
