"""Dataset.random / tf.data.experimental.RandomDataset and shuffle_and_repeat: seeded sources and shuffles in
TensorFlow's order (samples of Philox(seed, seed2), see data/philox.py)."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

import numpy as np

from edgelite.framework import dtypes

from .dataset_ops import DatasetV1, Env, _seeds
from .philox import PhiloxSamples, shuffle_seeds


class RandomDataset(DatasetV1):
    """An endless dataset of pseudorandom int64 values: the 32-bit samples of Philox(seed, seed2), the same each
    pass unless rerandomize_each_iteration, which draws each pass's seeds as a reshuffling shuffle does."""

    def __init__(self, seed: Optional[int] = None, rerandomize_each_iteration: Optional[bool] = None,
                 name: Optional[str] = None) -> None:
        super().__init__(None, [dtypes.int64], [[]])
        self._structure = dtypes.int64
        self._seeds = _seeds(seed)
        self._rerandomize = bool(rerandomize_each_iteration)

    def _gen(self, env: Env) -> Iterator[list]:
        rng = PhiloxSamples(*shuffle_seeds(self._seeds, self._rerandomize, env.rngs, id(self)))
        while True:
            yield [np.asarray(rng(), dtype=np.int64)]


def shuffle_and_repeat(buffer_size: Any, count: Any = None, seed: Optional[int] = None) -> Callable:
    """A transformation for Dataset.apply: shuffle (reshuffled every pass) then repeat count times (None: for
    ever), which is the order TensorFlow's fused op gives."""
    def apply(dataset: DatasetV1) -> DatasetV1:
        return dataset.shuffle(buffer_size, seed=seed, reshuffle_each_iteration=True).repeat(count)
    return apply
