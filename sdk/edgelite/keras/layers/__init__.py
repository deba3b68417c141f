"""tf.keras.layers: the Keras layers TF1-era graph code uses, callable on graph tensors."""
from ..engine.base_layer import Layer  # noqa: F401
from ..engine.input_layer import Input, InputLayer  # noqa: F401
from edgelite.layers.input_spec import InputSpec  # noqa: F401
from .convolutional import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, Conv1D, Conv2D, Conv2DTranspose, GlobalAveragePooling1D,
    GlobalAveragePooling2D, GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPooling1D, MaxPooling2D, SeparableConv2D,
)
from .core import Activation, Dense, Dropout, Flatten, Masking, Reshape  # noqa: F401
from .embedding import Embedding  # noqa: F401
from .merge import (  # noqa: F401
    Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract, add, average, concatenate, maximum, minimum,
    multiply, subtract,
)
from .normalization import BatchNormalization  # noqa: F401
from .recurrent import GRU, LSTM, SimpleRNN  # noqa: F401
from .wrappers import Bidirectional, TimeDistributed  # noqa: F401
from .simple import (  # noqa: F401
    ELU, Cropping2D, Lambda, LeakyReLU, Permute, ReLU, RepeatVector, Softmax, UpSampling2D, ZeroPadding2D,
)

Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution2DTranspose = Deconvolution2D = Conv2DTranspose
SeparableConvolution2D = SeparableConv2D
MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
