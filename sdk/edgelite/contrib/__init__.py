"""tf.contrib: the TF 1.x contrib names that were thin layers over core API, kept because TF1 scripts import them.

TensorFlow 2 removed tf.contrib; TF1 tutorials still write tf.contrib.rnn.BasicLSTMCell or
tf.contrib.layers.flatten. Only names whose TF 1.15 behaviour is a core function (or a few lines over one) are here.
"""
from . import data, estimator, framework, keras, layers, legacy_seq2seq, lookup, predictor, rnn, seq2seq  # noqa: F401
from . import training  # noqa: F401
