"""Index manipulation: roll, meshgrid, searchsorted, unravel_index, repeat."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.shape_checks import shape_error, with_rank, with_rank_at_least, with_rank_at_most

_INDEX = [dtypes.int32, dtypes.int64]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


# ---- roll ---------------------------------------------------------------------------------------------------------
def _roll_kernel(ctx: Any, x: np.ndarray, shift: np.ndarray, axis: np.ndarray) -> np.ndarray:
    if shift.ndim > 1:
        raise _invalid(f"shift must be a scalar or a 1-D vector. Found: {list(shift.shape)}")
    if axis.ndim > 1:
        raise _invalid(f"axis must be a scalar or a 1-D vector. Found: {list(axis.shape)}")
    if shift.shape != axis.shape:
        raise _invalid("shift and axis must have the same size")
    for a in np.atleast_1d(axis):
        if not -x.ndim <= a < x.ndim:
            raise _invalid(f"axis {int(a)} is out of range")
    return np.roll(x, np.atleast_1d(shift).tolist(), np.atleast_1d(axis).tolist())


def _roll_shape(op: Any) -> list:
    with_rank_at_least(op, 0, 1)
    shift = with_rank_at_most(op, 1, 1)
    axis = with_rank_at_most(op, 2, 1)
    if shift.ndims is not None and axis.ndims is not None and shift.num_elements() != axis.num_elements() and \
            shift.is_fully_defined() and axis.is_fully_defined():
        raise shape_error(op, "shift and axis must have the same size")
    return [op.inputs[0].shape]


register_op("Roll", inputs=["input: T", "shift: Tshift", "axis: Taxis"], outputs=["output: T"], kernel=_roll_kernel,
            shape_fn=_roll_shape, allowed_dtypes={"Tshift": _INDEX, "Taxis": _INDEX})


@ops.RegisterGradient("Roll")
def _roll_grad(op: Any, grad: Any) -> tuple:
    return ops.apply_op("Roll", [grad, -op.inputs[1], op.inputs[2]]), None, None


def roll(input: Any, shift: Any, axis: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Elements shifted cyclically by `shift` along `axis` (both scalars or equal-length vectors)."""
    return ops.apply_op("Roll", [input, shift, axis], name=name)


