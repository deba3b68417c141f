"""keras.utils.Sequence: an indexable batch source that fit/evaluate/predict walk batch by batch (its length is
the number of steps of one epoch; shuffled and notified per pass as Keras's enqueuer does)."""
from __future__ import annotations

from abc import abstractmethod
from typing import Any, Iterator


class Sequence:
    """Subclass and give __getitem__(index) -> a batch and __len__() -> the number of batches."""

    @abstractmethod
    def __getitem__(self, index: int) -> Any:
        """Batch number `index` (a subclass provides it)."""
        raise NotImplementedError

    @abstractmethod
    def __len__(self) -> int:
        """Number of batches in one pass (a subclass provides it)."""
        raise NotImplementedError

    def on_epoch_end(self) -> None:
        """Called after each full pass over the batches: reshuffle or augment here."""

    def __iter__(self) -> Iterator[Any]:
        """The batches in order."""
        for i in range(len(self)):
            yield self[i]
