"""TF1 queue-based input pipelines: input producers, limit_epochs, match_filenames_once and the batchers.

Every function builds queues and registers a QueueRunner in the QUEUE_RUNNERS collection; the
pipeline runs once `start_queue_runners` starts their threads. Epoch limits count in a local variable,
so `local_variables_initializer()` must run first, as in TensorFlow.
"""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue, as_sparse
from edgelite.ops import array_ops, math_ops, random_ops, state_ops, variables
from edgelite.ops.queue_ops import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from edgelite.ops.sparse_tensors_map_ops import add_sparse_to_tensors_map, take_many_sparse_from_tensors_map

from .queue_runner import QueueRunner, add_queue_runner


def match_filenames_once(pattern: Any, name: Optional[str] = None) -> variables.Variable:
    """A local variable holding the sorted file names matching pattern (computed when it is initialized)."""
    from edgelite.io.file_ops import matching_files
    with ops.name_scope(name, "matching_filenames", [pattern]) as scope:
        return variables.Variable(matching_files(pattern), trainable=False, name=scope.rstrip("/"),
                                  validate_shape=False, collections=[ops.GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor: Any, num_epochs: Optional[int] = None, name: Optional[str] = None) -> ops.Tensor:
    """Returns tensor num_epochs times and then raises an OutOfRangeError (no limit if None)."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with ops.name_scope(name, "limit_epochs", [tensor]) as scope:
        zero64 = ops.convert_to_tensor(0, dtype=dtypes.int64)
        epochs = variables.Variable(zero64, trainable=False, name="epochs",
                                    collections=[ops.GraphKeys.LOCAL_VARIABLES])
        counter = state_ops.count_up_to(epochs, num_epochs)
        with ops.control_dependencies([counter]):
            return array_ops.identity(tensor, name=scope.rstrip("/"))


def input_producer(input_tensor: Any, element_shape: Any = None, num_epochs: Optional[int] = None,
                   shuffle: bool = True, seed: Optional[int] = None, capacity: int = 32,
                   shared_name: Optional[str] = None, summary_name: Optional[str] = None,
                   name: Optional[str] = None, cancel_op: Any = None) -> FIFOQueue:
    """A queue filled (by a QueueRunner) with the rows of input_tensor, num_epochs times, shuffled if asked."""
    with ops.name_scope(name, "input_producer", [input_tensor]):
        input_tensor = ops.convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(
            tensor_shape.unknown_shape() if element_shape is None else tensor_shape.as_shape(element_shape))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = random_ops.random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        # The queue takes the caller's name as is (None: the op type), as TensorFlow's input_producer names it.
        q = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype], shapes=[element_shape],
                      shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            _fill_summary(summary_name, q.size(), capacity)
        return q


def string_input_producer(string_tensor: Any, num_epochs: Optional[int] = None, shuffle: bool = True,
                          seed: Optional[int] = None, capacity: int = 32, shared_name: Optional[str] = None,
                          name: Optional[str] = None, cancel_op: Any = None) -> FIFOQueue:
    """A queue of strings (file names) from a 1-D string tensor, for a reader."""
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, ops.Tensor) and not string_tensor:
        raise ValueError(not_null_err)
    with ops.name_scope(name, "input_producer", [string_tensor]) as scope:
        string_tensor = ops.convert_to_tensor(string_tensor, dtype=dtypes.string)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              "fraction_of_%d_full" % capacity, scope, cancel_op)


def range_input_producer(limit: Any, num_epochs: Optional[int] = None, shuffle: bool = True,
                         seed: Optional[int] = None, capacity: int = 32, shared_name: Optional[str] = None,
                         name: Optional[str] = None) -> FIFOQueue:
    """A queue of the integers 0 .. limit-1 (int32), num_epochs times, shuffled if asked."""
    with ops.name_scope(name, "input_producer", [limit]) as scope:
        rng = math_ops.range(limit)
        return input_producer(rng, [], num_epochs, shuffle, seed, capacity, shared_name,
                              "fraction_of_%d_full" % capacity, scope)


def slice_input_producer(tensor_list: list, num_epochs: Optional[int] = None, shuffle: bool = True,
                         seed: Optional[int] = None, capacity: int = 32, shared_name: Optional[str] = None,
                         name: Optional[str] = None) -> list:
    """One row (slice along dimension 0) of every tensor in tensor_list per dequeue, num_epochs times."""
    with ops.name_scope(name, "input_producer", tensor_list):
        tensor_list = [ops.convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0], out_type=dtypes.int32)[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                     capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [array_ops.gather(t, index) for t in tensor_list]


def _fill_summary(tag: str, size: Any, capacity: int) -> None:
    """The scalar summary of how full a queue is, which TensorFlow's pipelines record."""
    from edgelite import summary
    summary.scalar(tag, math_ops.cast(size, dtypes.float32) * (1.0 / capacity))


# ---- batching ----------------------------------------------------------------------------------------------
def _flatten(tensors: Any) -> list:
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors)]
    if isinstance(tensors, (list, tuple)):
        return list(tensors)
    return [tensors]


