"""N-D sliding-window numpy kernels over channels-last arrays [N, *spatial, C]: convolution with its input and
filter gradients, max/avg pooling with their gradients. Used by the 3-D ops; each loops over the window's taps
and does one vectorised matmul or max per tap."""
from __future__ import annotations

import itertools
from typing import Any, List, Sequence, Tuple

import numpy as np

from edgelite.kernels.geometry import output_size


def input_dims(op: Any, rank: int) -> list:
    """The static dims of op's first input (None where unknown); ValueError in TF's words for another rank."""
    shape = op.inputs[0].shape
    if shape.ndims is None:
        return [None] * rank
    if shape.ndims != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {shape.ndims} for '{op.name}' (op: '{op.type}') "
                         f"with input shapes: {shape}.")
    return shape.as_list()


class WindowND:
    """Output sizes, padding and per-tap slices of an N-D window (kernel size, strides, dilations)."""

    def __init__(self, in_spatial: Sequence[int], ksize: Sequence[int], strides: Sequence[int],
                 dilations: Sequence[int], padding: str) -> None:
        self.in_spatial = [int(s) for s in in_spatial]
        self.ksize = [int(k) for k in ksize]
        self.strides = [int(s) for s in strides]
        self.dilations = [int(d) for d in dilations]
        sizes = [output_size(i, k, s, d, padding) for i, k, s, d in
                 zip(self.in_spatial, self.ksize, self.strides, self.dilations)]
        self.out_spatial: List[int] = [o for o, _, _ in sizes]
        self.pads: List[Tuple[int, int]] = [(b, a) for _, b, a in sizes]

    def pad(self, x: np.ndarray, value: float = 0.0) -> np.ndarray:
        """x with its spatial axes padded as the geometry says."""
        return np.pad(x, [(0, 0)] + self.pads + [(0, 0)], constant_values=value)

    def crop(self, xp: np.ndarray) -> np.ndarray:
        """The inverse of pad: the real input region of a padded array."""
        idx = tuple(slice(b, b + n) for (b, _), n in zip(self.pads, self.in_spatial))
        return xp[(slice(None),) + idx]

    def taps(self):
        """(tap index tuple, slice of the padded input meeting that tap for every output position)."""
        for tap in itertools.product(*[range(k) for k in self.ksize]):
            idx = tuple(slice(t * d, t * d + (o - 1) * s + 1, s)
                        for t, d, o, s in zip(tap, self.dilations, self.out_spatial, self.strides))
            yield tap, (slice(None),) + idx


def conv(x: np.ndarray, w: np.ndarray, g: WindowND) -> np.ndarray:
    """Cross-correlation of x [N, *S, C] with w [*K, C, O]."""
    xp = g.pad(x)
    out = np.zeros([x.shape[0]] + g.out_spatial + [w.shape[-1]], np.result_type(x, w))
    for tap, sl in g.taps():
        out += xp[sl] @ w[tap]
    return out


def conv_backprop_input(in_shape: Sequence[int], w: np.ndarray, dy: np.ndarray, g: WindowND) -> np.ndarray:
    """Gradient of conv with respect to x of shape in_shape."""
    padded = [int(in_shape[0])] + [n + b + a for n, (b, a) in zip(g.in_spatial, g.pads)] + [int(in_shape[-1])]
    dxp = np.zeros(padded, np.result_type(w, dy))
    for tap, sl in g.taps():
        dxp[sl] += dy @ w[tap].T
    return g.crop(dxp)


def conv_backprop_filter(x: np.ndarray, filter_shape: Sequence[int], dy: np.ndarray, g: WindowND) -> np.ndarray:
    """Gradient of conv with respect to w of shape filter_shape."""
    xp = g.pad(x)
    c, o = x.shape[-1], dy.shape[-1]
    dw = np.zeros([int(d) for d in filter_shape], np.result_type(x, dy))
    dy2 = dy.reshape(-1, o)
    for tap, sl in g.taps():
        dw[tap] = xp[sl].reshape(-1, c).T @ dy2
    return dw


def _lowest(dtype: np.dtype) -> float:
    return -np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min


def max_pool(x: np.ndarray, g: WindowND) -> np.ndarray:
    """Max over each window; padding holds the lowest value so it never wins."""
    xp = g.pad(x, _lowest(x.dtype))
    out = None
    for _, sl in g.taps():
        out = xp[sl].copy() if out is None else np.maximum(out, xp[sl])
    return out


def max_pool_grad(x: np.ndarray, y: np.ndarray, dy: np.ndarray, g: WindowND) -> np.ndarray:
    """Each output gradient goes to the first element (in window order) equal to its window's maximum."""
    xp = g.pad(x, _lowest(x.dtype))
    dxp = np.zeros(xp.shape, dy.dtype)
    taken = np.zeros(y.shape, bool)
    for _, sl in g.taps():
        hit = (xp[sl] == y) & ~taken
        taken |= hit
        dxp[sl] += np.where(hit, dy, 0)
    return g.crop(dxp)


def _counts(g: WindowND, dtype: np.dtype) -> np.ndarray:
    """Real (non-padding) elements per output window, shaped to broadcast over [N, *out, C]."""
    ones = g.pad(np.ones([1] + g.in_spatial + [1], dtype))
    total = np.zeros([1] + g.out_spatial + [1], dtype)
    for _, sl in g.taps():
        total += ones[sl]
    return total


def avg_pool(x: np.ndarray, g: WindowND) -> np.ndarray:
    """Mean over each window's real elements."""
    xp = g.pad(x)
    out = np.zeros([x.shape[0]] + g.out_spatial + [x.shape[-1]], x.dtype)
    for _, sl in g.taps():
        out += xp[sl]
    return out / _counts(g, x.dtype)


def avg_pool_grad(in_shape: Sequence[int], dy: np.ndarray, g: WindowND) -> np.ndarray:
    """Each output gradient spread evenly over its window's real elements."""
    share = dy / _counts(g, dy.dtype)
    padded = [int(in_shape[0])] + [n + b + a for n, (b, a) in zip(g.in_spatial, g.pads)] + [int(in_shape[-1])]
    dxp = np.zeros(padded, dy.dtype)
    for _, sl in g.taps():
        dxp[sl] += share
    return g.crop(dxp)
