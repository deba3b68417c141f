"""Array ops: placeholders, identity, shapes, reshaping, slicing, gathering, padding, tiling, one_hot."""
from __future__ import annotations

import builtins
import functools
import numbers
from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import constant_op
from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops.list_value import zeros_like_value

TensorShape = tensor_shape.TensorShape
constant = constant_op.constant
builtin_slice = builtins.slice


def _cv(t: Any) -> Optional[np.ndarray]:
    return tensor_util.constant_value(t)


def _dims_str(shape: TensorShape) -> str:
    return common_shapes.format_shape(shape)


# ---- placeholders and identity ------------------------------------------------------------------------
def _placeholder_kernel(ctx: Any) -> None:
    op = ctx.op
    dt = op.get_attr("dtype")
    shape = op.get_attr("shape")
    type_name = {"float32": "float", "float64": "double"}.get(dt.name, dt.name)
    if shape.ndims is None:
        msg = f"You must feed a value for placeholder tensor '{op.name}' with dtype {type_name}"
    else:
        dims = ",".join("?" if d is None else str(d) for d in shape.as_list())
        msg = f"You must feed a value for placeholder tensor '{op.name}' with dtype {type_name} and shape [{dims}]"
    raise errors.InvalidArgumentError(None, op, msg)


register_op("Placeholder", inputs=[], outputs=["output: dtype"], kernel=_placeholder_kernel,
            shape_fn=lambda op: [op.get_attr("shape")], attrs={"shape": tensor_shape.unknown_shape()})


