"""tf.contrib.training: TF 1.15's hyperparameter container, which TF1 training scripts still construct."""
from .hparam import HParams  # noqa: F401
