"""tf.sparse: SparseTensor and the ops on it (tf.compat.v1 names)."""
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue  # noqa: F401
from edgelite.ops.sparse_placeholder import sparse_placeholder as placeholder  # noqa: F401
from edgelite.ops.sparse_to_dense import sparse_tensor_to_dense as to_dense  # noqa: F401
