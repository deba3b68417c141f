"""tf.compat.v1.layers: Dense, 1/2/3-D convolutions (plain, separable, transposed), 1/2/3-D pooling,
BatchNormalization, Dropout and Flatten, as classes and functions, plus InputSpec and weight regularizers."""
from .base import Layer  # noqa: F401
from .convolutional import (  # noqa: F401
    Conv2D, Conv2DTranspose, SeparableConv2D, conv2d, conv2d_transpose, separable_conv2d,
)
from .convolutional_nd import (  # noqa: F401
    Conv1D, Conv3D, Conv3DTranspose, SeparableConv1D, conv1d, conv3d, conv3d_transpose, separable_conv1d,
)
from .core import Dense, Dropout, Flatten, dense, dropout, flatten  # noqa: F401
from .input_spec import InputSpec  # noqa: F401
from .normalization import BatchNormalization, batch_normalization  # noqa: F401
from .pooling import AveragePooling2D, MaxPooling2D, average_pooling2d, max_pooling2d  # noqa: F401
from .pooling_nd import (  # noqa: F401
    AveragePooling1D, AveragePooling3D, MaxPooling1D, MaxPooling3D, average_pooling1d, average_pooling3d,
    max_pooling1d, max_pooling3d,
)
from .regularizers import (  # noqa: F401
    apply_regularization, l1_l2_regularizer, l1_regularizer, l2_regularizer, sum_regularizer,
)

Convolution2D = Conv2D
Convolution2DTranspose = Deconvolution2D = Conv2DTranspose
SeparableConvolution2D = SeparableConv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
