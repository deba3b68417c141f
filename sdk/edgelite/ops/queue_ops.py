"""tf.QueueBase and its kinds (FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue) as graph ops.

The queue op yields a per-session QueueRuntime (ops/queue_runtime.py); the enqueue/dequeue/close/size
ops act on it, each holding a list of components of the queue's dtypes.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops, random_seed, tensor_shape
from edgelite.framework.op_def_registry import register_op

from . import queue_runtime as qr
from .shuffle_queue_runtime import RandomShuffleRuntime

_RESOURCE_IDS = itertools.count()
_RUNTIMES = {"FIFOQueueV2": qr.QueueRuntime, "PaddingFIFOQueueV2": qr.PaddingFIFORuntime,
             "RandomShuffleQueueV2": RandomShuffleRuntime, "PriorityQueueV2": qr.PriorityRuntime}


def _queue_kernel(ctx: Any) -> Any:
    """The session's queue for this op (created on first use; shared_name shares it between ops)."""
    key = ("queue", ctx.attrs.get("shared_name") or id(ctx.op))
    q = ctx.state.op_state.get(key)
    if q is None:
        shapes = [None if s.ndims is None else s.as_list() for s in ctx.attrs["shapes"]] or \
            [None] * len(ctx.attrs["component_types"])
        cls = _RUNTIMES[ctx.op.type]
        rng = _shuffle_generator(ctx) if cls is RandomShuffleRuntime else None
        # TensorFlow names a queue resource by its shared name, else "_<process-wide count>_<node name>".
        name = ctx.attrs.get("shared_name") or f"_{next(_RESOURCE_IDS)}_{ctx.op.name}"
        q = cls(name, int(ctx.attrs["capacity"]), shapes, rng,
                int(ctx.attrs.get("min_after_dequeue", 0)))
        ctx.state.op_state[key] = q
        ctx.state.closers.append(q.cancel)
    return q


def _shuffle_generator(ctx: Any) -> Any:
    """The Philox generator TensorFlow's RandomShuffleQueue kernel draws from, after its attr checks."""
    from edgelite.data.philox import op_generator
    capacity, least = int(ctx.attrs["capacity"]), int(ctx.attrs.get("min_after_dequeue", 0))
    if least < 0:
        raise errors.InvalidArgumentError(None, None, f"min_after_dequeue {least} must be >= 0")
    if 0 <= capacity <= least:
        raise errors.InvalidArgumentError(None, None, f"min_after_dequeue {least} must be < capacity {capacity}")
    return op_generator(int(ctx.attrs.get("seed", 0)), int(ctx.attrs.get("seed2", 0)))


for _type in _RUNTIMES:
    register_op(_type, inputs=[], outputs=["handle: resource"], kernel=_queue_kernel, shape_fn=lambda op: [[]],
                stateful=True, attrs={"shapes": [], "capacity": -1, "container": "", "shared_name": ""})


def _check_components(q: Any, comps: list, types: list, batched: bool) -> list:
    out = []
    for i, (c, dt) in enumerate(zip(comps, types)):
        arr = np.array(c, dtype=object if dt == dtypes.string else dt.as_numpy_dtype, copy=True)
        want = q.shapes[i] if i < len(q.shapes) else None
        shape = arr.shape[1:] if batched else arr.shape
        if want is not None and (len(want) != len(shape) or any(w is not None and w != s
                                                                for w, s in zip(want, shape))):
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch in tuple component {i}. Expected "
                            f"[{','.join('?' if w is None else str(w) for w in want)}], got "
                            f"[{','.join(str(s) for s in shape)}]")
        out.append(arr)
    return out


def _enqueue_kernel(ctx: Any, q: Any, comps: list) -> tuple:
    arrays = _check_components(q, comps, ctx.attrs["Tcomponents"], batched=False)
    q.enqueue(ctx.state.run_lock, [tuple(arrays)])
    return ()


