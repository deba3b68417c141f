"""tf.test.compute_gradient(_error): the symbolic Jacobian of y with respect to x beside a central-difference one."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from edgelite.framework import ops
from edgelite.ops import array_ops
from edgelite.ops.gradients_impl import gradients


def _session() -> Any:
    sess = ops.get_default_session()
    if sess is None:
        raise ValueError("compute_gradient needs a default session: use it inside `with tf.Session():` or "
                         "`with self.cached_session():`")
    return sess


def _jacobians(x: Any, x_shape: Sequence[int], x_data: np.ndarray, y: Any, y_shape: Sequence[int], delta: float,
               feed: dict) -> Tuple[np.ndarray, np.ndarray]:
    """Both Jacobians, shaped [x size, y size], in x's dtype."""
    sess = _session()
    dtype = x_data.dtype
    x_size, y_size = int(np.prod(x_shape)), int(np.prod(y_shape))
    theoretical = np.zeros((x_size, y_size), dtype=dtype)
    numerical = np.zeros((x_size, y_size), dtype=dtype)
    dy = array_ops.placeholder(y.dtype.base_dtype, list(y_shape))
    grad = gradients(y, x, grad_ys=dy)[0]
    dy_value = np.zeros(y_shape, dtype=y.dtype.base_dtype.as_numpy_dtype)
    for col in range(y_size):
        dy_value.flat[col] = 1
        if grad is not None:
            theoretical[:, col] = np.asarray(sess.run(grad, {x: x_data, dy: dy_value, **feed})).ravel()
        dy_value.flat[col] = 0
    for row in range(x_size):
        shifted = x_data.copy()
        shifted.flat[row] = x_data.flat[row] + delta
        y_plus = np.asarray(sess.run(y, {x: shifted, **feed}), dtype=np.float64)
        shifted.flat[row] = x_data.flat[row] - delta
        y_minus = np.asarray(sess.run(y, {x: shifted, **feed}), dtype=np.float64)
        numerical[row, :] = ((y_plus - y_minus) / (2 * delta)).ravel()
    return theoretical, numerical


def compute_gradient(x: Union[Any, List[Any]], x_shape: Any, y: Any, y_shape: Sequence[int],
                     x_init_value: Any = None, delta: float = 1e-3, init_targets: Any = None,
                     extra_feed_dict: Optional[dict] = None) -> Any:
    """(theoretical, numerical) Jacobians of y w.r.t. x, or a list of such pairs when x is a list of tensors.

    x values default to uniform random samples in [0, 1), as in TensorFlow.
    """
    if init_targets is not None:
        _session().run(init_targets)
    feed = dict(extra_feed_dict or {})
    if isinstance(x, (list, tuple)):
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        values = [_initial(xi, si, vi) for xi, si, vi in zip(x, x_shape, inits)]
        pairs = []
        for i, (xi, si) in enumerate(zip(x, x_shape)):
            others = {xj: vj for j, (xj, vj) in enumerate(zip(x, values)) if j != i}
            pairs.append(_jacobians(xi, si, values[i], y, y_shape, delta, {**feed, **others}))
        return pairs
    return _jacobians(x, x_shape, _initial(x, x_shape, x_init_value), y, y_shape, delta, feed)


def _initial(x: Any, x_shape: Sequence[int], value: Any) -> np.ndarray:
    dtype = x.dtype.base_dtype.as_numpy_dtype
    if value is not None:
        value = np.asarray(value, dtype=dtype)
        if value.shape != tuple(x_shape):
            raise ValueError(f"x_init_value has shape {value.shape}, expected {tuple(x_shape)}")
        return value
    return np.random.random_sample(x_shape).astype(dtype)


def compute_gradient_error(x: Union[Any, List[Any]], x_shape: Any, y: Any, y_shape: Sequence[int],
                           x_init_value: Any = None, delta: float = 1e-3, init_targets: Any = None,
                           extra_feed_dict: Optional[dict] = None) -> float:
    """The largest absolute difference between the theoretical and numerical Jacobians."""
    grads = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets, extra_feed_dict)
    pairs = grads if isinstance(grads, list) else [grads]
    error = 0.0
    for theoretical, numerical in pairs:
        if theoretical.size:
            error = max(error, float(np.max(np.fabs(theoretical.astype(np.float64) - numerical))))
    return error
