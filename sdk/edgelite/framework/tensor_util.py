"""Static evaluation of small constant subgraphs (for shape inference) and tensor helpers."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import tensor_shape
from edgelite.framework.graph import Tensor


def constant_value(tensor: Any, partial: bool = False) -> Optional[np.ndarray]:
    """The value of tensor if it can be computed at graph-construction time, else None."""
    if not isinstance(tensor, Tensor):
        return None
    op = tensor.op
    t = op.type
    if t == "Const":
        return op.get_attr("value")
    if t == "Shape":
        s = op.inputs[0].shape
        if s.is_fully_defined():
            return np.array(s.as_list(), dtype=tensor.dtype.as_numpy_dtype)
        return None
    if t == "Size":
        n = op.inputs[0].shape.num_elements()
        return None if n is None else np.array(n, dtype=tensor.dtype.as_numpy_dtype)
    if t == "Rank":
        r = op.inputs[0].shape.ndims
        return None if r is None else np.array(r, dtype=np.int32)
    if t in ("Identity", "StopGradient"):
        return constant_value(op.inputs[0])
    if t == "Cast":
        v = constant_value(op.inputs[0])
        return None if v is None else v.astype(tensor.dtype.as_numpy_dtype)
    if t == "Pack":
        vals = [constant_value(x) for x in op.inputs]
        if any(v is None for v in vals):
            return None
        return np.stack(vals, axis=op.get_attr("axis"))
    if t == "ConcatV2":
        vals = [constant_value(x) for x in op.inputs]
        if any(v is None for v in vals):
            return None
        return np.concatenate(vals[:-1], axis=int(vals[-1]))
    if t == "Fill":
        dims, val = constant_value(op.inputs[0]), constant_value(op.inputs[1])
        if dims is None or val is None:
            return None
        return np.full(dims, val)
    return None


def constant_value_as_shape(tensor: Tensor) -> tensor_shape.TensorShape:
    """The (partial) shape described by an int vector tensor such as the shape input of Reshape."""
    shape = tensor.shape.with_rank(1) if tensor.shape.ndims not in (None, 0) else tensor.shape
    if shape.ndims == 0:
        v = constant_value(tensor)
        if v is not None and int(v) == -1:
            return tensor_shape.unknown_shape()
        return tensor_shape.unknown_shape()
    op = tensor.op
    if op.type == "Shape":
        return op.inputs[0].shape
    if op.type in ("Cast", "Identity"):
        return constant_value_as_shape(op.inputs[0])
    if op.type == "Pack":
        dims = []
        for x in op.inputs:
            v = constant_value(x)
            dims.append(None if v is None or int(v) < 0 else int(v))
        return tensor_shape.TensorShape(dims)
    if op.type == "ConcatV2":
        out = tensor_shape.TensorShape([])
        for x in op.inputs[:-1]:
            out = out.concatenate(constant_value_as_shape(x))
        return out
    if op.type == "StridedSlice":
        begin, end, strides = (constant_value(x) for x in op.inputs[1:4])
        if begin is not None and end is not None and strides is not None and \
                begin.size == 1 and op.get_attr("ellipsis_mask") == 0 and op.get_attr("new_axis_mask") == 0:
            # As TF: a slice of any shape-like vector is the slice of that vector's partial shape.
            src = constant_value_as_shape(op.inputs[0])
            if src.ndims is not None:
                dims = src.as_list()
                b = None if op.get_attr("begin_mask") & 1 else int(begin[0])
                e = None if op.get_attr("end_mask") & 1 else int(end[0])
                if op.get_attr("shrink_axis_mask") & 1:
                    return tensor_shape.unknown_shape()
                return tensor_shape.TensorShape(dims[slice(b, e, int(strides[0]))])
    v = constant_value(tensor)
    if v is not None:
        return tensor_shape.TensorShape([None if int(d) < 0 else int(d) for d in np.ravel(v)])
    n = shape[0].value if shape.ndims == 1 else None
    return tensor_shape.unknown_shape(n)


def is_tensor(x: Any) -> bool:
    """Whether x is a graph Tensor (or tensor-like)."""
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element")


def make_ndarray(value: Any) -> np.ndarray:
    """The numpy array of a constant value."""
    return np.asarray(value)
