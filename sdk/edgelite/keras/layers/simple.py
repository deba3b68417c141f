"""Keras layers without weights: Lambda, the activation layers (ReLU, LeakyReLU, ELU, Softmax), ZeroPadding2D,
Cropping2D, UpSampling2D, Permute and RepeatVector."""
from __future__ import annotations

from typing import Any, Callable, Optional

from edgelite import nn
from edgelite.image.resize_ops import resize_bilinear, resize_nearest_neighbor
from edgelite.ops import array_ops

from .. import activations, backend
from ..engine.base_layer import Layer


class Lambda(Layer):
    """Wraps a function of the input tensor(s) as a layer; `arguments` are passed as keywords."""

    def __init__(self, function: Callable, output_shape: Any = None, mask: Any = None,
                 arguments: Optional[dict] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape

    def call(self, inputs: Any, mask: Any = None, training: Any = None) -> Any:
        """function(inputs, **arguments)."""
        return self.function(inputs, **self.arguments)


class ReLU(Layer):
    """max(x, 0) with optional max_value cap, negative_slope below threshold."""

    supports_masking = True

    def __init__(self, max_value: Optional[float] = None, negative_slope: float = 0.0, threshold: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: {max_value}")
        if negative_slope < 0.0:
            raise ValueError(f"negative_slope of a ReLU layer cannot be a negative value. Received: {negative_slope}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs: Any) -> Any:
        """activations.relu with the layer's parameters."""
        return activations.relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)

    def get_config(self) -> dict:
        return dict(super().get_config(), max_value=self.max_value, negative_slope=self.negative_slope,
                    threshold=self.threshold)


class LeakyReLU(Layer):
    """x for x > 0, alpha * x otherwise (alpha 0.3)."""

    supports_masking = True

    def __init__(self, alpha: float = 0.3, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs: Any) -> Any:
        """nn.leaky_relu(inputs, alpha)."""
        return nn.leaky_relu(inputs, alpha=self.alpha)

    def get_config(self) -> dict:
        return dict(super().get_config(), alpha=self.alpha)


class ELU(Layer):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    supports_masking = True

    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs: Any) -> Any:
        """activations.elu(inputs, alpha)."""
        return activations.elu(inputs, self.alpha)

    def get_config(self) -> dict:
        return dict(super().get_config(), alpha=self.alpha)


class Softmax(Layer):
    """Softmax along `axis` (the last by default)."""

    supports_masking = True

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs: Any) -> Any:
        """nn.softmax(inputs, axis)."""
        return nn.softmax(inputs, axis=self.axis)

    def get_config(self) -> dict:
        return dict(super().get_config(), axis=self.axis)


def _pairs(value: Any, name: str) -> tuple:
    """An int, a pair of ints, or a pair of pairs as ((top, bottom), (left, right))."""
    if isinstance(value, int):
        return ((value, value), (value, value))
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {value}.")
    out = []
    for v in value:
        out.append((v, v) if isinstance(v, int) else tuple(int(i) for i in v))
    return tuple(out)


def _spatial_axes(data_format: Optional[str]) -> str:
    fmt = data_format or backend.image_data_format()
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of \"channels_first\", \"channels_last\". "
                         f"Received: {fmt}")
    return fmt


class ZeroPadding2D(Layer):
    """Zero rows/columns around the image: padding int, (rows, cols) or ((top, bottom), (left, right))."""

    def __init__(self, padding: Any = (1, 1), data_format: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.padding = _pairs(padding, "padding")
        self.data_format = _spatial_axes(data_format)

    def call(self, inputs: Any) -> Any:
        """One Pad op."""
        (t, b), (left, r) = self.padding
        spec = [[0, 0], [t, b], [left, r], [0, 0]] if self.data_format == "channels_last" else \
            [[0, 0], [0, 0], [t, b], [left, r]]
        return array_ops.pad(inputs, spec)

    def get_config(self) -> dict:
        return dict(super().get_config(), padding=self.padding, data_format=self.data_format)


class Cropping2D(Layer):
    """Removes rows/columns from the image edges: cropping int, (rows, cols) or ((top, bottom), (left, right))."""

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, "cropping")
        self.data_format = _spatial_axes(data_format)

    def call(self, inputs: Any) -> Any:
        """One strided slice."""
        (t, b), (left, r) = self.cropping
        rows, cols = slice(t, -b if b else None), slice(left, -r if r else None)
        if self.data_format == "channels_last":
            return inputs[:, rows, cols, :]
        return inputs[:, :, rows, cols]

    def get_config(self) -> dict:
        return dict(super().get_config(), cropping=self.cropping, data_format=self.data_format)


class UpSampling2D(Layer):
    """Repeats rows and columns `size` times (nearest) or interpolates them (bilinear)."""

    def __init__(self, size: Any = (2, 2), data_format: Optional[str] = None, interpolation: str = "nearest",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = (size, size) if isinstance(size, int) else tuple(int(s) for s in size)
        self.data_format = _spatial_axes(data_format)
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError("`interpolation` argument should be one of `\"nearest\"` or `\"bilinear\"`. Received: "
                             f"\"{interpolation}\".")
        self.interpolation = interpolation

    def call(self, inputs: Any) -> Any:
        """resize_images to size * (height, width)."""
        x = inputs if self.data_format == "channels_last" else array_ops.transpose(inputs, [0, 2, 3, 1])
        h, w = x.shape.as_list()[1:3]
        # Keras resizes with half-pixel centres (tf.image.resize of TF 2)
        resize = resize_nearest_neighbor if self.interpolation == "nearest" else resize_bilinear
        out = resize(x, [h * self.size[0], w * self.size[1]], half_pixel_centers=True)
        return out if self.data_format == "channels_last" else array_ops.transpose(out, [0, 3, 1, 2])

    def get_config(self) -> dict:
        return dict(super().get_config(), size=self.size, data_format=self.data_format,
                    interpolation=self.interpolation)


class Permute(Layer):
    """Permutes the non-batch axes; dims are 1-based (Permute((2, 1)) swaps the two axes after the batch)."""

    def __init__(self, dims: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")

    def call(self, inputs: Any) -> Any:
        """One Transpose."""
        return array_ops.transpose(inputs, (0,) + self.dims)

    def get_config(self) -> dict:
        return dict(super().get_config(), dims=self.dims)


class RepeatVector(Layer):
    """[batch, features] -> [batch, n, features]."""

    def __init__(self, n: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.n = int(n)

    def call(self, inputs: Any) -> Any:
        """expand_dims then tile n times."""
        return array_ops.tile(array_ops.expand_dims(inputs, 1), [1, self.n, 1])

    def get_config(self) -> dict:
        return dict(super().get_config(), n=self.n)
