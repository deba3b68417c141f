"""InputSpec: the rank, shape, dtype and fixed axis sizes a layer accepts, checked when the layer is called."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes


class InputSpec:
    """What a layer's input must look like; a Layer with `input_spec` set rejects other inputs with ValueError."""

    def __init__(self, dtype: Any = None, shape: Any = None, ndim: Optional[int] = None,
                 max_ndim: Optional[int] = None, min_ndim: Optional[int] = None, axes: Optional[dict] = None,
                 allow_last_axis_squeeze: bool = False, name: Optional[str] = None, optional: bool = False) -> None:
        self.dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        self.shape = tuple(shape) if shape is not None else None
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.allow_last_axis_squeeze, self.name, self.optional = allow_last_axis_squeeze, name, optional
        try:
            self.axes = {int(k): v for k, v in (axes or {}).items()}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: axes={axes}") from None
        limit = self.ndim or self.max_ndim
        if self.axes and limit is not None and max(self.axes) > limit - 1:
            raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed value: {limit - 1}")

    def __repr__(self) -> str:
        parts = [f"dtype={self.dtype}" if self.dtype else "", f"shape={self.shape}" if self.shape else "",
                 f"ndim={self.ndim}" if self.ndim else "", f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                 f"min_ndim={self.min_ndim}" if self.min_ndim else "", f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(p for p in parts if p)})"

    def get_config(self) -> dict:
        """The constructor arguments that define this spec."""
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes}

    @classmethod
    def from_config(cls, config: dict) -> "InputSpec":
        """A spec from get_config()'s dict."""
        return cls(**config)


def assert_input_compatibility(input_spec: Any, inputs: Any, layer_name: str) -> None:
    """Raises TF's ValueError when an input breaks its spec (rank, dtype, fixed axis sizes, shape)."""
    specs = input_spec if isinstance(input_spec, (list, tuple)) else [input_spec]
    tensors = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    if len(tensors) != len(specs):
        raise ValueError(f"Layer \"{layer_name}\" expects {len(specs)} input(s), but it received {len(tensors)} "
                         f"input tensors. Inputs received: {inputs}")
    for index, (spec, x) in enumerate(zip(specs, tensors)):
        if spec is not None:
            _check_one(spec, x, f"Input {index} of layer \"{layer_name}\" is incompatible with the layer: ")


def _check_one(spec: InputSpec, x: Any, prefix: str) -> None:
    shape = x.shape
    ndim = shape.ndims
    if ndim is None:
        return
    dims = shape.as_list()
    shown = "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"
    if spec.ndim is not None and ndim != spec.ndim and not spec.allow_last_axis_squeeze:
        raise ValueError(f"{prefix}expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(f"{prefix}expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(f"{prefix}expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                         f"Full shape received: {shape}")
    if spec.dtype is not None and x.dtype.base_dtype.name != spec.dtype:
        raise ValueError(f"{prefix}expected dtype={spec.dtype}, found dtype={x.dtype}")
    for axis, value in spec.axes.items():
        if value is not None and -ndim <= axis < ndim and dims[axis] not in (value, None):
            raise ValueError(f"{prefix}expected axis {axis} of input shape to have value {value}, but received "
                             f"input with shape {shown}")
    if spec.shape is not None and len(spec.shape) == ndim:
        if any(s is not None and d is not None and s != d for s, d in zip(spec.shape, dims)):
            raise ValueError(f"{prefix}expected shape={spec.shape}, found shape={shown}")
