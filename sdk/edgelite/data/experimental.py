"""tf.compat.v1.data.experimental: the AUTOTUNE constant."""
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401