def _enqueue_many_kernel(ctx: Any, q: Any, comps: list) -> tuple:
    arrays = _check_components(q, comps, ctx.attrs["Tcomponents"], batched=True)
    n = {a.shape[0] if a.ndim else -1 for a in arrays}
    if len(n) != 1 or -1 in n:
        raise errors.InvalidArgumentError(None, None, "QueueEnqueueMany requires all components to have the same "
                                                      f"dimension 0, got {sorted(n)}")
    # Slices keep their dtype as arrays (indexing an object array would give a bare bytes value).
    q.enqueue(ctx.state.run_lock, [tuple(a[i:i + 1].reshape(a.shape[1:]) for a in arrays) for i in range(n.pop())])
    return ()


def _bare(values: list) -> Any:
    """The executor takes a one-output op's value bare, not in a list."""
    return values[0] if len(values) == 1 else values


def _dequeue_kernel(ctx: Any, q: Any) -> Any:
    return _bare(q.dequeue(ctx.state.run_lock, None))


def _check_shaped(q: Any) -> None:
    """A batch needs every component's shape up front, so a queue built without shapes refuses it."""
    if all(s is None for s in q.shapes):
        raise errors.InvalidArgumentError(
            None, None, f"{q.kind}'s DequeueMany and DequeueUpTo require the components to have specified shapes.")


def _dequeue_many_kernel(ctx: Any, q: Any, n: np.ndarray) -> Any:
    _check_shaped(q)
    return _bare(q.dequeue(ctx.state.run_lock, int(n)))


def _dequeue_up_to_kernel(ctx: Any, q: Any, n: np.ndarray) -> Any:
    _check_shaped(q)
    return _bare(q.dequeue(ctx.state.run_lock, int(n), up_to=True))


def _close_kernel(ctx: Any, q: Any) -> tuple:
    q.close(bool(ctx.attrs["cancel_pending_enqueues"]))
    return ()


def _size_kernel(ctx: Any, q: Any) -> np.ndarray:
    with q.cond:
        return np.int32(len(q))


def _is_closed_kernel(ctx: Any, q: Any) -> np.ndarray:
    return np.bool_(q.closed)


def _on_queue(kernel: Any) -> Any:
    """kernel with its handle input turned into the queue it names (a handle picked out of a stacked list by
    QueueBase.from_list arrives as a 0-d object array)."""
    def run(ctx: Any, handle: Any, *args: Any) -> Any:
        return kernel(ctx, handle.item() if isinstance(handle, np.ndarray) else handle, *args)
    return run


def _component_types(op: Any) -> list:
    return [dtypes.as_dtype(t) for t in op.get_attr("component_types")]


def _dequeue_shapes(prefix: list) -> Any:
    def shape_fn(op: Any) -> list:
        shapes = op.get_attr("_queue_shapes")
        return [None if s is None or s.ndims is None else prefix + s.as_list() for s in shapes]
    return shape_fn


def _many_shapes(op: Any) -> list:
    from edgelite.framework import tensor_util
    n = tensor_util.constant_value(op.inputs[1])
    lead = [None if n is None or op.type == "QueueDequeueUpToV2" else int(n)]
    return _dequeue_shapes(lead)(op)


register_op("QueueEnqueueV2", inputs=["handle: resource", "components: N * T"], outputs=[],
            kernel=_on_queue(_enqueue_kernel), shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)
register_op("QueueEnqueueManyV2", inputs=["handle: resource", "components: N * T"], outputs=[],
            kernel=_on_queue(_enqueue_many_kernel), shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True)
register_op("QueueDequeueV2", inputs=["handle: resource"], outputs=[], kernel=_on_queue(_dequeue_kernel),
            shape_fn=_dequeue_shapes([]), dtype_fn=_component_types, stateful=True)
register_op("QueueDequeueManyV2", inputs=["handle: resource", "n: int32"], outputs=[], kernel=_on_queue(_dequeue_many_kernel),
            shape_fn=_many_shapes, dtype_fn=_component_types, stateful=True)
register_op("QueueDequeueUpToV2", inputs=["handle: resource", "n: int32"], outputs=[],
            kernel=_on_queue(_dequeue_up_to_kernel), shape_fn=_many_shapes, dtype_fn=_component_types, stateful=True)
register_op("QueueCloseV2", inputs=["handle: resource"], outputs=[], kernel=_on_queue(_close_kernel),
            shape_fn=lambda op: [], dtype_fn=lambda op: [], stateful=True, attrs={"cancel_pending_enqueues": False})
