"""TensorFlow's Philox4x32-10 counter-based generator as its shuffle uses it: PhiloxRandom(seed, seed2) (key from
seed, upper counter words from seed2) read one 32-bit sample at a time (SingleSampleAdapter). Reproducing it
makes Dataset.shuffle (and list_files) with a seed give TensorFlow's order."""
from __future__ import annotations

from typing import Any, Iterator, Optional

import numpy as np

_M0, _M1 = 0xD2511F53, 0xCD9E8D57
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_U32 = 0xFFFFFFFF


def _block(counter: list, key: list) -> list:
    """The four 32-bit outputs of ten Philox rounds on counter under key."""
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for r in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & _U32, p1 & _U32, ((p0 >> 32) ^ c3 ^ k1) & _U32, p0 & _U32
        if r < 9:
            k0, k1 = (k0 + _W0) & _U32, (k1 + _W1) & _U32
    return [c0, c1, c2, c3]


class PhiloxSamples:
    """32-bit samples of PhiloxRandom(seed, seed2), in TensorFlow's order (four per counter step)."""

    def __init__(self, seed: int, seed2: int) -> None:
        seed &= (1 << 64) - 1
        seed2 &= (1 << 64) - 1
        self._key = [seed & _U32, seed >> 32]
        self._counter = [0, 0, seed2 & _U32, seed2 >> 32]
        self._pending: list = []

    def _step(self) -> None:
        self._pending = _block(self._counter, self._key)
        c = self._counter
        # The 128-bit counter, least significant word first, goes up by one.
        for i in range(4):
            c[i] = (c[i] + 1) & _U32
            if c[i]:
                break

    def __call__(self) -> int:
        if not self._pending:
            self._step()
        return self._pending.pop(0)


def philox_shuffle(source: Iterator[list], size: int, rng: PhiloxSamples) -> Iterator[list]:
    """TensorFlow's shuffle buffer: fill up to size elements (size < 0: the whole input), then repeatedly emit the
    element at a uniformly drawn offset from the oldest one, moving the oldest into its place, and refill."""
    buf: dict = {}
    start = end = 0
    exhausted = False
    while True:
        while not exhausted and (size < 0 or end - start < size):
            try:
                element = next(source)
            except StopIteration:
                exhausted = True
                break
            buf[end % size if size > 0 else end] = element
            end += 1
        if end == start:
            return
        index = start + rng() % (end - start)
        first, index = (start % size, index % size) if size > 0 else (start, index)
        out = buf[index]
        buf[index] = buf[first]
        del buf[first]
        start += 1
        yield out


def shuffle_seeds(seeds: Optional[tuple], reshuffle: bool, state: dict, key: Any) -> tuple:
    """The (seed, seed2) of one pass: the given pair, or with reshuffling the next two samples of a generator
    keyed by that pair and kept per iterator (in state), as TensorFlow's seed generator does. No pair: entropy
    drawn once per iterator."""
    if seeds is None:
        seeds = state.setdefault((key, "entropy"), tuple(int(x) for x in np.random.SeedSequence().generate_state(
            2, dtype=np.uint64)))
    if not reshuffle:
        return seeds
    generator = state.setdefault((key, "seeds"), PhiloxSamples(*seeds))
    return generator(), generator()
