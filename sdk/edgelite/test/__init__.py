"""tf.test: TestCase, main, temp dirs, gradient checks and the build queries TF1 tests make."""
from __future__ import annotations

import functools
import sys
import time
import unittest
from typing import Any, Callable, List, Optional
from unittest import mock  # noqa: F401 - tf.test.mock is Python's unittest.mock

import numpy as np
from absl.testing import absltest

from edgelite.test.gradient_checker import compute_gradient, compute_gradient_error  # noqa: F401
from edgelite.test.test_case import TestCase, get_temp_dir  # noqa: F401


def main(argv: Optional[List[str]] = None) -> None:
    """Run the tests of __main__ (absltest's main, which parses flags), then exit with their status."""
    absltest.main(argv=argv)


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: Any = None) -> bool:
    """False: edgelite's session runs on the CPU."""
    return False


def gpu_device_name() -> str:
    """'' : there is no GPU device."""
    return ""


def is_built_with_cuda() -> bool:
    """False: edgelite has no CUDA kernels."""
    return False


def is_built_with_gpu_support() -> bool:
    """False: edgelite has no GPU kernels."""
    return False


def is_built_with_xla() -> bool:
    """False: edgelite does not compile graphs with XLA."""
    return False


def disable_with_predicate(pred: Callable[[], bool], skip_message: str) -> Callable:
    """Decorator: skip the test (with skip_message) when pred() is true at run time."""
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(self: unittest.TestCase, *args: Any, **kwargs: Any) -> Any:
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return wrapper
    return decorator


def assert_equal_graph_def(actual: Any, expected: Any, checkpoint_v2: bool = False,
                           hash_table_shared_name: bool = False) -> None:
    """Raise AssertionError unless two GraphDefs hold the same nodes (in any order) with the same contents."""
    for name, value in (("actual", actual), ("expected", expected)):
        if not hasattr(value, "node"):
            raise TypeError(f"Expected tf.GraphDef for {name}, got {type(value).__name__}")
    nodes_a = {n.name: n for n in actual.node}
    nodes_e = {n.name: n for n in expected.node}
    only_a, only_e = sorted(set(nodes_a) - set(nodes_e)), sorted(set(nodes_e) - set(nodes_a))
    if only_a or only_e:
        raise AssertionError(f"Found nodes only in actual: {only_a}; only in expected: {only_e}")
    for name in sorted(nodes_a):
        if nodes_a[name].SerializeToString() != nodes_e[name].SerializeToString():
            raise AssertionError(f"Node {name!r} differs: {nodes_a[name]} != {nodes_e[name]}")




class StubOutForTesting:
    """Replace attributes for a test and put them back afterwards (Set / SmartSet, then UnsetAll)."""

    def __init__(self) -> None:
        self._stubs: List[tuple] = []

    def Set(self, parent: Any, child_name: str, new_child: Any) -> None:  # noqa: N802 - TensorFlow's name
        """Replace parent.child_name with new_child, remembering the old value (which must exist)."""
        old_child = getattr(parent, child_name)
        self._stubs.append((parent, child_name, old_child, child_name in getattr(parent, "__dict__", {})))
        setattr(parent, child_name, new_child)

    def SmartSet(self, obj: Any, attr_name: str, new_attr: Any) -> None:  # noqa: N802 - TensorFlow's name
        """Like Set, also for attributes inherited from a class (restored by deleting the override)."""
        self.Set(obj, attr_name, new_attr)

    def UnsetAll(self) -> None:  # noqa: N802 - TensorFlow's name
        """Restore every replaced attribute, newest first."""
        for parent, name, old, owned in reversed(self._stubs):
            if owned or not hasattr(type(parent), name) or isinstance(parent, type):
                setattr(parent, name, old)
            else:
                delattr(parent, name)
        self._stubs = []

    SmartUnsetAll = UnsetAll

    def CleanUp(self) -> None:  # noqa: N802 - TensorFlow's name
        """Restore everything (the tearDown hook)."""
        self.UnsetAll()

    def __enter__(self) -> "StubOutForTesting":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.CleanUp()


class Benchmark:
    """Base class of graph benchmarks: run_op_benchmark times session runs and report_benchmark logs results."""

    def report_benchmark(self, iters: Optional[int] = None, cpu_time: Optional[float] = None,
                         wall_time: Optional[float] = None, throughput: Optional[float] = None,
                         extras: Optional[dict] = None, name: Optional[str] = None,
                         metrics: Optional[list] = None) -> None:
        """Log one benchmark entry (name defaults to Class.method of the caller)."""
        from edgelite import tf_logging

        if name is None:
            name = f"{type(self).__name__}.{sys._getframe(1).f_code.co_name}"
        entry = {k: v for k, v in dict(name=name, iters=iters, cpu_time=cpu_time, wall_time=wall_time,
                                       throughput=throughput, extras=extras, metrics=metrics).items()
                 if v is not None}
        tf_logging.info("Benchmark [%s] %s", name, entry)

    def run_op_benchmark(self, sess: Any, op_or_tensor: Any, feed_dict: Optional[dict] = None, burn_iters: int = 2,
                         min_iters: int = 10, store_trace: bool = False, store_memory_usage: bool = True,
                         name: Optional[str] = None, extras: Optional[dict] = None, mbs: int = 0) -> dict:
        """Run op_or_tensor burn_iters times untimed, then min_iters times; report and return the median."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.time() - start)
        wall_time = float(np.median(deltas))
        result = {"iters": min_iters, "wall_time": wall_time, "extras": dict(extras or {}), "name": name}
        if mbs:
            result["throughput"] = mbs / wall_time
        self.report_benchmark(iters=min_iters, wall_time=wall_time, extras=extras, name=name,
                              throughput=result.get("throughput"))
        return result

    def evaluate(self, tensors: Any) -> Any:
        """Run tensors in the default session."""
        from edgelite.framework import ops

        return ops.get_default_session().run(tensors)


def benchmark_config() -> Any:
    """The ConfigProto benchmarks run with (TensorFlow's turns graph rewrites off; edgelite does none)."""
    from edgelite.client.config_protos import ConfigProto

    return ConfigProto()
