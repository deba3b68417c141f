"""numpy-facing wrappers of the compiled training kernels: contiguous float32 or float64 in, fresh arrays out.

A float64 call runs the kernel of the same name with the suffix _f64 (edgelite/train_kernels_f64.h).
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np

from .geometry import Window2D

_STATUS = {1: ValueError, 2: RuntimeError, 3: OSError, 4: MemoryError}


def _check(status: int, kernel: str) -> None:
    if status != 0:
        raise _STATUS.get(status, RuntimeError)(f"{kernel}: the compiled kernel failed with status {status}")


def _buf(h: Any, a: np.ndarray) -> Any:
    return h.ffi.from_buffer("double[]" if a.dtype == np.float64 else "float[]", a)


def _c(a: np.ndarray, dtype: Any = np.float32) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=dtype)


def _kernel(h: Any, name: str, dtype: Any) -> Any:
    """el_train_<name> for float32, el_train_<name>_f64 for float64."""
    return getattr(h.lib, "el_train_" + name + ("_f64" if dtype == np.float64 else ""))


def _matrix(a: np.ndarray) -> Tuple[np.ndarray, int, int]:
    """Contiguous `a` (float32 or float64) with its (rows, channels) as a channels-last matrix."""
    ac = _c(a, a.dtype)
    channels = ac.shape[-1]
    return ac, (ac.size // channels if channels else 0), channels


def _window(h: Any, g: Window2D, in_shape: Sequence[int], out_c: int) -> Any:
    return h.ffi.new("el_train_window *", {
        "batch": int(in_shape[0]), "in_h": g.in_h, "in_w": g.in_w, "in_c": int(in_shape[3]),
        "k_h": g.k_h, "k_w": g.k_w, "out_c": int(out_c), "stride_h": g.stride_h, "stride_w": g.stride_w,
        "dil_h": g.dil_h, "dil_w": g.dil_w, "pad_top": g.pad_top, "pad_left": g.pad_left,
        "out_h": g.out_h, "out_w": g.out_w})


def window_op(h: Any, name: str, g: Window2D, in_shape: Sequence[int], out_c: int,
              out_shape: Tuple[int, ...], *arrays: np.ndarray) -> np.ndarray:
    """Runs el_train_<name>(kernels, window, *arrays, out) and returns the new `out` of the arrays' dtype."""
    dtype = arrays[0].dtype
    ins = [_c(a, dtype) for a in arrays]
    out = np.empty(out_shape, dtype=dtype)
    if out.size:
        fn = _kernel(h, name, dtype)
        _check(fn(h.kernels, _window(h, g, in_shape, out_c), *(_buf(h, a) for a in ins), _buf(h, out)), name)
    return out


def batch_norm(h: Any, x: np.ndarray, scale: np.ndarray, offset: np.ndarray, mean: Any, variance: Any,
               epsilon: float, training: bool) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, batch_mean, biased batch_variance) with channels last; the statistics are None in inference."""
    xc, rows, channels = _matrix(x)
    y, bm, bv = np.empty(xc.shape, np.float32), np.empty(channels, np.float32), np.empty(channels, np.float32)
    null = h.ffi.NULL
    m = null if mean is None else _buf(h, _c(mean))
    v = null if variance is None else _buf(h, _c(variance))
    _check(h.lib.el_train_batch_norm(h.kernels, rows, channels, _buf(h, xc), _buf(h, _c(scale)),
                                     _buf(h, _c(offset)), m, v, float(epsilon), int(training), _buf(h, y),
                                     _buf(h, bm), _buf(h, bv)), "batch_norm")
    return y, bm, bv


def batch_norm_grad(h: Any, dy: np.ndarray, x: np.ndarray, scale: np.ndarray, mean: np.ndarray,
                    variance: np.ndarray, epsilon: float, training: bool
                    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dscale, doffset) with channels last."""
    xc, rows, channels = _matrix(x)
    dx, ds, do = np.empty(xc.shape, np.float32), np.empty(channels, np.float32), np.empty(channels, np.float32)
    _check(h.lib.el_train_batch_norm_grad(h.kernels, rows, channels, _buf(h, _c(dy)), _buf(h, xc),
                                          _buf(h, _c(scale)), _buf(h, _c(mean)), _buf(h, _c(variance)),
                                          float(epsilon), int(training), _buf(h, dx), _buf(h, ds), _buf(h, do)),
           "batch_norm_grad")
    return dx, ds, do


def channel_sum(h: Any, dy: np.ndarray) -> np.ndarray:
    """Sum over every axis but the last (BiasAddGrad, channels last)."""
    d, rows, channels = _matrix(dy)
    out = np.empty(channels, dtype=d.dtype)
    _check(_kernel(h, "bias_add_grad", d.dtype)(h.kernels, rows, channels, _buf(h, d), _buf(h, out)),
           "bias_add_grad")
    return out


def masked_grad(h: Any, name: str, dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    """ReluGrad / Relu6Grad of same-shaped arrays."""
    d, xc = _c(dy, dy.dtype), _c(x, dy.dtype)
    out = np.empty(d.shape, dtype=d.dtype)
    _check(_kernel(h, name, d.dtype)(h.kernels, d.size, _buf(h, d), _buf(h, xc), _buf(h, out)), name)
    return out


def softmax_xent(h: Any, logits: np.ndarray, labels: np.ndarray, sparse: bool = False
                 ) -> Tuple[np.ndarray, np.ndarray]:
    """(loss, backprop) of (Sparse)SoftmaxCrossEntropyWithLogits over the last axis."""
    lg = _c(logits, logits.dtype)
    classes = lg.shape[-1]
    rows = lg.size // classes
    loss = np.empty(lg.shape[:-1], dtype=lg.dtype)
    back = np.empty(lg.shape, dtype=lg.dtype)
    if sparse:
        lab = np.ascontiguousarray(labels, dtype=np.int64)
        status = _kernel(h, "sparse_softmax_xent", lg.dtype)(h.kernels, rows, classes, _buf(h, lg),
                                                             h.ffi.from_buffer("int64_t[]", lab), _buf(h, loss),
                                                             _buf(h, back))
    else:
        status = _kernel(h, "softmax_xent", lg.dtype)(h.kernels, rows, classes, _buf(h, lg),
                                                      _buf(h, _c(labels, lg.dtype)), _buf(h, loss), _buf(h, back))
    _check(status, "softmax_cross_entropy_with_logits")
    return loss, back


def optimizer_update(name: str, slots: Sequence[np.ndarray], grad: np.ndarray, before: Sequence[Any],
                     after: Sequence[Any] = ()) -> bool:
    """el_train_apply_<name>(kernels, n, *slots, *before, grad, *after) in place on the variable and its slots.

    False (nothing done) unless the native kernels are selected, every slot is a writable contiguous float32 (or
    float64) buffer of the variable's shape and the gradient has that shape too: the caller then runs its numpy rule.
    """
    from .backend import native_for
    h = native_for(*slots, grad)
    shape = slots[0].shape
    if h is None or grad.shape != shape:
        return False
    if not all(s.shape == shape and s.flags.c_contiguous and s.flags.writeable for s in slots):
        return False
    dtype = slots[0].dtype
    fn = _kernel(h, "apply_" + name, dtype)
    _check(fn(h.kernels, slots[0].size, *(_buf(h, s) for s in slots), *before, _buf(h, _c(grad, dtype)), *after),
           "apply_" + name)
    return True
