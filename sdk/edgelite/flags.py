"""tf.flags / tf.app.flags: command-line flags, which TensorFlow 1 takes from absl-py's absl.flags."""
from absl.flags import *  # noqa: F401,F403 - the module is absl.flags' public API, re-exported whole
from absl.flags import __all__  # noqa: F401
