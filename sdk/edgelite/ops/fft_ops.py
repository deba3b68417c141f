"""tf.signal FFTs: FFT/IFFT (1-3D, complex) and RFFT/IRFFT (1-3D, real <-> Hermitian half spectrum) as TF's ops,
with numpy.fft kernels and TF's gradients (the adjoint transforms)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops, math_ops

_COMPLEX = [dtypes.complex64, dtypes.complex128]
_REAL = [dtypes.float32, dtypes.float64]


def _axes(rank: int) -> tuple:
    return tuple(range(-rank, 0))


def _complex_kernel(transform: Callable, rank: int) -> Callable:
    def kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
        if x.ndim < rank:
            raise ValueError(f"Input must be at least rank {rank} but is rank {x.ndim}")
        return transform(x, axes=_axes(rank))
    return kernel


def _check_length(fft_length: np.ndarray, rank: int, x: np.ndarray) -> tuple:
    lengths = tuple(int(v) for v in np.asarray(fft_length).reshape(-1))
    if len(lengths) != rank:
        raise ValueError(f"fft_length must be of shape [{rank}], got [{len(lengths)}]")
    if x.ndim < rank:
        raise ValueError(f"Input must be at least rank {rank} but is rank {x.ndim}")
    return lengths


def _rfft_kernel(rank: int) -> Callable:
    def kernel(ctx: Any, x: np.ndarray, fft_length: np.ndarray) -> np.ndarray:
        lengths = _check_length(fft_length, rank, x)
        return np.fft.rfftn(x, s=lengths, axes=_axes(rank))
    return kernel


def _irfft_kernel(rank: int) -> Callable:
    def kernel(ctx: Any, x: np.ndarray, fft_length: np.ndarray) -> np.ndarray:
        lengths = _check_length(fft_length, rank, x)
        # numpy's irfftn crops/pads the inner axes to the lengths and the last to n//2 + 1, as TF does.
        return np.fft.irfftn(x, s=lengths, axes=_axes(rank))
    return kernel


def _real_shape(rank: int, inverse: bool) -> Callable:
    def shape_fn(op: Any) -> list:
        shape = op.inputs[0].shape
        if shape.ndims is None:
            return [None]
        if shape.ndims < rank:
            raise ValueError(f"Shape must be at least rank {rank} but is rank {shape.ndims} for "
                             f"'{op.name}' (op: '{op.type}')")
        lengths = tensor_util.constant_value(op.inputs[1])
        dims = shape.as_list()
        if lengths is None:
            return [dims[:-rank] + [None] * rank]
        lengths = [int(v) for v in lengths]
        return [dims[:-rank] + lengths[:-1] + [lengths[-1] if inverse else lengths[-1] // 2 + 1]]
    return shape_fn


_PAIRS = {1: ("FFT", "IFFT", "RFFT", "IRFFT"), 2: ("FFT2D", "IFFT2D", "RFFT2D", "IRFFT2D"),
          3: ("FFT3D", "IFFT3D", "RFFT3D", "IRFFT3D")}

for _rank, (_fft, _ifft, _rfft, _irfft) in _PAIRS.items():
    for _type, _transform in ((_fft, np.fft.fftn), (_ifft, np.fft.ifftn)):
        register_op(_type, inputs=["input: Tcomplex"], outputs=["output: Tcomplex"],
                    attrs={"Tcomplex": dtypes.complex64}, kernel=_complex_kernel(_transform, _rank),
                    shape_fn=lambda op: [op.inputs[0].shape], allowed_dtypes={"Tcomplex": _COMPLEX})
    register_op(_rfft, inputs=["input: Treal", "fft_length: int32"], outputs=["output: Tcomplex"],
                attrs={"Treal": dtypes.float32, "Tcomplex": dtypes.complex64}, kernel=_rfft_kernel(_rank),
                shape_fn=_real_shape(_rank, inverse=False),
                allowed_dtypes={"Treal": _REAL, "Tcomplex": _COMPLEX})
    register_op(_irfft, inputs=["input: Tcomplex", "fft_length: int32"], outputs=["output: Treal"],
                attrs={"Treal": dtypes.float32, "Tcomplex": dtypes.complex64}, kernel=_irfft_kernel(_rank),
                shape_fn=_real_shape(_rank, inverse=True),
                allowed_dtypes={"Treal": _REAL, "Tcomplex": _COMPLEX})


def _inner_size(t: ops.Tensor, rank: int, dtype: dtypes.DType) -> ops.Tensor:
    """The number of elements in the last rank axes of t, as dtype."""
    return math_ops.cast(math_ops.reduce_prod(array_ops.shape(t)[-rank:]), dtype)


def _complex_grad(rank: int, inverse: bool) -> Callable:
    def grad_fn(op: Any, grad: Any) -> Any:
        size = _inner_size(grad, rank, grad.dtype)
        # The adjoint of an FFT is the unnormalised inverse; of the (1/n-normalised) inverse, the FFT over n.
        if inverse:
            return ops.apply_op(_PAIRS[rank][0], [grad]) / size
        return ops.apply_op(_PAIRS[rank][1], [grad]) * size
    return grad_fn


def _fit_last_axes(t: ops.Tensor, target: ops.Tensor, rank: int) -> ops.Tensor:
    """t cropped or zero-padded in its last rank axes to target's (the shape the op's input had)."""
    shape = array_ops.shape(t)
    keep = math_ops.minimum(shape[-rank:], target[-rank:])
    t = array_ops.slice(t, array_ops.zeros_like(shape), array_ops.concat([shape[:-rank], keep], 0))
    lead = array_ops.zeros_like(shape[:-rank])
    after = array_ops.concat([lead, target[-rank:] - keep], 0)
    return array_ops.pad(t, array_ops.stack([array_ops.zeros_like(after), after], axis=1))


def _half_spectrum_weights(length: ops.Tensor, dtype: dtypes.DType) -> ops.Tensor:
    """1 for the bins a real signal's spectrum holds once (DC and, for even lengths, Nyquist), 2 for the others."""
    k = math_ops.range(length // 2 + 1)
    edge = math_ops.logical_or(math_ops.equal(k, 0), math_ops.equal(2 * k, length))
    return math_ops.cast(array_ops.where_v2(edge, 1.0, 2.0), dtype)


def _rfft_grad(rank: int) -> Callable:
    def grad_fn(op: Any, grad: Any) -> tuple:
        fft_length = op.inputs[1]
        real_dtype = op.inputs[0].dtype
        # Re(A^H g): each bin that stands for two of the full spectrum counts once, then an unnormalised IRFFT.
        weighted = grad / _half_spectrum_weights(fft_length[-1], grad.dtype)
        full = ops.apply_op(_PAIRS[rank][3], [weighted, fft_length], attrs={"Treal": real_dtype})
        full = full * math_ops.cast(math_ops.reduce_prod(fft_length), real_dtype)
        return _fit_last_axes(full, array_ops.shape(op.inputs[0]), rank), None
    return grad_fn


def _irfft_grad(rank: int) -> Callable:
    def grad_fn(op: Any, grad: Any) -> tuple:
        fft_length = op.inputs[1]
        complex_dtype = op.inputs[0].dtype
        spectrum = ops.apply_op(_PAIRS[rank][2], [grad, fft_length], attrs={"Tcomplex": complex_dtype})
        scale = _half_spectrum_weights(fft_length[-1], complex_dtype) / math_ops.cast(
            math_ops.reduce_prod(fft_length), complex_dtype)
        return _fit_last_axes(spectrum * scale, array_ops.shape(op.inputs[0]), rank), None
    return grad_fn


for _rank, (_fft, _ifft, _rfft, _irfft) in _PAIRS.items():
    ops.RegisterGradient(_fft)(_complex_grad(_rank, inverse=False))
    ops.RegisterGradient(_ifft)(_complex_grad(_rank, inverse=True))
    # TensorFlow defines no gradient for RFFT3D / IRFFT3D; tf.gradients raises LookupError through them there too.
    if _rank < 3:
        ops.RegisterGradient(_rfft)(_rfft_grad(_rank))
        ops.RegisterGradient(_irfft)(_irfft_grad(_rank))


def _complex_wrapper(op_type: str, doc: str) -> Callable:
    def wrapper(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002 - TF's argument name
        return ops.apply_op(op_type, [input], name=name)
    wrapper.__name__ = op_type.lower()
    wrapper.__doc__ = doc
    return wrapper


def _infer_length(x: ops.Tensor, rank: int, inverse: bool) -> Any:
    """fft_length from x's last rank dims (for an inverse, the last as 2 * (bins - 1)), static when known."""
    dims = x.shape.as_list()[-rank:] if x.shape.ndims is not None else None
    if dims is not None and None not in dims:
        if inverse:
            dims = dims[:-1] + [max(0, 2 * (dims[-1] - 1))]
        return ops.convert_to_tensor(np.array(dims, np.int32))
    lengths = array_ops.shape(x)[-rank:]
    if inverse:
        lengths = array_ops.concat([lengths[:-1], array_ops.maximum(0, 2 * (lengths[-1:] - 1))], 0)
    return lengths


def _real_wrapper(op_type: str, rank: int, doc: str) -> Callable:
    def wrapper(input_tensor: Any, fft_length: Any = None, name: Optional[str] = None) -> ops.Tensor:
        with ops.name_scope(name, op_type.lower(), [input_tensor, fft_length]) as scope:
            if op_type.startswith("I"):
                x = ops.convert_to_tensor(input_tensor, preferred_dtype=dtypes.complex64, name="input_tensor")
                attrs = {"Treal": x.dtype.real_dtype, "Tcomplex": x.dtype}
            else:
                x = ops.convert_to_tensor(input_tensor, preferred_dtype=dtypes.float32, name="input_tensor")
                attrs = {"Treal": x.dtype,
                         "Tcomplex": dtypes.complex128 if x.dtype == dtypes.float64 else dtypes.complex64}
            if fft_length is None:
                fft_length = _infer_length(x, rank, inverse=op_type.startswith("I"))
            else:
                fft_length = ops.convert_to_tensor(fft_length, dtypes.int32, name="fft_length")
            return ops.apply_op(op_type, [x, fft_length], attrs=attrs, name=scope)
    wrapper.__name__ = op_type.lower()
    wrapper.__doc__ = doc
    return wrapper


fft = _complex_wrapper("FFT", "Complex FFT over the innermost axis.")
ifft = _complex_wrapper("IFFT", "Inverse complex FFT (1/n-normalised) over the innermost axis.")
fft2d = _complex_wrapper("FFT2D", "Complex FFT over the two innermost axes.")
ifft2d = _complex_wrapper("IFFT2D", "Inverse complex FFT over the two innermost axes.")
fft3d = _complex_wrapper("FFT3D", "Complex FFT over the three innermost axes.")
ifft3d = _complex_wrapper("IFFT3D", "Inverse complex FFT over the three innermost axes.")
rfft = _real_wrapper("RFFT", 1, "FFT of a real signal over the innermost axis: the fft_length // 2 + 1 bins.")
irfft = _real_wrapper("IRFFT", 1, "Real signal of length fft_length from its half spectrum (innermost axis).")
rfft2d = _real_wrapper("RFFT2D", 2, "Real FFT over the two innermost axes (half spectrum in the last).")
irfft2d = _real_wrapper("IRFFT2D", 2, "Inverse of rfft2d.")
rfft3d = _real_wrapper("RFFT3D", 3, "Real FFT over the three innermost axes (half spectrum in the last).")
irfft3d = _real_wrapper("IRFFT3D", 3, "Inverse of rfft3d.")