# ---- meshgrid -----------------------------------------------------------------------------------------------------
def meshgrid(*args: Any, **kwargs: Any) -> list:
    """N-D coordinate grids from 1-D coordinate vectors; indexing 'xy' (Cartesian) or 'ij' (matrix)."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        key = list(kwargs)[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    with ops.name_scope(name, "meshgrid", args):
        ndim = len(args)
        s0 = (1,) * ndim
        if not ndim:
            return []
        output = []
        for i, x in enumerate(args):
            output.append(array_ops.reshape(ops.convert_to_tensor(x), s0[:i] + (-1,) + s0[i + 1:]))
        shapes = [array_ops.size(x) for x in args]
        out_type = ops.convert_to_tensor(args[0]).dtype.base_dtype
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        mult_fact = array_ops.ones(shapes, out_type)
        return [x * mult_fact for x in output]


# ---- searchsorted -------------------------------------------------------------------------------------------------
def _bound_kernel(side: str) -> Any:
    def kernel(ctx: Any, sorted_inputs: np.ndarray, values: np.ndarray) -> np.ndarray:
        if sorted_inputs.shape[:-1] != values.shape[:-1]:
            raise _invalid("Leading dim_size of both tensors must match.")
        rows = sorted_inputs.reshape(-1, sorted_inputs.shape[-1])
        vals = values.reshape(-1, values.shape[-1])
        out = np.empty(vals.shape, dtype=np.int64)
        for r in range(rows.shape[0]):
            out[r] = np.searchsorted(rows[r], vals[r], side=side)
        return out.reshape(values.shape)
    return kernel


def _bound_shape(op: Any) -> list:
    with_rank_at_least(op, 0, 1)
    with_rank_at_least(op, 1, 1)
    s, v = op.inputs[0].shape, op.inputs[1].shape
    if s.ndims is not None and v.ndims is not None and s.ndims != v.ndims:
        raise shape_error(op, f"Shapes must be equal rank, but are {v.ndims} and {s.ndims}")
    return [v]


for _op, _side in (("LowerBound", "left"), ("UpperBound", "right")):
    register_op(_op, inputs=["sorted_inputs: T", "values: T"], outputs=["output: out_type"],
                attrs={"out_type": dtypes.int32}, kernel=_bound_kernel(_side), shape_fn=_bound_shape,
                allowed_dtypes={"out_type": _INDEX})
    ops.NoGradient(_op)


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left", out_type: Any = dtypes.int32,
                 name: Optional[str] = None) -> ops.Tensor:
    """Positions where values would be inserted into the sorted innermost dimension of sorted_sequence."""
    sequence = ops.convert_to_tensor(sorted_sequence, name="sorted_sequence")
    values = ops.convert_to_tensor(values, name="values", dtype=sequence.dtype.base_dtype)
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'.")
    seq_2d = array_ops.reshape(sequence, [-1, array_ops.shape(sequence)[-1]])
    values_2d = array_ops.reshape(values, [-1, array_ops.shape(values)[-1]])
    op_type = "UpperBound" if side == "right" else "LowerBound"
    out = ops.apply_op(op_type, [seq_2d, values_2d], {"out_type": dtypes.as_dtype(out_type)}, name=name)
    return array_ops.reshape(out, array_ops.shape(values))


# ---- unravel_index ------------------------------------------------------------------------------------------------
def _unravel_kernel(ctx: Any, indices: np.ndarray, dims: np.ndarray) -> np.ndarray:
    if dims.ndim != 1:
        raise _invalid(f"The dims input must be a 1-D tensor, got shape {list(dims.shape)}")
    if (dims <= 0).any():
        raise _invalid("Input dims must be positive values")
    size = int(np.prod(dims))
    if ((indices < 0) | (indices >= size)).any():
        raise _invalid("index is out of bound as with dims")
    return np.stack(np.unravel_index(indices, dims.tolist())).astype(indices.dtype)


def _unravel_shape(op: Any) -> list:
    idx = with_rank_at_most(op, 0, 1)
    dims = with_rank(op, 1, 1).as_list()[0]
    if idx.ndims is None:
        return [None]
    return [[dims] + idx.as_list()]


register_op("UnravelIndex", inputs=["indices: Tidx", "dims: Tidx"], outputs=["output: Tidx"],
            attrs={"Tidx": dtypes.int32}, kernel=_unravel_kernel, shape_fn=_unravel_shape,
            allowed_dtypes={"Tidx": _INDEX})
ops.NoGradient("UnravelIndex")


def unravel_index(indices: Any, dims: Any, name: Optional[str] = None) -> ops.Tensor:
    """Coordinates (one row per dimension) of flat indices into an array of shape dims."""
    return ops.apply_op("UnravelIndex", [indices, dims], name=name)


# ---- repeat ------------------------------------------------------------------------------------------------------
def repeat(input: Any, repeats: Any, axis: Optional[int] = None, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Each slice along axis repeated repeats times (one count for all, or one per slice); axis None flattens."""
    with ops.name_scope(name, "Repeat", [input, repeats]):
        data = ops.convert_to_tensor(input, name="data")
        if axis is None:
            data = array_ops.reshape(data, [-1])
            axis = 0
        if data.shape.ndims == 0:
            data = array_ops.reshape(data, [1])
        repeats = ops.convert_to_tensor(repeats, name="repeats", dtype_hint=dtypes.int32)
        if repeats.shape.ndims not in (None, 0, 1):
            raise ValueError(f"Shape must be at most rank 1 but is rank {repeats.shape.ndims}")
        rank = data.shape.ndims
        axis = axis + rank if axis < 0 else axis
        dims = data.shape.as_list()
        if repeats.shape.num_elements() == 1:
            count = array_ops.reshape(repeats, [])
            multiples = [1] * (rank + 1)
            tiled = array_ops.tile(array_ops.expand_dims(data, axis + 1),
                                   array_ops.stack(multiples[:axis + 1] + [count] + multiples[axis + 2:]))
            shape = array_ops.shape(data)
            out = array_ops.reshape(tiled, array_ops.concat([shape[:axis], [count * shape[axis]], shape[axis + 1:]],
                                                            0))
            static = tensor_util.constant_value(repeats)
            if static is not None and dims[axis] is not None:
                dims[axis] = dims[axis] * int(static)
            else:
                dims[axis] = None
            out.set_shape(dims)
            return out
        if repeats.shape.ndims == 1 and dims[axis] is not None and repeats.shape.as_list()[0] not in (None,
                                                                                                     dims[axis]):
            raise ValueError(f"Dimensions {dims[axis]} and {repeats.shape.as_list()[0]} are not compatible")
        n = array_ops.shape(data)[axis]
        counts = array_ops.broadcast_to(repeats, array_ops.expand_dims(n, 0))
        longest = math_ops.maximum(math_ops.reduce_max(counts), 0)
        mask = array_ops.sequence_mask(counts, longest)
        slots = array_ops.tile(array_ops.expand_dims(math_ops.range(n), 1), array_ops.stack([1, longest]))
        out = array_ops.gather(data, array_ops.boolean_mask(slots, mask), axis=axis)
        static = tensor_util.constant_value(repeats)
        # as in TF, the repeated size is static only off axis 0 (there TF's result comes out of a boolean mask)
        dims[axis] = int(np.sum(static)) if static is not None and axis != 0 else None
        out.set_shape(dims)
        return out

