"""tf.test: TestCase, main, temp dirs, gradient checks and the build queries TF1 tests make."""
from __future__ import annotations

import functools
import unittest
from typing import Any, Callable, List, Optional
from unittest import mock  # noqa: F401 - tf.test.mock is Python's unittest.mock

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