register_op("QueueSizeV2", inputs=["handle: resource"], outputs=["size: int32"], kernel=_on_queue(_size_kernel),
            shape_fn=lambda op: [[]], stateful=True)
register_op("QueueIsClosedV2", inputs=["handle: resource"], outputs=["is_closed: bool"], kernel=_on_queue(_is_closed_kernel),
            shape_fn=lambda op: [[]], stateful=True)


def _as_type_list(dts: Any) -> list:
    if isinstance(dts, (list, tuple)):
        return [dtypes.as_dtype(d) for d in dts]
    return [dtypes.as_dtype(dts)]


def _as_shape_list(shapes: Any, n: int, unknown_rank_allowed: bool = True) -> list:
    if shapes is None:
        return [tensor_shape.unknown_shape() for _ in range(n)]
    if isinstance(shapes, tensor_shape.TensorShape) or (isinstance(shapes, (list, tuple)) and shapes
                                                          and not isinstance(shapes[0], (list, tuple,
                                                                                         tensor_shape.TensorShape))
                                                          and n == 1):
        shapes = [shapes]
    shapes = [tensor_shape.as_shape(s) for s in shapes]
    if len(shapes) != n:
        raise ValueError(f"Queue shapes must have the same length as dtypes, got {len(shapes)} shapes for {n} "
                         "dtypes")
    return shapes


def _shape_common(a: Any, b: Any) -> tensor_shape.TensorShape:
    """The most specific shape both a and b have (a differing dimension unknown, a differing rank unknown)."""
    a, b = tensor_shape.TensorShape(a), tensor_shape.TensorShape(b)
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return tensor_shape.unknown_shape()
    return tensor_shape.TensorShape([x if x is not None and x == y else None for x, y in zip(a.as_list(),
                                                                                        b.as_list())])