def placeholder(dtype: Any, shape: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """A tensor that must be fed when run (TF1 tf.placeholder)."""
    dtype = dtypes.as_dtype(dtype)
    shape = tensor_shape.as_shape(shape)
    return ops.get_default_graph().create_op("Placeholder", [], [dtype], name=name or "Placeholder",
                                             attrs={"dtype": dtype, "shape": shape}).outputs[0]


register_op("PlaceholderWithDefault", inputs=["input: dtype"], outputs=["output: dtype"],
            kernel=lambda ctx, x: x, shape_fn=lambda op: [op.get_attr("shape")])


def placeholder_with_default(input: Any, shape: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """A placeholder that passes input through when not fed."""
    shape = tensor_shape.as_shape(shape)
    with ops.name_scope(name, "PlaceholderWithDefault") as scope:
        x = ops.convert_to_tensor(input, name="input")
        if not x.shape.is_compatible_with(shape):
            raise ValueError(f"Shapes must be equal rank, but are {x.shape.ndims} and {shape.ndims}")
        return ops.apply_op("PlaceholderWithDefault", [x], {"shape": shape, "dtype": x.dtype.base_dtype},
                            name=scope)


register_op("Identity", inputs=["input: T"], outputs=["output: T"], kernel=lambda ctx, x: x,
            shape_fn=common_shapes.unchanged_shape)
register_op("StopGradient", inputs=["input: T"], outputs=["output: T"], kernel=lambda ctx, x: x,
            shape_fn=common_shapes.unchanged_shape)
register_op("PreventGradient", inputs=["input: T"], outputs=["output: T"], kernel=lambda ctx, x: x,
            shape_fn=common_shapes.unchanged_shape, attrs={"message": ""})
register_op("Snapshot", inputs=["input: T"], outputs=["output: T"], kernel=lambda ctx, x: x.copy(),
            shape_fn=common_shapes.unchanged_shape)


def identity(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The input, as a new tensor."""
    return ops.apply_op("Identity", [input], name=name)


def stop_gradient(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Identity forward; blocks gradients."""
    return ops.apply_op("StopGradient", [input], name=name)


def prevent_gradient(input: Any, message: str = "", name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Identity forward; asking for its gradient is an error."""
    return ops.apply_op("PreventGradient", [input], {"message": message}, name=name)


def _identity_n_kernel(ctx: Any, xs: list) -> tuple:
    return tuple(xs)


register_op("IdentityN", inputs=["input: N * T"], outputs=["output: N * T"], kernel=_identity_n_kernel,
            dtype_fn=lambda op: [t.dtype.base_dtype for t in op.inputs],
            shape_fn=lambda op: [t.shape for t in op.inputs])


def identity_n(input: list, name: Optional[str] = None) -> list:  # noqa: A002
    """Identity of several tensors at once (of any dtypes)."""
    with ops.name_scope(name, "IdentityN") as scope:
        ts = [ops.convert_to_tensor(x) for x in input]
        op = ops.get_default_graph().create_op("IdentityN", ts, [t.dtype.base_dtype for t in ts], name=scope,
                                               attrs={"N": len(ts), "T": [t.dtype.base_dtype for t in ts]})
        return op.outputs


# ---- shape, size, rank ------------------------------------------------------------------------------------
register_op("Shape", inputs=["input: T"], outputs=["output: out_type"],
            kernel=lambda ctx, x: np.array(np.shape(x), dtype=ctx.attrs["out_type"].as_numpy_dtype),
            shape_fn=lambda op: [[op.inputs[0].shape.ndims]], attrs={"out_type": dtypes.int32})
register_op("Size", inputs=["input: T"], outputs=["output: out_type"],
            kernel=lambda ctx, x: np.array(np.size(x), dtype=ctx.attrs["out_type"].as_numpy_dtype),
            shape_fn=common_shapes.scalar_shape, attrs={"out_type": dtypes.int32})
register_op("Rank", inputs=["input: T"], outputs=["output: int32"],
            kernel=lambda ctx, x: np.array(np.ndim(x), dtype=np.int32), shape_fn=common_shapes.scalar_shape)


def shape(input: Any, name: Optional[str] = None, out_type: Any = dtypes.int32) -> ops.Tensor:  # noqa: A002
    """The dynamic shape of input as a 1-D int tensor."""
    return ops.apply_op("Shape", [input], {"out_type": dtypes.as_dtype(out_type)}, name=name)


def shape_internal(input: Any, name: Optional[str] = None, optimize: bool = True,  # noqa: A002
                   out_type: Any = dtypes.int32) -> ops.Tensor:
    """shape(), folded to a constant when the static shape is fully defined."""
    with ops.name_scope(name, "Shape", [input]) as name:
        x = ops.convert_to_tensor(input)
        if optimize and x.shape.is_fully_defined():
            return constant(x.shape.as_list(), dtype=out_type, name=name)
        return shape(x, name=name, out_type=out_type)


def size(input: Any, name: Optional[str] = None, out_type: Any = dtypes.int32) -> ops.Tensor:  # noqa: A002
    """The number of elements of input."""
    with ops.name_scope(name, "Size", [input]) as name:
        x = ops.convert_to_tensor(input)
        n = x.shape.num_elements()
        if n is not None:
            return constant(n, dtype=out_type, name=name)
        return ops.apply_op("Size", [x], {"out_type": dtypes.as_dtype(out_type)}, name=name)


def rank(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The rank of input."""
    with ops.name_scope(name, "Rank", [input]) as name:
        x = ops.convert_to_tensor(input)
        if x.shape.ndims is not None:
            return constant(x.shape.ndims, dtype=dtypes.int32, name=name)
        return ops.apply_op("Rank", [x], name=name)


def shape_n(input: list, out_type: Any = dtypes.int32, name: Optional[str] = None) -> list:  # noqa: A002
    """The shapes of several tensors."""
    with ops.name_scope(name, "ShapeN", input):
        return [shape(x, out_type=out_type) for x in input]


# ---- reshape / squeeze / expand_dims -----------------------------------------------------------------
def _reshape_kernel(ctx: Any, x: np.ndarray, shp: np.ndarray) -> np.ndarray:
    shp = [int(d) for d in shp]
    try:
        return np.reshape(x, shp)
    except ValueError:
        known = int(np.prod([d for d in shp if d != -1]))
        wanted = f"requires a multiple of {known}" if -1 in shp and known else f"has {int(np.prod(shp))}"
        raise errors.InvalidArgumentError(None, None, f"Input to reshape is a tensor with {x.size} values, but the "
                                                      f"requested shape {wanted}") from None


def _reshape_shape(op: Any) -> list:
    x, s = op.inputs
    target = tensor_util.constant_value_as_shape(s)
    if target.ndims is None:
        return [target]
    dims = target.as_list()
    known_in = x.shape.num_elements()
    if dims.count(-1) > 1:
        raise ValueError("Cannot infer multiple unknown dimensions in shape.")
    cv = _cv(s)
    if cv is not None:
        dims = [int(d) for d in np.ravel(cv)]
        if sum(1 for d in dims if d == -1) > 1:
            raise ValueError(f"Cannot reshape a tensor with {known_in} elements to shape {dims}")
        if -1 in dims:
            rest = int(np.prod([d for d in dims if d != -1]))
            if known_in is not None:
                if rest == 0 or known_in % rest:
                    raise ValueError(f"Cannot reshape a tensor with {known_in} elements to shape "
                                     f"{dims} ({rest} elements) for '{op.name}' (op: 'Reshape')")
                dims = [known_in // rest if d == -1 else d for d in dims]
            else:
                dims = [None if d == -1 else d for d in dims]
        elif known_in is None and x.shape.ndims is not None:
            # Partly known input: the known dimensions must divide the target size (TF checks this at build time).
            known_part = int(np.prod([d for d in x.shape.as_list() if d is not None]))
            total = int(np.prod(dims))
            if known_part > 0 and total % known_part:
                raise ValueError(f"Dimension size must be evenly divisible by {known_part} but is {total} for "
                                 f"'{op.name}' (op: 'Reshape') with input shapes: {_dims_str(x.shape)}, "
                                 f"{_dims_str(s.shape)} and with input tensors computed as partial shapes: "
                                 f"input[1] = {_dims_str(TensorShape(dims))}.")
        elif known_in is not None and int(np.prod(dims)) != known_in:
            raise ValueError(f"Cannot reshape a tensor with {known_in} elements to shape "
                             f"{list(dims)} ({int(np.prod(dims))} elements) for '{op.name}' (op: 'Reshape') with "
                             f"input shapes: {_dims_str(x.shape)}, {_dims_str(s.shape)}.")
        return [TensorShape(dims)]
    return [target]


register_op("Reshape", inputs=["tensor: T", "shape: Tshape"], outputs=["output: T"], kernel=_reshape_kernel,
            shape_fn=_reshape_shape, attrs={"Tshape": dtypes.int32})


def reshape(tensor: Any, shape: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: F811
    """Reshape tensor to shape (one dim may be -1)."""
    return ops.apply_op("Reshape", [tensor, shape], name=name)


def _squeeze_shape(op: Any) -> list:
    s = op.inputs[0].shape
    axes = list(op.get_attr("squeeze_dims"))
    if s.ndims is None:
        return [None]
    dims = s.as_list()
    n = len(dims)
    axes = [a + n if a < 0 else a for a in axes]
    for a in axes:
        if not 0 <= a < n:
            raise ValueError(f"Tried to squeeze dim index {a} for tensor with {n} dimensions.")
        if dims[a] not in (None, 1):
            raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, got {dims[a]} for "
                             f"'{op.name}' (op: 'Squeeze') with input shapes: {_dims_str(s)}.")
    if axes:
        return [[d for i, d in enumerate(dims) if i not in axes]]
    if any(d is None for d in dims):
        return [None]
    return [[d for d in dims if d != 1]]


def _squeeze_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    axes = ctx.attrs["squeeze_dims"]
    if axes:
        return np.squeeze(x, axis=tuple(axes))
    return np.squeeze(x)


register_op("Squeeze", inputs=["input: T"], outputs=["output: T"], kernel=_squeeze_kernel,
            shape_fn=_squeeze_shape, attrs={"squeeze_dims": []})


def squeeze(input: Any, axis: Any = None, name: Optional[str] = None,  # noqa: A002
            squeeze_dims: Any = None) -> ops.Tensor:
    """Remove size-1 dims (all, or those in axis)."""
    if squeeze_dims is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'squeeze_dims' and 'axis'")
        axis = squeeze_dims
    if np.isscalar(axis):
        axis = [axis]
    return ops.apply_op("Squeeze", [input], {"squeeze_dims": [int(a) for a in (axis or [])]}, name=name)


def _expand_dims_shape(op: Any) -> list:
    s = op.inputs[0].shape
    a = _cv(op.inputs[1])
    if s.ndims is None or a is None:
        return [None]
    a = int(np.ravel(a)[0])
    n = s.ndims
    if not -n - 1 <= a <= n:
        raise ValueError(f"Tried to expand dim index {a} for tensor with {n} dimensions.")
    if a < 0:
        a += n + 1
    dims = s.as_list()
    return [dims[:a] + [1] + dims[a:]]


def _expand_dims_kernel(ctx: Any, x: np.ndarray, axis: np.ndarray) -> np.ndarray:
    return np.expand_dims(x, int(np.ravel(axis)[0]))


register_op("ExpandDims", inputs=["input: T", "dim: Tdim"], outputs=["output: T"], kernel=_expand_dims_kernel,
            shape_fn=_expand_dims_shape, attrs={"Tdim": dtypes.int32})


def expand_dims(input: Any, axis: Any = None, name: Optional[str] = None, dim: Any = None) -> ops.Tensor:  # noqa
    """Insert a size-1 dimension at axis."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return ops.apply_op("ExpandDims", [input, axis], name=name)


# ---- transpose -----------------------------------------------------------------------------------------------
def _transpose_shape(op: Any) -> list:
    s = op.inputs[0].shape
    perm = _cv(op.inputs[1])
    if perm is None:
        n = s.ndims if s.ndims is not None else op.inputs[1].shape[0].value
        return [None if n is None else [None] * n]
    perm = [int(p) for p in perm]
    if s.ndims is None:
        return [[None] * len(perm)]
    if len(perm) != s.ndims:
        raise ValueError(f"Dimension must be {s.ndims} but is {len(perm)} for '{op.name}' (op: 'Transpose') with "
                         f"input shapes: {_dims_str(s)}, [{len(perm)}].")
    dims = s.as_list()
    return [[dims[p] for p in perm]]


register_op("Transpose", inputs=["x: T", "perm: Tperm"], outputs=["y: T"],
            kernel=lambda ctx, x, p: np.transpose(x, [int(i) for i in p]), shape_fn=_transpose_shape,
            attrs={"Tperm": dtypes.int32})


def transpose(a: Any, perm: Any = None, name: str = "transpose", conjugate: bool = False) -> ops.Tensor:
    """Permute dimensions (default: reverse them)."""
    with ops.name_scope(name, "transpose", [a]) as name:
        a = ops.convert_to_tensor(a, name="a")
        if perm is None:
            if a.shape.ndims is not None:
                perm = list(range(a.shape.ndims - 1, -1, -1))
            else:
                from edgelite.ops import math_ops
                r = rank(a)
                perm = math_ops.range(r - 1, -1, -1)
        return ops.apply_op("Transpose", [a, perm], name=name)


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> ops.Tensor:
    """Transpose the last two dimensions."""
    with ops.name_scope(name, "matrix_transpose", [a]) as name:
        a = ops.convert_to_tensor(a, name="a")
        n = a.shape.ndims
        if n is None:
            raise ValueError("matrix_transpose needs a tensor of known rank")
        if n < 2:
            raise ValueError(f"Argument 'a' should be a (batch) matrix, with rank >= 2.  Found: {a.shape}")
        perm = list(range(n - 2)) + [n - 1, n - 2]
        return ops.apply_op("Transpose", [a, perm], name=name)


# ---- concat / stack / unstack / split --------------------------------------------------------------------
def _concat_shape(op: Any) -> list:
    vals = op.inputs[:-1]
    axis = _cv(op.inputs[-1])
    ranks = [v.shape.ndims for v in vals if v.shape.ndims is not None]
    if not ranks:
        return [None]
    n = ranks[0]
    for r in ranks:
        if r != n:
            raise ValueError(f"Shape must be rank {n} but is rank {r} for '{op.name}' (op: 'ConcatV2')")
    if axis is None:
        return [[None] * n]
    a = int(axis)
    if not -n <= a < n:
        raise ValueError(f"ConcatOp : Expected concatenating dimensions in the range [{-n}, {n}), but got {a}")
    a = a + n if a < 0 else a
    out: list = [None] * n
    total: Any = 0
    for v in vals:
        if v.shape.ndims is None:
            total = None
            continue
        d = v.shape.as_list()
        for i in range(n):
            if i == a:
                continue
            if out[i] is None:
                out[i] = d[i]
            elif d[i] is not None and d[i] != out[i]:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {out[i]} and {d[i]}. Shapes "
                                 f"are {[x.shape.as_list() for x in vals if x.shape.ndims is not None]} for "
                                 f"'{op.name}' (op: 'ConcatV2')")
        total = None if total is None or d[a] is None else total + d[a]
    out[a] = total
    return [out]


def _concat_kernel(ctx: Any, values: list, axis: np.ndarray) -> np.ndarray:
    return np.concatenate(values, axis=int(axis))


register_op("ConcatV2", inputs=["values: N * T", "axis: Tidx"], outputs=["output: T"], kernel=_concat_kernel,
            shape_fn=_concat_shape, attrs={"Tidx": dtypes.int32})


def concat(values: Any, axis: Any, name: str = "concat") -> ops.Tensor:
    """Concatenate tensors along axis (a single tensor is returned via identity)."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with ops.name_scope(name) as scope:
            ops.convert_to_tensor(axis, name="concat_dim", dtype=dtypes.int32)
            return identity(values[0], name=scope)
    return ops.apply_op("ConcatV2", [list(values), axis], name=name)


def _pack_shape(op: Any) -> list:
    axis = op.get_attr("axis")
    s = tensor_shape.unknown_shape()
    for v in op.inputs:
        try:
            s = s.merge_with(v.shape)
        except ValueError:
            raise ValueError(f"Shapes must be equal rank, but are {s.ndims} and {v.shape.ndims}\n\tFrom merging "
                             f"shape 0 with other shapes. for '{op.name}' (op: 'Pack')") from None
    if s.ndims is None:
        return [None]
    n = s.ndims + 1
    if not -n <= axis < n:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
    a = axis + n if axis < 0 else axis
    dims = s.as_list()
    return [dims[:a] + [len(op.inputs)] + dims[a:]]


register_op("Pack", inputs=["values: N * T"], outputs=["output: T"],
            kernel=lambda ctx, vs: np.stack(vs, axis=ctx.attrs["axis"]), shape_fn=_pack_shape, attrs={"axis": 0})


def stack(values: list, axis: int = 0, name: str = "stack") -> ops.Tensor:
    """Stack rank-R tensors into one rank-(R+1) tensor."""
    return ops.apply_op("Pack", [list(values)], {"axis": int(axis)}, name=name)


def _unpack_kernel(ctx: Any, x: np.ndarray) -> tuple:
    axis = ctx.attrs["axis"]
    return tuple(np.moveaxis(x, axis, 0))


def _unpack_shape(op: Any) -> list:
    s = op.inputs[0].shape
    num = op.get_attr("num")
    if s.ndims is None:
        return [None] * num
    axis = op.get_attr("axis")
    dims = s.as_list()
    a = axis + len(dims) if axis < 0 else axis
    return [dims[:a] + dims[a + 1:]] * num


register_op("Unpack", inputs=["value: T"], outputs=["output: num * T"], kernel=_unpack_kernel,
            shape_fn=_unpack_shape, attrs={"axis": 0})


def unstack(value: Any, num: Optional[int] = None, axis: int = 0, name: str = "unstack") -> list:
    """Split a tensor into a list of tensors along axis."""
    with ops.name_scope(name, "unstack", [value]) as scope:
        value = ops.convert_to_tensor(value)
        if num is None:
            s = value.shape
            if s.ndims is None:
                raise ValueError(f"Cannot infer argument `num` from shape {s}")
            n = s.ndims
            if not -n <= axis < n:
                raise ValueError(f"axis = {axis} not in [{-n}, {n})")
            num = s.as_list()[axis]
            if num is None:
                raise ValueError(f"Cannot infer argument `num` from shape {s}")
        return list(ops.apply_op("Unpack", [value], {"num": int(num), "axis": int(axis)}, name=scope))


def _split_shape(op: Any) -> list:
    axis = _cv(op.inputs[0])
    s = op.inputs[1].shape
    n = op.get_attr("num_split")
    if s.ndims is None:
        return [None] * n
    dims = s.as_list()
    if axis is None:
        return [[None] * len(dims)] * n
    a = int(axis) + len(dims) if int(axis) < 0 else int(axis)
    d = dims[a]
    if d is not None:
        if d % n:
            raise ValueError(f"Dimension size must be evenly divisible by {n} but is {d} for '{op.name}' (op: "
                             f"'Split') with input shapes: [], {_dims_str(s)} and with computed input tensors: "
                             f"input[0] = <{int(axis)}>.")
        d //= n
    return [dims[:a] + [d] + dims[a + 1:]] * n


register_op("Split", inputs=["split_dim: int32", "value: T"], outputs=["output: num_split * T"],
            kernel=lambda ctx, a, x: tuple(np.split(x, ctx.attrs["num_split"], axis=int(a))),
            shape_fn=_split_shape)


def _splitv_shape(op: Any) -> list:
    sizes = _cv(op.inputs[1])
    axis = _cv(op.inputs[2])
    s = op.inputs[0].shape
    n = op.get_attr("num_split")
    if s.ndims is None:
        return [None] * n
    dims = s.as_list()
    if axis is None or sizes is None:
        return [[None] * len(dims)] * n
    a = int(axis) + len(dims) if int(axis) < 0 else int(axis)
    sizes = [int(x) for x in sizes]
    if -1 in sizes and dims[a] is not None:
        sizes[sizes.index(-1)] = dims[a] - (sum(sizes) + 1)
    elif dims[a] is not None and sum(sizes) != dims[a]:
        raise ValueError(f"Determined shape must either match input shape along split_dim exactly if fully "
                         f"specified, or be less than the size of the input along split_dim if not fully "
                         f"specified.  Got: {sum(sizes)}")
    return [dims[:a] + [None if z < 0 else z] + dims[a + 1:] for z in sizes]


def _splitv_kernel(ctx: Any, x: np.ndarray, sizes: np.ndarray, axis: np.ndarray) -> tuple:
    a = int(axis)
    sizes = [int(s) for s in sizes]
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[a] - (sum(sizes) + 1)
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=a))


register_op("SplitV", inputs=["value: T", "size_splits: Tlen", "split_dim: int32"],
            outputs=["output: num_split * T"], kernel=_splitv_kernel, shape_fn=_splitv_shape,
            attrs={"Tlen": dtypes.int64})


def split(value: Any, num_or_size_splits: Any, axis: Any = 0, num: Optional[int] = None,
          name: str = "split") -> list:
    """Split value into equal pieces (int) or pieces of the given sizes (list) along axis."""
    if isinstance(num_or_size_splits, (numbers.Integral, tensor_shape.Dimension)):
        return list(ops.apply_op("Split", [axis, value], {"num_split": int(num_or_size_splits)}, name=name))
    size_splits = ops.convert_to_tensor(num_or_size_splits) if not isinstance(num_or_size_splits, ops.Tensor) \
        else num_or_size_splits
    if num is None:
        n = size_splits.shape.as_list()[0] if size_splits.shape.ndims == 1 else None
        if n is None:
            raise ValueError(f"Cannot infer argument `num` from shape {size_splits.shape}")
        num = n
    return list(ops.apply_op("SplitV", [value, size_splits, axis], {"num_split": int(num)}, name=name))


# ---- slicing ---------------------------------------------------------------------------------------------------
def _slice_kernel(ctx: Any, x: np.ndarray, begin: np.ndarray, size_: np.ndarray) -> np.ndarray:
    idx = []
    for d, (b, s) in enumerate(zip(begin, size_)):
        b = int(b)
        s = int(s)
        e = x.shape[d] if s == -1 else b + s
        if b < 0 or e > x.shape[d] or b > e:
            raise errors.InvalidArgumentError(None, None, f"Expected size[{d}] in [0, {x.shape[d] - b}], but got {s}")
        idx.append(builtin_slice(b, e))
    return x[tuple(idx)]


def _slice_shape(op: Any) -> list:
    s = op.inputs[0].shape
    begin, sz = _cv(op.inputs[1]), _cv(op.inputs[2])
    n = s.ndims if s.ndims is not None else op.inputs[1].shape[0].value if op.inputs[1].shape.ndims else None
    if sz is None:
        return [None if n is None else [None] * n]
    out = []
    dims = s.as_list() if s.ndims is not None else [None] * len(sz)
    for i, z in enumerate(sz):
        z = int(z)
        if z == -1:
            out.append(None if begin is None or dims[i] is None else dims[i] - int(begin[i]))
        else:
            out.append(z)
    return [out]


register_op("Slice", inputs=["input: T", "begin: Index", "size: Index"], outputs=["output: T"],
            kernel=_slice_kernel, shape_fn=_slice_shape, attrs={"Index": dtypes.int32})


def slice(input_: Any, begin: Any, size: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A001
    """Extract size elements starting at begin (size -1 = to the end)."""
    return ops.apply_op("Slice", [input_, begin, size], name=name)


def _strided_slice_spec(shape: list, begin: list, end: list, strides: list, attrs: dict) -> tuple:
    """Turn strided_slice args + masks into (numpy index tuple, final shape) for an input shape."""
    bm, em = attrs["begin_mask"], attrs["end_mask"]
    elm, nam, sam = attrs["ellipsis_mask"], attrs["new_axis_mask"], attrs["shrink_axis_mask"]
    n_spec = len(begin)
    idx: list = []
    final: list = []
    dim = 0
    ell_seen = False
    n_real = sum(1 for i in range(n_spec) if not (nam >> i) & 1 and not (elm >> i) & 1)
    for i in range(n_spec):
        if (elm >> i) & 1:
            if ell_seen:
                raise ValueError("Multiple ellipses in slice spec not allowed")
            ell_seen = True
            k = len(shape) - dim - (n_real - sum(1 for j in range(i) if not (nam >> j) & 1 and not (elm >> j) & 1))
            for _ in range(max(k, 0)):
                idx.append(builtin_slice(None))
                final.append(shape[dim])
                dim += 1
            continue
        if (nam >> i) & 1:
            idx.append(None)
            final.append(1)
            continue
        if dim >= len(shape):
            raise ValueError(f"Index out of range using input dim {dim}; input has only {len(shape)} dims")
        st = int(strides[i])
        if st == 0:
            raise ValueError("strides[{i}] must be non-zero")
        d = shape[dim]
        if (sam >> i) & 1:
            b = int(begin[i])
            if d is not None:
                if not -d <= b < d:
                    raise ValueError(f"slice index {b} of dimension {dim} out of bounds.")
                b = b + d if b < 0 else b
            idx.append(b)
            dim += 1
            continue
        b = None if (bm >> i) & 1 else int(begin[i])
        e = None if (em >> i) & 1 else int(end[i])
        idx.append(builtin_slice(b, e, st))
        final.append(None if d is None else len(range(*builtin_slice(b, e, st).indices(d))))
        dim += 1
    while dim < len(shape):
        idx.append(builtin_slice(None))
        final.append(shape[dim])
        dim += 1
    return tuple(idx), final


def _strided_slice_kernel(ctx: Any, x: np.ndarray, b: np.ndarray, e: np.ndarray, s: np.ndarray) -> np.ndarray:
    try:
        idx, _ = _strided_slice_spec(list(x.shape), list(b), list(e), list(s), ctx.attrs)
    except ValueError as err:
        raise errors.InvalidArgumentError(None, None, str(err)) from None
    return np.array(x[idx])


def _strided_slice_shape(op: Any) -> list:
    s = op.inputs[0].shape
    b, e, st = (_cv(t) for t in op.inputs[1:4])
    if s.ndims is None or b is None or e is None or st is None:
        return [None]
    _, final = _strided_slice_spec(s.as_list(), list(b), list(e), list(st), op._attrs)
    return [final]


register_op("StridedSlice", inputs=["input: T", "begin: Index", "end: Index", "strides: Index"],
            outputs=["output: T"], kernel=_strided_slice_kernel, shape_fn=_strided_slice_shape,
            attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0,
                   "Index": dtypes.int32})


def strided_slice(input_: Any, begin: Any, end: Any, strides: Any = None, begin_mask: int = 0,
                  end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0,
                  var: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Python-style strided slicing with TF's bit masks."""
    if strides is None:
        strides = ones_like(begin)
    attrs = {"begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
             "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}
    out = ops.apply_op("StridedSlice", [input_, begin, end, strides], attrs, name=name)
    if var is not None:
        parent_name = out.op.name

        def assign(val: Any, name: Optional[str] = None) -> ops.Tensor:
            """Assign val to this slice of the variable (no broadcasting)."""
            return ops.apply_op("StridedSliceAssign", [var._ref(), begin, end, strides, val], attrs,
                                name=name or parent_name + "_assign")

        out.assign = assign
    return out


def _python_index(s: Any) -> Any:
    """NumPy integer scalars (x[np.int64(0)], x[np.int32(1):]) as Python ints, so every bound packs to one
    index dtype, as TensorFlow accepts them."""
    if isinstance(s, np.integer):
        return int(s)
    if isinstance(s, builtin_slice):
        parts = [int(p) if isinstance(p, np.integer) else p for p in (s.start, s.stop, s.step)]
        return builtin_slice(*parts)
    return s


def _slice_helper(tensor: Any, slice_spec: Any, var: Any = None) -> ops.Tensor:
    """tensor[slice_spec] as a StridedSlice (TF's Tensor.__getitem__)."""
    if isinstance(slice_spec, (bool, np.bool_)) or \
            (isinstance(slice_spec, ops.Tensor) and slice_spec.dtype == dtypes.bool):
        raise TypeError("Boolean masks are not supported as tensor indices; use tf.boolean_mask")
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    slice_spec = [_python_index(s) for s in slice_spec]
    begin, end, strides = [], [], []
    bm = em = elm = nam = sam = 0
    for i, s in enumerate(slice_spec):
        if isinstance(s, builtin_slice):
            for part in (s.start, s.stop, s.step):
                if part is not None and not isinstance(part, (numbers.Integral, ops.Tensor)):
                    raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                                    f"tf.int32/tf.int64 tensors are valid indices, got {s!r}")
            begin.append(0 if s.start is None else s.start)
            end.append(0 if s.stop is None else s.stop)
            strides.append(1 if s.step is None else s.step)
            if s.start is None:
                bm |= 1 << i
            if s.stop is None:
                em |= 1 << i
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            elm |= 1 << i
        elif s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            nam |= 1 << i
        elif isinstance(s, (numbers.Integral, ops.Tensor)) and not isinstance(s, bool):
            if isinstance(s, ops.Tensor) and s.dtype not in (dtypes.int32, dtypes.int64):
                raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                                f"tf.int32/tf.int64 tensors are valid indices, got {s!r}")
            begin.append(s)
            end.append(s + 1)
            strides.append(1)
            sam |= 1 << i
        else:
            raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                            f"tf.int32/tf.int64 tensors are valid indices, got {s!r}")
    with ops.name_scope(None, "strided_slice", [tensor] + begin + end + strides) as name:
        if begin:
            packed_begin, packed_end, packed_strides = (stack(begin), stack(end), stack(strides))
        else:
            packed_begin = packed_end = packed_strides = constant([], dtype=dtypes.int32)
        return strided_slice(tensor, packed_begin, packed_end, packed_strides, begin_mask=bm, end_mask=em,
                             shrink_axis_mask=sam, new_axis_mask=nam, ellipsis_mask=elm, var=var, name=name)


ops.Tensor._override_operator("__getitem__", _slice_helper)


def _strided_slice_grad_kernel(ctx: Any, shp: np.ndarray, b: np.ndarray, e: np.ndarray, s: np.ndarray,
                               dy: np.ndarray) -> np.ndarray:
    out = np.zeros([int(d) for d in shp], dtype=dy.dtype)
    idx, final = _strided_slice_spec(list(out.shape), list(b), list(e), list(s), ctx.attrs)
    out[idx] = np.reshape(dy, np.shape(out[idx]))
    return out


def _strided_slice_assign_kernel(ctx: Any, ref: Any, b: np.ndarray, e: np.ndarray, s: np.ndarray,
                                 value: np.ndarray) -> Any:
    old = ref.read()
    idx, _ = _strided_slice_spec(list(old.shape), list(b), list(e), list(s), ctx.attrs)
    target = old[idx]
    if np.shape(target) != value.shape:
        raise errors.InvalidArgumentError(None, None, f"sliced l-value shape {list(np.shape(target))} does not match "
                                                      f"r-value shape {list(value.shape)}. Automatic broadcasting "
                                                      "not yet implemented.")
    new = old.copy()
    new[idx] = value
    ref.write(new)
    return ref


register_op("StridedSliceAssign", inputs=["ref: Ref(T)", "begin: Index", "end: Index", "strides: Index", "value: T"],
            outputs=["output_ref: Ref(T)"], kernel=_strided_slice_assign_kernel,
            shape_fn=lambda op: [op.inputs[0].shape], stateful=True,
            attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0,
                   "Index": dtypes.int32})
ops.NoGradient("StridedSliceAssign")


register_op("StridedSliceGrad", inputs=["shape: Index", "begin: Index", "end: Index", "strides: Index", "dy: T"],
            outputs=["output: T"], kernel=_strided_slice_grad_kernel,
            shape_fn=lambda op: [tensor_util.constant_value_as_shape(op.inputs[0])],
            attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0,
                   "Index": dtypes.int32})


