"""nn.embedding_lookup over one or several (partitioned) parameter tensors, with sparse gradients."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.ops import array_ops, math_ops
from edgelite.ops.data_flow_ops import dynamic_partition, parallel_dynamic_stitch


def _clip(params: ops.Tensor, ids: ops.Tensor, max_norm: Any) -> ops.Tensor:
    """Each embedding (the dims after ids' dims) rescaled to an L2 norm of at most max_norm."""
    if max_norm is None:
        return params
    if ids.shape.ndims is not None and params.shape.ndims is not None:
        axes: Any = list(range(ids.shape.ndims, params.shape.ndims))
    else:
        axes = math_ops.range(array_ops.rank(ids), array_ops.rank(params))
    with ops.name_scope(None, "clip_by_norm", [params, max_norm]) as scope:
        # a Python max_norm enters the product at the params' precision, as TF's clip_by_norm does
        clip = ops.convert_to_tensor(max_norm, dtype=params.dtype)
        l2sum = math_ops.reduce_sum(params * params, axes, keepdims=True)
        positive = l2sum > 0
        # The gradient of sqrt at 0 is infinite: take the root of 1 there and keep the zero.
        safe = array_ops.where(positive, l2sum, array_ops.ones_like(l2sum))
        l2norm = array_ops.where(positive, math_ops.sqrt(safe), l2sum)
        return array_ops.identity(params * clip / math_ops.maximum(l2norm, clip), name=scope)


def _div_assignments(params: list, flat_ids: ops.Tensor) -> tuple:
    """(partition, id within it) per id when ids are split into contiguous ranges, the first ones one longer."""
    n = len(params)
    total = tensor_shape.Dimension(0)
    for p in params:
        total += tensor_shape.Dimension(p.shape.with_rank_at_least(1).dims[0].value)
    if total.value is not None:
        num_ids: Any = ops.convert_to_tensor(total.value, flat_ids.dtype)
    else:
        sizes = [p.shape.dims[0].value if p.shape.dims[0].value is not None else array_ops.shape(p)[0]
                 for p in params]
        num_ids = math_ops.reduce_sum(math_ops.cast(array_ops.stack(sizes), flat_ids.dtype))
    per = num_ids // n
    extras = num_ids % n
    assignment = math_ops.maximum(flat_ids // (per + 1), (flat_ids - extras) // per)
    new_ids = array_ops.where(assignment < extras, flat_ids % (per + 1), (flat_ids - extras) % per)
    return assignment, new_ids


def embedding_lookup(params: Any, ids: Any, partition_strategy: str = "mod", name: Optional[str] = None,
                     validate_indices: bool = True, max_norm: Any = None) -> ops.Tensor:
    """Rows of params at ids; with several params, ids are spread over them by 'mod' or 'div'."""
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    if hasattr(params, "_get_variable_list"):
        params = list(params)
    if not isinstance(params, (list, tuple)):
        params = [params]
    params = list(params)
    with ops.name_scope(name, "embedding_lookup", params + [ids]) as name:
        n = len(params)
        ids = ops.convert_to_tensor(ids, name="ids")
        if n == 1:
            with ops.colocate_with(params[0]):
                result = _clip(array_ops.gather(params[0], ids, name=name), ids, max_norm)
            return array_ops.identity(result)
        params = [p if hasattr(p, "sparse_read") else ops.convert_to_tensor(p) for p in params]
        flat_ids = array_ops.reshape(ids, [-1])
        positions = math_ops.range(array_ops.size(flat_ids))
        if partition_strategy == "mod":
            assignment, new_ids = flat_ids % n, flat_ids // n
        elif partition_strategy == "div":
            assignment, new_ids = _div_assignments([ops.convert_to_tensor(p) for p in params], flat_ids)
        else:
            raise ValueError(f"Unrecognized partition strategy: {partition_strategy}. Must be one of either `mod` "
                             "or `div`.")
        assignment = math_ops.cast(assignment, dtypes.int32)
        gather_ids = dynamic_partition(new_ids, assignment, n)
        where = dynamic_partition(positions, assignment, n)
        parts = []
        for p, pids in zip(params, gather_ids):
            with ops.colocate_with(p):
                parts.append(array_ops.gather(p, pids))
        merged = parallel_dynamic_stitch(where, parts, name=name)
        element_static = ops.convert_to_tensor(params[0]).shape[1:]
        for p in params[1:]:
            element_static = element_static.merge_with(ops.convert_to_tensor(p).shape[1:])
        if element_static.is_fully_defined():
            element_dynamic: Any = element_static.as_list()
        else:
            element_dynamic = array_ops.shape(ops.convert_to_tensor(params[0]))[1:]
        result = array_ops.reshape(merged, array_ops.concat([array_ops.shape(ids), element_dynamic], 0))
        result.set_shape(ids.shape.concatenate(element_static))
        return _clip(result, ids, max_norm)
