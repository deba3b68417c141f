"""FFT programs shared by the TensorFlow fixture generator and the edgelite test: each case builds transforms of
seeded inputs with the module `tf` it is given and returns {name: fetch}, gradients included."""
from __future__ import annotations

from typing import Any

import numpy as np


def _real(shape: tuple, dtype: Any = np.float32, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _loss(tf: Any, y: Any, seed: int) -> Any:
    """A real scalar weighing every part of y differently, so each gradient entry is checked."""
    w = _real(tuple(y.shape.as_list()), seed=seed)
    if y.dtype.is_complex:
        return tf.reduce_sum(tf.real(y) * w) + tf.reduce_sum(tf.imag(y) * (w[::-1] + 0.5))
    return tf.reduce_sum(y * w)


def _complex_case(tf: Any, fn: Any, shape: tuple, dtype: Any, seed: int, grad: bool = True,
                  **kwargs: Any) -> dict:
    re = tf.constant(_real(shape, dtype, seed))
    im = tf.constant(_real(shape, dtype, seed + 1))
    y = fn(tf.complex(re, im), **kwargs)
    if not grad:
        return {"y": y}
    return {"y": y, "d_re": tf.gradients(_loss(tf, y, seed + 2), re)[0],
            "d_im": tf.gradients(_loss(tf, y, seed + 2), im)[0]}


def _real_case(tf: Any, fn: Any, shape: tuple, dtype: Any, seed: int, grad: bool = True, **kwargs: Any) -> dict:
    x = tf.constant(_real(shape, dtype, seed))
    y = fn(x, **kwargs)
    return {"y": y, "dx": tf.gradients(_loss(tf, y, seed + 2), x)[0]} if grad else {"y": y}


CASES = {
    "fft_c64": lambda tf: _complex_case(tf, tf.signal.fft, (3, 8), np.float32, 1),
    "ifft_c128": lambda tf: _complex_case(tf, tf.spectral.ifft, (2, 7), np.float64, 2),
    "fft_top_level": lambda tf: _complex_case(tf, tf.fft, (5,), np.float32, 3),
    "fft2d": lambda tf: _complex_case(tf, tf.signal.fft2d, (2, 4, 5), np.float32, 4),
    "ifft2d_top_level": lambda tf: _complex_case(tf, tf.ifft2d, (3, 6), np.float64, 5),
    "fft3d": lambda tf: _complex_case(tf, tf.signal.fft3d, (2, 3, 4), np.float32, 6),
    "ifft3d": lambda tf: _complex_case(tf, tf.ifft3d, (1, 3, 2, 5), np.float32, 7),
    "rfft_even": lambda tf: _real_case(tf, tf.signal.rfft, (3, 8), np.float32, 8),
    "rfft_odd_f64": lambda tf: _real_case(tf, tf.signal.rfft, (2, 9), np.float64, 9),
    "rfft_pad": lambda tf: _real_case(tf, tf.signal.rfft, (2, 5), np.float32, 10, fft_length=[8]),
    "rfft_crop": lambda tf: _real_case(tf, tf.spectral.rfft, (2, 10), np.float32, 11, grad=False,
                                       fft_length=[7]),  # TF 2.21's RFFT gradient fails when cropping
    "rfft2d": lambda tf: _real_case(tf, tf.signal.rfft2d, (2, 4, 6), np.float32, 12),
    "rfft2d_len": lambda tf: _real_case(tf, tf.signal.rfft2d, (3, 6), np.float32, 13, fft_length=[4, 7]),
    # TF has no RFFT3D / IRFFT3D gradients.
    "rfft3d": lambda tf: _real_case(tf, tf.signal.rfft3d, (3, 4, 5), np.float64, 14, grad=False),
    "irfft_even": lambda tf: _complex_case(tf, tf.signal.irfft, (2, 5), np.float32, 15),
    "irfft_odd_len": lambda tf: _complex_case(tf, tf.signal.irfft, (2, 5), np.float32, 16, fft_length=[9]),
    "irfft_crop": lambda tf: _complex_case(tf, tf.spectral.irfft, (3, 7), np.float64, 17, grad=False,
                                          fft_length=[6]),  # TF 2.21 fails on this gradient
    "irfft2d": lambda tf: _complex_case(tf, tf.signal.irfft2d, (4, 5), np.float32, 18),
    "irfft2d_len": lambda tf: _complex_case(tf, tf.signal.irfft2d, (2, 5, 3), np.float32, 19, fft_length=[5, 5]),
    "irfft3d": lambda tf: _complex_case(tf, tf.signal.irfft3d, (2, 3, 4), np.float64, 20, grad=False),
    "magnitude_spectrum": lambda tf: _complex_case(tf, lambda c: tf.abs(tf.signal.fft(c)), (2, 6), np.float32, 24),
    "complex_abs_zero": lambda tf: _complex_case(tf, lambda c: tf.abs(c * tf.cast(tf.range(4) > 0, tf.complex64)),
                                                 (4,), np.float32, 25),
    "fftshift": lambda tf: {"a": tf.signal.fftshift(tf.constant(_real((4, 5), seed=21))),
                            "b": tf.signal.ifftshift(tf.constant(_real((3, 5), seed=22)), axes=1),
                            "c": tf.signal.ifftshift(tf.constant(_real((3, 5, 2), seed=23)), axes=[0, 1])},
}
