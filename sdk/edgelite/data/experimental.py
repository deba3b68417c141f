"""tf.compat.v1.data.experimental: the AUTOTUNE constant, the option groups of tf.data.Options, RandomDataset and
shuffle_and_repeat."""
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401
from .options import (  # noqa: F401
    AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions, ExternalStatePolicy, OptimizationOptions,
    ServiceOptions, ThreadingOptions,
)
from .random_dataset import RandomDataset, shuffle_and_repeat  # noqa: F401
