"""Optimizer update rules as numpy kernels, following TensorFlow's training kernels formula for formula.

Every function updates its array arguments in place (variables and slots are numpy buffers) and computes in
the variable's dtype, so float32 training rounds like TensorFlow's float32 kernels. Dense kernels take a
gradient shaped like the variable; sparse kernels take unique row `indices` and the matching gradient rows
(see `deduplicate`). Hyper-parameters are scalars already converted to the variable's dtype by the caller.
"""
from __future__ import annotations

from typing import Tuple, Union

import numpy as np

from edgelite.kernels import native

Scalar = Union[int, float, np.number]


def _c(x, like: np.ndarray):
    """A scalar in the dtype of `like`, so numpy keeps the computation in that precision."""
    return like.dtype.type(x)


def deduplicate(indices: np.ndarray, values: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Sum gradient rows that share an index; unique indices keep first-occurrence order, as TensorFlow's unique."""
    indices = np.asarray(indices).reshape(-1)
    uniq, first, inverse = np.unique(indices, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    summed = np.zeros((uniq.size,) + values.shape[1:], dtype=values.dtype)
    np.add.at(summed, rank[inverse.reshape(-1)], values)
    return uniq[order], summed


def _check_rows(var: np.ndarray, indices: np.ndarray) -> None:
    if indices.size and (indices.min() < 0 or indices.max() >= var.shape[0]):
        bad = indices[(indices < 0) | (indices >= var.shape[0])][0]
        raise IndexError(f"Index {int(bad)} at offset 0 in indices is out of range [0, {var.shape[0]})")


# ---------------------------------------------------------------- gradient descent
def apply_gradient_descent(var: np.ndarray, lr: Scalar, grad: np.ndarray) -> None:
    """var -= lr * grad."""
    if native.optimizer_update("sgd", [var], np.asarray(grad), [float(lr)]):
        return
    var -= grad * _c(lr, var)


def sparse_apply_gradient_descent(var: np.ndarray, lr: Scalar, indices: np.ndarray, values: np.ndarray) -> None:
    """Scatter-subtract lr * rows; repeated indices accumulate."""
    _check_rows(var, indices)
    np.subtract.at(var, indices, values * _c(lr, var))


def apply_proximal_gradient_descent(var: np.ndarray, lr: Scalar, l1: Scalar, l2: Scalar, grad: np.ndarray) -> None:
    """FOBOS step: v = var - lr*grad, then soft-threshold by lr*l1 and shrink by 1 + lr*l2."""
    lr, l1, l2 = _c(lr, var), _c(l1, var), _c(l2, var)
    prox = var - grad * lr
    one = _c(1.0, var)
    if l1 > 0:
        var[...] = np.sign(prox) * np.maximum(np.abs(prox) - lr * l1, _c(0, var)) / (one + l2 * lr)
    else:
        var[...] = prox / (one + l2 * lr)


def sparse_apply_proximal_gradient_descent(var: np.ndarray, lr: Scalar, l1: Scalar, l2: Scalar, indices: np.ndarray,
                                           values: np.ndarray) -> None:
    """Proximal gradient descent on the given rows only."""
    _check_rows(var, indices)
    rows = var[indices]
    apply_proximal_gradient_descent(rows, lr, l1, l2, values)
    var[indices] = rows


# ---------------------------------------------------------------- momentum
def apply_momentum(var: np.ndarray, accum: np.ndarray, lr: Scalar, grad: np.ndarray, momentum: Scalar,
                   use_nesterov: bool = False) -> None:
    """accum = accum*momentum + grad; var -= lr*accum (Nesterov: var -= lr*grad + lr*momentum*accum)."""
    if native.optimizer_update("momentum", [var, accum], np.asarray(grad), [float(lr)],
                               [float(momentum), bool(use_nesterov)]):
        return
    lr, momentum = _c(lr, var), _c(momentum, var)
    accum[...] = accum * momentum + grad
    if use_nesterov:
        var -= grad * lr + accum * momentum * lr
    else:
        var -= accum * lr


def sparse_apply_momentum(var: np.ndarray, accum: np.ndarray, lr: Scalar, indices: np.ndarray, values: np.ndarray,
                          momentum: Scalar, use_nesterov: bool = False) -> None:
    """Momentum on the given rows only; untouched rows keep their accumulator."""
    _check_rows(var, indices)
    rows, acc = var[indices], accum[indices]
    apply_momentum(rows, acc, lr, values, momentum, use_nesterov)
    var[indices], accum[indices] = rows, acc


# ---------------------------------------------------------------- adagrad family
def apply_adagrad(var: np.ndarray, accum: np.ndarray, lr: Scalar, grad: np.ndarray,
                  update_slots: bool = True) -> None:
    """accum += grad²; var -= lr * grad / sqrt(accum)."""
    if native.optimizer_update("adagrad", [var, accum], np.asarray(grad), [float(lr)], [bool(update_slots)]):
        return
    if update_slots:
        accum += grad * grad
    var -= grad * _c(lr, var) / np.sqrt(accum)


def sparse_apply_adagrad(var: np.ndarray, accum: np.ndarray, lr: Scalar, indices: np.ndarray, values: np.ndarray,
                         update_slots: bool = True) -> None:
    """Adagrad on the given rows only."""
    _check_rows(var, indices)
    rows, acc = var[indices], accum[indices]
    apply_adagrad(rows, acc, lr, values, update_slots)
    var[indices], accum[indices] = rows, acc


def apply_proximal_adagrad(var: np.ndarray, accum: np.ndarray, lr: Scalar, l1: Scalar, l2: Scalar,
                           grad: np.ndarray) -> None:
    """Adagrad learning rate lr/sqrt(accum) inside a FOBOS step with l1 soft-threshold and l2 shrinkage."""
    lr, l1, l2 = _c(lr, var), _c(l1, var), _c(l2, var)
    accum += grad * grad
    rate = lr / np.sqrt(accum)
    prox = var - grad * rate
    one = _c(1.0, var)
    if l1 > 0:
        var[...] = np.sign(prox) * np.maximum(np.abs(prox) - rate * l1, _c(0, var)) / (one + l2 * rate)
    else:
        var[...] = prox / (one + l2 * rate)


def sparse_apply_proximal_adagrad(var: np.ndarray, accum: np.ndarray, lr: Scalar, l1: Scalar, l2: Scalar,
                                  indices: np.ndarray, values: np.ndarray) -> None:
    """Proximal Adagrad on the given rows only."""
    _check_rows(var, indices)
    rows, acc = var[indices], accum[indices]
    apply_proximal_adagrad(rows, acc, lr, l1, l2, values)
    var[indices], accum[indices] = rows, acc


def apply_adagrad_da(var: np.ndarray, grad_accum: np.ndarray, grad_sq_accum: np.ndarray, grad: np.ndarray, lr: Scalar,
                     l1: Scalar, l2: Scalar, global_step: int) -> None:
    """Dual averaging: w = -sign(g)·lr·max(|g| - l1·t, 0) / (l2·t·lr + sqrt(gg)), with t the step (from 1)."""
    lr, l1, l2 = _c(lr, var), _c(l1, var), _c(l2, var)
    step = _c(np.float32(global_step), var)
    grad_accum += grad
    grad_sq_accum += grad * grad
    denom = l2 * (step * lr) + np.sqrt(grad_sq_accum)
    if l1 > 0:
        var[...] = lr * _c(-1.0, var) * np.sign(grad_accum) * np.maximum(
            np.abs(grad_accum) - step * l1, _c(0, var)) / denom
    else:
        var[...] = lr * grad_accum * _c(-1.0, var) / denom


def sparse_apply_adagrad_da(var: np.ndarray, grad_accum: np.ndarray, grad_sq_accum: np.ndarray, indices: np.ndarray,
                            values: np.ndarray, lr: Scalar, l1: Scalar, l2: Scalar, global_step: int) -> None:
    """AdagradDA on the given rows only (unseen rows catch up when they next appear)."""
    _check_rows(var, indices)
    rows, ga, gga = var[indices], grad_accum[indices], grad_sq_accum[indices]
    apply_adagrad_da(rows, ga, gga, values, lr, l1, l2, global_step)
    var[indices], grad_accum[indices], grad_sq_accum[indices] = rows, ga, gga


# ---------------------------------------------------------------- adadelta
def apply_adadelta(var: np.ndarray, accum: np.ndarray, accum_update: np.ndarray, lr: Scalar, rho: Scalar,
                   epsilon: Scalar, grad: np.ndarray) -> None:
    """Zeiler's Adadelta: running averages of grad² and update², step scaled by their RMS ratio."""
    lr, rho, epsilon = _c(lr, var), _c(rho, var), _c(epsilon, var)
    one = _c(1.0, var)
    accum[...] = accum * rho + grad * grad * (one - rho)
    update = np.sqrt(accum_update + epsilon) * (one / np.sqrt(accum + epsilon)) * grad
    var -= update * lr
    accum_update[...] = accum_update * rho + update * update * (one - rho)


def sparse_apply_adadelta(var: np.ndarray, accum: np.ndarray, accum_update: np.ndarray, lr: Scalar, rho: Scalar,
                          epsilon: Scalar, indices: np.ndarray, values: np.ndarray) -> None:
    """Adadelta on the given rows only."""
    _check_rows(var, indices)
    rows, acc, upd = var[indices], accum[indices], accum_update[indices]
    apply_adadelta(rows, acc, upd, lr, rho, epsilon, values)
    var[indices], accum[indices], accum_update[indices] = rows, acc, upd


# ---------------------------------------------------------------- adam
def apply_adam(var: np.ndarray, m: np.ndarray, v: np.ndarray, beta1_power: Scalar, beta2_power: Scalar, lr: Scalar,
               beta1: Scalar, beta2: Scalar, epsilon: Scalar, grad: np.ndarray, use_nesterov: bool = False) -> None:
    """alpha = lr·sqrt(1-β2^t)/(1-β1^t); m += (g-m)(1-β1); v += (g²-v)(1-β2); var -= alpha·m/(sqrt(v)+ε)."""
    scalars = [float(a) for a in (beta1_power, beta2_power, lr, beta1, beta2, epsilon)]
    if native.optimizer_update("adam", [var, m, v], np.asarray(grad), scalars, [bool(use_nesterov)]):
        return
    c = lambda x: _c(x, var)  # noqa: E731
    one = c(1.0)
    beta1, beta2, epsilon = c(beta1), c(beta2), c(epsilon)
    alpha = c(lr) * np.sqrt(one - c(beta2_power)) / (one - c(beta1_power))
    m += (grad - m) * (one - beta1)
    v += (grad * grad - v) * (one - beta2)
    if use_nesterov:
        var -= ((grad * (one - beta1) + beta1 * m) * alpha) / (np.sqrt(v) + epsilon)
    else:
        var -= (m * alpha) / (np.sqrt(v) + epsilon)


def sparse_apply_adam(var: np.ndarray, m: np.ndarray, v: np.ndarray, beta1_power: Scalar, beta2_power: Scalar,
                      lr: Scalar, beta1: Scalar, beta2: Scalar, epsilon: Scalar, indices: np.ndarray,
                      values: np.ndarray) -> None:
    """Adam with sliced gradients: both moments decay everywhere, so every row of var moves (dense-equivalent)."""
    _check_rows(var, indices)
    c = lambda x: _c(x, var)  # noqa: E731
    one = c(1.0)
    beta1, beta2, epsilon = c(beta1), c(beta2), c(epsilon)
    alpha = c(lr) * np.sqrt(one - c(beta2_power)) / (one - c(beta1_power))
    m *= beta1
    np.add.at(m, indices, values * (one - beta1))
    v *= beta2
    np.add.at(v, indices, (values * values) * (one - beta2))
    var -= alpha * m / (np.sqrt(v) + epsilon)


# ---------------------------------------------------------------- ftrl
def apply_ftrl(var: np.ndarray, accum: np.ndarray, linear: np.ndarray, grad: np.ndarray, lr: Scalar, l1: Scalar,
               l2: Scalar, lr_power: Scalar, l2_shrinkage: Scalar = 0.0) -> None:
    """FTRL-proximal per coordinate (McMahan et al. 2013), with optional l2 shrinkage of the gradient."""
    c = lambda x: _c(x, var)  # noqa: E731
    lr, l1, l2, lr_power, shrink = c(lr), c(l1), c(l2), c(lr_power), c(l2_shrinkage)
    two = c(2.0)
    g_shrunk = grad + two * shrink * var if shrink > 0 else grad
    new_accum = accum + grad * grad
    if lr_power == c(-0.5):
        sigma_num = np.sqrt(new_accum) - np.sqrt(accum)
        new_pow = np.sqrt(new_accum)
    else:
        sigma_num = np.power(new_accum, -lr_power) - np.power(accum, -lr_power)
        new_pow = np.power(new_accum, -lr_power)
    linear += g_shrunk - sigma_num / lr * var
    x = l1 * np.sign(linear) - linear
    y = new_pow / lr + two * l2
    var[...] = np.where(np.abs(linear) > l1, x / y, c(0.0))
    accum += grad * grad


def sparse_apply_ftrl(var: np.ndarray, accum: np.ndarray, linear: np.ndarray, indices: np.ndarray, values: np.ndarray,
                      lr: Scalar, l1: Scalar, l2: Scalar, lr_power: Scalar, l2_shrinkage: Scalar = 0.0) -> None:
    """FTRL on the given rows only (shrinkage touches only active rows)."""
    _check_rows(var, indices)
    rows, acc, lin = var[indices], accum[indices], linear[indices]
    apply_ftrl(rows, acc, lin, values, lr, l1, l2, lr_power, l2_shrinkage)
    var[indices], accum[indices], linear[indices] = rows, acc, lin


# ---------------------------------------------------------------- rmsprop
def apply_rmsprop(var: np.ndarray, ms: np.ndarray, mom: np.ndarray, lr: Scalar, rho: Scalar, momentum: Scalar,
                  epsilon: Scalar, grad: np.ndarray) -> None:
    """ms += (g²-ms)(1-ρ); mom = mom·μ + lr·g/sqrt(ms+ε); var -= mom."""
    if native.optimizer_update("rmsprop", [var, ms, mom], np.asarray(grad),
                               [float(a) for a in (lr, rho, momentum, epsilon)]):
        return
    c = lambda x: _c(x, var)  # noqa: E731
    lr, rho, momentum, epsilon = c(lr), c(rho), c(momentum), c(epsilon)
    ms += (grad * grad - ms) * (c(1.0) - rho)
    mom[...] = mom * momentum + (grad * lr) / np.sqrt(ms + epsilon)
    var -= mom


def apply_centered_rmsprop(var: np.ndarray, mg: np.ndarray, ms: np.ndarray, mom: np.ndarray, lr: Scalar, rho: Scalar,
                           momentum: Scalar, epsilon: Scalar, grad: np.ndarray) -> None:
    """Centered RMSProp: also tracks the mean gradient mg and divides by sqrt(ms - mg² + ε)."""
    if native.optimizer_update("centered_rmsprop", [var, mg, ms, mom], np.asarray(grad),
                               [float(a) for a in (lr, rho, momentum, epsilon)]):
        return
    c = lambda x: _c(x, var)  # noqa: E731
    lr, rho, momentum, epsilon = c(lr), c(rho), c(momentum), c(epsilon)
    ms += (grad * grad - ms) * (c(1.0) - rho)
    mg += (grad - mg) * (c(1.0) - rho)
    denom = (ms - mg * mg) + epsilon
    mom[...] = mom * momentum + (grad * lr) / np.sqrt(denom)
    var -= mom


def sparse_apply_rmsprop(var: np.ndarray, ms: np.ndarray, mom: np.ndarray, lr: Scalar, rho: Scalar, momentum: Scalar,
                         epsilon: Scalar, indices: np.ndarray, values: np.ndarray) -> None:
    """RMSProp on the given rows only: other rows' accumulators do not decay."""
    _check_rows(var, indices)
    rows, s, mo = var[indices], ms[indices], mom[indices]
    apply_rmsprop(rows, s, mo, lr, rho, momentum, epsilon, values)
    var[indices], ms[indices], mom[indices] = rows, s, mo


def sparse_apply_centered_rmsprop(var: np.ndarray, mg: np.ndarray, ms: np.ndarray, mom: np.ndarray, lr: Scalar,
                                  rho: Scalar, momentum: Scalar, epsilon: Scalar, indices: np.ndarray,
                                  values: np.ndarray) -> None:
    """Centered RMSProp on the given rows only."""
    _check_rows(var, indices)
    rows, g, s, mo = var[indices], mg[indices], ms[indices], mom[indices]
    apply_centered_rmsprop(rows, g, s, mo, lr, rho, momentum, epsilon, values)
    var[indices], mg[indices], ms[indices], mom[indices] = rows, g, s, mo
