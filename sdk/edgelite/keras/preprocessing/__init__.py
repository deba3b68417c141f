"""tf.keras.preprocessing: sequence padding for text models."""
from . import sequence  # noqa: F401
