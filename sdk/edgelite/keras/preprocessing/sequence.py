"""tf.keras.preprocessing.sequence: pad_sequences."""
from ..utils import pad_sequences  # noqa: F401
