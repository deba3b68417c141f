"""tf.spectral (the TF1 name of tf.signal's FFTs)."""
from edgelite.ops.fft_ops import (  # noqa: F401
    fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d)
