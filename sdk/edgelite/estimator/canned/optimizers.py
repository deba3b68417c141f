"""The optimizer argument of canned estimators: an Optimizer, a callable returning one, or one of TF's names."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.train.adagrad import AdagradOptimizer
from edgelite.train.adam import AdamOptimizer
from edgelite.train.ftrl import FtrlOptimizer
from edgelite.train.gradient_descent import GradientDescentOptimizer
from edgelite.train.optimizer import Optimizer
from edgelite.train.rmsprop import RMSPropOptimizer

OPTIMIZER_CLS_NAMES = {"Adagrad": AdagradOptimizer, "Adam": AdamOptimizer, "Ftrl": FtrlOptimizer,
                       "RMSProp": RMSPropOptimizer, "SGD": GradientDescentOptimizer}


def get_optimizer_instance(opt: Any, learning_rate: Optional[float] = None) -> Optimizer:
    """`opt` as an Optimizer: a name builds that class with `learning_rate`, a callable is called."""
    if isinstance(opt, str):
        if opt in OPTIMIZER_CLS_NAMES:
            if not learning_rate:
                raise ValueError("learning_rate must be specified when opt is string.")
            return OPTIMIZER_CLS_NAMES[opt](learning_rate=learning_rate)
        raise ValueError(f"Unsupported optimizer name: {opt}. Supported names are: "
                         f"{tuple(sorted(OPTIMIZER_CLS_NAMES))}")
    if callable(opt):
        opt = opt()
    if not isinstance(opt, Optimizer):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {opt}")
    return opt
