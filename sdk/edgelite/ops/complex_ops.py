"""Complex numbers: complex, real, imag, conj, angle (with TF's gradients)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops

_COMPLEX = [dtypes.complex64, dtypes.complex128]
_REAL = [dtypes.float32, dtypes.float64]
_PARTS = {"Real": np.real, "Imag": np.imag, "Angle": np.angle, "ComplexAbs": np.abs}

for _name, _fn in _PARTS.items():
    register_op(_name, inputs=["input: T"], outputs=["output: Tout"], attrs={"T": dtypes.complex64,
                                                                          "Tout": dtypes.float32},
                kernel=(lambda f: lambda ctx, x: f(x))(_fn), shape_fn=common_shapes.unchanged_shape,
                allowed_dtypes={"T": _COMPLEX, "Tout": _REAL})
register_op("Conj", inputs=["input: T"], outputs=["output: T"], attrs={"T": dtypes.complex64},
            kernel=lambda ctx, x: np.conj(x), shape_fn=common_shapes.unchanged_shape,
            allowed_dtypes={"T": _COMPLEX})
register_op("Complex", inputs=["real: T", "imag: T"], outputs=["out: Tout"],
            attrs={"T": dtypes.float32, "Tout": dtypes.complex64},
            kernel=lambda ctx, re, im: re + 1j * im, shape_fn=common_shapes.broadcast_shape,
            allowed_dtypes={"T": _REAL, "Tout": _COMPLEX})


def _real_dtype(x: ops.Tensor) -> dtypes.DType:
    return dtypes.float64 if x.dtype.base_dtype == dtypes.complex128 else dtypes.float32


@ops.RegisterGradient("Real")
def _real_grad(op: Any, grad: Any) -> Any:
    return complex(grad, array_ops.zeros_like(grad))


@ops.RegisterGradient("Imag")
def _imag_grad(op: Any, grad: Any) -> Any:
    return complex(array_ops.zeros_like(grad), grad)


@ops.RegisterGradient("Conj")
def _conj_grad(op: Any, grad: Any) -> Any:
    return conj(grad)


@ops.RegisterGradient("Angle")
def _angle_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    z = math_ops.reciprocal(complex(imag(x), real(x)))
    return -complex(grad, array_ops.zeros_like(grad)) * z


@ops.RegisterGradient("ComplexAbs")
def _complex_abs_grad(op: Any, grad: Any) -> Any:
    """grad * x / |x|, and 0 where x is 0 (as TF's div_no_nan form)."""
    x, magnitude = op.inputs[0], op.outputs[0]
    nonzero = math_ops.greater(magnitude, 0)
    safe = array_ops.where_v2(nonzero, magnitude, array_ops.ones_like(magnitude))
    scale = array_ops.where_v2(nonzero, grad / safe, array_ops.zeros_like(grad))
    return complex(scale * real(x), scale * imag(x))


@ops.RegisterGradient("Complex")
def _complex_grad(op: Any, grad: Any) -> tuple:
    from edgelite.ops.math_extra_ops import unbroadcast
    re, im = op.inputs
    return unbroadcast(real(grad), re), unbroadcast(imag(grad), im)


def complex(real: Any, imag: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A001 - TF's name
    """real + i * imag: complex64 from float32 parts, complex128 from float64 parts."""
    real = ops.convert_to_tensor(real, name="real")
    imag = ops.convert_to_tensor(imag, name="imag")
    in_type = real.dtype.base_dtype
    if in_type == dtypes.float64 and imag.dtype.base_dtype == dtypes.float64:
        out = dtypes.complex128
    elif in_type == dtypes.float32 and imag.dtype.base_dtype == dtypes.float32:
        out = dtypes.complex64
    else:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {real.dtype.name} "
                        f"{imag.dtype.name}. They must be consistent, and one of [tf.float32, tf.float64]")
    return ops.apply_op("Complex", [real, imag], {"Tout": out}, name=name)


def real(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The real part of each element (input itself when it is not complex)."""
    with ops.name_scope(name, "Real", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        if x.dtype.is_complex:
            return ops.apply_op("Real", [x], {"Tout": _real_dtype(x)}, name=scope)
        return x


def imag(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The imaginary part of each element (zeros when input is not complex)."""
    with ops.name_scope(name, "Imag", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        if x.dtype.is_complex:
            return ops.apply_op("Imag", [x], {"Tout": _real_dtype(x)}, name=scope)
        return array_ops.zeros_like(x)


def angle(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """The argument of each element; for real input pi where it is negative, else 0."""
    with ops.name_scope(name, "Angle", [input]) as scope:
        x = ops.convert_to_tensor(input, name="input")
        if x.dtype.is_complex:
            return ops.apply_op("Angle", [x], {"Tout": _real_dtype(x)}, name=scope)
        return array_ops.where(math_ops.less(x, array_ops.zeros_like(x)), np.pi * array_ops.ones_like(x),
                               array_ops.zeros_like(x))


def conj(x: Any, name: Optional[str] = None) -> ops.Tensor:
    """The complex conjugate of each element (x itself when it is real)."""
    x = ops.convert_to_tensor(x, name="x")
    if x.dtype.is_complex:
        return ops.apply_op("Conj", [x], name=name)
    if x.dtype.is_floating or x.dtype.is_integer:
        return x
    raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")
