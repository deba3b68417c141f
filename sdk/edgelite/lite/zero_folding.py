"""x * 0 is 0: a MUL by an all-zero constant becomes that constant (as TensorFlow's converter folds it).

The case that matters is an RNN's first step from a zero state: c * sigmoid(f) and u * h vanish, their
producers become dead and the additions of the zeros drop out (fusion._drop_identities), which leaves the
op list TensorFlow writes for an unrolled static_rnn.
"""
from __future__ import annotations

import numpy as np

from edgelite.lite import ir


def fold_zero_products(g: ir.Graph) -> bool:
    """Replace one MUL by an all-zero float constant with zeros of its output shape; True if one was found."""
    for op in g.ops:
        if op.code != "MUL" or g.is_output(op.outputs[0]):
            continue
        out = op.outputs[0]
        zero = [t for t in op.inputs if t is not None and t.is_const and np.issubdtype(t.dtype, np.floating)
                and not np.any(t.data)]
        if not zero or not out.static or not np.issubdtype(out.dtype, np.floating) or out.quant is not None:
            continue
        g.replace_uses(out, ir.Tensor(out.name, out.shape, out.dtype, data=np.zeros(out.shape, out.dtype)))
        g.remove(op)
        return True
    return False
