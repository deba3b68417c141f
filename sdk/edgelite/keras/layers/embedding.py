"""Keras Embedding: integer ids -> rows of a trainable [input_dim, output_dim] matrix."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.nn import embedding_lookup
from edgelite.ops import math_ops

from .. import initializers, regularizers
from ..engine.base_layer import Layer
from .core import _name_of


class Embedding(Layer):
    """Looks up `embeddings` ('uniform' in [-0.05, 0.05] by default) for each id of the input; with mask_zero,
    id 0 is padding and the output carries a mask that recurrent and pooling layers honour."""

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: Any = "uniform",
                 embeddings_regularizer: Any = None, activity_regularizer: Any = None,
                 embeddings_constraint: Any = None, mask_zero: bool = False, input_length: Optional[int] = None,
                 **kwargs: Any) -> None:
        if input_length is not None and "input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,)
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError("Both `input_dim` and `output_dim` should be positive, Received input_dim = "
                             f"{input_dim} and output_dim = {output_dim}")
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = embeddings_constraint
        self.mask_zero, self.input_length = mask_zero, input_length

    def build(self, input_shape: Any) -> None:
        """Creates embeddings [input_dim, output_dim] in floatx."""
        self.embeddings = self.add_weight("embeddings", [self.input_dim, self.output_dim],
                                          dtype=dtypes.float32 if self._dtype is None or not self._dtype.is_floating
                                          else self._dtype,
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs: Any) -> Any:
        """embedding_lookup of the ids (cast to int32 when not already integer)."""
        if not inputs.dtype.is_integer:
            inputs = math_ops.cast(inputs, dtypes.int32)
        return embedding_lookup(self.embeddings, inputs)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """With mask_zero, True where the id is not 0 (padding), for the layers after it."""
        if not self.mask_zero:
            return None
        return math_ops.not_equal(inputs, 0)

    def get_config(self) -> dict:
        return dict(super().get_config(), input_dim=self.input_dim, output_dim=self.output_dim,
                    embeddings_initializer=_name_of(self.embeddings_initializer),
                    embeddings_regularizer=_name_of(self.embeddings_regularizer),
                    activity_regularizer=_name_of(self.activity_regularizer), embeddings_constraint=None,
                    mask_zero=self.mask_zero, input_length=self.input_length)
