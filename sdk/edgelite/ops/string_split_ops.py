"""String ops that change structure: string_split / strings.split (to a SparseTensor or RaggedTensor), reduce_join,
unsorted_segment_join."""
from __future__ import annotations

import re
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops import string_util as su
from edgelite.ops.sparse_checks import input_with_rank


def _tokens_to_sparse(token_lists: list) -> tuple:
    """(indices [N, 2], values [N], shape [2]) of a batch of token lists, as TF's split kernels return them."""
    rows = np.repeat(np.arange(len(token_lists), dtype=np.int64), [len(t) for t in token_lists])
    cols = np.concatenate([np.arange(len(t), dtype=np.int64) for t in token_lists]) if token_lists else \
        np.zeros(0, np.int64)
    values = np.empty(rows.size, dtype=object)
    values[:] = [tok for t in token_lists for tok in t]
    width = max((len(t) for t in token_lists), default=0)
    return np.stack([rows, cols], axis=1).reshape(-1, 2), values, np.array([len(token_lists), width], np.int64)


def _split_args(x: np.ndarray, sep: np.ndarray, sep_name: str) -> tuple:
    """The input strings and the separator bytes, after TF's rank checks."""
    if x.ndim != 1:
        raise su.invalid(f"input must be a vector, got shape: {su.shape_str(x)}")
    if sep.ndim != 0:
        raise su.invalid(f"{sep_name} must be a scalar, got shape: {su.shape_str(sep)}")
    return su.as_bytes_array(x).tolist(), su.to_bytes(sep.item())


def _split_kernel(ctx: Any, x: np.ndarray, delimiter: np.ndarray) -> tuple:
    strings, delim = _split_args(x, delimiter, "delimiter")
    skip = ctx.attrs["skip_empty"]
    if not delim:
        tokens = [[bytes([c]) for c in s] for s in strings]
    else:
        rx = re.compile(b"[" + re.escape(delim) + b"]")
        # An empty input string has no tokens even when empty tokens are kept.
        tokens = [[t for t in rx.split(s) if t or not skip] if s else [] for s in strings]
    return _tokens_to_sparse(tokens)


def _split_v2_kernel(ctx: Any, x: np.ndarray, sep: np.ndarray) -> tuple:
    strings, s = _split_args(x, sep, "sep")
    maxsplit = ctx.attrs["maxsplit"]
    tokens = [b.split(s, maxsplit) if s else _split_whitespace(b, maxsplit) for b in strings]
    return _tokens_to_sparse(tokens)


_SPACE = b" \t\n\v\f\r"


def _split_whitespace(b: bytes, maxsplit: int) -> list:
    """Whitespace-run splitting as TF's StringSplitV2 does it: once maxsplit tokens are taken, the rest after
    the following whitespace is one more token, even when empty."""
    if maxsplit < 0:
        return b.split()
    tokens: list = []
    pos, n = len(b) - len(b.lstrip(_SPACE)), len(b)
    while pos < n:
        if len(tokens) >= maxsplit:
            tokens.append(b[pos:])
            break
        end = pos
        while end < n and b[end] not in _SPACE:
            end += 1
        tokens.append(b[pos:end])
        pos = end
        while pos < n and b[pos] in _SPACE:
            pos += 1
        if len(tokens) == maxsplit:
            tokens.append(b[pos:])
            break
    return tokens


_SPLIT_OUT = ["indices: int64", "values: string", "shape: int64"]


def _split_shape(op: ops.Operation) -> list:
    input_with_rank(op, 0, 1)
    input_with_rank(op, 1, 0)
    return [[None, 2], [None], [2]]


register_op("StringSplit", inputs=["input: string", "delimiter: string"], outputs=_SPLIT_OUT,
            attrs={"skip_empty": True}, kernel=_split_kernel, shape_fn=_split_shape)
register_op("StringSplitV2", inputs=["input: string", "sep: string"], outputs=_SPLIT_OUT,
            attrs={"maxsplit": -1}, kernel=_split_v2_kernel, shape_fn=_split_shape)


