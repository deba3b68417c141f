"""tf.compat.v1.saved_model.utils: TensorInfo protos for signature tensors, and the tensors they name."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import ops
from edgelite.framework.graph_def import shape_proto
from edgelite.framework.meta_graph import prepend_name_scope
from edgelite.framework.meta_graph_protos import TensorInfo


def build_tensor_info(tensor: Any) -> TensorInfo:
    """TensorInfo with the tensor's name (or a SparseTensor's three names), dtype and static shape."""
    info = TensorInfo(dtype=tensor.dtype.base_dtype.as_datatype_enum, tensor_shape=shape_proto(tensor.get_shape()))
    if all(hasattr(tensor, part) for part in ("indices", "values", "dense_shape")):
        info.coo_sparse = TensorInfo.CooSparse(values_tensor_name=tensor.values.name,
                                               indices_tensor_name=tensor.indices.name,
                                               dense_shape_tensor_name=tensor.dense_shape.name)
    else:
        info.name = tensor.name
    return info


def get_tensor_from_tensor_info(tensor_info: Any, graph: Any = None, import_scope: Optional[str] = None) -> Any:
    """The Tensor (or SparseTensor) of graph (default: the default graph) that tensor_info describes."""
    graph = graph or ops.get_default_graph()

    def tensor(name: str) -> Any:
        return graph.get_tensor_by_name(prepend_name_scope(name, import_scope))

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return tensor(tensor_info.name)
    if encoding == "coo_sparse":
        from edgelite.framework.sparse_tensor import SparseTensor
        coo = tensor_info.coo_sparse
        return SparseTensor(tensor(coo.indices_tensor_name), tensor(coo.values_tensor_name),
                            tensor(coo.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {encoding}. Expected `coo_sparse`, `composite_tensor`, or "
                     "`name` for a dense tensor.")
