"""tf.compat.v1.keras.optimizers: SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Nadam and Ftrl with Keras's
defaults, on edgelite's training rules.

Each keeps its learning rate in a variable (so K.set_value(opt.lr, ...) and LearningRateScheduler work), counts
steps in `iterations`, applies Keras's time decay lr / (1 + decay * iterations), and builds the update with the
tf.train optimizer of the same rule.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.ops import array_ops, control_flow_ops, math_ops, state_ops, variables
from edgelite.train import optimizer as tf_optimizer
from edgelite.train.adadelta import AdadeltaOptimizer
from edgelite.train.ftrl import FtrlOptimizer
from edgelite.train.gradient_descent import GradientDescentOptimizer
from edgelite.train.momentum import MomentumOptimizer
from edgelite.train.rmsprop import RMSPropOptimizer

from . import backend
from ._lookup import by_name
from .optimizer_rules import KerasAdagrad, KerasAdam, KerasAdamax, KerasNadam


class Optimizer:
    """Base class: hyperparameters, the learning-rate and iteration variables, get_updates(loss, params)."""

    _defaults: Dict[str, Any] = {}
    # Keras creates the slots of some rules variable by variable (Ftrl), of the others slot name by slot name
    _slots_per_variable = False

    def __init__(self, name: str, learning_rate: float, decay: float = 0.0, **kwargs: Any) -> None:
        if "lr" in kwargs:
            learning_rate = kwargs.pop("lr")
        if kwargs:
            raise TypeError(f"Unexpected keyword argument passed to optimizer: {sorted(kwargs)[0]}")
        if decay < 0.0:
            raise ValueError(f"decay cannot be less than 0. Received: decay={decay}.")
        self._name = name
        self._initial_lr = float(learning_rate)
        self.decay = float(decay)
        self._lr_var: Optional[Any] = None
        self._iterations: Optional[Any] = None
        self._weights: List[Any] = []

    # ---- variables --------------------------------------------------------------------------------------
    def _variable(self, value: Any, name: str, dtype: Any) -> Any:
        with ops.control_dependencies(None):
            var = variables.Variable(value, name=name, dtype=dtype, trainable=False)
        backend.track_variable(var)
        return var

    @property
    def learning_rate(self) -> Any:
        """The learning-rate variable (made in the current graph on first use)."""
        with ops.name_scope(self._name):
            return self._lr_variable()

    def _lr_variable(self) -> Any:
        """The learning-rate variable, made in the current name scope on first use in this graph."""
        if self._lr_var is None or self._lr_var.graph is not ops.get_default_graph():
            self._lr_var = self._variable(self._initial_lr, "learning_rate", dtypes.float32)
        return self._lr_var

    @learning_rate.setter
    def learning_rate(self, value: float) -> None:
        if self._lr_var is None:
            self._initial_lr = float(value)
        else:
            backend.set_value(self._lr_var, value)

    lr = learning_rate

    @property
    def iterations(self) -> Any:
        """The int64 step counter, incremented by every update."""
        with ops.name_scope(self._name):
            return self._step_counter()

    def _step_counter(self) -> Any:
        """`iterations`, made in the current name scope on first use in this graph."""
        if self._iterations is None or self._iterations.graph is not ops.get_default_graph():
            self._iterations = self._variable(0, "iter", dtypes.int64)
            self._weights = [self._iterations]
        return self._iterations

    @property
    def weights(self) -> list:
        """The optimizer's state: iterations, then the rule's slots and accumulators (what .h5 files keep)."""
        return list(self._weights)

    def get_weights(self) -> list:
        """Values of `weights`."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, values: list) -> None:
        """Assigns values to `weights`; ValueError when the count or a shape differs."""
        params = self.weights
        if len(params) != len(values):
            raise ValueError(f"Length of the specified weight list ({len(values)}) does not match the number of "
                             f"weights of the optimizer ({len(params)})")
        for p, v in zip(params, values):
            if tuple(p.shape.as_list()) != np.shape(v):
                raise ValueError(f"Optimizer weight shape {tuple(p.shape.as_list())} not compatible with provided "
                                 f"weight shape {np.shape(v)}")
        backend.batch_set_value(list(zip(params, values)))

    def variables(self) -> list:
        """Same as weights."""
        return self.weights

    # ---- updates ---------------------------------------------------------------------------------------
    def _decayed_lr(self) -> Any:
        lr = self._lr_variable()
        if self.decay > 0.0:
            steps = math_ops.cast(self._step_counter(), dtypes.float32)
            lr = lr / (1.0 + self.decay * steps)
        return lr

    def _local_step(self) -> Any:
        """The number of the step being taken (iterations + 1) as float32, for bias corrections."""
        return math_ops.cast(self._step_counter(), dtypes.float32) + 1.0

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        """The tf.train optimizer implementing this rule at learning rate `lr`."""
        return GradientDescentOptimizer(lr, name=self._name)

    def get_updates(self, loss: Any, params: List[Any]) -> List[Any]:
        """The ops applying one step to `params` and counting it."""
        with ops.name_scope(self._name):
            iterations = self._step_counter()
            rule = self._rule(self._decayed_lr())
            train_op = rule.minimize(loss, var_list=params)
        for var in _state_in_keras_order(rule, self._slots_per_variable):
            backend.track_variable(var)
            self._weights.append(var)
        with ops.control_dependencies([train_op]):
            step = state_ops.assign_add(iterations, 1)
        return [control_flow_ops.group(train_op, step)]

    def get_config(self) -> dict:
        """name, learning_rate, decay and the rule's hyperparameters."""
        return dict({"name": self._name, "learning_rate": self._initial_lr, "decay": self.decay}, **self._hypers())

    def _hypers(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Optimizer":
        """The optimizer a get_config() dict describes."""
        return cls(**config)


def _state_in_keras_order(rule: tf_optimizer.Optimizer, per_variable: bool) -> List[Any]:
    """The rule's variables as Keras orders an optimizer's weights (its slot creation order): non-slot variables
    first, then the slots grouped by slot name (all 'm', then all 'v'), or all slots of one trained variable after
    another when `per_variable`."""
    groups = [list(named.values()) for named in rule._slots.values()]
    slots = [v for group in (zip(*groups) if per_variable else groups) for v in group]
    return [v for v in rule.variables() if not any(v is s for s in slots)] + slots


class SGD(Optimizer):
    """Gradient descent, with (Nesterov) momentum when momentum > 0; learning_rate 0.01."""

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: str = "SGD", **kwargs: Any) -> None:
        super().__init__(name, learning_rate, **kwargs)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} "
                             f"(of type {type(momentum)}).")
        self.momentum, self.nesterov = float(momentum), bool(nesterov)

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        if self.momentum == 0.0:
            return GradientDescentOptimizer(lr, name=self._name)
        return MomentumOptimizer(lr, self.momentum, use_nesterov=self.nesterov, name=self._name)

    def _hypers(self) -> dict:
        return {"momentum": self.momentum, "nesterov": self.nesterov}


