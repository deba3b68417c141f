"""with_space_to_batch (run an op over a dilated grid by moving the dilation into the batch) and pool, the
N-D max/avg pooling with dilation built on it."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops, tensor_util
from edgelite.ops import array_ops, math_ops
from edgelite.ops.space_ops import batch_to_space_nd, space_to_batch_nd

from .pool3d_ops import avg_pool3d, max_pool3d
from .pooling_ops import avg_pool, max_pool


def _base_paddings(filter_shape: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """SAME-padding of the dilated filter, the odd element at the end as conv2d does."""
    extra = (filter_shape - 1) * rate
    start = extra // 2
    return np.stack([start, extra - start], axis=1)


def _required_paddings(spatial: Any, base: np.ndarray, rate: np.ndarray) -> tuple:
    """(paddings, crops) making base-padded spatial sizes multiples of rate (TF's
    required_space_to_batch_paddings), as numpy when the sizes are known, else as tensors."""
    if isinstance(spatial, np.ndarray):
        full = spatial + base[:, 0] + base[:, 1]
        extra = (rate - full % rate) % rate
        return (np.stack([base[:, 0], base[:, 1] + extra], axis=1).astype(np.int32),
                np.stack([np.zeros_like(extra), extra], axis=1).astype(np.int32))
    full = spatial + ops.convert_to_tensor((base[:, 0] + base[:, 1]).astype(np.int32))
    rate_t = ops.convert_to_tensor(rate.astype(np.int32))
    extra = math_ops.floormod(rate_t - math_ops.floormod(full, rate_t), rate_t)
    start = ops.convert_to_tensor(base[:, 0].astype(np.int32))
    end = ops.convert_to_tensor(base[:, 1].astype(np.int32)) + extra
    return array_ops.stack([start, end], axis=1), array_ops.stack([array_ops.zeros_like(extra), extra], axis=1)


def _adjust(rows: list, fill_row: Any, spatial_dims: list) -> Any:
    """The per-spatial-dim rows placed at dims 1..last spatial dim, fill_row for the non-spatial dims between."""
    out, prev = [], 0
    for row, d in zip(rows, spatial_dims):
        out += [fill_row] * (d - 1 - prev)
        out.append(row)
        prev = d
    if not any(isinstance(r, ops.Tensor) for r in out):
        return np.asarray(out, np.int32)
    return array_ops.stack([ops.convert_to_tensor(r, dtypes.int32) for r in out])


def with_space_to_batch(input: Any, dilation_rate: Any, padding: str, op: Callable,  # noqa: A002
                        filter_shape: Any = None, spatial_dims: Optional[Sequence[int]] = None,
                        data_format: Optional[str] = None) -> ops.Tensor:
    """op(converted_input, num_spatial_dims, "VALID") run on the input rearranged by space_to_batch_nd so that
    the op's dense window is a window dilated by dilation_rate on the original input."""
    input = ops.convert_to_tensor(input, name="input")
    rate = tensor_util.constant_value(ops.convert_to_tensor(dilation_rate, dtypes.int32, name="dilation_rate"))
    if rate is None:
        raise ValueError("`dilation_rate` must be known when the graph is built")
    rate = np.atleast_1d(np.asarray(rate, np.int64))
    if rate.ndim != 1:
        raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: dilation_rate={dilation_rate} of rank "
                         f"{rate.ndim}")
    n = rate.shape[0]
    start = 2 if data_format is not None and data_format.startswith("NC") else 1
    dims = list(range(start, n + start)) if spatial_dims is None else [int(d) for d in spatial_dims]
    if dims != sorted(set(dims)) or any(d < 1 for d in dims):
        raise ValueError(f"`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         f"Received: spatial_dims={list(spatial_dims)}")
    expected_rank = dims[-1] if start == 2 else dims[-1] + 1
    if input.shape.ndims is not None and input.shape.ndims < expected_rank:
        raise ValueError(f"`input.shape.rank` must be at least {expected_rank}. Received: "
                         f"input.shape={input.shape} with rank {input.shape.ndims}")
    if np.any(rate < 1):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    if np.all(rate == 1):
        return op(input, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. Received: "
                             f"filter_shape={filter_shape} and padding={padding}")
        base = _base_paddings(np.asarray(filter_shape, np.int64)[:n], rate)
    elif padding == "VALID":
        base = np.zeros([n, 2], np.int64)
    else:
        raise ValueError(f"Invalid padding method {padding!r}")
    known = input.shape.as_list() if input.shape.ndims is not None else None
    if known is not None and all(known[d] is not None for d in dims):
        spatial: Any = np.asarray([known[d] for d in dims], np.int64)
    else:
        shape = array_ops.shape(input)
        spatial = array_ops.stack([shape[d] for d in dims])
    paddings, crops = _required_paddings(spatial, base, rate)
    block = _adjust([int(r) for r in rate], 1, dims)
    paddings = _adjust([paddings[i] for i in range(n)], [0, 0], dims)
    crops = _adjust([crops[i] for i in range(n)], [0, 0], dims)
    converted = space_to_batch_nd(input, block, paddings)
    return batch_to_space_nd(op(converted, n, "VALID"), block, crops)


def pool(input: Any, window_shape: Sequence[int], pooling_type: str, padding: str,  # noqa: A002
         dilation_rate: Any = None, strides: Any = None, name: Optional[str] = None,
         data_format: Optional[str] = None, dilations: Any = None) -> ops.Tensor:
    """N-D (1 to 3) max or average pooling with optional dilation (VALID padding when dilated)."""
    dilation_rate = dilations if dilation_rate is None else dilation_rate
    with ops.name_scope(name, f"{pooling_type.lower()}_pool", [input]) as scope:
        input = ops.convert_to_tensor(input, name="input")
        n = len(window_shape)
        if not 1 <= n <= 3:
            raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} of "
                             f"length {n}")
        input.shape.with_rank(n + 2)
        strides = np.ones(n, np.int64) if strides is None else np.asarray(strides, np.int64)
        rate = np.ones(n, np.int64) if dilation_rate is None else np.asarray(dilation_rate, np.int64)
        if strides.shape != (n,) or rate.shape != (n,):
            raise ValueError(f"`strides` and `dilation_rate` must have length {n}. Received: strides={strides} "
                             f"and dilation_rate={rate}")
        if np.any(strides > 1) and np.any(rate > 1):
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={strides} and dilation_rate={rate}")
        if padding == "SAME" and np.any(rate > 1):
            raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                             f"padding={padding} and dilation_rate={rate}")
        if np.any(strides > np.asarray(window_shape)):
            raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                             f"implementations. Received: strides={strides} and window_shape={window_shape}")
        pooling_type = pooling_type.upper()
        ops_by_key = {("MAX", 1): max_pool, ("MAX", 2): max_pool, ("MAX", 3): max_pool3d,
                      ("AVG", 1): avg_pool, ("AVG", 2): avg_pool, ("AVG", 3): avg_pool3d}
        if (pooling_type, n) not in ops_by_key:
            raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
        channels_first = data_format is not None and data_format.startswith("NC")
        window = ([1, 1] + list(window_shape)) if channels_first else ([1] + list(window_shape) + [1])
        step = ([1, 1] + strides.tolist()) if channels_first else ([1] + strides.tolist() + [1])
        dims = list(range(2, n + 2)) if channels_first else list(range(1, n + 1))
        fmt = data_format
        if n == 1:
            if data_format not in (None, "NWC", "NCW"):
                raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}")
            fmt = "NCHW" if data_format == "NCW" else "NHWC"
            window, step = [1] + window, [1] + step

        def run(converted: Any, _: int, converted_padding: str) -> ops.Tensor:
            if n == 1:
                converted = array_ops.expand_dims(converted, dims[0])
            kwargs = {} if fmt is None else {"data_format": fmt}
            result = ops_by_key[(pooling_type, n)](converted, window, step, converted_padding, name=scope, **kwargs)
            return array_ops.squeeze(result, [dims[0]]) if n == 1 else result

        return with_space_to_batch(input, rate, padding, run, filter_shape=window_shape, spatial_dims=dims)
