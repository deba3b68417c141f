"""tf.ragged.stack: RaggedTensors and Tensors of one rank stacked along a new axis (concatenation is the
shared step), plus RaggedGather (rows of a RaggedTensor by index), which stacking along axis 1 uses."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops, check_ops, math_ops

from .ragged_merge_dims import positive_axis
from .ragged_tensor import RaggedTensor


def _gather_kernel(ctx: Any, splits: list, values: np.ndarray, indices: np.ndarray) -> tuple:
    """The rows `indices` of a ragged tensor: each level's splits rebuilt from the lengths of the gathered rows."""
    indices = np.asarray(indices, np.int64).reshape(-1)
    nrows = len(splits[0]) - 1
    bad = (indices < 0) | (indices >= nrows)
    if bad.any():
        i = int(np.argmax(bad))
        raise errors.InvalidArgumentError(None, None, f"indices[{i}] = {indices[i]} is not in [0, {nrows})")
    rows, out_splits = indices, []
    for level in splits:
        level = np.asarray(level, np.int64)
        starts, lengths = level[rows], level[rows + 1] - level[rows]
        ends = np.cumsum(lengths)
        out_splits.append(np.concatenate([[0], ends]).astype(splits[0].dtype))
        # the rows (or values) one level down that the gathered rows span, in order
        rows = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) - np.repeat(ends - lengths, lengths) + \
            np.repeat(starts, lengths)
    return tuple(out_splits) + (values[rows],)


def _gather_shape(op: Any) -> list:
    n = op.get_attr("OUTPUT_RAGGED_RANK")
    return [[None]] * n + [[None] + op.inputs[-2].shape.as_list()[1:] if op.inputs[-2].shape.ndims else None]


register_op("RaggedGather", inputs=["params_nested_splits: PARAMS_RAGGED_RANK * Tsplits",
                                    "params_dense_values: Tvalues", "indices: Tindices"],
            outputs=["output_nested_splits: OUTPUT_RAGGED_RANK * Tsplits", "output_dense_values: Tvalues"],
            kernel=_gather_kernel, shape_fn=_gather_shape)
ops.NoGradient("RaggedGather")


def _gather_rows(rt: RaggedTensor, indices: ops.Tensor) -> RaggedTensor:
    splits = list(rt.nested_row_splits)
    outs = ops.apply_op("RaggedGather", [splits, rt.flat_values, indices],
                        {"OUTPUT_RAGGED_RANK": len(splits)})
    return RaggedTensor.from_nested_row_splits(outs[-1], outs[:-1], validate=False)


def _concat_splits(splits_list: list) -> ops.Tensor:
    """One splits vector for rows laid end to end: each later part offset by the values before it."""
    pieces, offset = [splits_list[0]], splits_list[0][-1]
    for splits in splits_list[1:]:
        pieces.append(splits[1:] + offset)
        offset += splits[-1]
    return array_ops.concat(pieces, axis=0)


def _lengths_to_splits(lengths: ops.Tensor) -> ops.Tensor:
    return array_ops.concat([ops.convert_to_tensor([0], dtype=lengths.dtype), math_ops.cumsum(lengths)], axis=-1)


def _deepen(rt: Any, ragged_rank: int, splits_dtype: dtypes.DType) -> Any:
    """rt with uniform dimensions turned ragged until it has ragged_rank ragged dimensions."""
    if ragged_rank > 0:
        if not isinstance(rt, RaggedTensor):
            rt = RaggedTensor.from_tensor(rt, row_splits_dtype=splits_dtype)
        if rt.ragged_rank < ragged_rank:
            rt = rt.with_values(_deepen(rt.values, ragged_rank - 1, splits_dtype))
    return rt


def _axis_0(inputs: list, stack: bool) -> RaggedTensor:
    flat = array_ops.concat([rt.flat_values for rt in inputs], axis=0)
    nested = [rt.nested_row_splits for rt in inputs]
    splits = [_concat_splits([ns[d] for ns in nested]) for d in range(inputs[0].ragged_rank)]
    if stack:
        splits.insert(0, _lengths_to_splits(array_ops.stack([rt.nrows() for rt in inputs])))
    return RaggedTensor.from_nested_row_splits(flat, splits, validate=False)


