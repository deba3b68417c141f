"""Kernels the SDK's image ops share with the device: edgelite_runtime.preprocessing's, with TF's error types.

One implementation (resizes, crop_and_resize, NMS) serves the SDK and the device runtime; it raises
ValueError with TensorFlow's kernel text, which becomes InvalidArgumentError (same text) here. The runtime
package is imported on first use so that importing the SDK does not load the interpreter library.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from edgelite.framework import errors


def runtime() -> ModuleType:
    """edgelite_runtime.preprocessing, imported on first use."""
    from edgelite_runtime import preprocessing
    return preprocessing


def call(name: str) -> Callable[..., Any]:
    """preprocessing.<name> as a kernel body: its ValueErrors become TF's InvalidArgumentError, its
    IndexErrors (indices out of range) OutOfRangeError."""
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(runtime(), name)(*args, **kwargs)
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None, str(e)) from None
        except IndexError as e:
            raise errors.OutOfRangeError(None, None, str(e)) from None
    run.__name__ = name
    return run


resize_bilinear = call("resize_bilinear")
resize_bilinear_grad = call("resize_bilinear_grad")
resize_nearest = call("resize_nearest")
resize_nearest_grad = call("resize_nearest_grad")
resize_bicubic = call("resize_bicubic")
resize_bicubic_grad = call("resize_bicubic_grad")
resize_area = call("resize_area")