def _parts(t: Any) -> list:
    """The dense tensors of a batcher input (a SparseTensor's three components)."""
    return [t.indices, t.values, t.dense_shape] if isinstance(t, (SparseTensor, SparseTensorValue)) else [t]


def _store_sparse(flat_all: list, enqueue_many: bool) -> tuple:
    """Each SparseTensor input replaced by its handle(s) in a SparseTensorsMap (shape [1] per element, as TF
    enqueues them), the lists of a join sharing one map; with (storing op, dtype, element rank) per position."""
    info: list = [None] * len(flat_all[0])
    out = []
    for fl in flat_all:
        stored = []
        for i, t in enumerate(fl):
            if not isinstance(t, (SparseTensor, SparseTensorValue)):
                stored.append(ops.convert_to_tensor(t))
                continue
            t = as_sparse(t)
            handle = add_sparse_to_tensors_map(t, enqueue_many, shared_name=info[i][0].name if info[i] else None)
            if info[i] is None:
                rank = t.dense_shape.shape[0].value
                info[i] = (handle.op, t.dtype.base_dtype, None if rank is None else rank - int(enqueue_many))
            stored.append(array_ops.reshape(handle, [-1, 1] if enqueue_many else [1]))
        out.append(stored)
    return out, info


def _restore_sparse(dequeued: Any, info: list) -> Any:
    """The dequeued handles of SparseTensor positions turned back into minibatch SparseTensors."""
    if not any(info):
        return dequeued
    single = not isinstance(dequeued, list)
    items = [dequeued] if single else list(dequeued)
    for i, entry in enumerate(info):
        if entry is not None:
            map_op, dtype, rank = entry
            items[i] = take_many_sparse_from_tensors_map(map_op, array_ops.squeeze(items[i], [1]), dtype,
                                                         None if rank is None else rank + 1)
    return items[0] if single else items


def _restore(original: Any, dequeued: Any) -> Any:
    """The dequeued tensors in the caller's structure (a dict comes back as a dict)."""
    if isinstance(original, dict):
        items = dequeued if isinstance(dequeued, list) else [dequeued]
        return {k: items[i] for i, k in enumerate(sorted(original))}
    return dequeued


def _shapes(tensor_list_list: list, shapes: Any, enqueue_many: bool) -> list:
    if shapes is not None:
        return [tensor_shape.as_shape(s) for s in shapes]
    out = []
    for i in range(len(tensor_list_list[0])):
        shape = tensor_shape.unknown_shape()
        for tl in tensor_list_list:
            s = tl[i].shape
            shape = shape.merge_with(s[1:] if enqueue_many and s.ndims else s)
        out.append(shape)
    return out


def _keep_mask(keep_input: Any, enqueue_many: bool) -> Any:
    keep_input = ops.convert_to_tensor(keep_input, dtype=dtypes.bool, name="keep_input")
    if keep_input.shape.ndims is None or (keep_input.shape.ndims > 0 and not enqueue_many):
        raise ValueError("`keep_input` must be a scalar or a vector (with enqueue_many=True).")
    return keep_input


def _enqueue(queue: Any, tensor_list_list: list, threads_per_list: int, enqueue_many: bool,
             keep_input: Any) -> None:
    """Enqueue ops for each list (keep_input masks out elements) and the QueueRunner running them."""
    enqueue_ops = []
    for tl in tensor_list_list:
        if keep_input is None:
            op = queue.enqueue_many(tl) if enqueue_many else queue.enqueue(tl)
        else:
            mask = keep_input if keep_input.shape.ndims else array_ops.reshape(keep_input, [1])
            batched = tl if enqueue_many else [array_ops.expand_dims(t, 0) for t in tl]
            op = queue.enqueue_many([array_ops.boolean_mask(t, mask) for t in batched])
        enqueue_ops.extend([op] * threads_per_list)
    add_queue_runner(QueueRunner(queue, enqueue_ops))


def _dequeue(queue: Any, batch_size: Any, allow_smaller_final_batch: bool, name: str) -> Any:
    if allow_smaller_final_batch:
        return queue.dequeue_up_to(batch_size, name=name)
    return queue.dequeue_many(batch_size, name=name)


