"""tf.sparse: SparseTensor and the ops on it (tf.compat.v1 names)."""
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue  # noqa: F401
from edgelite.ops.sparse_placeholder import sparse_placeholder as placeholder  # noqa: F401
from edgelite.ops.sparse_to_dense import sparse_tensor_to_dense as to_dense  # noqa: F401
from edgelite.ops.sparse_structure_ops import (  # noqa: F401
    from_dense, sparse_concat as concat, sparse_expand_dims as expand_dims, sparse_eye as eye,
    sparse_fill_empty_rows as fill_empty_rows, sparse_reorder as reorder, sparse_reset_shape as reset_shape,
    sparse_reshape as reshape, sparse_retain as retain, sparse_slice as slice, sparse_split as split,
    sparse_transpose as transpose,
)
from edgelite.ops.sparse_math_ops import (  # noqa: F401
    sparse_add as add, sparse_maximum as maximum, sparse_minimum as minimum, sparse_reduce_max as reduce_max,
    sparse_reduce_max_sparse as reduce_max_sparse, sparse_reduce_sum as reduce_sum,
    sparse_reduce_sum_sparse as reduce_sum_sparse, sparse_softmax as softmax,
    sparse_tensor_dense_matmul as matmul, sparse_tensor_dense_matmul as sparse_dense_matmul,
)
from edgelite.ops.sparse_indicator_ops import (  # noqa: F401
    sparse_mask as mask, sparse_merge as merge, sparse_to_indicator as to_indicator,
)
from edgelite.ops.segment_ops import (  # noqa: F401
    sparse_segment_mean as segment_mean, sparse_segment_sqrt_n as segment_sqrt_n, sparse_segment_sum as segment_sum,
)
from edgelite.ops.sparse_cross_ops import sparse_cross as cross, sparse_cross_hashed as cross_hashed  # noqa: F401
from edgelite.ops.sparse_bincount_ops import sparse_bincount as bincount  # noqa: F401
