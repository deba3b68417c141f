"""tf.manip (TF1's home of roll)."""
from edgelite.ops.manip_ops import roll  # noqa: F401
