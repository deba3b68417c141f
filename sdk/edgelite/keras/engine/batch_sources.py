"""Batches from Python generators, keras.utils.Sequence objects and tf.data Datasets, as the step-based Keras loops
(fit_generator, fit on a Dataset) draw them: one `next()` per step, tuples of (x,), (x, y) or (x, y, weights)."""
from __future__ import annotations

import collections.abc
import inspect
import random
from typing import Any, Iterator, Optional

import numpy as np

from edgelite.data.dataset_ops import DatasetV1, RepeatDataset, TakeDataset, _Unary
from edgelite.framework.errors import OutOfRangeError

from .. import backend
from ..sequence_data import Sequence


def is_generator_or_sequence(x: Any) -> bool:
    """True for what Keras feeds step by step: generators, iterators and Sequences."""
    return inspect.isgenerator(x) or isinstance(x, (Sequence, collections.abc.Iterator))


def is_dataset(x: Any) -> bool:
    """True for a tf.data Dataset."""
    return isinstance(x, DatasetV1)


def repeats_forever(dataset: DatasetV1) -> bool:
    """True when the dataset never ends: a repeat() without count that no take() above it bounds."""
    node = dataset
    while isinstance(node, _Unary):
        if isinstance(node, TakeDataset) and isinstance(node._count, int) and node._count >= 0:
            return False
        if isinstance(node, RepeatDataset) and isinstance(node._count, int) and node._count < 0:
            return True
        node = node._input
    return False


def sequence_batches(sequence: Sequence, shuffle: bool, workers: int) -> Iterator[Any]:
    """A Sequence's batches pass after pass. With workers > 0 Keras's ordered enqueuer shuffles the batch order
    with Python's `random` each pass and calls on_epoch_end after each pass; with workers=0 it does neither."""
    while True:
        order = list(range(len(sequence)))
        if shuffle and workers > 0:
            random.shuffle(order)
        for position, i in enumerate(order):
            batch = sequence[i]
            # the enqueuer notifies once the last batch of the pass is taken, while it is being trained on
            if workers > 0 and position == len(order) - 1:
                sequence.on_epoch_end()
            yield batch


def dataset_batches(dataset: DatasetV1) -> Iterator[Any]:
    """The dataset's elements as numpy values, read through a one-shot iterator in the Keras session."""
    next_element = dataset.make_one_shot_iterator().get_next()
    session = backend.get_session()
    while True:
        try:
            value = session.run(next_element)
        except OutOfRangeError:
            return
        yield tuple(value) if isinstance(value, (tuple, list)) else value


def array_batches(arrays: tuple, batch_size: int) -> Iterator[Any]:
    """Consecutive slices of (x, y[, weights]) arrays, for array validation data in a step loop."""
    n = len(np.asarray(arrays[0] if not isinstance(arrays[0], (list, tuple)) else arrays[0][0]))
    for start in range(0, n, batch_size):
        yield tuple(_slice(a, start, batch_size) for a in arrays)


def _slice(data: Any, start: int, size: int) -> Any:
    if isinstance(data, (list, tuple)):
        return [np.asarray(d)[start:start + size] for d in data]
    if isinstance(data, dict):
        return {k: np.asarray(v)[start:start + size] for k, v in data.items()}
    return np.asarray(data)[start:start + size]


def next_batch(source: Iterator[Any]) -> Optional[tuple]:
    """The next (x[, y[, weights]]) tuple, or None when the source is exhausted."""
    try:
        item = next(source)
    except StopIteration:
        return None
    if not isinstance(item, tuple):
        item = (item,)
    if len(item) not in (1, 2, 3):
        raise ValueError("Output of generator should be a tuple of 1 or 2 or 3 elements: (input,) or "
                         f"(input, target) or (input, target, sample_weights). Received {item}")
    return item


def batch_size_of(batch: tuple) -> int:
    """The number of samples in a batch (the first array of its inputs)."""
    first = batch[0]
    while isinstance(first, (list, tuple)):
        first = first[0]
    if isinstance(first, dict):
        first = next(iter(first.values()))
    return int(np.shape(first)[0])
