"""Element structures of tf.data: nested tuples and dicts of dense tensors, flattened to component lists.

Python lists are not structure: like TensorFlow, a list becomes one tensor.
"""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

import numpy as np

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


def is_ragged(x: Any) -> bool:
    """Whether x is a RaggedTensor (graph) leaf."""
    from edgelite.ragged.ragged_tensor import RaggedTensor
    return isinstance(x, RaggedTensor)


def is_ragged_class(cls: Any) -> bool:
    """Whether a component class is a RaggedTensorSpec."""
    from edgelite.ragged.ragged_tensor_spec import RaggedTensorSpec
    return isinstance(cls, RaggedTensorSpec)


def to_tensors(value: Any, allow_sparse: bool = False) -> Tuple[Any, List[Any]]:
    """(structure, flat leaves) of a nested value: Tensors, and SparseTensors or RaggedTensors where
    allow_sparse."""
    from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue
    from edgelite.ragged.ragged_tensor import convert_values
    from edgelite.ragged.ragged_tensor_value import RaggedTensorValue

    def conv(x: Any) -> Any:
        composite = is_sparse(x) or isinstance(x, SparseTensorValue) or is_ragged(x) or \
            isinstance(x, RaggedTensorValue)
        if composite and not allow_sparse:
            raise TypeError("This tf.data source or transformation takes dense tensors only, got a "
                            f"{'SparseTensor' if is_sparse(x) or isinstance(x, SparseTensorValue) else 'RaggedTensor'}")
        if isinstance(x, SparseTensorValue):
            return SparseTensor.from_value(x)
        if isinstance(x, RaggedTensorValue):
            return convert_values(x)
        return x if composite else ops.convert_to_tensor(x)
    structure = map_structure(conv, value)
    return structure, flatten(structure)


def leaf_spec(leaf: Any) -> Tuple[Any, Any, Any]:
    """(dtype, static dense shape, class) of a Tensor, SparseTensor or RaggedTensor leaf (a RaggedTensor's
    class is its RaggedTensorSpec)."""
    if is_sparse(leaf):
        from edgelite.framework.sparse_tensor import SparseTensor
        return leaf.values.dtype.base_dtype, leaf.shape, SparseTensor
    if is_ragged(leaf):
        from edgelite.ragged.ragged_tensor_spec import RaggedTensorSpec
        return leaf.dtype.base_dtype, leaf.shape, RaggedTensorSpec.from_value(leaf)
    return leaf.dtype.base_dtype, leaf.shape, ops.Tensor


def components(leaf: Any) -> list:
    """The dense tensors a leaf travels as: itself, a SparseTensor's indices, values and dense_shape, or a
    RaggedTensor's flat values and row splits."""
    if is_sparse(leaf):
        return [leaf.indices, leaf.values, leaf.dense_shape]
    if is_ragged(leaf):
        return [leaf.flat_values] + list(leaf.nested_row_splits)
    return [leaf]


def value_parts(value: Any) -> tuple:
    """The component values of one leaf's value (a SparseTensorValue's three arrays, a RaggedTensorValue's
    flat values and row splits, or the value itself)."""
    from edgelite.framework.sparse_tensor import SparseTensorValue
    from edgelite.ragged.ragged_tensor_value import RaggedTensorValue
    if isinstance(value, SparseTensorValue):
        return tuple(value)
    if isinstance(value, RaggedTensorValue):
        return (value.flat_values,) + tuple(value.nested_row_splits)
    return (value,)


def regroup(values: list, classes: list) -> list:
    """Component values back into one value per leaf (a SparseTensorValue or RaggedTensorValue for composite
    leaves)."""
    from edgelite.framework.sparse_tensor import SparseTensorValue
    from edgelite.ragged.ragged_tensor_value import RaggedTensorValue
    out, i = [], 0
    for cls in classes:
        if cls is ops.Tensor:
            out.append(values[i])
            i += 1
        elif is_ragged_class(cls):
            flat = values[i]
            for splits in reversed(values[i + 1:i + 1 + cls.ragged_rank]):
                flat = RaggedTensorValue(flat, np.asarray(splits))
            out.append(flat)
            i += 1 + cls.ragged_rank
        else:
            out.append(SparseTensorValue(*values[i:i + 3]))
            i += 3
    return out


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
