"""Session and InteractiveSession: run fetches of a graph with the numpy executor."""
from __future__ import annotations

import collections
import weakref
from typing import Any, Callable, Optional

import numpy as np

from edgelite.client.executor import SessionState, build_plan
from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue
from edgelite.client import placement
from edgelite.client.memory_policy import keep_freed_memory
from edgelite.summary.run_metadata import record_step_stats, wants_trace

_live_sessions: "weakref.WeakSet" = weakref.WeakSet()
# Feeds of ever-changing shapes (sequences of every length) must not grow the accepted-shape memo without bound.
_MAX_ACCEPTED_FEED_SHAPES = 4096


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _is_ragged_tensor(x: Any) -> bool:
    # imported on use: edgelite.ragged builds on the ops modules, which load after the session
    from edgelite.ragged.ragged_tensor import RaggedTensor
    return isinstance(x, RaggedTensor)


def _is_ragged_value(x: Any) -> bool:
    from edgelite.ragged.ragged_tensor_value import RaggedTensorValue
    return isinstance(x, RaggedTensorValue)


class _FetchMapper:
    """Flattens a nested fetch structure into graph elements and rebuilds results in its shape."""

    def __init__(self, graph: ops.Graph, fetches: Any) -> None:
        self.graph = graph
        self.elements: list = []
        self._index: dict = {}
        self.tree = self._flatten(fetches)

    def _add(self, element: Any) -> int:
        key = element
        if key not in self._index:
            self._index[key] = len(self.elements)
            self.elements.append(element)
        return self._index[key]

    def _flatten(self, f: Any) -> Any:
        if f is None:
            raise TypeError(f"Fetch argument {f!r} has invalid type {type(f)}")
        if isinstance(f, dict):
            return ("dict", type(f), [(k, self._flatten(v)) for k, v in f.items()])
        if _is_namedtuple(f):
            return ("namedtuple", type(f), [self._flatten(v) for v in f])
        if isinstance(f, (list, tuple)):
            return ("seq", type(f), [self._flatten(v) for v in f])
        if isinstance(f, IndexedSlices):
            parts = [f.values, f.indices] + ([] if f.dense_shape is None else [f.dense_shape])
            return ("slices", None, [self._flatten(p) for p in parts])
        if isinstance(f, SparseTensor):
            return ("sparse", None, [self._flatten(p) for p in (f.indices, f.values, f.dense_shape)])
        if _is_ragged_tensor(f):
            return ("ragged", None, [self._flatten(p) for p in (f.flat_values,) + f.nested_row_splits])
        try:
            el = self.graph.as_graph_element(f, allow_tensor=True, allow_operation=True)
        except TypeError:
            raise TypeError(f"Fetch argument {f!r} has invalid type {type(f)}, must be a string or Tensor. (Can "
                            f"not convert a {type(f).__name__} into a Tensor or Operation.)") from None
        except ValueError as e:
            raise ValueError(f"Fetch argument {f!r} cannot be interpreted as a Tensor. ({e})") from None
        except KeyError as e:
            raise ValueError(f"Fetch argument {f!r} cannot be interpreted as a Tensor. ({e.args[0]})") from None
        if not self.graph.is_fetchable(el):
            raise ValueError(f"Operation {el.name!r} has been marked as not fetchable.")
        return ("leaf", None, self._add(el))

    def build(self, values: list) -> Any:
        return self._build(self.tree, values)

    def _build(self, node: Any, values: list) -> Any:
        kind, typ, payload = node
        if kind == "leaf":
            return values[payload]
        if kind == "dict":
            out = typ() if typ is not collections.defaultdict else collections.defaultdict()
            for k, sub in payload:
                out[k] = self._build(sub, values)
            return out
        if kind == "namedtuple":
            return typ(*[self._build(s, values) for s in payload])
        if kind == "slices":
            parts = [self._build(s, values) for s in payload]
            return IndexedSlicesValue(parts[0], parts[1], parts[2] if len(parts) > 2 else None)
        if kind == "sparse":
            return SparseTensorValue(*[self._build(s, values) for s in payload])
        if kind == "ragged":
            from edgelite.ragged.ragged_tensor_value import RaggedTensorValue
            flat, *splits = [self._build(s, values) for s in payload]
            for row_splits in reversed(splits):
                flat = RaggedTensorValue(flat, row_splits)
            return flat
        items = [self._build(s, values) for s in payload]
        return items if typ is list else (tuple(items) if typ is tuple else typ(items))