class QueueBase:
    """Base class for queue implementations: a graph handle plus enqueue/dequeue/close/size ops on it."""

    def __init__(self, dtypes: list, shapes: Optional[list], names: Optional[list], queue_ref: ops.Tensor) -> None:
        self._dtypes = dtypes
        self._shapes = shapes if shapes is not None else [tensor_shape.unknown_shape() for _ in dtypes]
        if names is not None:
            if len(names) != len(dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
            names = list(names)
        self._names = names
        self._queue_ref = queue_ref
        self._name = queue_ref.op.name.split("/")[-1]

    @staticmethod
    def from_list(index: Any, queues: list) -> "QueueBase":
        """The queue of queues[index], picked when the graph runs (all must share dtypes and names)."""
        if not queues or not isinstance(queues, list) or not all(isinstance(q, QueueBase) for q in queues):
            raise TypeError("A list of queues expected")
        types = queues[0].dtypes
        if not all(types == q.dtypes for q in queues[1:]):
            raise TypeError("Queues do not have matching component dtypes.")
        names = queues[0].names
        if not all(names == q.names for q in queues[1:]):
            raise TypeError("Queues do not have matching component names.")
        shapes = [functools.reduce(_shape_common, s) for s in zip(*[q.shapes for q in queues])]
        from edgelite.ops import array_ops
        refs = array_ops.stack([q.queue_ref for q in queues])
        return QueueBase(dtypes=types, shapes=shapes, names=names, queue_ref=array_ops.gather(refs, index))

    @property
    def queue_ref(self) -> ops.Tensor:
        """The underlying queue reference."""
        return self._queue_ref

    @property
    def name(self) -> str:
        """The name of the underlying queue."""
        return self._queue_ref.op.name

    @property
    def dtypes(self) -> list:
        """The list of dtypes for each component of a queue element."""
        return self._dtypes

    @property
    def shapes(self) -> list:
        """The list of shapes for each component of a queue element."""
        return self._shapes

    @property
    def names(self) -> Any:
        """The list of names for each component of a queue element."""
        return self._names

    def _flat_vals(self, vals: Any) -> list:
        if isinstance(vals, dict):
            if self._names is None:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names) != sorted(vals.keys()):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                 f"{sorted(vals.keys())}, Queue: {sorted(self._names)}")
            return [vals[k] for k in self._names]
        if self._names is not None and not isinstance(vals, dict):
            raise ValueError("You must enqueue a dictionary in a Queue with names")
        if not isinstance(vals, (list, tuple)):
            return [vals]
        return list(vals)

    def _tensors(self, vals: Any, batched: bool) -> list:
        flat = self._flat_vals(vals)
        if len(flat) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components to enqueue, got {len(flat)}")
        out = []
        for i, (v, dt, shape) in enumerate(zip(flat, self._dtypes, self._shapes)):
            t = ops.convert_to_tensor(v, dtype=dt, name=f"component_{i}")
            got = t.shape[1:] if (batched and t.shape.ndims) else t.shape
            if batched and t.shape.ndims == 0:
                raise ValueError(f"Shape must be at least rank 1 but is rank 0 for component {i} of enqueue_many")
            if not got.is_compatible_with(shape):
                raise ValueError(f"Shapes {got} and {shape} are incompatible")
            out.append(t)
        return out

    def _apply(self, op_type: str, inputs: list, name: str, attrs: Optional[dict] = None) -> Any:
        g = self._queue_ref.graph
        a = dict(attrs or {})
        with g.as_default():
            return g.create_op(op_type, inputs, None, name=name, attrs=a)

    def enqueue(self, vals: Any, name: Optional[str] = None) -> ops.Operation:
        """Enqueues one element to this queue (blocks while the queue is full)."""
        with ops.name_scope(name, f"{self._name}_enqueue") as scope:
            comps = self._tensors(vals, batched=False)
            return self._apply("QueueEnqueueV2", [self._queue_ref] + comps, scope,
                               {"Tcomponents": [c.dtype for c in comps], "N": len(comps), "timeout_ms": -1})

    def enqueue_many(self, vals: Any, name: Optional[str] = None) -> ops.Operation:
        """Enqueues zero or more elements, sliced along dimension 0 of each component."""
        with ops.name_scope(name, f"{self._name}_EnqueueMany") as scope:
            comps = self._tensors(vals, batched=True)
            return self._apply("QueueEnqueueManyV2", [self._queue_ref] + comps, scope,
                               {"Tcomponents": [c.dtype for c in comps], "N": len(comps), "timeout_ms": -1})

    def _dequeue_result(self, op: ops.Operation) -> Any:
        outs = list(op.outputs)
        if self._names is not None:
            return dict(zip(self._names, outs))
        return outs[0] if len(outs) == 1 else outs

    def _dequeue_attrs(self) -> dict:
        return {"component_types": list(self._dtypes), "timeout_ms": -1, "_queue_shapes": list(self._shapes)}

    def dequeue(self, name: Optional[str] = None) -> Any:
        """Dequeues one element (blocks until one is available; OutOfRangeError once closed and empty)."""
        with ops.name_scope(name, f"{self._name}_Dequeue") as scope:
            return self._dequeue_result(self._apply("QueueDequeueV2", [self._queue_ref], scope,
                                                    self._dequeue_attrs()))

    def _dequeue_n(self, op_type: str, n: Any, name: Optional[str], default: str) -> Any:
        with ops.name_scope(name, f"{self._name}_{default}") as scope:
            n_t = ops.convert_to_tensor(n, dtype=dtypes.int32, name="n")
            return self._dequeue_result(self._apply(op_type, [self._queue_ref, n_t], scope, self._dequeue_attrs()))

    def dequeue_many(self, n: Any, name: Optional[str] = None) -> Any:
        """Dequeues and concatenates n elements (OutOfRangeError if closed with fewer left)."""
        return self._dequeue_n("QueueDequeueManyV2", n, name, "DequeueMany")

    def dequeue_up_to(self, n: Any, name: Optional[str] = None) -> Any:
        """Dequeues n elements, or what is left (at least one) once the queue is closed."""
        return self._dequeue_n("QueueDequeueUpToV2", n, name, "DequeueUpTo")

    def close(self, cancel_pending_enqueues: bool = False, name: Optional[str] = None) -> ops.Operation:
        """Closes this queue: later enqueues fail, dequeues fail once too few elements remain."""
        with ops.name_scope(name, f"{self._name}_Close") as scope:
            return self._apply("QueueCloseV2", [self._queue_ref], scope,
                               {"cancel_pending_enqueues": bool(cancel_pending_enqueues)})

    def is_closed(self, name: Optional[str] = None) -> ops.Tensor:
        """A bool scalar: whether the queue is closed."""
        with ops.name_scope(name, f"{self._name}_Is_Closed") as scope:
            return self._apply("QueueIsClosedV2", [self._queue_ref], scope).outputs[0]

    def size(self, name: Optional[str] = None) -> ops.Tensor:
        """An int32 scalar: the number of elements in the queue."""
        with ops.name_scope(name, f"{self._name}_Size") as scope:
            return self._apply("QueueSizeV2", [self._queue_ref], scope).outputs[0]


