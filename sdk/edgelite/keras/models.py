"""tf.keras.models: Model and Sequential."""
from .engine.network import Model, Sequential  # noqa: F401
