"""The interpreter's CallLock: one holder at a time, waiters woken, hot paths serialised with invoke."""
from __future__ import annotations

import threading
import time

import numpy as np


def test_one_holder_at_a_time_and_waiters_wake():
    from edgelite_runtime._calllock import CallLock

    lock = CallLock()
    inside, peak, done = [0], [0], [0]

    def worker():
        for _ in range(300):
            with lock:
                inside[0] += 1
                peak[0] = max(peak[0], inside[0])
                time.sleep(0)  # let other threads run while the token is held
                inside[0] -= 1
                done[0] += 1

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a waiter was never woken"
    assert peak[0] == 1 and done[0] == 1200
    assert lock.tokens == [True] and lock.waiters == 0


def test_hot_calls_wait_for_a_running_invoke(rt, corpus_dir):
    # Reference kernels: one invoke lasts long enough for the other thread to arrive during it.
    name = "mobilenet_v1_int8"
    it = rt.Interpreter(model_path=str(corpus_dir / name / "model.tflite"), num_threads=1,
                        experimental_op_resolver_type=rt.OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    inp, out = it.get_input_details()[0], it.get_output_details()[0]
    x = np.load(corpus_dir / name / "input_0.npy")
    it.set_tensor(inp["index"], x)
    spans, calls = [], []

    def invoker():
        for _ in range(3):
            t0 = time.perf_counter()
            it.invoke()
            spans.append((t0, time.perf_counter()))
            time.sleep(0.05)  # a gap in which the waiting caller gets the token (the lock is not fair)

    thread = threading.Thread(target=invoker)
    thread.start()
    view = it.tensor(out["index"])
    while thread.is_alive():
        t0 = time.perf_counter()
        it.set_tensor(inp["index"], x)
        it.get_tensor(out["index"])
        calls.append((t0, time.perf_counter()))
        time.sleep(0.07)
    thread.join()
    assert len(spans) == 3 and calls
    # A call that started well inside an invoke (past the invoker's way to the token, and before
    # its way back from it: the end of a span is read after the token is returned) ended no
    # earlier than that way back: it waited for the token.
    margin = 0.02
    waited = [(c, s) for c in calls for s in spans if s[0] + margin < c[0] < s[1] - margin]
    assert waited, f"no call started during an invoke ({spans}, {calls})"
    assert all(c[1] >= s[1] - margin for c, s in waited), (spans, calls)
    assert np.array_equal(view(), it.get_tensor(out["index"]))
    assert it._lock.tokens == [True] and it._lock.waiters == 0
