"""tf.compat.v1.data.experimental: the AUTOTUNE constant and the option groups of tf.data.Options."""
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401
from .options import (  # noqa: F401
    AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions, ExternalStatePolicy, OptimizationOptions,
    ServiceOptions, ThreadingOptions,
)
