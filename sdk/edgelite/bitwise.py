"""tf.bitwise: elementwise bit operations on integer tensors."""
from edgelite.ops.bitwise_ops import (  # noqa: F401
    bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift,
)
