"""tf.test.TestCase: absltest's TestCase with TensorFlow 1's session helpers and array assertions."""
from __future__ import annotations

import contextlib
import math
import random
import re
import tempfile
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np
from absl.testing import absltest

from edgelite.client.session import Session
from edgelite.framework import errors, ops
from edgelite.framework import random_seed
from edgelite.framework.device import canonical_name

_TEMP_DIR: Optional[str] = None


def get_temp_dir() -> str:
    """A directory for this process's test files (created once; TensorFlow's tf.test.get_temp_dir)."""
    global _TEMP_DIR
    if _TEMP_DIR is None:
        _TEMP_DIR = tempfile.mkdtemp(prefix="edgelite-test-")
    return _TEMP_DIR


class TestCase(absltest.TestCase):
    """Base class for graph tests: a fresh default graph and seed per test, sessions, tolerant comparisons."""

    def __init__(self, methodName: str = "runTest") -> None:  # noqa: N803 - unittest's name
        super().__init__(methodName)
        self._cached_session: Optional[Session] = None

    def setUp(self) -> None:
        super().setUp()
        self._clear_cached_session()
        random.seed(random_seed.DEFAULT_GRAPH_SEED)
        np.random.seed(random_seed.DEFAULT_GRAPH_SEED)
        ops.reset_default_graph()
        random_seed.set_random_seed(random_seed.DEFAULT_GRAPH_SEED)
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")  # test_session is a session helper that test runners collect by name

    def tearDown(self) -> None:
        self._clear_cached_session()
        super().tearDown()

    def _clear_cached_session(self) -> None:
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None

    def get_temp_dir(self) -> str:
        """A temporary directory for this test's files."""
        return get_temp_dir()

    # ---- sessions ------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def session(self, graph: Optional[ops.Graph] = None, config: Any = None, use_gpu: bool = True,
                force_gpu: bool = False) -> Iterator[Session]:
        """A new session on graph (default: the default graph), installed as the default session."""
        graph = graph if graph is not None else ops.get_default_graph()
        with graph.as_default(), Session(graph=graph, config=config) as sess, sess.as_default():
            yield sess

    @contextlib.contextmanager
    def cached_session(self, graph: Optional[ops.Graph] = None, config: Any = None, use_gpu: bool = True,
                       force_gpu: bool = False) -> Iterator[Session]:
        """One session reused for the whole test (made on first use), installed as the default session."""
        graph = graph if graph is not None else ops.get_default_graph()
        if self._cached_session is None or self._cached_session.graph is not graph:
            self._clear_cached_session()
            self._cached_session = Session(graph=graph, config=config)
        with graph.as_default(), self._cached_session.as_default():
            yield self._cached_session

    test_session = cached_session

    def evaluate(self, tensors: Any) -> Any:
        """Run tensors (any nest of them) in the default session, or in this test's cached one."""
        sess = ops.get_default_session()
        if sess is not None:
            return sess.run(tensors)
        with self.cached_session() as sess:
            return sess.run(tensors)

    def _value(self, x: Any) -> Any:
        """A numpy value for x: tensors are evaluated (in the default or the cached session)."""
        if isinstance(x, (ops.Tensor, ops.Operation)):
            return self.evaluate(x)
        return x

    # ---- assertions --------------------------------------------------------------------------------
    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: Optional[str] = None) -> None:
        """Elementwise |a - b| <= atol + rtol * |b|, with equal shapes (tensors are evaluated first)."""
        a, b = np.asarray(self._value(a)), np.asarray(self._value(b))
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg or ''}")
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=msg or "", equal_nan=True)

    def assertNotAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                          msg: Optional[str] = None) -> None:
        """Fail when a and b are all close."""
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                      float_rtol: float = 1e-6, float_atol: float = 1e-6,
                                      half_rtol: float = 1e-3, half_atol: float = 1e-3,
                                      bfloat16_rtol: float = 1e-2, bfloat16_atol: float = 1e-2,
                                      msg: Optional[str] = None) -> None:
        """assertAllClose with tolerances loosened to the precision of the values' dtype."""
        a, b = np.asarray(self._value(a)), np.asarray(self._value(b))
        if a.dtype == np.float32 or b.dtype == np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if a.dtype == np.float16 or b.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllEqual(self, a: Any, b: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        """Equal shapes and equal elements."""
        a, b = np.asarray(self._value(a)), np.asarray(self._value(b))
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg or ''}")
        np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllEqual(self, a: Any, b: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        """Fail when every element of a equals b."""
        a, b = np.asarray(self._value(a)), np.asarray(self._value(b))
        self.assertFalse(a.shape == b.shape and np.array_equal(a, b), msg or f"{a} equals {b}")

    def assertAllGreater(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of a is > comparison_target."""
        self.assertGreater(np.min(self._value(a)), comparison_target)

    def assertAllLess(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of a is < comparison_target."""
        self.assertLess(np.max(self._value(a)), comparison_target)

    def assertAllGreaterEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of a is >= comparison_target."""
        self.assertGreaterEqual(np.min(self._value(a)), comparison_target)

    def assertAllLessEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of a is <= comparison_target."""
        self.assertLessEqual(np.max(self._value(a)), comparison_target)

    def assertAllInRange(self, target: Any, lower_bound: float, upper_bound: float,  # noqa: N802
                         open_lower_bound: bool = False, open_upper_bound: bool = False) -> None:
        """Every element lies in the (half-)open or closed interval between the bounds."""
        values = np.asarray(self._value(target))
        low = values > lower_bound if open_lower_bound else values >= lower_bound
        high = values < upper_bound if open_upper_bound else values <= upper_bound
        outside = values[~(low & high)]
        if outside.size:
            raise AssertionError(f"{outside.size} of the {values.size} element(s) are outside the range "
                                 f"{'(' if open_lower_bound else '['}{lower_bound}, {upper_bound}"
                                 f"{')' if open_upper_bound else ']'}: {outside[:10]}")

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        """Every element of target is in expected_set."""
        values = np.asarray(self._value(target)).ravel()
        unexpected = set(values.tolist()) - set(expected_set)
        self.assertFalse(unexpected, f"{sorted(unexpected)} not in {expected_set}")

    def assertDTypeEqual(self, target: Any, expected_dtype: Any) -> None:  # noqa: N802
        """The dtype of target (a numpy value or nest of them) is expected_dtype."""
        want = np.dtype(getattr(expected_dtype, "as_numpy_dtype", expected_dtype))
        self.assertEqual(np.asarray(self._value(target)).dtype, want)

    def assertArrayNear(self, farray1: Any, farray2: Any, err: float, msg: Optional[str] = None) -> None:  # noqa
        """Same length and |f1 - f2| <= err for each pair of elements."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNear(self, f1: float, f2: float, err: float, msg: Optional[str] = None) -> None:  # noqa: N802
        """|f1 - f2| <= err (equal infinities pass)."""
        f1, f2 = np.squeeze(f1), np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s"
                            % (f1, f2, err, diff, f" ({msg})" if msg is not None else ""))

    def assertShapeEqual(self, input_a: Any, input_b: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        """Two numpy values or tensors (static shapes) have the same shape."""
        shapes = []
        for name, value in (("input_a", input_a), ("input_b", input_b)):
            if isinstance(value, ops.Tensor):
                shapes.append(value.get_shape().as_list())
            elif isinstance(value, (np.ndarray, np.generic)):
                shapes.append(list(value.shape))
            else:
                raise TypeError(f"{name} must be a Numpy ndarray, Numpy scalar, or a Tensor.Instead received "
                                f"{type(value)}")
        self.assertAllEqual(shapes[0], shapes[1], msg=msg)

    def assertDeviceEqual(self, device1: Any, device2: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        """The two device names are the same once canonicalised."""
        device1, device2 = canonical_name(device1), canonical_name(device2)
        self.assertEqual(device1, device2, f"Devices {device1} and {device2} are not equal. {msg}")

    def assertStartsWith(self, actual: str, expected_start: str, msg: Optional[str] = None) -> None:  # noqa
        """actual begins with expected_start."""
        if not actual.startswith(expected_start):
            raise AssertionError(f"{actual!r} does not start with {expected_start!r}{' : ' + msg if msg else ''}")

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type: type,  # noqa: N802
                                       expected_err_re_or_predicate: Union[str, Callable[[BaseException], bool]]
                                       ) -> Iterator[None]:
        """The block raises exception_type whose message matches the regex (or which satisfies the predicate)."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e: BaseException) -> bool:
                message = e.message if isinstance(e, errors.OpError) else str(e)
                return re.search(expected_err_re_or_predicate, message) is not None
        try:
            yield
        except exception_type as e:
            if not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e
        else:
            raise AssertionError(f"{exception_type.__name__} not raised")

    def assertRaisesOpError(self, expected_err_re_or_predicate: Any) -> Any:  # noqa: N802
        """The block raises an OpError matching the regex or predicate."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)
