"""tf.keras.preprocessing: image file helpers, sequence padding and text tokenization."""
from . import image, sequence, text  # noqa: F401