# ---- gather ----------------------------------------------------------------------------------------------------
def _gather_kernel(ctx: Any, params: np.ndarray, indices: np.ndarray, axis: np.ndarray) -> np.ndarray:
    a = int(axis)
    a = a + params.ndim if a < 0 else a
    bd = ctx.attrs.get("batch_dims", 0)
    lim = params.shape[a]
    if indices.size and (indices.min() < 0 or indices.max() >= lim):
        bad = indices[(indices < 0) | (indices >= lim)].ravel()[0]
        raise errors.InvalidArgumentError(None, None, f"indices = {bad} is not in [0, {lim})")
    if bd == 0:
        # np.take with a 0-d index hands back a bare element (bytes for a string tensor), not an array.
        return np.asarray(np.take(params, indices, axis=a), dtype=params.dtype)
    bd = bd + indices.ndim if bd < 0 else bd
    batch = params.shape[:bd]
    p = params.reshape((-1,) + params.shape[bd:])
    ind = indices.reshape((-1,) + indices.shape[bd:])
    outs = [np.take(p[i], ind[i], axis=a - bd) for i in range(p.shape[0])]
    res = np.stack(outs) if outs else np.zeros((0,), params.dtype)
    return res.reshape(batch + res.shape[1:])


def _gather_shape(op: Any) -> list:
    ps, is_ = op.inputs[0].shape, op.inputs[1].shape
    axis = _cv(op.inputs[2])
    bd = op.get_attr("batch_dims")
    if ps.ndims is None or is_.ndims is None or axis is None:
        return [None]
    a = int(axis)
    if not -ps.ndims <= a < ps.ndims:
        raise ValueError(f"Shape must be at least rank {a + 1} but is rank {ps.ndims} for '{op.name}' (op: "
                         f"'GatherV2')")
    a = a + ps.ndims if a < 0 else a
    bd = bd + is_.ndims if bd < 0 else bd
    pd, idd = ps.as_list(), is_.as_list()
    return [pd[:a] + idd[bd:] + pd[a + 1:]]