def _reduce_join_kernel(ctx: Any, x: np.ndarray, axes: np.ndarray) -> np.ndarray:
    xs = su.as_bytes_array(x)
    rank = xs.ndim
    order = []
    for a in np.ravel(axes).tolist():
        if not -rank <= a < rank:
            raise errors.OutOfRangeError(None, None, f"Invalid reduction dimension {a} for input with {rank} "
                                                     "dimension(s)")
        a %= rank
        if a in order:
            raise su.invalid(f"Duplicate reduction dimension {a}")
        order.append(a)
    kept = [d for d in range(rank) if d not in order]
    # Reducing axes one after another in the given order: the first listed axis varies fastest.
    moved = np.transpose(xs, kept + order[::-1]) if rank else xs
    groups = moved.reshape([xs.shape[d] for d in kept] + [-1])
    sep = su.to_bytes(ctx.attrs["separator"])
    out = np.empty(groups.shape[:-1], dtype=object)
    out.ravel()[:] = [sep.join(row) for row in groups.reshape(-1, groups.shape[-1]).tolist()] if out.size else []
    if ctx.attrs["keep_dims"]:
        out = out.reshape([1 if d in order else xs.shape[d] for d in range(rank)])
    return out


def _reduce_join_shape(op: ops.Operation) -> list:
    x = op.inputs[0].shape
    axes = tensor_util.constant_value(op.inputs[1])
    if x.ndims is None or axes is None:
        return [None]
    red = {int(a) % x.ndims for a in np.ravel(axes)} if x.ndims else set()
    if op.get_attr("keep_dims"):
        return [[1 if d in red else x[d].value for d in range(x.ndims)]]
    return [[x[d].value for d in range(x.ndims) if d not in red]]


register_op("ReduceJoin", inputs=["inputs: string", "reduction_indices: int32"], outputs=["output: string"],
            attrs={"keep_dims": False, "separator": ""}, kernel=_reduce_join_kernel, shape_fn=_reduce_join_shape)


def _segment_join_kernel(ctx: Any, x: np.ndarray, ids: np.ndarray, num: np.ndarray) -> np.ndarray:
    xs = su.as_bytes_array(x)
    if xs.shape[:ids.ndim] != ids.shape:
        raise su.invalid(f"segment_ids.shape = {su.shape_str(ids)} does not prefix inputs.shape = "
                         f"{su.shape_str(xs)}")
    n = int(num)
    flat_ids = ids.ravel()
    rows = xs.reshape((flat_ids.size,) + xs.shape[ids.ndim:])
    if ((flat_ids < 0) | (flat_ids >= n)).any():
        raise su.invalid("segment_ids are not allowed to exceed num_segments or to have negative values.")
    sep = su.to_bytes(ctx.attrs["separator"])
    inner = rows.shape[1:]
    out = np.empty((n,) + inner, dtype=object)
    flat_rows = rows.reshape(flat_ids.size, -1)
    flat_out = out.reshape(n, -1)
    for k in range(n):
        members = flat_rows[flat_ids == k]
        flat_out[k] = [sep.join(col) for col in members.T.tolist()] if members.shape[0] else [b""] * flat_out.shape[1]
    return out


def _segment_join_shape(op: ops.Operation) -> list:
    x, ids = op.inputs[0].shape, op.inputs[1].shape
    n = tensor_util.constant_value(op.inputs[2])
    if x.ndims is None or ids.ndims is None:
        return [None]
    return [[None if n is None else int(n)] + x.as_list()[ids.ndims:]]


register_op("UnsortedSegmentJoin", inputs=["inputs: string", "segment_ids: Tindices", "num_segments: Tnumsegments"],
            outputs=["output: string"],
            attrs={"separator": "", "Tindices": dtypes.int32, "Tnumsegments": dtypes.int32},
            kernel=_segment_join_kernel, shape_fn=_segment_join_shape)
for _t in ("StringSplit", "StringSplitV2", "ReduceJoin", "UnsortedSegmentJoin"):
    ops.NoGradient(_t)


def _sparse_result(indices: ops.Tensor, values: ops.Tensor, shape: ops.Tensor) -> SparseTensor:
    return SparseTensor(indices, values, shape)


