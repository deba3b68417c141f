"""tf.contrib.data: the TF 1.4 input-pipeline names scripts still import (Dataset with map's num_threads and
output_buffer_size, the file datasets, Iterator, the apply-transformations) and the TF 1.15 aliases of
tf.data.experimental (map_and_batch, parallel_interleave, shuffle_and_repeat)."""
from edgelite.data.fused_transformations import map_and_batch, parallel_interleave  # noqa: F401
from edgelite.data.iterator_ops import Iterator  # noqa: F401
from edgelite.data.random_dataset import shuffle_and_repeat  # noqa: F401

from .legacy_dataset import Dataset, FixedLengthRecordDataset, TextLineDataset, TFRecordDataset  # noqa: F401
from .legacy_transformations import (  # noqa: F401
    batch_and_drop_remainder, enumerate_dataset, padded_batch_and_drop_remainder, unbatch,
)