register_op("GatherV2", inputs=["params: Tparams", "indices: Tindices", "axis: Taxis"], outputs=["output: Tparams"],
            kernel=_gather_kernel, shape_fn=_gather_shape, attrs={"batch_dims": 0, "Taxis": dtypes.int32})


def gather(params: Any, indices: Any, validate_indices: Any = None, name: Optional[str] = None, axis: Any = None,
           batch_dims: int = 0) -> ops.Tensor:
    """Gather slices of params along axis at indices."""
    if axis is None:
        axis = batch_dims
    if hasattr(params, "sparse_read") and not isinstance(params, ops.Tensor) and axis == 0 and batch_dims == 0:
        return params.sparse_read(indices, name=name)
    return ops.apply_op("GatherV2", [params, indices, axis], {"batch_dims": int(batch_dims)}, name=name)


def _gather_nd_kernel(ctx: Any, params: np.ndarray, indices: np.ndarray) -> np.ndarray:
    k = indices.shape[-1]
    if indices.size:
        lim = np.array(params.shape[:k])
        bad = (indices < 0) | (indices >= lim)
        if bad.any():
            pos = np.argwhere(bad.any(axis=-1))[0]
            raise errors.InvalidArgumentError(None, None, f"indices{list(pos)} = {list(indices[tuple(pos)])} does "
                                                          f"not index into param shape {list(params.shape)}")
    flat = indices.reshape(-1, k)
    out = params[tuple(flat.T)] if k else np.broadcast_to(params, (flat.shape[0],) + params.shape)
    return out.reshape(indices.shape[:-1] + params.shape[k:])


