"""tf.signal.fftshift / ifftshift: move the zero-frequency bin to the centre of the given axes and back."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import ops
from edgelite.ops import array_ops
from edgelite.ops.manip_ops import roll


def _shifts(x: ops.Tensor, axes: Any, sign: int) -> tuple:
    shape = array_ops.shape(x)
    if axes is None:
        axes = list(range(x.shape.ndims))
        half = shape // 2
    elif isinstance(axes, int):
        half = shape[axes] // 2
    else:
        half = array_ops.gather(shape, list(axes)) // 2
    # ifftshift rolls by -(n // 2), which differs from fftshift's n // 2 for odd n.
    return (half if sign > 0 else -half), axes


def fftshift(x: Any, axes: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """Rolls each axis by n // 2 so the zero-frequency bin is centred."""
    with ops.name_scope(name, "fftshift") as scope:
        x = ops.convert_to_tensor(x)
        shift, axes = _shifts(x, axes, 1)
        return roll(x, shift, axes, name=scope)


def ifftshift(x: Any, axes: Any = None, name: Optional[str] = None) -> ops.Tensor:
    """The inverse of fftshift (rolls each axis by -(n // 2))."""
    with ops.name_scope(name, "ifftshift") as scope:
        x = ops.convert_to_tensor(x)
        shift, axes = _shifts(x, axes, -1)
        return roll(x, shift, axes, name=scope)