def string_split(source: Any, sep: Any = None, skip_empty: bool = True, delimiter: Any = None,
                 result_type: str = "SparseTensor", name: Optional[str] = None) -> Any:
    """TF1 tf.string_split: each string of a vector split at any character of delimiter (default ' ')."""
    if sep is not None and delimiter is not None:
        raise ValueError("Cannot specify both 'sep' and 'delimiter'")
    delimiter = sep if delimiter is None else delimiter
    delimiter = " " if delimiter is None else delimiter
    with ops.name_scope(name, "StringSplit", [source]):
        delimiter = ops.convert_to_tensor(delimiter, dtype=dtypes.string)
        source = ops.convert_to_tensor(source, dtype=dtypes.string)
        result = _sparse_result(*ops.apply_op("StringSplit", [source, delimiter], {"skip_empty": skip_empty}))
        if result_type == "SparseTensor":
            return result
        if result_type == "RaggedTensor":
            return _rows_of(result)
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def _rows_of(tokens: SparseTensor) -> Any:
    """The RaggedTensor whose row i holds the tokens of string i."""
    from edgelite.ragged.ragged_tensor import RaggedTensor
    return RaggedTensor.from_value_rowids(tokens.values, tokens.indices[:, 0], tokens.dense_shape[0],
                                          validate=False)


def _ragged_split(input: Any, sep: Any, maxsplit: int) -> Any:  # noqa: A002
    """Every string of a tensor of rank >= 1 (or of a RaggedTensor) split: one more ragged dimension."""
    from edgelite.ragged.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(_ragged_split(input.flat_values, sep, maxsplit))
    if input.shape.ndims in (1, None):
        return _rows_of(string_split_v2(input, sep=sep, maxsplit=maxsplit))
    return _ragged_split(RaggedTensor.from_tensor(input), sep, maxsplit)


def string_split_v2(source: Any, sep: Any = None, maxsplit: int = -1) -> SparseTensor:
    """Each string of a vector split on the whole separator sep (whitespace runs if None), up to maxsplit times."""
    sep = ops.convert_to_tensor("" if sep is None else sep, dtype=dtypes.string)
    source = ops.convert_to_tensor(source, dtype=dtypes.string)
    return _sparse_result(*ops.apply_op("StringSplitV2", [source, sep], {"maxsplit": maxsplit}))


def strings_split(input: Any = None, sep: Any = None, maxsplit: int = -1,  # noqa: A002
                  result_type: str = "SparseTensor", source: Any = None, name: Optional[str] = None) -> Any:
    """tf.compat.v1.strings.split: the tokens of every string, as a SparseTensor or a RaggedTensor."""
    if input is not None and source is not None:
        raise ValueError("Cannot specify both 'input' and 'source'")
    input = source if input is None else input  # noqa: A001
    from edgelite.ragged.ragged_tensor import RaggedTensor
    with ops.name_scope(name, "StringSplit", [input]):
        if not isinstance(input, RaggedTensor):
            input = ops.convert_to_tensor(input, dtype=dtypes.string, name="input")  # noqa: A001
        if input.shape.ndims == 0:
            input = array_ops.expand_dims(input, 0)  # noqa: A001
        if result_type == "SparseTensor":
            if input.shape.ndims == 1 and not isinstance(input, RaggedTensor):
                return string_split_v2(input, sep=sep, maxsplit=maxsplit)
            return _ragged_split(input, sep, maxsplit).to_sparse()
        if result_type == "RaggedTensor":
            return _ragged_split(input, sep, maxsplit)
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def reduce_join(inputs: Any, axis: Any = None, keep_dims: Any = None, separator: str = "",
                name: Optional[str] = None, reduction_indices: Any = None, keepdims: Any = None) -> ops.Tensor:
    """Strings joined with separator across axis (all axes, row-major, if None)."""
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    keepdims = bool(keep_dims if keepdims is None else keepdims)
    if axis is not None and reduction_indices is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_indices'")
    axis = reduction_indices if axis is None else axis
    with ops.name_scope(None, "ReduceJoin", [inputs, axis]):
        x = ops.convert_to_tensor(inputs)
        if axis is None:
            if x.shape.ndims is not None:
                axis = ops.convert_to_tensor(np.arange(x.shape.ndims - 1, -1, -1, dtype=np.int32))
            else:
                axis = math_ops.range(array_ops.rank(x) - 1, -1, -1)
        return ops.apply_op("ReduceJoin", [x, axis], {"keep_dims": keepdims, "separator": separator},
                            name=name or "ReduceJoin")


def unsorted_segment_join(inputs: Any, segment_ids: Any, num_segments: Any, separator: str = "",
                          name: Optional[str] = None) -> ops.Tensor:
    """Strings joined per segment id (in input order); segments without members are empty strings."""
    return ops.apply_op("UnsortedSegmentJoin", [ops.convert_to_tensor(inputs, dtypes.string), segment_ids,
                                                num_segments], {"separator": separator},
                        name=name or "UnsortedSegmentJoin")
