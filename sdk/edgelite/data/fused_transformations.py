"""tf.compat.v1.data.experimental.map_and_batch and parallel_interleave: TF1 input pipelines' fused
transformations for Dataset.apply. Their elements equal the unfused map-then-batch and (with sloppy=False)
interleave, which is how edgelite runs them; the parallelism arguments only tune TensorFlow's threads."""
from __future__ import annotations

from typing import Any, Callable, Optional


def map_and_batch(map_func: Callable, batch_size: Any, num_parallel_batches: Optional[int] = None,
                  drop_remainder: bool = False, num_parallel_calls: Optional[int] = None) -> Callable:
    """map(map_func) then batch(batch_size, drop_remainder), as one transformation."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to be "
                         f"set, but `num_parallel_batches` was set to {num_parallel_batches} and "
                         f"`num_parallel_calls` as set to {num_parallel_calls}.")

    def _apply_fn(dataset: Any) -> Any:
        return dataset.map(map_func).batch(batch_size, drop_remainder=drop_remainder)
    return _apply_fn


def parallel_interleave(map_func: Callable, cycle_length: Any, block_length: Any = 1, sloppy: bool = False,
                        buffer_output_elements: Optional[int] = None,
                        prefetch_input_elements: Optional[int] = None) -> Callable:
    """interleave(map_func, cycle_length, block_length): the deterministic order (sloppy=True only allowed
    TensorFlow to reorder, so this order is one it may produce too)."""
    def _apply_fn(dataset: Any) -> Any:
        return dataset.interleave(map_func, cycle_length=cycle_length, block_length=block_length)
    return _apply_fn
