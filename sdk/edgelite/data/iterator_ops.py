"""tf.data iterators in graph mode: one-shot and initializable iterators, reinitializable and string-handle ones.

The iterator op yields a per-session IteratorRuntime; MakeIterator (the initializer) evaluates the
dataset's input tensors and starts its generator, IteratorGetNext takes the next element.
"""
from __future__ import annotations

import itertools
import threading
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op

from . import structure as st
from .dataset_ops import DatasetV1, ElementStructure, Env

_HANDLE_IDS = itertools.count()


class IteratorRuntime:
    """An iterator's state in one session: the running generator of the dataset it was initialized with."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.Lock()
        self.gen: Any = None
        self.env: Optional[Env] = None
        self.handle = f"edgelite-iterator-{next(_HANDLE_IDS)}-{name}".encode("utf-8")

    def initialize(self, dataset: DatasetV1, env: Env) -> None:
        with self.lock:
            self._stop()
            self.env = env
            self.gen = dataset._gen(env)

    def _stop(self) -> None:
        if self.env is not None:
            self.env.stop.set()
        if self.gen is not None and hasattr(self.gen, "close"):
            self.gen.close()
        self.gen = None

    def cancel(self) -> None:
        """Stop the pipeline's background threads (the session is closing)."""
        if self.env is not None:
            self.env.stop.set()

    def next(self) -> list:
        with self.lock:
            if self.gen is None:
                raise errors.FailedPreconditionError(
                    None, None, "GetNext() failed because the iterator has not been initialized. Ensure that you "
                                "have run the initializer operation for this iterator before getting the next "
                                "element.")
            try:
                return next(self.gen)
            except StopIteration:
                # An exhausted iterator keeps raising End of sequence until it is initialized again.
                self.gen = iter(())
                raise errors.OutOfRangeError(None, None, "End of sequence") from None


def _runtime(ctx: Any, key: Any) -> IteratorRuntime:
    r = ctx.state.op_state.get(key)
    if r is None:
        r = IteratorRuntime(ctx.op.name)
        ctx.state.op_state[key] = r
        ctx.state.op_state[("iterator_handle", r.handle)] = r
        ctx.state.closers.append(r.cancel)
    return r


def _iterator_kernel(ctx: Any) -> IteratorRuntime:
    return _runtime(ctx, ("iterator", ctx.attrs.get("shared_name") or id(ctx.op)))


def _one_shot_kernel(ctx: Any, values: list) -> IteratorRuntime:
    key = ("iterator", id(ctx.op))
    fresh = key not in ctx.state.op_state
    r = _runtime(ctx, key)
    if fresh:
        ds = ctx.attrs["_dataset"]
        r.initialize(ds, Env({id(t): v for t, v in zip(ds._inputs(), values)}, ctx.state, ds.options()))
    return r


def _make_iterator_kernel(ctx: Any, runtime: IteratorRuntime, values: list) -> tuple:
    ds = ctx.attrs["_dataset"]
    runtime.initialize(ds, Env({id(t): v for t, v in zip(ds._inputs(), values)}, ctx.state, ds.options()))
    return ()


def _get_next_kernel(ctx: Any, runtime: IteratorRuntime) -> Any:
    values = [part for v in runtime.next() for part in st.value_parts(v)]
    return values[0] if len(values) == 1 else values


def _to_string_handle_kernel(ctx: Any, runtime: IteratorRuntime) -> np.ndarray:
    return np.asarray(runtime.handle, dtype=object)


def _from_string_handle_kernel(ctx: Any, handle: np.ndarray) -> IteratorRuntime:
    h = handle.item()
    h = h.encode("utf-8") if isinstance(h, str) else h
    r = ctx.state.op_state.get(("iterator_handle", h))
    if r is None:
        raise errors.InvalidArgumentError(None, None, f"Unable to find the iterator resource for string handle {h!r}")
    return r


def _get_next_dtypes(op: Any) -> list:
    return [dtypes.as_dtype(t) for t in op.get_attr("output_types")]


def _get_next_shapes(op: Any) -> list:
    return list(op.get_attr("output_shapes"))