def _gather_nd_shape(op: Any) -> list:
    ps, is_ = op.inputs[0].shape, op.inputs[1].shape
    if ps.ndims is None or is_.ndims is None or is_.as_list()[-1] is None:
        return [None]
    k = is_.as_list()[-1]
    if k > ps.ndims:
        raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: {is_.as_list()} and "
                         f"params shape: {ps.as_list()} for '{op.name}' (op: 'GatherNd')")
    return [is_.as_list()[:-1] + ps.as_list()[k:]]


register_op("GatherNd", inputs=["params: Tparams", "indices: Tindices"], outputs=["output: Tparams"],
            kernel=_gather_nd_kernel, shape_fn=_gather_nd_shape)


def gather_nd(params: Any, indices: Any, name: Optional[str] = None, batch_dims: int = 0) -> ops.Tensor:
    """Gather slices of params addressed by the last dim of indices."""
    if batch_dims:
        raise ValueError("gather_nd with batch_dims is not supported by edgelite")
    return ops.apply_op("GatherNd", [params, indices], name=name)


def _scatter_nd_kernel(ctx: Any, indices: np.ndarray, updates: np.ndarray, shp: np.ndarray) -> np.ndarray:
    out = np.zeros([int(d) for d in shp], dtype=updates.dtype)
    k = indices.shape[-1]
    flat_idx = indices.reshape(-1, k)
    flat_upd = updates.reshape((flat_idx.shape[0],) + out.shape[k:])
    np.add.at(out, tuple(flat_idx.T), flat_upd)
    return out


