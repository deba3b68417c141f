"""Gradients of the array ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops

for _t in ("Shape", "Size", "Rank", "ZerosLike", "OnesLike", "OneHot", "Where", "InvertPermutation",
           "BroadcastGradientArgs", "BroadcastArgs", "StopGradient", "Const", "Placeholder", "VariableV2", "NoOp"):
    ops.NoGradient(_t)


@ops.RegisterGradient("Identity")
@ops.RegisterGradient("Snapshot")
@ops.RegisterGradient("PlaceholderWithDefault")
def _id_grad(op: Any, grad: Any) -> Any:
    return grad


@ops.RegisterGradient("IdentityN")
def _id_n_grad(op: Any, *grads: Any) -> list:
    return list(grads)


@ops.RegisterGradient("PreventGradient")
def _prevent_gradient_grad(op: Any, _: Any) -> Any:
    raise LookupError(f"Gradient explicitly disabled. Reason: {op.get_attr('message')}")


def _shape_of(x: ops.Tensor) -> Any:
    return x.shape.as_list() if x.shape.is_fully_defined() else array_ops.shape(x)


@ops.RegisterGradient("Reshape")
def _reshape_grad(op: Any, grad: Any) -> tuple:
    return array_ops.reshape(grad, _shape_of(op.inputs[0])), None


@ops.RegisterGradient("Squeeze")
def _squeeze_grad(op: Any, grad: Any) -> Any:
    return array_ops.reshape(grad, _shape_of(op.inputs[0]))


@ops.RegisterGradient("ExpandDims")
def _expand_dims_grad(op: Any, grad: Any) -> tuple:
    return array_ops.reshape(grad, _shape_of(op.inputs[0])), None


@ops.RegisterGradient("Transpose")
def _transpose_grad(op: Any, grad: Any) -> tuple:
    p = tensor_util.constant_value(op.inputs[1])
    inv = list(np.argsort(p)) if p is not None else array_ops.invert_permutation(op.inputs[1])
    return array_ops.transpose(grad, inv), None


@ops.RegisterGradient("ConcatV2")
def _concat_grad(op: Any, grad: Any) -> list:
    values = op.inputs[:-1]
    axis = op.inputs[-1]
    a = tensor_util.constant_value(axis)
    a = None if a is None else int(a)
    if a is not None and all(v.shape.is_fully_defined() for v in values):
        a = a % values[0].shape.ndims
        sizes = [v.shape.as_list()[a] for v in values]
        return list(array_ops.split(grad, sizes, axis=a)) + [None]
    sizes = array_ops.stack([array_ops.shape(v)[a if a is not None else 0] for v in values]) if a is not None \
        else None
    if sizes is None:
        rank = array_ops.rank(values[0])
        ax = math_ops.floormod(axis, rank)
        sizes = array_ops.stack([array_ops.gather(array_ops.shape(v), ax) for v in values])
        return _split_dynamic(grad, sizes, ax, len(values)) + [None]
    return list(array_ops.split(grad, sizes, axis=int(a), num=len(values))) + [None]


def _split_dynamic(grad: Any, sizes: Any, axis: Any, n: int) -> list:
    return list(ops.apply_op("SplitV", [grad, sizes, axis], {"num_split": n}))


@ops.RegisterGradient("Pack")
def _pack_grad(op: Any, grad: Any) -> list:
    return array_ops.unstack(grad, num=op.get_attr("N"), axis=op.get_attr("axis"))


@ops.RegisterGradient("Unpack")
def _unpack_grad(op: Any, *grads: Any) -> Any:
    grads = [array_ops.zeros_like(o) if g is None else g for g, o in zip(grads, op.outputs)]
    return array_ops.stack(grads, axis=op.get_attr("axis"))


@ops.RegisterGradient("Split")
def _split_grad(op: Any, *grads: Any) -> tuple:
    grads = [array_ops.zeros_like(o) if g is None else g for g, o in zip(grads, op.outputs)]
    return None, array_ops.concat(grads, op.inputs[0])


@ops.RegisterGradient("SplitV")
def _splitv_grad(op: Any, *grads: Any) -> tuple:
    grads = [array_ops.zeros_like(o) if g is None else g for g, o in zip(grads, op.outputs)]
    return array_ops.concat(grads, op.inputs[2]), None, None


@ops.RegisterGradient("Slice")
def _slice_grad(op: Any, grad: Any) -> tuple:
    x, begin, _ = op.inputs
    input_rank = array_ops.rank(x)
    slice_size = array_ops.shape(op.outputs[0])
    shape = array_ops.stack([input_rank, 1])
    before_pad = array_ops.reshape(begin, shape)
    after_pad = array_ops.reshape(array_ops.shape(x) - slice_size - begin, shape)
    paddings = array_ops.concat([before_pad, after_pad], 1)
    return array_ops.pad(grad, paddings), None, None


@ops.RegisterGradient("StridedSlice")
def _strided_slice_grad(op: Any, grad: Any) -> tuple:
    x, begin, end, strides = op.inputs
    attrs = {k: op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                        "shrink_axis_mask")}
    shape = array_ops.shape(x, out_type=begin.dtype.base_dtype)
    out = ops.apply_op("StridedSliceGrad", [shape, begin, end, strides, grad], attrs)
    out.set_shape(x.shape)
    return out, None, None, None


@ops.RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op: Any, grad: Any) -> tuple:
    _, begin, end, strides, _ = op.inputs
    attrs = {k: op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                        "shrink_axis_mask")}
    return None, None, None, None, ops.apply_op("StridedSlice", [grad, begin, end, strides], attrs)


def _dense(g: Any) -> ops.Tensor:
    if isinstance(g, IndexedSlices):
        return math_ops.unsorted_segment_sum(g.values, g.indices, g.dense_shape[0])
    return g


@ops.RegisterGradient("GatherV2")
def _gather_grad(op: Any, grad: Any) -> tuple:
    params, indices, axis = op.inputs
    axis_static = tensor_util.constant_value(axis)
    batch_dims = op.get_attr("batch_dims")
    with ops.colocate_with(params):
        params_shape = array_ops.shape(params, out_type=dtypes.int64)
        params_shape = math_ops.cast(params_shape, dtypes.int32)
    indices_size = array_ops.expand_dims(array_ops.size(indices), 0)
    if axis_static is not None and int(axis_static) == 0 and batch_dims == 0:
        params_tail_shape = params_shape[1:]
        values_shape = array_ops.concat([indices_size, params_tail_shape], 0)
        values = array_ops.reshape(_dense(grad), values_shape)
        flat_indices = array_ops.reshape(indices, indices_size)
        return IndexedSlices(values, flat_indices, params_shape), None, None
    if batch_dims != 0:
        raise ValueError("The gradient of gather with batch_dims != 0 is not supported by edgelite")
    out = ops.apply_op("GatherGradAxis", [_dense(grad), indices, axis, params_shape])
    out.set_shape(params.shape)
    return out, None, None


def _gather_grad_axis_kernel(ctx: Any, grad: np.ndarray, indices: np.ndarray, axis: np.ndarray,
                             shape: np.ndarray) -> np.ndarray:
    a = int(axis) % len(shape)
    out = np.zeros([int(d) for d in shape], dtype=grad.dtype)
    moved = np.moveaxis(out, a, 0)
    g = np.moveaxis(grad.reshape(shape[:a].tolist() + [indices.size] + shape[a + 1:].tolist()), a, 0)
    np.add.at(moved, indices.ravel(), g)
    return out


register_op("GatherGradAxis", inputs=["grad: T", "indices: Tindices", "axis: Taxis", "shape: int32"],
            outputs=["output: T"], kernel=_gather_grad_axis_kernel, shape_fn=lambda op: [None])
ops.NoGradient("GatherGradAxis")


@ops.RegisterGradient("GatherNd")
def _gather_nd_grad(op: Any, grad: Any) -> tuple:
    params, indices = op.inputs
    ref_shape = array_ops.shape(params, out_type=indices.dtype.base_dtype)
    if indices.shape.ndims == 2 and indices.shape.as_list()[-1] == 1:
        return IndexedSlices(_dense(grad), array_ops.squeeze(indices, axis=[-1]), ref_shape), None
    out = array_ops.scatter_nd(indices, _dense(grad), ref_shape)
    return out, None


@ops.RegisterGradient("ScatterNd")
def _scatter_nd_grad(op: Any, grad: Any) -> tuple:
    indices = op.inputs[0]
    return None, array_ops.gather_nd(grad, indices), None


@ops.RegisterGradient("Pad")
@ops.RegisterGradient("PadV2")
def _pad_grad(op: Any, grad: Any) -> Any:
    x, a = op.inputs[0], op.inputs[1]
    pad_before = array_ops.slice(a, [0, 0], array_ops.stack([array_ops.rank(x), 1]))
    begin = array_ops.reshape(pad_before, [-1])
    sizes = array_ops.shape(x)
    x_grad = array_ops.slice(grad, begin, sizes)
    if len(op.inputs) == 3:
        return x_grad, None, None
    return x_grad, None


def _mirror_pad_grad_kernel(ctx: Any, grad: np.ndarray, paddings: np.ndarray) -> np.ndarray:
    p = np.asarray(paddings, dtype=np.int64).reshape(-1, 2)
    offset = 0 if ctx.attrs["mode"] == "SYMMETRIC" else 1
    out = grad
    for d, (b, a) in enumerate(p):
        n = out.shape[d] - b - a
        core = np.take(out, np.arange(b, b + n), axis=d).copy()
        for i in range(b):
            src = np.take(out, [b - 1 - i], axis=d)
            dst = i + offset
            idx = [slice(None)] * out.ndim
            idx[d] = slice(dst, dst + 1)
            core[tuple(idx)] += src
        for i in range(a):
            src = np.take(out, [b + n + i], axis=d)
            dst = n - 1 - i - offset
            idx = [slice(None)] * out.ndim
            idx[d] = slice(dst, dst + 1)
            core[tuple(idx)] += src
        out = core
    return out


register_op("MirrorPadGrad", inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"],
            kernel=_mirror_pad_grad_kernel, shape_fn=lambda op: [None], attrs={"Tpaddings": dtypes.int32})


@ops.RegisterGradient("MirrorPad")
def _mirror_pad_grad(op: Any, grad: Any) -> tuple:
    out = ops.apply_op("MirrorPadGrad", [grad, op.inputs[1]], {"mode": op.get_attr("mode")})
    out.set_shape(op.inputs[0].shape)
    return out, None


@ops.RegisterGradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op: Any, grad: Any) -> tuple:
    return ops.apply_op("MirrorPad", [grad, op.inputs[1]], {"mode": op.get_attr("mode")}), None


@ops.RegisterGradient("Tile")
def _tile_grad(op: Any, grad: Any) -> tuple:
    x, multiples = op.inputs
    input_shape = array_ops.shape(x, out_type=multiples.dtype.base_dtype)
    split_shape = array_ops.reshape(array_ops.transpose(array_ops.stack([multiples, input_shape])), [-1])
    axes = math_ops.range(0, array_ops.size(split_shape), 2)
    g = math_ops.reduce_sum(array_ops.reshape(grad, split_shape), axes)
    g = array_ops.reshape(g, input_shape) if not x.shape.is_fully_defined() else \
        array_ops.reshape(g, x.shape.as_list())
    return g, None


@ops.RegisterGradient("Fill")
def _fill_grad(op: Any, grad: Any) -> tuple:
    return None, math_ops.reduce_sum(grad)


@ops.RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op: Any, grad: Any) -> tuple:
    x = op.inputs[0]
    from edgelite.ops import math_grad
    gx, _ = math_grad._reduce_pair(x, op.outputs[0], grad, None)
    return gx, None


@ops.RegisterGradient("ReverseV2")
def _reverse_grad(op: Any, grad: Any) -> tuple:
    return array_ops.reverse(grad, op.inputs[1]), None

