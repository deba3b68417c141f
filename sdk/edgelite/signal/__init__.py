"""tf.signal: FFTs of complex and real signals and the fftshift helpers."""
from edgelite.ops.fft_ops import (  # noqa: F401
    fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d)
from edgelite.ops.fft_shift import fftshift, ifftshift  # noqa: F401
