"""ServingInputReceiver and the two receiver-fn builders: what an exported model is fed (serialized tf.Examples
or raw tensors) and the features the model_fn sees."""
from __future__ import annotations

import collections
from typing import Any, Callable, Optional

from edgelite.framework import dtypes, ops, sparse_tensor, tensor_shape
from edgelite.ops import array_ops

SINGLE_FEATURE_DEFAULT_NAME = "feature"
SINGLE_RECEIVER_DEFAULT_NAME = "input"


def _tensor_dict(value: Any, default_name: str, what: str, allow_sparse: bool) -> dict:
    """A single tensor as {default_name: tensor}; TF's ValueErrors for keys and values of the wrong kind."""
    if value is None:
        raise ValueError(f"{what} must be defined.")
    if not isinstance(value, dict):
        value = {default_name: value}
    for name, tensor in value.items():
        if not isinstance(name, str):
            raise ValueError(f"{what} keys must be strings: {name}.")
        kinds = (ops.Tensor, sparse_tensor.SparseTensor) if allow_sparse else (ops.Tensor,)
        if not isinstance(tensor, kinds):
            raise ValueError(f"{what} must be a Tensor{', SparseTensor' if allow_sparse else ''}: {tensor}.")
    return dict(value)


class ServingInputReceiver(collections.namedtuple("ServingInputReceiver",
                                                  ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """features: what the model_fn gets (a tensor becomes {'feature': t}); receiver_tensors: what serving feeds
    (a tensor becomes {'input': t})."""

    def __new__(cls, features: Any, receiver_tensors: Any,
                receiver_tensors_alternatives: Optional[dict] = None) -> "ServingInputReceiver":
        features = _tensor_dict(features, SINGLE_FEATURE_DEFAULT_NAME, "feature", True)
        receiver_tensors = _tensor_dict(receiver_tensors, SINGLE_RECEIVER_DEFAULT_NAME, "receiver_tensor", False)
        alternatives = None
        if receiver_tensors_alternatives is not None:
            if not isinstance(receiver_tensors_alternatives, dict):
                raise ValueError("receiver_tensors_alternatives must be a dict: "
                                 f"{receiver_tensors_alternatives}.")
            alternatives = {key: _tensor_dict(value, SINGLE_RECEIVER_DEFAULT_NAME, "receiver_tensor", False)
                            for key, value in receiver_tensors_alternatives.items()}
        return super().__new__(cls, features, receiver_tensors, alternatives)


class TensorServingInputReceiver(collections.namedtuple("TensorServingInputReceiver",
                                                        ["features", "receiver_tensors",
                                                         "receiver_tensors_alternatives"])):
    """A receiver whose features are one tensor handed to the model_fn as is (not wrapped in a dict)."""

    def __new__(cls, features: Any, receiver_tensors: Any,
                receiver_tensors_alternatives: Optional[dict] = None) -> "TensorServingInputReceiver":
        if features is None:
            raise ValueError("features must be defined.")
        if not isinstance(features, (ops.Tensor, sparse_tensor.SparseTensor)):
            raise ValueError(f"feature must be a Tensor or SparseTensor: {features}.")
        receiver = ServingInputReceiver(features, receiver_tensors, receiver_tensors_alternatives)
        return super().__new__(cls, features, receiver.receiver_tensors, receiver.receiver_tensors_alternatives)


def build_parsing_serving_input_receiver_fn(feature_spec: dict,
                                            default_batch_size: Optional[int] = None) -> Callable:
    """A receiver fn fed serialized tf.Example strings ('examples'), parsed with `feature_spec`."""
    def serving_input_receiver_fn() -> ServingInputReceiver:
        from edgelite.io import parse_example

        serialized = array_ops.placeholder(dtype=dtypes.string, shape=[default_batch_size],
                                           name="input_example_tensor")
        return ServingInputReceiver(parse_example(serialized, feature_spec), {"examples": serialized})

    return serving_input_receiver_fn


def build_raw_serving_input_receiver_fn(features: Any, default_batch_size: Optional[int] = None) -> Callable:
    """A receiver fn fed raw tensors: one placeholder per feature, named after the feature tensor's op, with the
    first dimension set to default_batch_size."""
    def serving_input_receiver_fn() -> ServingInputReceiver:
        placeholders = {}
        for name, tensor in features.items():
            shape = tensor_shape.TensorShape([default_batch_size]).concatenate(tensor.get_shape()[1:])
            placeholders[name] = array_ops.placeholder(dtype=tensor.dtype, shape=shape, name=tensor.op.name)
        return ServingInputReceiver(placeholders, dict(placeholders))

    return serving_input_receiver_fn
