"""Element structures of tf.data: nested tuples and dicts of dense tensors, flattened to component lists.

Python lists are not structure: like TensorFlow, a list becomes one tensor.
"""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

from edgelite.framework import dtypes, ops, tensor_shape


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def flatten(structure: Any) -> list:
    """The leaves of a tuple/dict nesting, dict values in sorted key order."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in flatten(structure[k])]
    if isinstance(structure, tuple):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack(structure: Any, flat: list) -> Any:
    """Rebuild structure's nesting around the leaves in flat."""
    it = iter(flat)

    def build(s: Any) -> Any:
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        if isinstance(s, tuple):
            items = [build(x) for x in s]
            return type(s)(*items) if _is_namedtuple(s) else tuple(items)
        return next(it)
    out = build(structure)
    return out


def map_structure(fn: Callable, structure: Any) -> Any:
    """Apply fn to every leaf, keeping the nesting."""
    return pack(structure, [fn(x) for x in flatten(structure)])


def is_sparse(x: Any) -> bool:
    """Whether x is a SparseTensor (graph) leaf."""
    from edgelite.framework.sparse_tensor import SparseTensor
    return isinstance(x, SparseTensor)


def to_tensors(value: Any, allow_sparse: bool = False) -> Tuple[Any, List[Any]]:
    """(structure, flat leaves) of a nested value: Tensors, and SparseTensors where allow_sparse."""
    def conv(x: Any) -> Any:
        if is_sparse(x) or isinstance(x, SparseTensorValue):
            if not allow_sparse:
                raise TypeError("This tf.data source or transformation takes dense tensors only, got a "
                                "SparseTensor")
            return x if is_sparse(x) else SparseTensor.from_value(x)
        return ops.convert_to_tensor(x)
    from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue
    structure = map_structure(conv, value)
    return structure, flatten(structure)


def leaf_spec(leaf: Any) -> Tuple[Any, Any, type]:
    """(dtype, static dense shape, class) of a Tensor or SparseTensor leaf."""
    if is_sparse(leaf):
        from edgelite.framework.sparse_tensor import SparseTensor
        return leaf.values.dtype.base_dtype, leaf.shape, SparseTensor
    return leaf.dtype.base_dtype, leaf.shape, ops.Tensor


def components(leaf: Any) -> list:
    """The dense tensors a leaf travels as: itself, or a SparseTensor's indices, values and dense_shape."""
    return [leaf.indices, leaf.values, leaf.dense_shape] if is_sparse(leaf) else [leaf]


def types_of(structure: Any) -> Any:
    return map_structure(lambda t: t.dtype.base_dtype, structure)


def shapes_of(structure: Any) -> Any:
    return map_structure(lambda t: t.shape, structure)


def as_specs(types: Any, shapes: Any) -> Tuple[Any, list, list]:
    """(structure, flat dtypes, flat shapes) from nested output_types and output_shapes."""
    flat_types = [dtypes.as_dtype(t) for t in flatten(types)]
    flat_shapes = [tensor_shape.unknown_shape() for _ in flat_types] if shapes is None else \
        [tensor_shape.as_shape(s) for s in _flatten_shapes(types, shapes)]
    if len(flat_types) != len(flat_shapes):
        raise ValueError("output_types and output_shapes must have the same structure")
    return types, flat_types, flat_shapes


def _flatten_shapes(types: Any, shapes: Any) -> list:
    """Shapes nested like types (a shape given as a list or tuple is one leaf where types has a leaf)."""
    if isinstance(types, dict):
        return [s for k in sorted(types) for s in _flatten_shapes(types[k], shapes[k])]
    if isinstance(types, tuple):
        return [s for t, sh in zip(types, shapes) for s in _flatten_shapes(t, sh)]
    return [shapes]
