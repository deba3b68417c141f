"""tf.reverse_sequence: reverse the first seq_lengths[b] entries along seq_axis of every batch entry b."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op


def _reverse_sequence_kernel(ctx: Any, x: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    seq, batch = ctx.attrs["seq_dim"], ctx.attrs["batch_dim"]
    if seq == batch:
        raise ValueError(f"batch_dim == seq_dim == {seq}")
    lengths = np.asarray(lengths).astype(np.int64).reshape(-1)
    if lengths.shape[0] != x.shape[batch]:
        raise ValueError(f"Length of seq_lengths != input.dims({batch}), ({lengths.shape[0]} vs. {x.shape[batch]})")
    for b, n in enumerate(lengths):
        if n < 0:
            raise ValueError(f"seq_lens({b}) < 0")
        if n > x.shape[seq]:
            raise ValueError(f"seq_lens({b}) > input.dims({seq})")
    moved = np.moveaxis(x, (batch, seq), (0, 1))
    t = np.arange(moved.shape[1])[None, :]
    n = lengths[:, None]
    index = np.where(t < n, n - 1 - t, t)
    out = moved[np.arange(moved.shape[0])[:, None], index]
    return np.moveaxis(out, (0, 1), (batch, seq))


def _reverse_sequence_shape(op: ops.Operation) -> list:
    x, lengths = op.inputs[0].shape, op.inputs[1].shape.with_rank(1)
    seq, batch = op.get_attr("seq_dim"), op.get_attr("batch_dim")
    if x.ndims is None:
        return [x]
    where = f"for '{{{{node {op.name}}}}} = ReverseSequence' with input shapes: {x}, {lengths}."
    if seq >= x.ndims:
        raise ValueError(f"seq_dim must be < input rank: {seq} vs. {x.ndims} {where}")
    if batch >= x.ndims:
        raise ValueError(f"batch_dim must be < input rank: {batch} vs. {x.ndims} {where}")
    # TF 2.21 leaves seq_dim == batch_dim to the kernel ("batch_dim == seq_dim == 0" at run time)
    a, b = x.dims[batch].value, lengths.dims[0].value
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b} {where}")
    dims = x.as_list()
    dims[batch] = a if a is not None else b
    return [tensor_shape.TensorShape(dims)]


register_op("ReverseSequence", inputs=["input: T", "seq_lengths: Tlen"], outputs=["output: T"],
            attrs={"seq_dim": 0, "batch_dim": 0, "Tlen": dtypes.int64}, kernel=_reverse_sequence_kernel,
            shape_fn=_reverse_sequence_shape,
            allowed_dtypes={"Tlen": [dtypes.int32, dtypes.int64]})


@ops.RegisterGradient("ReverseSequence")
def _reverse_sequence_grad(op: ops.Operation, grad: Any) -> list:
    return [reverse_sequence(grad, op.inputs[1], seq_axis=op.get_attr("seq_dim"),
                             batch_axis=op.get_attr("batch_dim")), None]


def reverse_sequence(input: Any, seq_lengths: Any, seq_axis: Optional[int] = None,  # noqa: A002
                     batch_axis: Optional[int] = None, name: Optional[str] = None, seq_dim: Optional[int] = None,
                     batch_dim: Optional[int] = None) -> ops.Tensor:
    """Reverses variable-length slices: entry b keeps its order past seq_lengths[b] (tf.reverse_sequence)."""
    if seq_axis is not None and seq_dim is not None:
        raise ValueError("Cannot specify both 'seq_axis' and 'seq_dim'")
    if batch_axis is not None and batch_dim is not None:
        raise ValueError("Cannot specify both 'batch_axis' and 'batch_dim'")
    seq = seq_axis if seq_axis is not None else seq_dim
    batch = batch_axis if batch_axis is not None else batch_dim
    if seq is None:
        raise TypeError("reverse_sequence() missing required argument 'seq_axis'")
    return ops.apply_op("ReverseSequence", [input, seq_lengths],
                        {"seq_dim": int(seq), "batch_dim": 0 if batch is None else int(batch)}, name=name)
