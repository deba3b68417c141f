"""Moving spatial blocks to and from the batch or depth dimension: space_to_batch(_nd), batch_to_space(_nd),
space_to_depth, depth_to_space (each the other's gradient)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops.shape_checks import shape_error, with_rank, with_rank_at_least

_INDEX = [dtypes.int32, dtypes.int64]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


# ---- numpy -------------------------------------------------------------------------------------------------------
def _check_block(x: np.ndarray, block: np.ndarray, pads: np.ndarray, what: str) -> None:
    m = block.shape[0]
    if block.ndim != 1:
        raise _invalid(f"block_shape must be 1-D, not {list(block.shape)}")
    if pads.shape != (m, 2):
        raise _invalid(f"{what} should have shape [{m}, 2] instead of {list(pads.shape)}")
    if x.ndim < m + 1:
        raise _invalid(f"input rank should be >= {m + 1} instead of {x.ndim}")
    if (block < 1).any():
        raise _invalid(f"All values in block_shape must be positive, got value, {int(block.min())} instead.")
    if (pads < 0).any():
        raise _invalid(f"All values in {what} must be non-negative, got {pads.tolist()}")


def space_to_batch_nd_np(x: np.ndarray, block: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """Pad the M spatial dims, split each into (size / b, b) and move the b's in front of the batch."""
    _check_block(x, block, pads, "paddings")
    m = block.shape[0]
    padded = np.pad(x, [(0, 0)] + pads.tolist() + [(0, 0)] * (x.ndim - m - 1))
    shape = [padded.shape[0]]
    for i in range(m):
        size, b = padded.shape[i + 1], int(block[i])
        if size % b:
            raise _invalid(f"padded_shape[{i}]={size} is not divisible by block_shape[{i}]={b}")
        shape += [size // b, b]
    rest = list(padded.shape[m + 1:])
    y = padded.reshape(shape + rest)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(2 * m + 1, y.ndim))
    y = y.transpose(perm)
    return y.reshape([padded.shape[0] * int(np.prod(block))] + shape[1::2] + rest)


def batch_to_space_nd_np(x: np.ndarray, block: np.ndarray, crops: np.ndarray) -> np.ndarray:
    """Inverse of space_to_batch_nd_np: blocks back from the batch into the spatial dims, then crop."""
    _check_block(x, block, crops, "crops")
    m = block.shape[0]
    prod = int(np.prod(block))
    if x.shape[0] % prod:
        raise _invalid(f"Input batch dimension ({x.shape[0]}) is not divisible by product of block sizes ({prod})")
    batch = x.shape[0] // prod
    spatial = list(x.shape[1:m + 1])
    rest = list(x.shape[m + 1:])
    y = x.reshape(block.tolist() + [batch] + spatial + rest)
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, y.ndim))
    y = y.transpose(perm).reshape([batch] + [s * int(b) for s, b in zip(spatial, block)] + rest)
    index = [slice(None)]
    for i in range(m):
        lo, hi = int(crops[i, 0]), int(crops[i, 1])
        if lo + hi > y.shape[i + 1]:
            raise _invalid(f"Crops must be non-negative and less than the block size times the spatial size, got "
                           f"{lo + hi} > {y.shape[i + 1]}")
        index.append(slice(lo, y.shape[i + 1] - hi))
    return y[tuple(index)]


def _to_nhwc(x: np.ndarray, data_format: str) -> np.ndarray:
    return x.transpose(0, 2, 3, 1) if data_format == "NCHW" else x


def _from_nhwc(x: np.ndarray, data_format: str) -> np.ndarray:
    return x.transpose(0, 3, 1, 2) if data_format == "NCHW" else x


def _depth_to_space_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    b, fmt = ctx.attrs["block_size"], ctx.attrs["data_format"]
    if x.ndim != 4:
        raise _invalid(f"Input rank should be: 4 instead of: {x.ndim}")
    y = _to_nhwc(x, fmt)
    n, h, w, c = y.shape
    if c % (b * b):
        raise _invalid(f"Input depth dimension {c} should be divisible by: {b * b}")
    y = y.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))
    return _from_nhwc(y, fmt)


def _space_to_depth_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    b, fmt = ctx.attrs["block_size"], ctx.attrs["data_format"]
    if x.ndim != 4:
        raise _invalid(f"Input rank should be: 4 instead of: {x.ndim}")
    y = _to_nhwc(x, fmt)
    n, h, w, c = y.shape
    if h % b or w % b:
        raise _invalid(f"Image width {w} and height {h} should be divisible by block_size: {b}")
    y = y.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, c * b * b)
    return _from_nhwc(y, fmt)