def _axis_1(inputs: list, stack: bool) -> RaggedTensor:
    count = len(inputs)
    nrows = inputs[0].nrows()
    checks = [check_ops.assert_equal(nrows, rt.nrows(), message=f"Input tensors at index 0 (=x) and {i + 1} (=y) "
                                                                 f"have incompatible shapes.")
              for i, rt in enumerate(inputs[1:])]
    with ops.control_dependencies(checks):
        joined = _axis_0(inputs, stack=False)
        order = array_ops.reshape(array_ops.transpose(array_ops.reshape(math_ops.range(nrows * count),
                                                                        [count, -1])), [-1])
        interleaved = _gather_rows(joined, order)
        if stack:
            splits = math_ops.range(0, nrows * count + 1, count)
            _known_rows(inputs, splits)
            return RaggedTensor.from_row_splits(interleaved, splits, validate=False)
        splits = interleaved.row_splits[::count]
        _known_rows(inputs, splits)
        return RaggedTensor.from_row_splits(interleaved.values, splits, validate=False)


def _known_rows(inputs: list, splits: ops.Tensor) -> None:
    for rt in inputs:
        if rt.shape[0] is not None:
            splits.set_shape([rt.shape[0] + 1])


def _stack_or_concat(inputs: list, axis: int, stack: bool) -> Any:
    if not inputs:
        raise ValueError("rt_inputs may not be empty.")
    inputs = [x if isinstance(x, RaggedTensor) else ops.convert_to_tensor(x, name="rt_input") for x in inputs]
    splits_dtype = _splits_dtype_of(inputs)
    if len(inputs) == 1 and not stack:
        return inputs[0]
    ndims = None
    for rt in inputs:
        if ndims is None:
            ndims = rt.shape.ndims
        else:
            rt.shape.assert_has_rank(ndims)
    out_ndims = ndims if (ndims is None or not stack) else ndims + 1
    axis = positive_axis(axis, out_ndims, "axis")
    if stack and ndims == 1 and axis == 0:
        return RaggedTensor.from_row_lengths(array_ops.concat(inputs, axis=0), array_ops.concat(
            [array_ops.shape(r) for r in inputs], axis=0))
    if all(not isinstance(rt, RaggedTensor) for rt in inputs) and ndims is not None and \
            axis in (out_ndims - 1, ndims - 1):
        return array_ops.stack(inputs, axis) if stack else array_ops.concat(inputs, axis)
    inputs = [rt if isinstance(rt, RaggedTensor) else RaggedTensor.from_tensor(rt, ragged_rank=1,
                                                                              row_splits_dtype=splits_dtype)
              for rt in inputs]
    ragged_rank = max(max(rt.ragged_rank for rt in inputs), 1)
    inputs = [_deepen(rt, ragged_rank, splits_dtype) for rt in inputs]
    if axis == 0:
        return _axis_0(inputs, stack)
    if axis == 1:
        return _axis_1(inputs, stack)
    outer = [rt.row_splits for rt in inputs]
    checks = [check_ops.assert_equal(outer[0], s, message="Inputs must have identical ragged splits")
              for s in outer[1:]]
    with ops.control_dependencies(checks):
        return RaggedTensor.from_row_splits(_stack_or_concat([rt.values for rt in inputs], axis - 1, stack),
                                            outer[0], validate=False)


def _splits_dtype_of(inputs: list) -> dtypes.DType:
    found = {x.row_splits.dtype for x in inputs if isinstance(x, RaggedTensor)}
    if len(found) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    return found.pop() if found else dtypes.int64


def stack(values: Any, axis: int = 0, name: Optional[str] = None) -> Any:
    """values (RaggedTensors or Tensors of one rank) stacked along a new dimension axis."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    with ops.name_scope(name, "RaggedConcat", values):
        return _stack_or_concat(list(values), axis, stack=True)