register_op("ScatterNd", inputs=["indices: Tindices", "updates: T", "shape: Tindices"], outputs=["output: T"],
            kernel=_scatter_nd_kernel, shape_fn=lambda op: [tensor_util.constant_value_as_shape(op.inputs[2])])


def scatter_nd(indices: Any, updates: Any, shape: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: F811
    """A zero tensor of shape with updates added at indices (duplicates sum)."""
    return ops.apply_op("ScatterNd", [indices, updates, shape], name=name)


# ---- pad / tile / fill / broadcast ------------------------------------------------------------------------------
def _pad_shape(op: Any) -> list:
    s = op.inputs[0].shape
    p = _cv(op.inputs[1])
    if p is None:
        n = s.ndims if s.ndims is not None else op.inputs[1].shape[0].value
        return [None if n is None else [None] * n]
    p = np.asarray(p).reshape(-1, 2)
    if s.ndims is not None and s.ndims != p.shape[0]:
        raise ValueError(f"The first dimension of paddings must be the rank of inputs[{p.shape[0]},2] "
                         f"{_dims_str(s)} for '{op.name}' (op: '{op.type}')")
    dims = s.as_list() if s.ndims is not None else [None] * p.shape[0]
    return [[None if d is None else d + int(a) + int(b) for d, (a, b) in zip(dims, p)]]


def _pad_kernel(ctx: Any, x: np.ndarray, p: np.ndarray, *cval: np.ndarray) -> np.ndarray:
    p = np.asarray(p, dtype=np.int64).reshape(-1, 2)
    if (p < 0).any():
        raise errors.InvalidArgumentError(None, None, f"Paddings must be non-negative: {p.tolist()}")
    return np.pad(x, p, mode="constant", constant_values=(cval[0] if cval else 0))


register_op("Pad", inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"], kernel=_pad_kernel,
            shape_fn=_pad_shape, attrs={"Tpaddings": dtypes.int32})
register_op("PadV2", inputs=["input: T", "paddings: Tpaddings", "constant_values: T"], outputs=["output: T"],
            kernel=_pad_kernel, shape_fn=_pad_shape, attrs={"Tpaddings": dtypes.int32})


def _mirror_pad_kernel(ctx: Any, x: np.ndarray, p: np.ndarray) -> np.ndarray:
    mode = ctx.attrs["mode"]
    return np.pad(x, np.asarray(p, dtype=np.int64).reshape(-1, 2), mode="reflect" if mode == "REFLECT" else "symmetric")


register_op("MirrorPad", inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"],
            kernel=_mirror_pad_kernel, shape_fn=_pad_shape, attrs={"Tpaddings": dtypes.int32})


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", name: Optional[str] = None,
        constant_values: Any = 0) -> ops.Tensor:
    """Pad a tensor (CONSTANT, REFLECT or SYMMETRIC)."""
    mode = mode.upper()
    if mode == "CONSTANT":
        if not isinstance(constant_values, ops.Tensor) and np.all(np.asarray(constant_values) == 0):
            return ops.apply_op("Pad", [tensor, paddings], name=name)
        with ops.name_scope(name, "PadV2") as scope:
            t = ops.convert_to_tensor(tensor, name="input")
            return ops.apply_op("PadV2", [t, paddings, ops.convert_to_tensor(constant_values, dtype=t.dtype)],
                                name=scope)
    if mode in ("REFLECT", "SYMMETRIC"):
        return ops.apply_op("MirrorPad", [tensor, paddings], {"mode": mode}, name=name)
    raise ValueError(f"Unknown padding mode: {mode}")


def _tile_shape(op: Any) -> list:
    s = op.inputs[0].shape
    m = _cv(op.inputs[1])
    if s.ndims is None:
        n = op.inputs[1].shape[0].value if op.inputs[1].shape.ndims else None
        return [None if n is None else [None] * n]
    if m is None:
        # multiples computed at run time: the entries known at build time (a stack of constants and
        # tf.shape slices) still give those dimensions, as TensorFlow's shape inference does
        partial = tensor_util.constant_value_as_shape(op.inputs[1])
        m = partial.as_list() if partial.ndims == s.ndims else [None] * s.ndims
    if len(m) != s.ndims:
        raise ValueError(f"Shape must be rank {s.ndims} but is rank {len(m)}")
    return [[None if d is None or k is None else d * int(k) for d, k in zip(s.as_list(), m)]]


register_op("Tile", inputs=["input: T", "multiples: Tmultiples"], outputs=["output: T"],
            kernel=lambda ctx, x, m: np.tile(x, [int(k) for k in m]), shape_fn=_tile_shape,
            attrs={"Tmultiples": dtypes.int32})


