"""The update rules of Keras's Adam, Adagrad, Adamax and Nadam as tf.train optimizers (graph ops on slot variables).

They differ from the tf.train rules of similar names: Keras's Adam corrects its bias from the step count (no
beta-power variables), Adagrad adds epsilon outside the root (and allows a zero initial accumulator), Adamax
bias-corrects only the first moment, and Nadam follows a momentum schedule kept in a `momentum_cache` variable.
Sparse gradients (embeddings) follow Keras's sparse paths: Adam and Nadam decay all moments, the others touch only
the gradient's rows.
"""
from __future__ import annotations

from typing import Any

from edgelite.framework import ops
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.ops import array_ops, math_ops, state_ops
from edgelite.train.optimizer import Optimizer


class KerasAdagrad(Optimizer):
    """accum += g²; var -= lr * g / (sqrt(accum) + epsilon)."""

    def __init__(self, lr: Any, initial_accumulator_value: float, epsilon: float, name: str) -> None:
        super().__init__(False, name)
        self._lr, self._initial, self._epsilon = lr, initial_accumulator_value, epsilon

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._filled_slot(v, self._initial, "accumulator", self._name)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        lr = self._cast(self._lr, var)
        accum = state_ops.assign_add(self.get_slot(var, "accumulator"), math_ops.square(grad))
        return state_ops.assign_sub(var, lr * grad / (math_ops.sqrt(accum) + self._epsilon))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        lr = self._cast(self._lr, var)
        slot = self.get_slot(var, "accumulator")
        accum = slot.scatter_add(IndexedSlices(math_ops.square(grad.values), grad.indices))
        rows = array_ops.gather(accum, grad.indices)
        step = lr * grad.values / (math_ops.sqrt(rows) + self._epsilon)
        return var.scatter_sub(IndexedSlices(step, grad.indices))


class _Moments(Optimizer):
    """A rule with first and second moment slots 'm' and 'v' (all 'm' made first, as Keras orders them), betas,
    epsilon and the number `step` of the step being taken."""

    def __init__(self, lr: Any, beta_1: float, beta_2: float, epsilon: float, step: Any, name: str) -> None:
        super().__init__(False, name)
        self._lr, self._beta_1, self._beta_2, self._epsilon, self._step = lr, beta_1, beta_2, epsilon, step

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
        for v in var_list:
            self._zeros_slot(v, "v", self._name)


class KerasAdam(_Moments):
    """m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g²; var -= lr sqrt(1 - b2^t) / (1 - b1^t) m / (sqrt(v) + eps),
    the bias corrections from the step count (Keras keeps no beta-power variables)."""

    def _corrected_lr(self, var: Any) -> Any:
        step = self._cast(self._step, var)
        beta_1_power = math_ops.pow(self._cast(self._beta_1, var), step)
        beta_2_power = math_ops.pow(self._cast(self._beta_2, var), step)
        return self._cast(self._lr, var) * math_ops.sqrt(1.0 - beta_2_power) / (1.0 - beta_1_power)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        m = state_ops.assign(m_slot, self._beta_1 * m_slot + (1.0 - self._beta_1) * grad)
        v = state_ops.assign(v_slot, self._beta_2 * v_slot + (1.0 - self._beta_2) * math_ops.square(grad))
        return state_ops.assign_sub(var, self._corrected_lr(var) * m / (math_ops.sqrt(v) + self._epsilon))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        # Keras decays all of m and v, adds the gradient rows, then moves every row of var
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        with ops.control_dependencies([state_ops.assign(m_slot, m_slot * self._beta_1)]):
            m = m_slot.scatter_add(IndexedSlices(grad.values * (1.0 - self._beta_1), grad.indices))
        with ops.control_dependencies([state_ops.assign(v_slot, v_slot * self._beta_2)]):
            v = v_slot.scatter_add(IndexedSlices(math_ops.square(grad.values) * (1.0 - self._beta_2),
                                                 grad.indices))
        return state_ops.assign_sub(var, self._corrected_lr(var) * m / (math_ops.sqrt(v) + self._epsilon))


