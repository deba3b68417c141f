"""tf.contrib.data's transformation functions of TF 1.4 for Dataset.apply: batch_and_drop_remainder, unbatch and
enumerate_dataset, each the core transformation that later replaced it."""
from __future__ import annotations

from typing import Any, Callable


def batch_and_drop_remainder(batch_size: Any) -> Callable:
    """Batches of batch_size elements, dropping a final smaller batch (core: batch(drop_remainder=True))."""
    def _apply_fn(dataset: Any) -> Any:
        return dataset.batch(batch_size, drop_remainder=True)
    return _apply_fn


def padded_batch_and_drop_remainder(batch_size: Any, padded_shapes: Any, padding_values: Any = None) -> Callable:
    """Padded batches of batch_size elements, dropping a final smaller batch."""
    def _apply_fn(dataset: Any) -> Any:
        return dataset.padded_batch(batch_size, padded_shapes, padding_values, drop_remainder=True)
    return _apply_fn


def unbatch() -> Callable:
    """Splits each element along its first dimension into that many elements (core: Dataset.unbatch)."""
    def _apply_fn(dataset: Any) -> Any:
        return dataset.unbatch()
    return _apply_fn


def enumerate_dataset(start: Any = 0) -> Callable:
    """Pairs each element with its int64 index counted from start (core: Dataset.enumerate)."""
    def _apply_fn(dataset: Any) -> Any:
        return dataset.enumerate(start)
    return _apply_fn