def tile(input: Any, multiples: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Repeat input multiples[i] times along dim i."""
    return ops.apply_op("Tile", [input, multiples], name=name)


def _fill_kernel(ctx: Any, dims: np.ndarray, value: np.ndarray) -> np.ndarray:
    if np.ndim(value) != 0:
        raise errors.InvalidArgumentError(None, None, f"value must be a scalar, got shape {list(np.shape(value))}")
    return np.full([int(d) for d in dims], value, dtype=value.dtype)


register_op("Fill", inputs=["dims: index_type", "value: T"], outputs=["output: T"], kernel=_fill_kernel,
            shape_fn=lambda op: [tensor_util.constant_value_as_shape(op.inputs[0])],
            attrs={"index_type": dtypes.int32})


def fill(dims: Any, value: Any, name: Optional[str] = None) -> ops.Tensor:
    """A tensor of shape dims filled with the scalar value."""
    return ops.apply_op("Fill", [dims, value], name=name)


def _broadcast_to_shape(op: Any) -> list:
    target = tensor_util.constant_value_as_shape(op.inputs[1])
    from edgelite.framework.common_shapes import broadcast_static_shape
    try:
        out = broadcast_static_shape(op.inputs[0].shape, target)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: {op.inputs[0].shape} and {target}") from None
    return [target if target.ndims is not None and out.ndims == target.ndims and target.is_fully_defined() else out]


register_op("BroadcastTo", inputs=["input: T", "shape: Tidx"], outputs=["output: T"],
            kernel=lambda ctx, x, s: np.array(np.broadcast_to(x, [int(d) for d in s])),
            shape_fn=_broadcast_to_shape, attrs={"Tidx": dtypes.int32})


def broadcast_to(input: Any, shape: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """Broadcast input to shape (numpy rules)."""
    return ops.apply_op("BroadcastTo", [input, shape], name=name)


@functools.lru_cache(maxsize=4096)
def _bcast_reduction_axes(s0: tuple, s1: tuple) -> Optional[tuple]:
    n = max(len(s0), len(s1))
    a = (1,) * (n - len(s0)) + s0
    b = (1,) * (n - len(s1)) + s1
    if any(x != y and x != 1 and y != 1 for x, y in zip(a, b)):
        return None
    out = [max(x, y) for x, y in zip(a, b)]
    ra = tuple(i for i in range(n) if a[i] == 1 and out[i] != 1)
    rb = tuple(i for i in range(n) if b[i] == 1 and out[i] != 1)
    return ra, rb


def _bcast_args_kernel(ctx: Any, s0: np.ndarray, s1: np.ndarray) -> tuple:
    axes = _bcast_reduction_axes(tuple(s0.tolist()), tuple(s1.tolist()))
    if axes is None:
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: {list(s0)} vs. {list(s1)}")
    return np.array(axes[0], dtype=s0.dtype), np.array(axes[1], dtype=s0.dtype)


register_op("BroadcastGradientArgs", inputs=["s0: T", "s1: T"], outputs=["r0: T", "r1: T"],
            kernel=_bcast_args_kernel, shape_fn=lambda op: [[None], [None]], attrs={"T": dtypes.int32})


def broadcast_gradient_args(s0: Any, s1: Any, name: Optional[str] = None) -> list:
    """Axes to reduce the gradient over for each of two broadcast operands."""
    return ops.apply_op("BroadcastGradientArgs", [s0, s1], name=name)


def broadcast_static_shape(shape_x: Any, shape_y: Any) -> TensorShape:
    """The static broadcast shape; ValueError if incompatible."""
    return common_shapes.broadcast_static_shape(shape_x, shape_y)


def _bcast_dynamic_kernel(ctx: Any, s0: np.ndarray, s1: np.ndarray) -> np.ndarray:
    try:
        return np.array(np.broadcast_shapes(tuple(s0), tuple(s1)), dtype=s0.dtype)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: {list(s0)} vs. {list(s1)}") from None


register_op("BroadcastArgs", inputs=["s0: T", "s1: T"], outputs=["r0: T"], kernel=_bcast_dynamic_kernel,
            shape_fn=lambda op: [[None]], attrs={"T": dtypes.int32})


def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> ops.Tensor:
    """The broadcast of two shape tensors."""
    return ops.apply_op("BroadcastArgs", [shape_x, shape_y])


# ---- zeros / ones -------------------------------------------------------------------------------------------
register_op("ZerosLike", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: zeros_like_value(x),
            shape_fn=common_shapes.unchanged_shape)
register_op("OnesLike", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: np.ones_like(x),
            shape_fn=common_shapes.unchanged_shape)


def _constant_if_small(value: Any, shape: Any, dtype: Any, name: str) -> Optional[ops.Tensor]:
    try:
        if np.prod(shape) < 1000:
            return constant(value, shape=shape, dtype=dtype, name=name)
    except (TypeError, ValueError):
        return None
    return None


def _filled(value: Any, shape: Any, dtype: Any, name: Optional[str], default: str) -> ops.Tensor:
    dtype = dtypes.as_dtype(dtype).base_dtype
    with ops.name_scope(name, default, [shape]) as name:
        fillv = False if dtype == dtypes.bool and value == 0 else (True if dtype == dtypes.bool else value)
        if dtype == dtypes.string:
            fillv = b""
        if isinstance(shape, TensorShape):
            shape = shape.as_list()
        if not isinstance(shape, ops.Tensor):
            try:
                out = _constant_if_small(fillv, shape, dtype, name)
                if out is not None:
                    return out
                shape = constant_op._shape_conversion(TensorShape(shape)) if not isinstance(shape, ops.Tensor) \
                    else shape
            except (TypeError, ValueError):
                shape = ops.convert_to_tensor(shape, dtype=dtypes.int32)
        return fill(shape, constant(fillv, dtype=dtype), name=name)


def zeros(shape: Any, dtype: Any = dtypes.float32, name: Optional[str] = None) -> ops.Tensor:
    """A tensor of zeros."""
    return _filled(0, shape, dtype, name, "zeros")


def ones(shape: Any, dtype: Any = dtypes.float32, name: Optional[str] = None) -> ops.Tensor:
    """A tensor of ones."""
    return _filled(1, shape, dtype, name, "ones")


def _like(tensor: Any, dtype: Any, name: Optional[str], optimize: bool, value: int) -> ops.Tensor:
    default = "zeros_like" if value == 0 else "ones_like"
    with ops.name_scope(name, default, [tensor]) as name:
        t = ops.convert_to_tensor(tensor, name="tensor")
        dt = t.dtype.base_dtype if dtype is None else dtypes.as_dtype(dtype)
        if optimize and t.shape.is_fully_defined():
            return _filled(value, t.shape.as_list(), dt, name, default)
        if dtype is not None and dt != t.dtype.base_dtype:
            return _filled(value, shape_internal(t, optimize=optimize), dt, name, default)
        return ops.apply_op("ZerosLike" if value == 0 else "OnesLike", [t], name=name)


def zeros_like(tensor: Any, dtype: Any = None, name: Optional[str] = None, optimize: bool = True) -> ops.Tensor:
    """Zeros with the shape (and by default dtype) of tensor."""
    return _like(tensor, dtype, name, optimize, 0)


def ones_like(tensor: Any, dtype: Any = None, name: Optional[str] = None, optimize: bool = True) -> ops.Tensor:
    """Ones with the shape (and by default dtype) of tensor."""
    return _like(tensor, dtype, name, optimize, 1)


# ---- one_hot / reverse / where / misc -------------------------------------------------------------------------
def _one_hot_kernel(ctx: Any, indices: np.ndarray, depth: np.ndarray, on: np.ndarray, off: np.ndarray) -> np.ndarray:
    d = int(depth)
    axis = ctx.attrs["axis"]
    eye = np.arange(d)
    hot = indices[..., None] == eye
    out = np.where(hot, on, off).astype(on.dtype)
    if axis != -1:
        out = np.moveaxis(out, -1, axis)
    return out


def _one_hot_shape(op: Any) -> list:
    s = op.inputs[0].shape
    d = _cv(op.inputs[1])
    if s.ndims is None:
        return [None]
    dims = s.as_list()
    axis = op.get_attr("axis")
    pos = len(dims) if axis == -1 else axis
    return [dims[:pos] + [None if d is None else int(d)] + dims[pos:]]


register_op("OneHot", inputs=["indices: TI", "depth: int32", "on_value: T", "off_value: T"], outputs=["output: T"],
            kernel=_one_hot_kernel, shape_fn=_one_hot_shape, attrs={"axis": -1})


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """One-hot encoding of integer indices."""
    with ops.name_scope(name, "one_hot", [indices, depth, on_value, off_value, axis, dtype]) as name:
        on_exists = on_value is not None
        off_exists = off_value is not None
        if on_exists:
            on_value = ops.convert_to_tensor(on_value, dtype_hint=dtype)
        if off_exists:
            off_value = ops.convert_to_tensor(off_value, dtype_hint=dtype)
        on_dtype = on_value.dtype.base_dtype if on_exists else None
        off_dtype = off_value.dtype.base_dtype if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dtype != dtypes.as_dtype(dtype):
                    raise TypeError(f"dtype {dtype} of on_value does not match dtype parameter {on_dtype}")
                if off_exists and off_dtype != dtypes.as_dtype(dtype):
                    raise TypeError(f"dtype {dtype} of off_value does not match dtype parameter {off_dtype}")
            else:
                dtype = on_dtype if on_exists else off_dtype
        elif dtype is None:
            dtype = dtypes.float32
        dtype = dtypes.as_dtype(dtype)
        if not on_exists:
            on_value = ops.convert_to_tensor(1, dtype, name="on_value")
        if not off_exists:
            off_value = ops.convert_to_tensor(0, dtype, name="off_value")
        if on_exists and off_exists and on_dtype != off_dtype:
            raise TypeError(f"dtype {on_dtype} of on_value does not match dtype {off_dtype} of off_value")
        return ops.apply_op("OneHot", [indices, depth, on_value, off_value],
                            {"axis": -1 if axis is None else int(axis)}, name=name)


register_op("ReverseV2", inputs=["tensor: T", "axis: Tidx"], outputs=["output: T"],
            kernel=lambda ctx, x, a: np.flip(x, axis=tuple(int(i) for i in np.ravel(a))) if np.size(a) else x,
            shape_fn=common_shapes.unchanged_shape, attrs={"Tidx": dtypes.int32})


def reverse(tensor: Any, axis: Any, name: Optional[str] = None) -> ops.Tensor:
    """Reverse tensor along the given axes."""
    return ops.apply_op("ReverseV2", [tensor, axis], name=name)


reverse_v2 = reverse


def _where_kernel(ctx: Any, cond: np.ndarray) -> np.ndarray:
    return np.argwhere(cond).astype(np.int64)


register_op("Where", inputs=["input: T"], outputs=["index: int64"], kernel=_where_kernel,
            shape_fn=lambda op: [[None, op.inputs[0].shape.ndims]], attrs={"T": dtypes.bool})


def _select_kernel(ctx: Any, c: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if c.ndim == 1 and x.ndim > 1:
        if c.shape[0] != x.shape[0]:
            raise errors.InvalidArgumentError(None, None, "Expected condition to have the same size as the first "
                                                          "dimension of then")
        c = c.reshape((-1,) + (1,) * (x.ndim - 1))
    elif c.shape != x.shape and c.ndim != 0 or x.shape != y.shape:
        raise errors.InvalidArgumentError(None, None, f"'then' and 'else' must have the same size.  but received: "
                                                      f"{list(x.shape)} vs. {list(y.shape)}")
    return np.where(c, x, y)


def _select_shape(op: Any) -> list:
    c, x, y = (t.shape for t in op.inputs)
    try:
        out = x.merge_with(y)
    except ValueError:
        raise ValueError(f"Shapes must be equal rank, but are {x.ndims} and {y.ndims} for '{op.name}' (op: "
                         f"'Select')") from None
    if c.ndims is not None and out.ndims is not None and c.ndims not in (0, 1) or \
            (c.ndims == 1 and out.ndims == 1):
        try:
            out = out.merge_with(c)
        except ValueError:
            raise ValueError(f"Shapes {c} and {out} are not compatible for '{op.name}' (op: 'Select')") from None
    return [out]


register_op("Select", inputs=["condition: bool", "t: T", "e: T"], outputs=["output: T"], kernel=_select_kernel,
            shape_fn=_select_shape)


def _select_v2_shape(op: Any) -> list:
    c, x, y = (t.shape for t in op.inputs)
    return [common_shapes.broadcast_static_shape(c, common_shapes.broadcast_static_shape(x, y))]


register_op("SelectV2", inputs=["condition: bool", "t: T", "e: T"], outputs=["output: T"],
            kernel=lambda ctx, c, x, y: np.where(c, x, y), shape_fn=_select_v2_shape)


def where(condition: Any, x: Any = None, y: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Coordinates of true elements, or elementwise select(condition, x, y) (v1 shape rules)."""
    if x is None and y is None:
        with ops.name_scope(name, "Where", [condition]) as name:
            condition = ops.convert_to_tensor(condition, preferred_dtype=dtypes.bool, name="condition")
            return ops.apply_op("Where", [condition], {"T": condition.dtype.base_dtype}, name=name)
    if x is not None and y is not None:
        return ops.apply_op("Select", [condition, x, y], name=name)
    raise ValueError("x and y must both be non-None or both be None.")


def where_v2(condition: Any, x: Any = None, y: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Like where but x, y and condition broadcast."""
    if x is None and y is None:
        return where(condition, name=name)
    if x is not None and y is not None:
        return ops.apply_op("SelectV2", [condition, x, y], name=name)
    raise ValueError("x and y must both be non-None or both be None.")


register_op("InvertPermutation", inputs=["x: T"], outputs=["y: T"], kernel=lambda ctx, x: np.argsort(x).astype(x.dtype),
            shape_fn=common_shapes.unchanged_shape, attrs={"T": dtypes.int32})


def invert_permutation(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The inverse of a permutation vector."""
    return ops.apply_op("InvertPermutation", [x], name=name)


def boolean_mask(tensor: Any, mask: Any, name: str = "boolean_mask", axis: Any = None) -> ops.Tensor:
    """Elements (rows) of tensor where mask is True."""
    with ops.name_scope(name, values=[tensor, mask]):
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        mask = ops.convert_to_tensor(mask, name="mask")
        ndims_mask = mask.shape.ndims
        if ndims_mask is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  E.g. "
                             "shape=[None] is ok, but shape=None is not.")
        axis = 0 if axis is None else int(axis)
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if tensor.shape.ndims is not None:
            tensor.shape[axis:axis + ndims_mask].assert_is_compatible_with(mask.shape)
        from edgelite.ops import math_ops
        leading = math_ops.reduce_prod(shape(tensor)[axis:axis + ndims_mask], [0])
        new_shape = concat([shape(tensor)[:axis], [leading], shape(tensor)[axis + ndims_mask:]], 0)
        t = reshape(tensor, new_shape)
        m = reshape(mask, [-1])
        indices = squeeze(where(m), axis=[1])
        return gather(t, indices, axis=axis)


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = dtypes.bool, name: Optional[str] = None) -> ops.Tensor:
    """mask[i, j] = j < lengths[i]."""
    from edgelite.ops import math_ops
    with ops.name_scope(name, "SequenceMask", [lengths, maxlen]):
        lengths = ops.convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = math_ops.reduce_max(lengths, [0] if lengths.shape.ndims else None)
        maxlen = ops.convert_to_tensor(maxlen, dtype=lengths.dtype)
        row = math_ops.range(constant(0, lengths.dtype), maxlen, constant(1, lengths.dtype))
        result = math_ops.less(row, expand_dims(lengths, -1))
        return result if dtypes.as_dtype(dtype) == dtypes.bool else math_ops.cast(result, dtype)


