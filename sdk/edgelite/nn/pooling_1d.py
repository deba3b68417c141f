"""avg_pool1d and max_pool1d: 1-D pooling over [batch, width, channels] (NWC) or NCW data, run as 2-D pooling
over a height of one."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import ops
from edgelite.ops import array_ops


def _sequence(value: Any, channel_index: int, what: str) -> list:
    """A 1-D pooling ksize/strides argument as the 3 entries of an NWC/NCW window."""
    if value is None:
        vals = [1]
    elif isinstance(value, int):
        vals = [value]
    else:
        vals = [int(v) for v in value]
        if len(vals) == 3:
            return vals
        if len(vals) != 1:
            raise ValueError(f"{what} should be of length 1 or 3. Received: {what}={value} of length {len(vals)}")
    return [1, 1] + vals if channel_index == 1 else [1] + vals + [1]


def _pool1d(op_type: str, scope: str, input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
            data_format: Optional[str], name: Optional[str]) -> ops.Tensor:
    data_format = data_format or "NWC"
    if data_format not in ("NWC", "NCW"):
        raise ValueError(f"data_format must be 'NWC' or 'NCW', got {data_format!r}")
    channel_index = 1 if data_format.startswith("NC") else 2
    attrs = {"ksize": [1] + _sequence(ksize, channel_index, "ksize"),
             "strides": [1] + _sequence(strides, channel_index, "strides"),
             "padding": padding, "data_format": "NHWC" if data_format == "NWC" else "NCHW"}
    with ops.name_scope(name, scope, [input]) as name:
        axis = 1 if data_format == "NWC" else 2
        result = ops.apply_op(op_type, [array_ops.expand_dims(input, axis)], attrs, name=name)
        return array_ops.squeeze(result, [axis])


def avg_pool1d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NWC",  # noqa: A002
               name: Optional[str] = None) -> ops.Tensor:
    """Average pooling over 1-D windows."""
    return _pool1d("AvgPool", "AvgPool1D", input, ksize, strides, padding, data_format, name)


def max_pool1d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NWC",  # noqa: A002
               name: Optional[str] = None) -> ops.Tensor:
    """Max pooling over 1-D windows."""
    return _pool1d("MaxPool", "MaxPool1d", input, ksize, strides, padding, data_format, name)