def _batch(tensors_list: list, original: Any, batch_size: Any, keep_input: Any, num_threads: int, capacity: int,
           enqueue_many: bool, shapes: Any, dynamic_pad: bool, allow_smaller_final_batch: bool,
           shared_name: Optional[str], name: Optional[str], default: str, shuffle: Optional[tuple] = None) -> Any:
    flat_all = [_flatten(t) for t in tensors_list]
    with ops.name_scope(name, default, [c for fl in flat_all for t in fl for c in _parts(t)]) as scope:
        if any(len(fl) != len(flat_all[0]) for fl in flat_all):
            raise ValueError("Expected all tensor lists to have the same number of tensors")
        flat_all, sparse_info = _store_sparse(flat_all, enqueue_many)
        types = [t.dtype.base_dtype for t in flat_all[0]]
        shape_list = _shapes(flat_all, shapes, enqueue_many)
        keep = None if keep_input is None else _keep_mask(keep_input, enqueue_many)
        if shuffle is not None:
            min_after_dequeue, seed = shuffle
            queue: Any = RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed,
                                            dtypes=types, shapes=shape_list, shared_name=shared_name)
            full = math_ops.maximum(0, queue.size() - min_after_dequeue)
            _fill_summary(f"fraction_over_{min_after_dequeue}_of_{capacity - min_after_dequeue}_full", full,
                          capacity - min_after_dequeue)
        else:
            if dynamic_pad:
                queue = PaddingFIFOQueue(capacity=capacity, dtypes=types, shapes=shape_list, shared_name=shared_name)
            else:
                queue = FIFOQueue(capacity=capacity, dtypes=types, shapes=shape_list, shared_name=shared_name)
            _fill_summary(f"fraction_of_{capacity}_full", queue.size(), capacity)
        _enqueue(queue, flat_all, num_threads, enqueue_many, keep)
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, scope)
        return _restore(original, _restore_sparse(dequeued, sparse_info))


def batch(tensors: Any, batch_size: Any, num_threads: int = 1, capacity: int = 32, enqueue_many: bool = False,
          shapes: Any = None, dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
          shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Creates batches of tensors in a FIFO queue filled by num_threads threads."""
    return _batch([tensors], tensors, batch_size, None, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name, "batch")


def maybe_batch(tensors: Any, keep_input: Any, batch_size: Any, num_threads: int = 1, capacity: int = 32,
                enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
                allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
                name: Optional[str] = None) -> Any:
    """batch, enqueueing only the elements for which keep_input is true."""
    return _batch([tensors], tensors, batch_size, keep_input, num_threads, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch")


def batch_join(tensors_list: list, batch_size: Any, capacity: int = 32, enqueue_many: bool = False,
               shapes: Any = None, dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
               shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Batches from several lists of tensors, one enqueuing thread per list."""
    return _batch(list(tensors_list), tensors_list[0], batch_size, None, 1, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch_join")


def maybe_batch_join(tensors_list: list, keep_input: Any, batch_size: Any, capacity: int = 32,
                     enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
                     allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
                     name: Optional[str] = None) -> Any:
    """batch_join, enqueueing only the elements for which keep_input is true."""
    return _batch(list(tensors_list), tensors_list[0], batch_size, keep_input, 1, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name, "batch_join")


def shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int, num_threads: int = 1,
                  seed: Optional[int] = None, enqueue_many: bool = False, shapes: Any = None,
                  allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
                  name: Optional[str] = None) -> Any:
    """Creates batches by randomly shuffling tensors in a RandomShuffleQueue."""
    return _batch([tensors], tensors, batch_size, None, num_threads, capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, "shuffle_batch", (min_after_dequeue, seed))


def maybe_shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int, keep_input: Any,
                        num_threads: int = 1, seed: Optional[int] = None, enqueue_many: bool = False,
                        shapes: Any = None, allow_smaller_final_batch: bool = False,
                        shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """shuffle_batch, enqueueing only the elements for which keep_input is true."""
    return _batch([tensors], tensors, batch_size, keep_input, num_threads, capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, "shuffle_batch", (min_after_dequeue, seed))


def shuffle_batch_join(tensors_list: list, batch_size: Any, capacity: int, min_after_dequeue: int,
                       seed: Optional[int] = None, enqueue_many: bool = False, shapes: Any = None,
                       allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
                       name: Optional[str] = None) -> Any:
    """shuffle_batch over several lists of tensors, one enqueuing thread per list."""
    return _batch(list(tensors_list), tensors_list[0], batch_size, None, 1, capacity, enqueue_many, shapes, False,
                  allow_smaller_final_batch, shared_name, name, "shuffle_batch_join", (min_after_dequeue, seed))


def maybe_shuffle_batch_join(tensors_list: list, batch_size: Any, capacity: int, min_after_dequeue: int,
                             keep_input: Any, seed: Optional[int] = None, enqueue_many: bool = False,
                             shapes: Any = None, allow_smaller_final_batch: bool = False,
                             shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """shuffle_batch_join, enqueueing only the elements for which keep_input is true."""
    return _batch(list(tensors_list), tensors_list[0], batch_size, keep_input, 1, capacity, enqueue_many, shapes,
                  False, allow_smaller_final_batch, shared_name, name, "shuffle_batch_join",
                  (min_after_dequeue, seed))
