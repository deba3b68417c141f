"""tf.keras as tf.compat.v1.keras behaves in graph mode: layers on graph tensors, Sequential and functional
models trained with compile/fit/evaluate/predict in a Session, Keras optimizers, losses, metrics and callbacks."""
from . import activations, backend, callbacks, initializers, losses, metrics, optimizers, regularizers  # noqa: F401
from . import layers, preprocessing, utils  # noqa: F401
from .engine.input_layer import Input  # noqa: F401
from .engine.network import Model, Sequential  # noqa: F401
from . import models  # noqa: F401
