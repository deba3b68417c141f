"""tf.audio: WAV encoding and decoding."""
from edgelite.ops.audio_ops import decode_wav, encode_wav  # noqa: F401