class KerasAdamax(_Moments):
    """m = b1 m + (1 - b1) g; v = max(b2 v, |g|); var -= lr / (1 - b1^t) * m / (v + epsilon)."""

    def _scaled_lr(self, var: Any) -> Any:
        beta_1_power = math_ops.pow(self._cast(self._beta_1, var), self._cast(self._step, var))
        return self._cast(self._lr, var) / (1.0 - beta_1_power)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        m = state_ops.assign(self.get_slot(var, "m"),
                             self._beta_1 * self.get_slot(var, "m") + (1.0 - self._beta_1) * grad)
        v = state_ops.assign(self.get_slot(var, "v"),
                             math_ops.maximum(self._beta_2 * self.get_slot(var, "v"), math_ops.abs(grad)))
        return state_ops.assign_sub(var, self._scaled_lr(var) * (m / (v + self._epsilon)))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_rows = self._beta_1 * array_ops.gather(m_slot, grad.indices) + (1.0 - self._beta_1) * grad.values
        v_rows = math_ops.maximum(self._beta_2 * array_ops.gather(v_slot, grad.indices), math_ops.abs(grad.values))
        m_t = m_slot.scatter_update(IndexedSlices(m_rows, grad.indices))
        v_t = v_slot.scatter_update(IndexedSlices(v_rows, grad.indices))
        with ops.control_dependencies([m_t, v_t]):
            return var.scatter_sub(IndexedSlices(self._scaled_lr(var) * (m_rows / (v_rows + self._epsilon)),
                                                 grad.indices))


class KerasNadam(_Moments):
    """Adam with Nesterov momentum on the schedule mu_t = b1 (1 - 0.96^(decay t) / 2); the product of the mu_t so
    far is kept in `momentum_cache` (updated once per step, before the variables)."""

    def __init__(self, lr: Any, beta_1: float, beta_2: float, epsilon: float, schedule_decay: float, step: Any,
                 cache: Any, name: str) -> None:
        super().__init__(lr, beta_1, beta_2, epsilon, step, name)
        self._decay, self._cache = schedule_decay, cache

    def _prepare(self) -> None:
        t = self._step
        self._mu_t = self._beta_1 * (1.0 - 0.5 * math_ops.pow(0.96, self._decay * t))
        self._mu_next = self._beta_1 * (1.0 - 0.5 * math_ops.pow(0.96, self._decay * (t + 1.0)))
        schedule = state_ops.assign(self._cache, array_ops.identity(self._cache) * self._mu_t)
        self._schedule_new = array_ops.identity(schedule)
        self._schedule_next = self._schedule_new * self._mu_next
        self._v_denominator = 1.0 - math_ops.pow(self._beta_2, t)

    def _direction(self, grad: Any, m_t: Any, v_t: Any) -> Any:
        """The step before the learning rate: Nesterov mix of the corrected gradient and first moment."""
        g_prime = grad / (1.0 - self._schedule_new)
        m_bar = (1.0 - self._mu_t) * g_prime + self._mu_next * (m_t / (1.0 - self._schedule_next))
        return m_bar / (math_ops.sqrt(v_t / self._v_denominator) + self._epsilon)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = state_ops.assign(m_slot, self._beta_1 * m_slot + (1.0 - self._beta_1) * grad)
        v_t = state_ops.assign(v_slot, self._beta_2 * v_slot + (1.0 - self._beta_2) * math_ops.square(grad))
        return state_ops.assign_sub(var, self._cast(self._lr, var) * self._direction(grad, m_t, v_t))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        # Keras decays all of m and v, then adds the new gradient rows; only the gradient's rows of var move.
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_all = state_ops.assign(m_slot, m_slot * self._beta_1)
        v_all = state_ops.assign(v_slot, v_slot * self._beta_2)
        with ops.control_dependencies([m_all]):
            m_t = m_slot.scatter_add(IndexedSlices(grad.values * (1.0 - self._beta_1), grad.indices))
        with ops.control_dependencies([v_all]):
            v_t = v_slot.scatter_add(IndexedSlices(math_ops.square(grad.values) * (1.0 - self._beta_2),
                                                   grad.indices))
        direction = self._direction(grad.values, array_ops.gather(m_t, grad.indices),
                                    array_ops.gather(v_t, grad.indices))
        return var.scatter_add(IndexedSlices(-self._cast(self._lr, var) * direction, grad.indices))