class BaseSession:
    """Shared machinery of Session and InteractiveSession."""

    def __init__(self, target: str = "", graph: Optional[ops.Graph] = None, config: Any = None) -> None:
        if graph is None:
            graph = ops.get_default_graph()
        elif not isinstance(graph, ops.Graph):
            raise TypeError(f"graph must be a tf.Graph, but got {type(graph)}")
        self._graph = graph
        self._target = target
        self._config = config
        self._closed = False
        self._state = SessionState()
        self._intra_op_threads = placement.intra_op_thread_count(config)
        self._state.intra_op_threads = self._intra_op_threads
        self._plans: dict = {}
        self._accepted_feed_shapes: dict = {}
        # Tuple of feed_dict keys -> (fed tensors in plan order, (dict position, tensor, numpy dtype) each).
        self._feed_layouts: dict = {}
        keep_freed_memory()
        self._default_session_ctx: Any = None
        self._default_graph_ctx: Any = None
        _live_sessions.add(self)

    @property
    def graph(self) -> ops.Graph:
        """The graph this session runs."""
        return self._graph

    @property
    def graph_def(self) -> Any:
        """A serializable GraphDef of the session's graph (TF1 scripts freeze and write `sess.graph_def`)."""
        return self._graph.as_graph_def()

    @property
    def sess_str(self) -> str:
        """The target string."""
        return self._target

    def list_devices(self) -> list:
        """The (single, local CPU) device of this session."""
        Device = collections.namedtuple("Device", ["name", "device_type", "memory_limit_bytes", "incarnation"])
        return [Device("/job:localhost/replica:0/task:0/device:CPU:0", "CPU", 268435456, 0)]

    def as_default(self) -> Any:
        """Context manager making this the default session (for Tensor.eval / Operation.run)."""
        return ops.default_session(self)

    def close(self) -> None:
        """Release the session's state; later runs raise RuntimeError."""
        self._closed = True
        self._plans.clear()
        self._state.close()
        self._state = SessionState()
        self._state.intra_op_threads = self._intra_op_threads

    def __del__(self) -> None:
        self._closed = True
        # A session dropped without close() still stops its pipelines' threads and wakes its queue waiters.
        state = getattr(self, "_state", None)
        if state is not None:
            state.close()

    # ---- feeds ---------------------------------------------------------------------------------
    def _prepare_feeds(self, feed_dict: Optional[dict]) -> tuple:
        if not feed_dict:
            return (), []
        keys = tuple(feed_dict)
        layout = self._feed_layouts.get(keys)
        if layout is not None:
            values = self._known_feed_values(layout[1], feed_dict)
            if values is not None:
                return layout[0], values
        tensors, values = self._resolve_feeds(feed_dict)
        if all(k is t for k, t in zip(keys, tensors)) and len(keys) == len(tensors):
            # Every key is a feedable tensor of this graph (no name, no composite): remember where each goes.
            ids = {id(t): i for i, t in enumerate(tensors)}
            ordered = tuple(sorted(tensors, key=lambda t: t._id))
            if len(self._feed_layouts) >= _MAX_ACCEPTED_FEED_SHAPES:
                self._feed_layouts.clear()
            self._feed_layouts[keys] = (ordered, tuple((ids[id(t)], t, t.dtype.base_dtype.as_numpy_dtype)
                                                       for t in ordered))
        order = sorted(range(len(tensors)), key=lambda i: tensors[i]._id)
        return tuple(tensors[i] for i in order), [values[i] for i in order]

    def _known_feed_values(self, entries: tuple, feed_dict: dict) -> Optional[list]:
        """The converted feed values for a known key layout, or None when one needs the full checks (which
        then accept it or raise their error)."""
        given = list(feed_dict.values())
        unfeedable = self._graph._unfeedable_tensors
        accepted = self._accepted_feed_shapes
        out = []
        for i, t, npdt in entries:
            val = given[i]
            if isinstance(val, ops.Tensor) or t in unfeedable:
                return None
            try:
                arr = np.asarray(val, dtype=npdt)
            except (TypeError, ValueError):
                return None
            if accepted.get((t, arr.shape)) is not t.shape:
                return None
            out.append(arr)
        return out

    def _resolve_feeds(self, feed_dict: dict) -> tuple:
        """The fed tensors (a composite key stands for its parts) and their converted values, in dict order."""
        tensors, values = [], []
        for key, val in feed_dict.items():
            t = self._feed_key(key)
            if isinstance(val, ops.Tensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values include "
                                "Python scalars, strings, lists, numpy ndarrays, or TensorHandles. For reference, "
                                f"the tensor object was {val} which was passed to the feed with key {t}.")
            if isinstance(t, tuple):
                if _is_ragged_value(val):
                    val = (val.flat_values,) + val.nested_row_splits
                for pt, pv in zip(t, val):
                    tensors.append(pt)
                    values.append(self._convert_feed_value(pt, pv))
                continue
            if not self._graph.is_feedable(t):
                raise ValueError(f"Tensor {t} may not be fed.")
            tensors.append(t)
            values.append(self._convert_feed_value(t, val))
        return tensors, values

    def _feed_key(self, key: Any) -> Any:
        if isinstance(key, IndexedSlices):
            parts = [key.values, key.indices] + ([] if key.dense_shape is None else [key.dense_shape])
            return tuple(self._feed_key(p) for p in parts)
        if isinstance(key, SparseTensor):
            return tuple(self._feed_key(p) for p in (key.indices, key.values, key.dense_shape))
        if _is_ragged_tensor(key):
            return tuple(self._feed_key(p) for p in (key.flat_values,) + key.nested_row_splits)
        try:
            t = self._graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
        except Exception as e:
            raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e}") from None
        return t

    def _convert_feed_value(self, t: ops.Tensor, val: Any) -> np.ndarray:
        dt = t.dtype.base_dtype
        try:
            if dt.as_numpy_dtype is np.object_:
                arr = np.asarray(val, dtype=object)
            else:
                arr = np.asarray(val, dtype=dt.as_numpy_dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f"Cannot feed value {val!r} to Tensor {t.name!r} of dtype {dt.name}: {e}") from None
        # TensorShape's compatibility check costs more than the rest of a small run: remember the shapes a
        # tensor accepted (keyed to its static shape object, which set_shape replaces).
        key = (t, arr.shape)
        if self._accepted_feed_shapes.get(key) is t.shape:
            return arr
        if not t.shape.is_compatible_with(arr.shape):
            raise errors.FeedShapeError(
                None, t.op, f"Cannot feed value of shape {arr.shape!r} for Tensor {t.name!r}, which has shape "
                            f"{str(t.shape)!r}")
        if len(self._accepted_feed_shapes) >= _MAX_ACCEPTED_FEED_SHAPES:
            self._accepted_feed_shapes.clear()
        self._accepted_feed_shapes[key] = t.shape
        return arr

    # ---- run ---------------------------------------------------------------------------------------
    def run(self, fetches: Any, feed_dict: Optional[dict] = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        """Evaluate fetches (a tensor, op, name or nested list/tuple/dict/namedtuple of them)."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if self._graph.version == 0:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
        mapper = _FetchMapper(self._graph, fetches)
        feed_tensors, feed_values = self._prepare_feeds(feed_dict)
        trace = [] if wants_trace(options, run_metadata) else None
        results = self._run_elements(mapper.elements, feed_tensors, feed_values, trace)
        if trace is not None:
            record_step_stats(run_metadata, trace)
        return mapper.build(results)

    def _run_elements(self, elements: list, feed_tensors: tuple, feed_values: list,
                      trace: Optional[list] = None) -> list:
        key = (tuple(elements), feed_tensors)
        plan = self._plans.get(key)
        if plan is None:
            fetch_tensors = [e if isinstance(e, ops.Tensor) else None for e in elements]
            targets = [e for e in elements if isinstance(e, ops.Operation)]
            fed = set(feed_tensors)
            # TF hands a fed tensor's feed back as given, so only computed string fetches are converted.
            strings = [i for i, t in enumerate(fetch_tensors)
                       if t is not None and t not in fed and t.dtype.base_dtype == dtypes.string]
            # ... and a computed 0-d numeric value comes back as a numpy scalar (np.float32(2.0)), not a 0-d array.
            numbers = [i for i, t in enumerate(fetch_tensors)
                       if t is not None and t not in fed and t.dtype.base_dtype != dtypes.string]
            built = build_plan(self._graph, fetch_tensors, targets, list(feed_tensors), self._state)
            placement.check_placement(built.ops, self._config)
            placement.log_placement(built.ops, self._config)
            plan = (built, strings, numbers)
            self._plans[key] = plan
        with self._state.run_lock:
            self._state.new_run()
            if self._intra_op_threads:
                with placement.intra_op_threads(self._config):
                    values = plan[0].run(feed_values, trace)
            else:
                values = plan[0].run(feed_values, trace)
        for i in plan[1]:
            values[i] = _string_fetch(values[i])
        for i in plan[2]:
            value = values[i]
            if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype != object:
                values[i] = value[()]
        return values

    def make_callable(self, fetches: Any, feed_list: Optional[list] = None, accept_options: bool = False) -> Callable:
        """A function running fetches with positional feed values for feed_list."""
        mapper = _FetchMapper(self._graph, fetches)
        feed_keys = [self._feed_key(f) for f in (feed_list or [])]
        # An IndexedSlices or SparseTensor feed stands for its component tensors, fed from the parts of its value.
        feed_tensors = [p for k in feed_keys for p in (k if isinstance(k, tuple) else (k,))]

        def call(*args: Any, **kwargs: Any) -> Any:
            if len(args) != len(feed_keys):
                raise TypeError(f"Expected {len(feed_keys)} feed values, got {len(args)}")
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            parts = [p for k, v in zip(feed_keys, args) for p in (v if isinstance(k, tuple) else (v,))]
            vals = [self._convert_feed_value(t, v) for t, v in zip(feed_tensors, parts)]
            order = sorted(range(len(vals)), key=lambda i: feed_tensors[i]._id)
            res = self._run_elements(mapper.elements, tuple(feed_tensors[i] for i in order),
                                     [vals[i] for i in order])
            return mapper.build(res)

        return call

    @staticmethod
    def reset(target: str = "", containers: Optional[list] = None, config: Any = None) -> None:
        """Clear the state of the given resource containers (all if None) in every live session."""
        for s in list(_live_sessions):
            if s._target == target:
                s._state.reset(containers if containers is None else list(containers))


def _as_bytes(x: Any) -> Any:
    return x.encode("utf-8") if isinstance(x, str) else x


def _string_fetch(value: Any) -> Any:
    """A string tensor's value as TF returns it: bytes for a scalar, an object array of bytes otherwise."""
    arr = np.asarray(value, dtype=object)
    if arr.ndim == 0:
        return _as_bytes(arr.item())
    out = np.empty(arr.shape, dtype=object)
    out.ravel()[:] = [_as_bytes(x) for x in arr.ravel()]
    return out


class Session(BaseSession):
    """A class for running operations of a graph."""

    def __enter__(self) -> "Session":
        if self._default_graph_ctx is None:
            self._default_graph_ctx = self._graph.as_default()
            self._default_graph_ctx.__enter__()
            self._default_session_ctx = self.as_default()
            self._default_session_ctx.__enter__()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if self._default_session_ctx is not None:
            self._default_session_ctx.__exit__(exc_type, exc, tb)
            self._default_graph_ctx.__exit__(exc_type, exc, tb)
            self._default_session_ctx = None
            self._default_graph_ctx = None
        self.close()


class InteractiveSession(BaseSession):
    """A Session that installs itself (and its graph) as the default on construction."""

    def __init__(self, target: str = "", graph: Optional[ops.Graph] = None, config: Any = None) -> None:
        super().__init__(target, graph, config)
        self._default_session_ctx = self.as_default()
        self._default_session_ctx.__enter__()
        self._default_graph_ctx = self._graph.as_default()
        self._default_graph_ctx.__enter__()

    def close(self) -> None:
        """Close and stop being the default session."""
        if self._default_session_ctx is not None:
            self._default_graph_ctx.__exit__(None, None, None)
            self._default_session_ctx.__exit__(None, None, None)
            self._default_session_ctx = None
            self._default_graph_ctx = None
        super().close()