class Adam(Optimizer):
    """Adam with Keras's defaults: learning_rate 0.001, beta_1 0.9, beta_2 0.999, epsilon 1e-7."""

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, name: str = "Adam", **kwargs: Any) -> None:
        super().__init__(name, learning_rate, **kwargs)
        if amsgrad:
            raise ValueError("amsgrad=True is not available in this Adam")
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        return KerasAdam(lr, self.beta_1, self.beta_2, self.epsilon, self._local_step(), self._name)

    def _hypers(self) -> dict:
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon, "amsgrad": False}


class _KerasRMSProp(RMSPropOptimizer):
    """RMSProp as Keras applies it: the mean square starts at zero and, without momentum,
    var -= lr * g / (sqrt(ms) + epsilon) (epsilon outside the root)."""

    def _create_slots(self, var_list: list) -> None:
        # Keras's slots and their order: all 'rms', then 'momentum' (only with momentum), then 'mg' (centered)
        for v in var_list:
            self._zeros_slot(v, "rms", self._name)
        if self._momentum:
            for v in var_list:
                self._zeros_slot(v, "momentum", self._name)
        if self._centered:
            for v in var_list:
                self._zeros_slot(v, "mg", self._name)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        if self._momentum:
            return super()._apply_dense(grad, var)
        lr, rho, _, eps = [self._cast(t, var) for t in (self._lr_t, self._decay_t, self._momentum_t, self._epsilon_t)]
        rms = self.get_slot(var, "rms")
        rms_t = state_ops.assign(rms, rho * rms + (1.0 - rho) * math_ops.square(grad))
        denom = rms_t
        if self._centered:
            mg = self.get_slot(var, "mg")
            mg_t = state_ops.assign(mg, rho * mg + (1.0 - rho) * grad)
            denom = rms_t - math_ops.square(mg_t)
        return state_ops.assign_sub(var, lr * grad / (math_ops.sqrt(denom) + eps))

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        # Keras decays the whole mean square (and mean gradient), then adds the gradient rows; only those rows of
        # var move. With momentum it uses TensorFlow's sparse kernels, as the base class does.
        if self._momentum:
            return super()._apply_sparse(grad, var)
        lr, rho, _, eps = [self._cast(t, var) for t in (self._lr_t, self._decay_t, self._momentum_t, self._epsilon_t)]
        rows = grad.indices

        def decayed_plus(slot: Any, values: Any) -> Any:
            with ops.control_dependencies([state_ops.assign(slot, slot * rho)]):
                return array_ops.gather(slot.scatter_add(IndexedSlices(values * (1.0 - rho), rows)), rows)

        denom = decayed_plus(self.get_slot(var, "rms"), math_ops.square(grad.values))
        if self._centered:
            denom = denom - math_ops.square(decayed_plus(self.get_slot(var, "mg"), grad.values))
        return var.scatter_sub(IndexedSlices(lr * grad.values / (math_ops.sqrt(denom) + eps), rows))


