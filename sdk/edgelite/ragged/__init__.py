"""tf.ragged (and tf.compat.v1.ragged): RaggedTensor factories, values, placeholders and row-id helpers."""
from .ragged_tensor_value import RaggedTensorValue  # noqa: F401
from .ragged_factory_ops import constant, constant_value, placeholder  # noqa: F401
from .ragged_boolean_mask import boolean_mask  # noqa: F401
from .ragged_functional_ops import map_flat_values  # noqa: F401
from .ragged_range import range  # noqa: F401,A004
from .ragged_stack import stack  # noqa: F401
from .row_partition import row_splits_to_segment_ids, segment_ids_to_row_splits  # noqa: F401

__all__ = ["RaggedTensorValue", "boolean_mask", "constant", "constant_value", "map_flat_values", "placeholder", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack"]
