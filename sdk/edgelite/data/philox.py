"""TensorFlow's Philox4x32-10 counter-based generator as its shuffles use it: PhiloxRandom(seed, seed2) (key from
seed, upper counter words from seed2) read one 32-bit sample at a time (SingleSampleAdapter), or in reserved
runs of blocks (GuardedPhiloxRandom). Reproducing it makes Dataset.shuffle, list_files, tf.random.shuffle and
RandomShuffleQueue with a seed give TensorFlow's order."""
from __future__ import annotations

from typing import Any, Iterator, Optional

import numpy as np

_M0, _M1 = 0xD2511F53, 0xCD9E8D57
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_U32 = 0xFFFFFFFF


def _block(counter: list, key: list) -> list:
    """The four 32-bit outputs of ten Philox rounds on counter under key (counter words may be uint64 arrays:
    then every column is one block)."""
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

    def skip(self, blocks: int) -> None:
        """Move the 128-bit counter on by blocks steps (PhiloxRandom::Skip); unread samples are dropped."""
        c = self._counter
        value = (sum(w << (32 * i) for i, w in enumerate(c)) + blocks) & ((1 << 128) - 1)
        self._counter = [(value >> (32 * i)) & _U32 for i in range(4)]
        self._pending = []

    def reserve(self, samples: int) -> "PhiloxSamples":
        """A generator at this one's position, which moves past the ceil(samples / 4) blocks the copy may use:
        GuardedPhiloxRandom::ReserveSamples32, how a stateful kernel gets fresh samples on every run."""
        local = PhiloxSamples.__new__(PhiloxSamples)
        local._key, local._counter, local._pending = list(self._key), list(self._counter), []
        self.skip((samples + 3) // 4)
        return local

    def take(self, count: int) -> np.ndarray:
        """The next count samples as uint32 (whole blocks at once, vectorised; the rest of the last block is
        dropped, as a reserved generator's samples are)."""
        n = (count + 3) // 4
        c = self._counter
        low0, high0 = c[0] | c[1] << 32, c[2] | c[3] << 32
        low = np.uint64(low0) + np.arange(n, dtype=np.uint64)
        high = np.uint64(high0) + (low < np.uint64(low0)).astype(np.uint64)
        words = _block([low & _U32, low >> np.uint64(32), high & _U32, high >> np.uint64(32)], self._key)
        self.skip(n)
        return np.stack(words, axis=1).astype(np.uint32).ravel()[:count]


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


def op_generator(seed: int, seed2: int) -> PhiloxSamples:
    """A kernel's generator for its seed attrs: both zero means unseeded, so TensorFlow draws fresh 64-bit seeds."""
    if seed == 0 and seed2 == 0:
        seed, seed2 = (int(x) for x in np.random.SeedSequence().generate_state(2, dtype=np.uint64))
    return PhiloxSamples(seed, seed2)