class RMSprop(Optimizer):
    """RMSprop with Keras's defaults: learning_rate 0.001, rho 0.9, momentum 0, epsilon 1e-7."""

    def __init__(self, learning_rate: float = 0.001, rho: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-7,
                 centered: bool = False, name: str = "RMSprop", **kwargs: Any) -> None:
        super().__init__(name, learning_rate, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = float(rho), float(momentum), float(epsilon), centered

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        return _KerasRMSProp(lr, decay=self.rho, momentum=self.momentum, epsilon=self.epsilon,
                             centered=self.centered, name=self._name)

    def _hypers(self) -> dict:
        return {"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon, "centered": self.centered}


class Adagrad(Optimizer):
    """Adagrad with Keras's defaults: learning_rate 0.001, initial_accumulator_value 0.1, epsilon 1e-7."""

    def __init__(self, learning_rate: float = 0.001, initial_accumulator_value: float = 0.1, epsilon: float = 1e-7,
                 name: str = "Adagrad", **kwargs: Any) -> None:
        if initial_accumulator_value < 0.0:
            raise ValueError(f"initial_accumulator_value must be non-negative: {initial_accumulator_value}")
        super().__init__(name, learning_rate, **kwargs)
        self.initial_accumulator_value, self.epsilon = float(initial_accumulator_value), float(epsilon)

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        return KerasAdagrad(lr, self.initial_accumulator_value, self.epsilon, self._name)

    def _hypers(self) -> dict:
        return {"initial_accumulator_value": self.initial_accumulator_value, "epsilon": self.epsilon}


class Adadelta(Optimizer):
    """Adadelta with Keras's defaults: learning_rate 0.001, rho 0.95, epsilon 1e-7."""

    def __init__(self, learning_rate: float = 0.001, rho: float = 0.95, epsilon: float = 1e-7,
                 name: str = "Adadelta", **kwargs: Any) -> None:
        super().__init__(name, learning_rate, **kwargs)
        self.rho, self.epsilon = float(rho), float(epsilon)

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        return AdadeltaOptimizer(lr, rho=self.rho, epsilon=self.epsilon, name=self._name)

    def _hypers(self) -> dict:
        return {"rho": self.rho, "epsilon": self.epsilon}


class Adamax(Optimizer):
    """Adamax (Adam with the infinity norm) with Keras's defaults: learning_rate 0.001, beta_1 0.9, beta_2 0.999,
    epsilon 1e-7."""

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, name: str = "Adamax", **kwargs: Any) -> None:
        super().__init__(name, learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        return KerasAdamax(lr, self.beta_1, self.beta_2, self.epsilon, self._local_step(), self._name)

    def _hypers(self) -> dict:
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}


class Nadam(Optimizer):
    """Nadam with Keras's defaults: learning_rate 0.001, beta_1 0.9, beta_2 0.999, epsilon 1e-7; `schedule_decay`
    (0.004) shapes the momentum schedule and the learning rate is never decayed (Keras replaces `decay` by it)."""

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, name: str = "Nadam", **kwargs: Any) -> None:
        kwargs["decay"] = kwargs.pop("schedule_decay", 0.004)
        super().__init__(name, learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        self._cache: Optional[Any] = None

    def _decayed_lr(self) -> Any:
        return self._lr_variable()

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        if self._cache is None or self._cache.graph is not ops.get_default_graph():
            self._cache = self._variable(1.0, "momentum_cache", dtypes.float32)
            self._weights.append(self._cache)
        return KerasNadam(lr, self.beta_1, self.beta_2, self.epsilon, self.decay, self._local_step(), self._cache,
                          self._name)

    def _hypers(self) -> dict:
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}


