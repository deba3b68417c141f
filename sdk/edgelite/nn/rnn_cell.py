"""tf.nn.rnn_cell / tf.compat.v1.nn.rnn_cell: the TF1 recurrent cells and their wrappers."""
from .rnn_cell_impl import (  # noqa: F401
    BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell, LSTMStateTuple, MultiRNNCell, RNNCell,
)
from .rnn_cell_wrappers import DeviceWrapper, DropoutWrapper, ResidualWrapper  # noqa: F401
