"""tf.contrib.layers: the layer functions, Xavier/variance-scaling initializers and weight regularizers of TF 1.x."""
from edgelite.layers.regularizers import (  # noqa: F401
    apply_regularization, l1_l2_regularizer, l1_regularizer, l2_regularizer, sum_regularizer,
)

from .initializers import (  # noqa: F401
    variance_scaling_initializer, xavier_initializer, xavier_initializer_conv2d,
)
from .batch_norm import batch_norm  # noqa: F401
from .conv_layers import avg_pool2d, conv2d, convolution2d, max_pool2d  # noqa: F401
from .layer_functions import dropout, flatten, fully_connected  # noqa: F401
