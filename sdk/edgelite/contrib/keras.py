"""tf.contrib.keras: TF 1.x's older spelling of tf.keras; scripts reach get_file and Progbar as tf.contrib.keras.utils."""
from ..keras import utils  # noqa: F401
