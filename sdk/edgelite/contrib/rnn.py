"""tf.contrib.rnn: in TF 1.15 these names are the core tf.nn.rnn_cell classes and tf.nn RNN drivers themselves."""
from edgelite.nn.rnn import static_bidirectional_rnn, static_rnn, static_state_saving_rnn  # noqa: F401
from edgelite.nn.rnn_cell import (  # noqa: F401
    BasicLSTMCell, BasicRNNCell, DeviceWrapper, DropoutWrapper, GRUCell, LSTMCell, LSTMStateTuple, MultiRNNCell,
    ResidualWrapper, RNNCell,
)
