"""Elementwise activation kernels and the gradient kernels TF pairs with them (ReluGrad, EluGrad, ...)."""
from __future__ import annotations

import numpy as np

from . import native
from .backend import native_for

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _zero(a: np.ndarray) -> np.ndarray:
    return np.zeros((), dtype=a.dtype)


def relu(x: np.ndarray) -> np.ndarray:
    """max(x, 0)."""
    return np.maximum(x, _zero(x))


def relu_grad(dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Passes the gradient where the Relu input (or output) is strictly positive."""
    h = native_for(dy, x) if dy.shape == x.shape else None
    if h is not None:
        return native.masked_grad(h, "relu_grad", dy, x)
    return np.where(x > 0, dy, _zero(dy))


def relu6(x: np.ndarray) -> np.ndarray:
    """min(max(x, 0), 6)."""
    return np.clip(x, _zero(x), np.asarray(6, dtype=x.dtype))


def relu6_grad(dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Passes the gradient where 0 < x < 6."""
    h = native_for(dy, x) if dy.shape == x.shape else None
    if h is not None:
        return native.masked_grad(h, "relu6_grad", dy, x)
    return np.where((x > 0) & (x < 6), dy, _zero(dy))


def leaky_relu(x: np.ndarray, alpha: float = 0.2) -> np.ndarray:
    """x where x > 0, alpha * x elsewhere."""
    return np.where(x > 0, x, (x * alpha).astype(x.dtype, copy=False))


def leaky_relu_grad(dy: np.ndarray, x: np.ndarray, alpha: float = 0.2) -> np.ndarray:
    """dy where x > 0, alpha * dy elsewhere."""
    return np.where(x > 0, dy, (dy * alpha).astype(dy.dtype, copy=False))


def elu(x: np.ndarray) -> np.ndarray:
    """x where x > 0, exp(x) - 1 elsewhere."""
    return np.where(x > 0, x, np.expm1(np.minimum(x, _zero(x))))


def elu_grad(dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    """EluGrad is written in terms of the Elu output: dy where y > 0, dy * (y + 1) elsewhere."""
    return np.where(y > 0, dy, dy * (y + 1))


def selu(x: np.ndarray) -> np.ndarray:
    """scale * x where x > 0, scale * alpha * (exp(x) - 1) elsewhere."""
    neg = SELU_SCALE * SELU_ALPHA * np.expm1(np.minimum(x, _zero(x)))
    return np.where(x > 0, SELU_SCALE * x, neg).astype(x.dtype, copy=False)


def selu_grad(dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SeluGrad from the Selu output: dy * scale where y > 0, dy * (y + scale * alpha) elsewhere."""
    return np.where(y > 0, dy * SELU_SCALE, dy * (y + SELU_SCALE * SELU_ALPHA)).astype(dy.dtype, copy=False)


def softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + exp(x)) without overflow."""
    return np.logaddexp(_zero(x), x)


def softplus_grad(dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    """dy * sigmoid(x)."""
    return dy * sigmoid(x)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) evaluated on the side that cannot overflow."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, shifted by the row maximum for stability."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(x: np.ndarray) -> np.ndarray:
    """Log-softmax over the last axis."""
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
