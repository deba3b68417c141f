"""tf.contrib.layers: flatten, the Xavier/variance-scaling initializers and the weight regularizers of TF 1.x."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from edgelite.framework import ops
from edgelite.layers.core import flatten as _core_flatten
from edgelite.layers.regularizers import (  # noqa: F401
    apply_regularization, l1_l2_regularizer, l1_regularizer, l2_regularizer, sum_regularizer,
)

from .initializers import (  # noqa: F401
    variance_scaling_initializer, xavier_initializer, xavier_initializer_conv2d,
)


def flatten(inputs: Any, outputs_collections: Optional[Sequence[str]] = None,
            scope: Optional[str] = None) -> ops.Tensor:
    """[batch, d1, d2, ...] -> [batch, d1 * d2 * ...] under a 'Flatten' name scope, as tf.layers.flatten computes it."""
    with ops.name_scope(scope, "Flatten", [inputs]):
        outputs = _core_flatten(ops.convert_to_tensor(inputs))
    if outputs_collections:
        ops.add_to_collections(outputs_collections, outputs)
    return outputs
