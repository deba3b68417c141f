"""tf.compat.v1.queue: the queue classes."""
from edgelite.ops.queue_ops import (  # noqa: F401
    FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue,
)