# ---- static shapes ------------------------------------------------------------------------------------------------
def _nd_shape(to_batch: bool) -> Any:
    def shape_fn(op: Any) -> list:
        x = with_rank_at_least(op, 0, 1)
        with_rank(op, 1, 1)
        with_rank(op, 2, 2)
        block = tensor_util.constant_value(op.inputs[1])
        pads = tensor_util.constant_value(op.inputs[2])
        if x.ndims is None or block is None or pads is None:
            return [None if x.ndims is None else [None] * x.ndims]
        block, pads = np.asarray(block).astype(np.int64), np.asarray(pads).astype(np.int64)
        m = block.shape[0]
        if x.ndims < m + 1:
            raise shape_error(op, f"Shape must be at least rank {m + 1} but is rank {x.ndims}")
        if (block < 1).any():
            raise shape_error(op, "block_shape must be positive")
        dims = x.as_list()
        prod = int(np.prod(block))
        out = list(dims)
        if to_batch:
            out[0] = None if dims[0] is None else dims[0] * prod
            for i in range(m):
                if dims[i + 1] is None:
                    continue
                size = dims[i + 1] + int(pads[i].sum())
                if size % int(block[i]):
                    raise shape_error(op, f"Dimension size must be evenly divisible by {int(block[i])} but is "
                                          f"{size} for 'SpaceToBatchND'")
                out[i + 1] = size // int(block[i])
        else:
            if dims[0] is not None:
                rest = dims[0]
                for b in block:
                    if rest % int(b):
                        raise shape_error(op, f"Dimension size must be evenly divisible by {int(b)} but is {rest}")
                    rest //= int(b)
                out[0] = rest
            for i in range(m):
                if dims[i + 1] is not None:
                    out[i + 1] = dims[i + 1] * int(block[i]) - int(pads[i].sum())
        return [out]
    return shape_fn


