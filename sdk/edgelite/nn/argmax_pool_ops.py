"""MaxPoolWithArgmax (max pooling that also returns the flat index of each window's maximum) with its
MaxPoolGradWithArgmax gradient op, and the max_pool_with_argmax wrapper."""
from __future__ import annotations

import collections
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op

from ._window import expand_sequence
from .window_nd import WindowND, input_dims

MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])
_ATTRS = {"ksize": None, "strides": None, "Targmax": dtypes.int64, "padding": None, "include_batch_in_index": False}


def first_max(xp: np.ndarray, g: WindowND, values: Any) -> tuple:
    """(max, ordinal of the winning tap) per output window over the taps of a padded array: values(tap, slice)
    gives each tap's candidates; the earliest tap in scan order wins ties, as TF's CPU kernels do."""
    best, where = None, None
    for k, (tap, sl) in enumerate(g.taps()):
        v = values(tap, sl)
        if best is None:
            best, where = v.copy(), np.zeros(v.shape, np.int64)
            continue
        better = v > best
        best = np.where(better, v, best)
        where = np.where(better, k, where)
    return best, where


def _window(attrs: dict, x_shape: Any) -> WindowND:
    return WindowND(x_shape[1:3], attrs["ksize"][1:3], attrs["strides"][1:3], [1, 1], attrs["padding"])


def _flat_index(shape: tuple, include_batch: bool) -> np.ndarray:
    """TF's argmax numbering of each NHWC element: ((b * H + y) * W + x) * C + c, without b * H*W*C when the
    batch is not included."""
    n, h, w, c = shape
    per_image = np.arange(h * w * c, dtype=np.int64).reshape(1, h, w, c)
    if include_batch:
        return per_image + (np.arange(n, dtype=np.int64) * h * w * c).reshape(n, 1, 1, 1)
    return np.broadcast_to(per_image, shape)


def _kernel(ctx: Any, x: np.ndarray) -> tuple:
    if x.ndim != 4:
        raise ValueError(f"input must be 4-dimensional, got shape {list(x.shape)}")
    g = _window(ctx.attrs, x.shape)
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = g.pad(x, low)
    index = g.pad(_flat_index(x.shape, ctx.attrs["include_batch_in_index"]), -1)
    best, tap = first_max(xp, g, lambda t, sl: xp[sl])
    argmax = np.zeros(best.shape, np.int64)
    for k, (_, sl) in enumerate(g.taps()):
        argmax = np.where(tap == k, index[sl], argmax)
    return best.astype(x.dtype), argmax


def _grad_kernel(ctx: Any, x: np.ndarray, dy: np.ndarray, argmax: np.ndarray) -> np.ndarray:
    n = x.shape[0]
    per_image = int(np.prod(x.shape[1:]))
    flat = argmax.reshape(n, -1).astype(np.int64)
    if not ctx.attrs["include_batch_in_index"]:
        flat = flat + (np.arange(n, dtype=np.int64) * per_image)[:, None]
    if flat.size and (flat.min() < 0 or flat.max() >= x.size):
        raise ValueError(f"Invalid argmax index in MaxPoolGradWithArgmax for input of shape {list(x.shape)}")
    out = np.zeros(x.size, dy.dtype)
    np.add.at(out, flat.reshape(-1), dy.reshape(-1))
    return out.reshape(x.shape)


def _shape(op: Any) -> list:
    x = input_dims(op, 4)
    k, s, p = op.get_attr("ksize"), op.get_attr("strides"), op.get_attr("padding")
    if k[0] != 1 or k[3] != 1 or s[0] != 1 or s[3] != 1:
        raise ValueError("Pooling is not yet supported on the batch or depth dimension.")
    spatial = [None if x[i] is None else WindowND([x[i]], [k[i]], [s[i]], [1], p).out_spatial[0] for i in (1, 2)]
    out = tensor_shape.TensorShape([x[0]] + spatial + [x[3]])
    return [out, out]


register_op("MaxPoolWithArgmax", inputs=["input: T"], outputs=["output: T", "argmax: Targmax"], attrs=_ATTRS,
            kernel=_kernel, shape_fn=_shape)
register_op("MaxPoolGradWithArgmax", inputs=["input: T", "grad: T", "argmax: Targmax"], outputs=["output: T"],
            attrs=_ATTRS, kernel=_grad_kernel, shape_fn=lambda op: [op.inputs[0].shape])


@ops.RegisterGradient("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op: Any, grad: Any, unused_argmax_grad: Any) -> Any:
    attrs = {k: op.get_attr(k) for k in _ATTRS}
    return ops.apply_op("MaxPoolGradWithArgmax", [op.inputs[0], grad, op.outputs[1]], attrs)


def max_pool_with_argmax(input: Any, ksize: Any, strides: Any, padding: str,  # noqa: A002
                         data_format: str = "NHWC", Targmax: Any = None, name: Optional[str] = None,  # noqa: N803
                         output_dtype: Any = None, include_batch_in_index: bool = False) -> tuple:
    """(max pooled output, flat argmax index of each maximum); the index counts within one image unless
    include_batch_in_index."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    if Targmax is not None and output_dtype is not None:
        raise ValueError("Cannot specify both 'output_dtype' and 'Targmax'")
    targmax = dtypes.as_dtype(output_dtype or Targmax or dtypes.int64)
    attrs = {"ksize": expand_sequence(ksize, "ksize"), "strides": expand_sequence(strides, "strides"),
             "Targmax": targmax, "padding": padding, "include_batch_in_index": bool(include_batch_in_index)}
    return MaxPoolWithArgmax(*ops.apply_op("MaxPoolWithArgmax", [input], attrs, name=name))