newaxis = None


# ---- auto-packing of lists that contain tensors -----------------------------------------------------------
_NON_AUTOPACKABLE = (int, float, bool, complex, str, bytes, np.ndarray, np.generic, type(None))


def _flatten_nested(v: Any) -> list:
    if isinstance(v, (list, tuple)):
        return [x for e in v for x in _flatten_nested(e)]
    return [v]


def _nested_dtype(v: Any) -> Any:
    for e in _flatten_nested(v):
        if isinstance(e, ops.Tensor):
            return e.dtype.base_dtype
        if hasattr(e, "_as_graph_element") and isinstance(getattr(e, "dtype", None), dtypes.DType):
            return e.dtype.base_dtype
    return None


def _autopack(values: Any, dtype: Any, name: str) -> Any:
    must_pack = False
    converted = []
    with ops.name_scope(name) as scope:
        for i, elem in enumerate(values):
            if isinstance(elem, ops.Tensor) or hasattr(elem, "_as_graph_element"):
                elem = ops.convert_to_tensor(elem)
                if dtype is not None and elem.dtype.base_dtype != dtype:
                    raise TypeError(f"Cannot convert a list containing a tensor of dtype {elem.dtype} to {dtype} "
                                    f"(Tensor is: {elem!r})")
                must_pack = True
            elif isinstance(elem, (list, tuple)):
                elem = _autopack(elem, dtype, str(i))
                must_pack = must_pack or isinstance(elem, ops.Tensor)
            converted.append(elem)
        if not must_pack:
            return converted
        tensors = [e if isinstance(e, ops.Tensor) else constant(e, dtype=dtype, name=str(i))
                   for i, e in enumerate(converted)]
        return ops.apply_op("Pack", [tensors], {"axis": 0}, name=scope)


def _autopacking_conversion(v: Any, dtype: Any = None, name: Optional[str] = None, as_ref: bool = False) -> Any:
    if as_ref or all(isinstance(e, _NON_AUTOPACKABLE) for e in _flatten_nested(v)):
        return NotImplemented
    inferred = _nested_dtype(v)
    if inferred is None:
        return NotImplemented
    if dtype is None:
        dtype = inferred
    else:
        dtype = dtypes.as_dtype(dtype).base_dtype
    return _autopack(v, dtype, name or "packed")


ops.register_tensor_conversion_function((list, tuple), _autopacking_conversion, 99)
