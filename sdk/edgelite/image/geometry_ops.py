"""Geometric image ops: flips (fixed and random with op seeds) and central_crop."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.tensor_util import constant_value
from edgelite.ops import array_ops, control_flow_ops, math_ops, random_ops

from . import _checks


def _flip(image: Any, axis: int, scope: str) -> ops.Tensor:
    with ops.name_scope(None, scope, [image]):
        image = _checks.assert_at_least_3d(ops.convert_to_tensor(image, name="image"))
        return _checks.by_rank(image, lambda: array_ops.reverse(image, [axis]),
                               lambda: array_ops.reverse(image, [axis + 1]),
                               "'image' (shape {shape})must have either 3 or 4 dimensions.")


def flip_left_right(image: Any) -> ops.Tensor:
    """Mirror the image(s) horizontally (the width dimension)."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image: Any) -> ops.Tensor:
    """Mirror the image(s) vertically (the height dimension)."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image: Any, axis: int, seed: Optional[int], scope: str) -> ops.Tensor:
    """Each image flipped along axis with probability 1/2 (one draw for a 3-D image, one per image in a batch)."""
    with ops.name_scope(None, scope, [image]) as scope:
        image = _checks.assert_at_least_3d(ops.convert_to_tensor(image, name="image"))

        def one_image() -> ops.Tensor:
            draw = random_ops.random_uniform([], 0, 1.0, seed=seed)
            out = control_flow_ops.cond(math_ops.less(draw, 0.5), lambda: array_ops.reverse(image, [axis]),
                                        lambda: image, name=scope)
            out.set_shape(image.shape)
            return out

        def batch() -> ops.Tensor:
            size = array_ops.shape(image)[0]
            draw = random_ops.random_uniform(array_ops.stack([size]), 0, 1.0, seed=seed)
            flips = math_ops.cast(math_ops.round(array_ops.reshape(draw, array_ops.stack([size, 1, 1, 1]))),
                                  image.dtype.base_dtype)
            out = flips * array_ops.reverse(image, [axis + 1]) + (1 - flips) * image
            out.set_shape(image.shape)  # the batch size TF's reshape infers from the image's static shape
            return out

        return _checks.by_rank(image, one_image, batch, "'image' (shape {shape}) must have either 3 or 4 dimensions.")


def random_flip_left_right(image: Any, seed: Optional[int] = None) -> ops.Tensor:
    """flip_left_right with a 1 in 2 chance (per image), seeded like any random op."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image: Any, seed: Optional[int] = None) -> ops.Tensor:
    """flip_up_down with a 1 in 2 chance (per image), seeded like any random op."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def _crop_start(size: Any, fraction: Any) -> Any:
    """Rows (or columns) cut from each side: int((size - size * fraction) / 2), statically when possible."""
    if isinstance(size, int) and isinstance(fraction, float):
        return int((float(size) - float(size) * fraction) / 2)
    size_d = math_ops.cast(size, dtypes.float64)
    return math_ops.cast((size_d - size_d * math_ops.cast(fraction, dtypes.float64)) / 2, dtypes.int32)


def central_crop(image: Any, central_fraction: Any) -> ops.Tensor:
    """The central region of the image(s) keeping central_fraction (in (0, 1]) of each spatial dimension."""
    with ops.name_scope(None, "central_crop", [image]):
        image = ops.convert_to_tensor(image, name="image")
        static = constant_value(central_fraction) if isinstance(central_fraction, ops.Tensor) else central_fraction
        if static is not None:
            static = float(static)
            if static <= 0.0 or static > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if static == 1.0:
                return image
        fraction = static if static is not None else central_fraction
        _checks.at_least_3d(image)
        rank = _checks.rank_3_or_4(
            image, "`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {rank}.")
        dims = image.shape.as_list()
        off = 0 if rank == 3 else 1
        h, w = (d if d is not None else array_ops.shape(image)[i + off] for i, d in enumerate(dims[off:off + 2]))
        top, left = _crop_start(h, fraction), _crop_start(w, fraction)
        height, width = h - top * 2, w - left * 2
        begin = [top, left, 0] if rank == 3 else [0, top, left, 0]
        size = [height, width, -1] if rank == 3 else [-1, height, width, -1]
        out = array_ops.slice(image, array_ops.stack(begin), array_ops.stack(size))
        static_hw = [height if isinstance(height, int) else None, width if isinstance(width, int) else None]
        out.set_shape(static_hw + dims[2:] if rank == 3 else dims[:1] + static_hw + dims[3:])
        return out


def rot90(image: Any, k: Any = 1, name: Optional[str] = None) -> ops.Tensor:
    """The image(s) rotated counter-clockwise by k quarter turns (k taken mod 4; chosen at run time)."""
    with ops.name_scope(name, "rot90", [image, k]) as scope:
        image = _checks.assert_at_least_3d(ops.convert_to_tensor(image, name="image"))
        k = ops.convert_to_tensor(k, dtype=dtypes.int32, name="k")
        k.shape.assert_has_rank(0)
        k = math_ops.mod(k, 4)
        return _checks.by_rank(image, lambda: _rot90(image, k, 0, scope), lambda: _rot90(image, k, 1, scope),
                               "'image' (shape {shape}) must have either 3 or 4 dimensions.")


def _rot90(image: ops.Tensor, k: ops.Tensor, h: int, scope: str) -> ops.Tensor:
    """k quarter turns of a 3-D (h = 0) or 4-D (h = 1, the height axis) image, picked by a case on k."""
    perm = [0, 2, 1, 3] if h else [1, 0, 2]
    cases = [(math_ops.equal(k, 1), lambda: array_ops.transpose(array_ops.reverse(image, [h + 1]), perm)),
             (math_ops.equal(k, 2), lambda: array_ops.reverse(image, [h, h + 1])),
             (math_ops.equal(k, 3), lambda: array_ops.reverse(array_ops.transpose(image, perm), [h + 1]))]
    out = control_flow_ops.case(cases, default=lambda: image, exclusive=True, name=scope)
    dims = image.shape.as_list() if image.shape.ndims is not None else [None] * (3 + h)
    out.set_shape(dims[:h] + [None, None] + dims[-1:])
    return out


def transpose(image: Any, name: Optional[str] = None) -> ops.Tensor:
    """The image(s) with height and width swapped."""
    with ops.name_scope(name, "transpose", [image]):
        image = _checks.assert_at_least_3d(ops.convert_to_tensor(image, name="image"))
        return _checks.by_rank(image, lambda: array_ops.transpose(image, [1, 0, 2], name=name),
                               lambda: array_ops.transpose(image, [0, 2, 1, 3], name=name),
                               "'image' (shape {shape}) must have either 3 or 4 dimensions.")
