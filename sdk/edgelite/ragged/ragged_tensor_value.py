"""RaggedTensorValue: the numpy value of a RaggedTensor (what Session.run returns and a ragged feed takes)."""
from __future__ import annotations

from typing import Union

import numpy as np



class RaggedTensorValue:
    """values (an array or another RaggedTensorValue) split into rows by row_splits."""

    def __init__(self, values: Union[np.ndarray, "RaggedTensorValue"], row_splits: np.ndarray) -> None:
        if not (isinstance(row_splits, np.ndarray) and row_splits.dtype in (np.int64, np.int32)
                and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values = values
        self._row_splits = row_splits

    row_splits = property(lambda self: self._row_splits, doc="The row-split indices of the outer dimension.")
    values = property(lambda self: self._values, doc="The concatenated rows.")

    @property
    def dtype(self) -> np.dtype:
        """The numpy element type of the flat values."""
        return self._values.dtype

    @property
    def flat_values(self) -> np.ndarray:
        """The innermost values array."""
        rt = self._values
        while isinstance(rt, RaggedTensorValue):
            rt = rt.values
        return rt

    @property
    def nested_row_splits(self) -> tuple:
        """The row_splits of every ragged dimension, outermost first."""
        splits = [self._row_splits]
        rt = self._values
        while isinstance(rt, RaggedTensorValue):
            splits.append(rt.row_splits)
            rt = rt.values
        return tuple(splits)

    @property
    def ragged_rank(self) -> int:
        """The number of ragged dimensions."""
        inner = self._values.ragged_rank if isinstance(self._values, RaggedTensorValue) else 0
        return inner + 1

    @property
    def shape(self) -> tuple:
        """(nrows, None, inner dimensions of values...)."""
        return (self._row_splits.shape[0] - 1, None) + tuple(self._values.shape[1:])

    def to_list(self) -> list:
        """The nested Python list of the rows."""
        inner = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        return [inner[a:b] for a, b in zip(self._row_splits[:-1], self._row_splits[1:])]

    def __str__(self) -> str:
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self) -> str:
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"

