"""tf.contrib.data (TF 1.15): the input-pipeline transformations that were aliases of
tf.data.experimental (map_and_batch, parallel_interleave, shuffle_and_repeat)."""
from edgelite.data.fused_transformations import map_and_batch, parallel_interleave  # noqa: F401
from edgelite.data.random_dataset import shuffle_and_repeat  # noqa: F401