def _depth_shape(to_space: bool) -> Any:
    def shape_fn(op: Any) -> list:
        x = with_rank(op, 0, 4)
        b = op.get_attr("block_size")
        nchw = op.get_attr("data_format") == "NCHW"
        n, h, w, c = [x.as_list()[i] for i in ((0, 2, 3, 1) if nchw else (0, 1, 2, 3))]
        if to_space:
            if c is not None and c % (b * b):
                raise shape_error(op, f"Dimension size must be evenly divisible by {b * b} but is {c}")
            h, w, c = [None if v is None else v * b for v in (h, w)] + [None if c is None else c // (b * b)]
        else:
            for v in (h, w):
                if v is not None and v % b:
                    raise shape_error(op, f"Dimension size must be evenly divisible by {b} but is {v}")
            h, w, c = [None if v is None else v // b for v in (h, w)] + [None if c is None else c * b * b]
        return [[n, c, h, w] if nchw else [n, h, w, c]]
    return shape_fn


# ---- registrations and gradients ----------------------------------------------------------------------------------
register_op("SpaceToBatchND", inputs=["input: T", "block_shape: Tblock_shape", "paddings: Tpaddings"],
            outputs=["output: T"], attrs={"Tblock_shape": dtypes.int32, "Tpaddings": dtypes.int32},
            kernel=lambda ctx, x, b, p: space_to_batch_nd_np(x, b, p), shape_fn=_nd_shape(True),
            allowed_dtypes={"Tblock_shape": _INDEX, "Tpaddings": _INDEX})
register_op("BatchToSpaceND", inputs=["input: T", "block_shape: Tblock_shape", "crops: Tcrops"],
            outputs=["output: T"], attrs={"Tblock_shape": dtypes.int32, "Tcrops": dtypes.int32},
            kernel=lambda ctx, x, b, c: batch_to_space_nd_np(x, b, c), shape_fn=_nd_shape(False),
            allowed_dtypes={"Tblock_shape": _INDEX, "Tcrops": _INDEX})
register_op("DepthToSpace", inputs=["input: T"], outputs=["output: T"], attrs={"data_format": "NHWC"},
            kernel=_depth_to_space_kernel, shape_fn=_depth_shape(True))
register_op("SpaceToDepth", inputs=["input: T"], outputs=["output: T"], attrs={"data_format": "NHWC"},
            kernel=_space_to_depth_kernel, shape_fn=_depth_shape(False))


@ops.RegisterGradient("SpaceToBatchND")
def _space_to_batch_nd_grad(op: Any, grad: Any) -> tuple:
    return ops.apply_op("BatchToSpaceND", [grad, op.inputs[1], op.inputs[2]]), None, None


@ops.RegisterGradient("BatchToSpaceND")
def _batch_to_space_nd_grad(op: Any, grad: Any) -> tuple:
    return ops.apply_op("SpaceToBatchND", [grad, op.inputs[1], op.inputs[2]]), None, None


@ops.RegisterGradient("DepthToSpace")
def _depth_to_space_grad(op: Any, grad: Any) -> Any:
    attrs = {"block_size": op.get_attr("block_size"), "data_format": op.get_attr("data_format")}
    return ops.apply_op("SpaceToDepth", [grad], attrs)


@ops.RegisterGradient("SpaceToDepth")
def _space_to_depth_grad(op: Any, grad: Any) -> Any:
    attrs = {"block_size": op.get_attr("block_size"), "data_format": op.get_attr("data_format")}
    return ops.apply_op("DepthToSpace", [grad], attrs)


# ---- wrappers -----------------------------------------------------------------------------------------------------
def _check_attrs(op_type: str, block_size: int, data_format: str) -> None:
    if block_size < 2:
        raise ValueError(f"Attr 'block_size' of '{op_type}' Op passed {block_size} less than minimum 2.")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"Value for attr 'data_format' of \"{data_format}\" is not in the list of allowed values: "
                         "\"NHWC\", \"NCHW\", \"NCHW_VECT_C\"")


def space_to_batch_nd(input: Any, block_shape: Any, paddings: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Zero-pad the spatial dims, then move block_shape blocks of them into the batch dimension."""
    return ops.apply_op("SpaceToBatchND", [input, block_shape, paddings], name=name)


def batch_to_space_nd(input: Any, block_shape: Any, crops: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Move batch blocks back into the spatial dims, then crop (inverse of space_to_batch_nd)."""
    return ops.apply_op("BatchToSpaceND", [input, block_shape, crops], name=name)


def space_to_batch(input: Any, paddings: Any, block_size: Optional[int] = None,  # noqa: A002
                   name: Optional[str] = None, block_shape: Optional[int] = None) -> ops.Tensor:
    """TF1's 4-D space_to_batch: space_to_batch_nd with a square block."""
    block = block_size if block_size is not None else block_shape
    out = space_to_batch_nd(input, np.array([block, block], np.int64), paddings, name=name)
    out.set_shape(out.shape.with_rank(4))
    return out


def batch_to_space(input: Any, crops: Any, block_size: Optional[int] = None,  # noqa: A002
                   name: Optional[str] = None, block_shape: Optional[int] = None) -> ops.Tensor:
    """TF1's 4-D batch_to_space: batch_to_space_nd with a square block."""
    block = block_size if block_size is not None else block_shape
    return batch_to_space_nd(input, np.array([block, block], np.int64), crops, name=name)


def depth_to_space(input: Any, block_size: int, name: Optional[str] = None,  # noqa: A002
                   data_format: str = "NHWC") -> ops.Tensor:
    """Rearrange depth into block_size x block_size spatial blocks."""
    _check_attrs("DepthToSpace", block_size, data_format)
    return ops.apply_op("DepthToSpace", [input], {"block_size": block_size, "data_format": data_format}, name=name)


def space_to_depth(input: Any, block_size: int, name: Optional[str] = None,  # noqa: A002
                   data_format: str = "NHWC") -> ops.Tensor:
    """Rearrange block_size x block_size spatial blocks into depth."""
    _check_attrs("SpaceToDepth", block_size, data_format)
    return ops.apply_op("SpaceToDepth", [input], {"block_size": block_size, "data_format": data_format}, name=name)


def required_space_to_batch_paddings(input_shape: Any, block_shape: Any, base_paddings: Any = None,
                                     name: Optional[str] = None) -> tuple:
    """(paddings, crops) making input_shape + base_paddings divisible by block_shape, for space_to_batch_nd and
    the batch_to_space_nd that undoes it."""
    from edgelite.ops import array_ops
    with ops.name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = ops.convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = ops.convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        if not block_shape.shape.is_fully_defined() or block_shape.shape.ndims != 1:
            raise ValueError(f"block_shape must be a 1-D tensor of known length, got shape {block_shape.shape}")
        m = block_shape.shape.as_list()[0]
        if m == 0:
            return array_ops.zeros([0, 2], dtypes.int32), array_ops.zeros([0, 2], dtypes.int32)
        input_shape.shape.assert_is_compatible_with([m])
        if base_paddings is not None:
            base_paddings = ops.convert_to_tensor(base_paddings, dtype=dtypes.int32, name="base_paddings")
            base_paddings.shape.assert_is_compatible_with([m, 2])
        else:
            base_paddings = array_ops.zeros([m, 2], dtypes.int32)
        known = [tensor_util.constant_value(t) for t in (block_shape, input_shape, base_paddings)]
        if all(v is not None for v in known):
            block_shape, input_shape, base_paddings = known
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full = input_shape + pad_start + orig_pad_end
        extra = (block_shape - full % block_shape) % block_shape
        pad_end = orig_pad_end + extra
        paddings = array_ops.stack([[pad_start[i], pad_end[i]] for i in range(m)], name="paddings")
        crops = array_ops.stack([[0, extra[i]] for i in range(m)], name="crops")
        return paddings, crops
