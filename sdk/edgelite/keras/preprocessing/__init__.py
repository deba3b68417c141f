"""tf.keras.preprocessing: sequence padding and text tokenization for text models."""
from . import sequence, text  # noqa: F401