def _queue_handle(op_type: str, name: str, dts: list, shapes: list, capacity: int, shared_name: Optional[str],
                  extra: Optional[dict] = None) -> ops.Tensor:
    known = all(s.ndims is not None for s in shapes)
    attrs = {"component_types": dts, "shapes": list(shapes) if known else [], "capacity": int(capacity),
             "shared_name": shared_name or ""}
    attrs.update(extra or {})
    return ops.apply_op(op_type, [], attrs, name=name)


class FIFOQueue(QueueBase):
    """A queue implementation that dequeues elements in first-in first-out order."""

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Optional[list] = None,
                 shared_name: Optional[str] = None, name: str = "fifo_queue") -> None:
        dts = _as_type_list(dtypes)
        shp = _as_shape_list(shapes, len(dts))
        ref = _queue_handle("FIFOQueueV2", name, dts, shp, capacity, shared_name)
        super().__init__(dts, shp, names, ref)


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose dequeue_many pads components with unknown dimensions to the batch's largest shape."""

    def __init__(self, capacity: int, dtypes: Any, shapes: Any, names: Optional[list] = None,
                 shared_name: Optional[str] = None, name: str = "padding_fifo_queue") -> None:
        dts = _as_type_list(dtypes)
        shp = _as_shape_list(shapes, len(dts))
        if any(s.ndims is None for s in shp):
            raise ValueError("All shapes must have a defined rank")
        ref = _queue_handle("PaddingFIFOQueueV2", name, dts, shp, capacity, shared_name)
        super().__init__(dts, shp, names, ref)


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues elements in a random order, keeping min_after_dequeue elements until closed."""

    def __init__(self, capacity: int, min_after_dequeue: int, dtypes: Any, shapes: Any = None,
                 names: Optional[list] = None, seed: Optional[int] = None, shared_name: Optional[str] = None,
                 name: str = "random_shuffle_queue") -> None:
        dts = _as_type_list(dtypes)
        shp = _as_shape_list(shapes, len(dts))
        seed1, seed2 = random_seed.get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            # Only a graph seed: a shared queue takes seed2 from the graph seed and its shared name alone
            # (not the per-graph op count), so every graph sharing it asks for the same seeds.
            digest = hashlib.md5((str(seed1) + shared_name).encode("utf-8")).hexdigest()
            seed2 = int(digest[:8], 16) & 0x7FFFFFFF
        ref = _queue_handle("RandomShuffleQueueV2", name, dts, shp, capacity, shared_name,
                            {"min_after_dequeue": int(min_after_dequeue), "seed": int(seed1), "seed2": int(seed2)})
        super().__init__(dts, shp, names, ref)


class PriorityQueue(QueueBase):
    """A queue that dequeues elements by an int64 priority given as each element's first component."""

    def __init__(self, capacity: int, types: Any, shapes: Any = None, names: Optional[list] = None,
                 shared_name: Optional[str] = None, name: str = "priority_queue") -> None:
        if shapes is None:
            raise TypeError("Expected list for 'shapes' argument to 'priority_queue_v2' Op, not None.")
        dts = [dtypes.int64] + _as_type_list(types)
        shp = [tensor_shape.TensorShape([])] + _as_shape_list(shapes, len(dts) - 1)
        ref = _queue_handle("PriorityQueueV2", name, dts, shp, capacity, shared_name)
        super().__init__(dts, shp, names, ref)
