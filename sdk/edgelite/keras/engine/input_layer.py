"""InputLayer and Input(): the placeholder a Keras model is fed through."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops

from .. import backend
from .base_layer import Layer, Node


class InputLayer(Layer):
    """Owns the model's input placeholder (named after the layer: 'input_1', 'dense_input', ...)."""

    def __init__(self, input_shape: Any = None, batch_size: Optional[int] = None, dtype: Any = None,
                 input_tensor: Any = None, sparse: bool = False, name: Optional[str] = None,
                 batch_input_shape: Any = None, ragged: bool = False, optional: bool = False,
                 **kwargs: Any) -> None:
        if sparse or ragged or optional:
            raise ValueError("Sparse, ragged and optional Keras inputs are not supported by this InputLayer")
        if name is None:
            name = f"input_{backend.get_uid('input')}"
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size,) + tuple(input_shape)
        super().__init__(name=name, dtype=dtype or backend.floatx(), **kwargs)
        dtype = dtypes.as_dtype(dtype or backend.floatx())
        if input_tensor is None:
            if batch_input_shape is None:
                raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note "
                                 "that `shape` does not include the batch dimension.")
            with ops.name_scope(None):
                input_tensor = backend.placeholder(shape=batch_input_shape, dtype=dtype, name=name)
        else:
            input_tensor = ops.convert_to_tensor(input_tensor)
            batch_input_shape = tuple(input_tensor.shape.as_list())
        self._batch_input_shape = tuple(batch_input_shape)
        self.built = True
        node = Node(self, [], input_tensor, {})
        self._inbound_nodes.append(node)
        input_tensor._keras_history = node

    def get_config(self) -> dict:
        return {"batch_input_shape": list(self._batch_input_shape), "dtype": self._dtype.name, "sparse": False,
                "ragged": False, "name": self.name, "optional": False}


def Input(shape: Any = None, batch_size: Optional[int] = None, name: Optional[str] = None, dtype: Any = None,
          sparse: bool = False, tensor: Any = None, batch_shape: Any = None, **kwargs: Any) -> ops.Tensor:
    """A Keras input tensor: a placeholder of [batch_size, *shape] that Model(inputs, outputs) starts from."""
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
    if shape is not None and batch_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_shape` argument to Input, not both at the same time.")
    if shape is not None:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
    layer = InputLayer(input_shape=shape, batch_size=batch_size, dtype=dtype, input_tensor=tensor, sparse=sparse,
                       name=name, batch_input_shape=batch_shape)
    return layer.output
