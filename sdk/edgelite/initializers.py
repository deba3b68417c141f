"""tf.initializers / tf.compat.v1.initializers."""
from edgelite.ops.init_ops import (  # noqa: F401
    Constant as constant, GlorotNormal as glorot_normal, GlorotUniform as glorot_uniform, Ones as ones,
    Orthogonal as orthogonal, RandomNormal as random_normal, RandomUniform as random_uniform,
    TruncatedNormal as truncated_normal, UniformUnitScaling as uniform_unit_scaling,
    VarianceScaling as variance_scaling, Zeros as zeros, he_normal, he_uniform, lecun_normal, lecun_uniform,
)
from edgelite.ops.variables import global_variables_initializer as global_variables  # noqa: F401
from edgelite.ops.variables import local_variables_initializer as local_variables  # noqa: F401
from edgelite.ops.variables import variables_initializer as variables  # noqa: F401
from edgelite.ops.identity_initializer import Identity as identity  # noqa: F401,E402
