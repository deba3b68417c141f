"""tf.compat.v1.data.experimental: the AUTOTUNE constant, the option groups of tf.data.Options, RandomDataset,
shuffle_and_repeat, map_and_batch, parallel_interleave and CsvDataset."""
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401
from .options import (  # noqa: F401
    AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions, ExternalStatePolicy, OptimizationOptions,
    ServiceOptions, ThreadingOptions,
)
from .fused_transformations import map_and_batch, parallel_interleave  # noqa: F401
from .random_dataset import RandomDataset, shuffle_and_repeat  # noqa: F401
from .readers import CsvDataset  # noqa: F401