register_op("IteratorV2", inputs=[], outputs=["handle: resource"], kernel=_iterator_kernel,
            shape_fn=lambda op: [[]], stateful=True, attrs={"shared_name": "", "container": ""})
register_op("OneShotIterator", inputs=["dataset_inputs: N * T"], outputs=["handle: resource"],
            kernel=_one_shot_kernel, shape_fn=lambda op: [[]], stateful=True)
register_op("MakeIterator", inputs=["iterator: resource", "dataset_inputs: N * T"], outputs=[],
            kernel=_make_iterator_kernel, shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)
register_op("IteratorGetNext", inputs=["iterator: resource"], outputs=[], kernel=_get_next_kernel,
            shape_fn=_get_next_shapes, dtype_fn=_get_next_dtypes, stateful=True)
register_op("IteratorToStringHandle", inputs=["resource_handle: resource"], outputs=["string_handle: string"],
            kernel=_to_string_handle_kernel, shape_fn=lambda op: [[]], stateful=True)
register_op("IteratorFromStringHandleV2", inputs=["string_handle: string"], outputs=["resource_handle: resource"],
            kernel=_from_string_handle_kernel, shape_fn=lambda op: [[]], stateful=True)


def _create(op_type: str, inputs: list, attrs: dict, name: str) -> ops.Operation:
    g = ops.get_default_graph()
    return g.create_op(op_type, inputs, None, name=name, attrs=dict(attrs, N=len(inputs) - (op_type == "MakeIterator")))


def _same_structure(a: Any, b: Any) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and sorted(a) == sorted(b) and \
            all(_same_structure(a[k], b[k]) for k in a)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(_same_structure(x, y) for x, y in zip(a, b))
    return True


def refuse_windows(dataset: DatasetV1) -> None:
    """TypeError for a dataset whose elements are datasets (Dataset.window), which iterators cannot return."""
    from .window_ops import DatasetSpec
    if DatasetSpec in dataset._flat_classes:
        raise TypeError("edgelite cannot return dataset-valued (Dataset.window) elements from an iterator; consume "
                        "the windows with flat_map or interleave")


