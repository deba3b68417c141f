"""tf.check_numerics: passes a float tensor through, failing the run when it holds NaN or Inf."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op


def _check_numerics_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    has_nan, has_inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
    if has_nan or has_inf:
        found = "Inf and NaN" if has_nan and has_inf else ("NaN" if has_nan else "Inf")
        raise errors.InvalidArgumentError(None, ctx.op, f"{ctx.attrs['message']} : Tensor had {found} values")
    return x


register_op("CheckNumerics", inputs=["tensor: T"], outputs=["output: T"], kernel=_check_numerics_kernel,
            shape_fn=common_shapes.unchanged_shape, attrs={"message": ""})


def check_numerics(tensor: Any, message: str, name: Optional[str] = None) -> ops.Tensor:
    """tensor unchanged; running it raises InvalidArgumentError('<message> : Tensor had NaN values') on NaN/Inf."""
    x = ops.convert_to_tensor(tensor, name="tensor")
    if not x.dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'tensor' has DataType {x.dtype.name} not in list of allowed "
                        "values: bfloat16, float16, float32, float64")
    return ops.apply_op("CheckNumerics", [x], {"message": message}, name=name)


@ops.RegisterGradient("CheckNumerics")
def _check_numerics_grad(op: Any, grad: Any) -> Any:
    """The gradient is checked too, with TensorFlow's prefix before the forward message."""
    return check_numerics(grad, "Not a number (NaN) or infinity (Inf) values detected in gradient. "
                          + op.get_attr("message"))
