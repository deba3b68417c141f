"""How many calls of a map function run at once under tf.data Options (threading.private_threadpool_size,
experimental_optimization.map_parallelization / apply_default_optimizations, deterministic) and the map's own
arguments (num_parallel_calls, synchronous), shared by the TensorFlow fixture generator
(fixtures/generate_tf_map_options.py, recorded into fixtures/tf_map_options.json) and the edgelite tests.
Every case fixes its pool size, so the recorded peaks do not depend on the machine's CPU count."""
from __future__ import annotations

import threading
import time

ELEMENTS = 12


class _Probe:
    """A Python map function that sleeps (the GIL released) and records how many of its calls overlap; every
    fourth element sleeps longer, so an unordered map would let later elements overtake it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = self.peak = 0

    def __call__(self, x):
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        time.sleep(0.15 if x % 4 == 0 else 0.05)
        with self.lock:
            self.running -= 1
        return x


def _case(pool=None, stateful=False, in_cond=False, map_kw=None, **options):
    def build(tf, probe):
        def call(x):
            return tf.numpy_function(probe, [x], tf.int64, stateful=stateful)

        def fn(x):
            return tf.cond(x < 1000, lambda: call(x), lambda: call(x + 1)) if in_cond else call(x)
        ds = tf.data.Dataset.range(ELEMENTS).map(fn, **(map_kw or {}))
        opts = tf.data.Options()
        if pool is not None:
            opts.threading.private_threadpool_size = pool
        for key, value in options.items():
            group, _, name = key.rpartition("__")
            setattr(getattr(opts, group) if group else opts, name, value)
        return ds.with_options(opts)
    return build


CASES = [
    ("parallel_8_pool_3", _case(3, stateful=True, map_kw={"num_parallel_calls": 8})),
    ("parallel_2_pool_5", _case(5, stateful=True, map_kw={"num_parallel_calls": 2})),
    ("parallel_8_pool_1", _case(1, stateful=True, map_kw={"num_parallel_calls": 8})),
    ("autotune_pool_4", _case(4, stateful=True, map_kw={"num_parallel_calls": -1})),
    ("parallel_8_pool_3_unordered", _case(3, stateful=True, map_kw={"num_parallel_calls": 8, "deterministic": False})),
    ("sequential_stateful_pool_3", _case(3, stateful=True)),
    ("sequential_stateless_pool_3", _case(3)),
    ("sequential_stateless_in_cond_pool_3", _case(3, in_cond=True)),
    ("sequential_stateless_options_unordered", _case(3, deterministic=False)),
    ("sequential_stateless_map_parallelization_off", _case(3, experimental_optimization__map_parallelization=False)),
    ("sequential_stateless_synchronous", _case(3, map_kw={"synchronous": True})),
    ("sequential_stateless_no_default_optimizations",
     _case(3, experimental_optimization__apply_default_optimizations=False)),
    ("sequential_stateless_only_map_parallelization",
     _case(3, experimental_optimization__apply_default_optimizations=False,
           experimental_optimization__map_parallelization=True)),
]

# Which runs may come out of order (the recorded order is then only one of the possible ones).
UNORDERED = {"parallel_8_pool_3_unordered"}


def run(tf, build) -> dict:
    """The most calls that overlapped, and whether the elements came out in input order."""
    probe = _Probe()
    with tf.Graph().as_default():
        nxt = tf.data.make_one_shot_iterator(build(tf, probe)).get_next()
        with tf.Session() as sess:
            out = [int(sess.run(nxt)) for _ in range(ELEMENTS)]
    return {"peak": probe.peak, "in_order": out == list(range(ELEMENTS)), "sorted": sorted(out)}