class Iterator(ElementStructure):
    """Represents the state of iterating through a Dataset (TF1 graph mode)."""

    def __init__(self, iterator_resource: ops.Tensor, initializer: Any, output_types: Any, output_shapes: Any,
                 output_classes: Any = None) -> None:
        self._iterator_resource = iterator_resource
        self._initializer = initializer
        self._structure, self._flat_types, self._flat_shapes = st.as_specs(output_types, output_shapes)
        self._flat_classes = [ops.Tensor] * len(self._flat_types) if output_classes is None else \
            [c for c in st.flatten(output_classes)] if isinstance(output_classes, (tuple, dict)) else [output_classes]

    @staticmethod
    def _one_shot(dataset: DatasetV1) -> "Iterator":
        refuse_windows(dataset)
        inputs = dataset._inputs()
        for t in inputs:
            if t.op.type in ("Placeholder", "PlaceholderV2", "VariableV2"):
                raise ValueError("Failed to create a one-shot iterator for a dataset. `Dataset.make_one_shot_"
                                 "iterator()` does not support datasets that capture stateful objects, such as a "
                                 "`Variable` or `LookupTable`. In these cases, use `Dataset.make_initializable_"
                                 "iterator()`. (Original error: Cannot capture a placeholder (name:"
                                 f"{t.op.name}, type:{t.op.type}) by value.)")
        op = _create("OneShotIterator", list(inputs), {"_dataset": dataset, "T": dtypes.string},
                     ops.get_default_graph().unique_name("OneShotIterator"))
        return Iterator(op.outputs[0], None, dataset.output_types, dataset.output_shapes, dataset.output_classes)

    @staticmethod
    def from_structure(output_types: Any, output_shapes: Any = None, shared_name: Optional[str] = None,
                       output_classes: Any = None) -> "Iterator":
        """An uninitialized iterator for elements of the given structure (initialize with make_initializer)."""
        handle = ops.apply_op("IteratorV2", [], {"shared_name": shared_name or "",
                                                 "output_types": st.flatten(output_types)}, name="Iterator")
        return Iterator(handle, None, output_types, output_shapes, output_classes)

    @staticmethod
    def from_string_handle(string_handle: Any, output_types: Any, output_shapes: Any = None,
                           output_classes: Any = None) -> "Iterator":
        """An iterator that runs the iterator whose string handle is fed (see `string_handle`)."""
        h = ops.convert_to_tensor(string_handle, dtype=dtypes.string)
        handle = ops.apply_op("IteratorFromStringHandleV2", [h], name="IteratorFromStringHandleV2")
        return Iterator(handle, None, output_types, output_shapes, output_classes)

    @property
    def initializer(self) -> ops.Operation:
        """The op that initializes this iterator."""
        if self._initializer is not None:
            return self._initializer
        raise ValueError("The iterator does not have an initializer. This means it was likely created using "
                         "`tf.data.Dataset.make_one_shot_iterator()`. For an initializable iterator, use "
                         "`tf.data.Dataset.make_initializable_iterator()` instead.")

    def make_initializer(self, dataset: DatasetV1, name: Optional[str] = None) -> ops.Operation:
        """An op that (re)initializes this iterator to run over dataset."""
        refuse_windows(dataset)
        if not _same_structure(self._structure, dataset._structure) or \
                self._flat_types != dataset._flat_types or self._flat_classes != dataset._flat_classes:
            raise TypeError(f"Expected output types {self.output_types} but got dataset with output types "
                            f"{dataset.output_types}.")
        for mine, theirs in zip(self._flat_shapes, dataset._flat_shapes):
            if not mine.is_compatible_with(theirs):
                raise TypeError(f"Expected output shapes compatible with {self.output_shapes} but got dataset with "
                                f"output shapes {dataset.output_shapes}.")
        with ops.name_scope(name, "make_initializer") as scope:
            return _create("MakeIterator", [self._iterator_resource] + list(dataset._inputs()),
                           {"_dataset": dataset, "T": dtypes.string}, scope)

    def get_next(self, name: Optional[str] = None) -> Any:
        """The next element's tensors (OutOfRangeError when the dataset is exhausted)."""
        types, shapes = [], []
        for dt, shape, cls in zip(self._flat_types, self._flat_shapes, self._flat_classes):
            if cls is ops.Tensor:
                types.append(dt)
                shapes.append(shape)
            elif st.is_ragged_class(cls):
                types += [t for t, _ in cls.component_specs()]
                shapes += [s for _, s in cls.component_specs()]
            else:
                rank = shape.ndims
                types += [dtypes.int64, dt, dtypes.int64]
                shapes += [tensor_shape.TensorShape([None, rank]), tensor_shape.TensorShape([None]),
                           tensor_shape.TensorShape([rank])]
        op = ops.apply_op("IteratorGetNext", [self._iterator_resource],
                          {"output_types": types, "output_shapes": shapes}, name=name or "IteratorGetNext")
        outs, leaves = list(op.outputs), []
        for cls in self._flat_classes:
            if cls is ops.Tensor:
                leaves.append(outs.pop(0))
            elif st.is_ragged_class(cls):
                leaves.append(cls.from_components([outs.pop(0) for _ in range(1 + cls.ragged_rank)]))
            else:
                from edgelite.framework.sparse_tensor import SparseTensor
                leaves.append(SparseTensor(outs.pop(0), outs.pop(0), outs.pop(0)))
        return st.pack(self._structure, leaves)

    def string_handle(self, name: Optional[str] = None) -> ops.Tensor:
        """A string tensor naming this iterator, to feed an iterator made by from_string_handle."""
        return ops.apply_op("IteratorToStringHandle", [self._iterator_resource], name=name)


def make_one_shot_iterator(dataset: DatasetV1) -> Iterator:
    """A one-shot iterator over dataset (tf.compat.v1.data.make_one_shot_iterator)."""
    return dataset.make_one_shot_iterator()


def make_initializable_iterator(dataset: DatasetV1, shared_name: Optional[str] = None) -> Iterator:
    """An initializable iterator over dataset (tf.compat.v1.data.make_initializable_iterator)."""
    return dataset.make_initializable_iterator(shared_name)


def get_output_types(dataset_or_iterator: Any) -> Any:
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator: Any) -> Any:
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator: Any) -> Any:
    return dataset_or_iterator.output_classes