class Ftrl(Optimizer):
    """FTRL-proximal with Keras's defaults: learning_rate 0.001, learning_rate_power -0.5,
    initial_accumulator_value 0.1, no l1/l2/shrinkage, beta 0."""

    _slots_per_variable = True

    def __init__(self, learning_rate: float = 0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, name: str = "Ftrl",
                 l2_shrinkage_regularization_strength: float = 0.0, beta: float = 0.0, **kwargs: Any) -> None:
        super().__init__(name, learning_rate, **kwargs)
        checks = (("initial_accumulator_value", initial_accumulator_value, "positive or zero"),
                  ("learning_rate_power", -learning_rate_power, "negative or zero"),
                  ("l1_regularization_strength", l1_regularization_strength, "positive or zero"),
                  ("l2_regularization_strength", l2_regularization_strength, "positive or zero"),
                  ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength, "positive or zero"))
        for arg, value, wanted in checks:
            if value < 0.0:
                shown = -value if arg == "learning_rate_power" else value
                raise ValueError(f"`{arg}` needs to be {wanted}. Received: {arg}={shown}.")
        self.learning_rate_power = float(learning_rate_power)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.l1_regularization_strength = float(l1_regularization_strength)
        self.l2_regularization_strength = float(l2_regularization_strength)
        self.l2_shrinkage_regularization_strength = float(l2_shrinkage_regularization_strength)
        self.beta = float(beta)

    def _rule(self, lr: Any) -> tf_optimizer.Optimizer:
        return FtrlOptimizer(lr, self.learning_rate_power, self.initial_accumulator_value,
                             self.l1_regularization_strength, self.l2_regularization_strength, name=self._name,
                             accum_name=self._name, linear_name=self._name,
                             l2_shrinkage_regularization_strength=self.l2_shrinkage_regularization_strength,
                             beta=self.beta)

    def _hypers(self) -> dict:
        return {"learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength, "beta": self.beta}


class TFOptimizer(Optimizer):
    """Wraps a tf.train optimizer instance passed to compile()."""

    def __init__(self, optimizer: tf_optimizer.Optimizer) -> None:
        self.optimizer = optimizer
        self._name = optimizer.get_name()
        self._weights = []
        self._iterations = None
        self.decay = 0.0

    def get_updates(self, loss: Any, params: List[Any]) -> List[Any]:
        """optimizer.minimize(loss, params) and the step count."""
        iterations = self.iterations
        train_op = self.optimizer.minimize(loss, var_list=params)
        for var in self.optimizer.variables():
            backend.track_variable(var)
            self._weights.append(var)
        with ops.control_dependencies([train_op]):
            return [control_flow_ops.group(train_op, state_ops.assign_add(iterations, 1))]

    def get_config(self) -> dict:
        """Only the wrapped optimizer's name: a tf.train optimizer has no Keras config."""
        return {"name": self._name}


_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad, "adadelta": Adadelta, "adamax": Adamax,
            "nadam": Nadam, "ftrl": Ftrl}


def get(identifier: Any) -> Optimizer:
    """An optimizer from a name ('sgd', 'adam', 'rmsprop', 'adagrad', ...), a config dict, a Keras or a tf.train optimizer."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, tf_optimizer.Optimizer):
        return TFOptimizer(identifier)
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return by_name(_BY_NAME, identifier.lower() if identifier.lower() in _BY_NAME else identifier,
                       "optimizer")()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def serialize(optimizer: Optimizer) -> dict:
    """{'class_name', 'config'} of an optimizer."""
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config: dict, custom_objects: Optional[dict] = None) -> Optimizer:
    """The optimizer a serialize() dict describes."""
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _BY_NAME.get(name.lower())
    if cls is None:
        raise ValueError(f"Unknown optimizer: '{name}'.")
    return cls.from_config(dict(config.get("config", {})))
