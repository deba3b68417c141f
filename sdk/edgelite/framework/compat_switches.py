"""TF2-to-TF1 switches that TF1-style scripts call; edgelite always builds graphs, so they only confirm that."""
from __future__ import annotations


def disable_eager_execution() -> None:
    """Graph building is the only mode: nothing to switch."""


def disable_v2_behavior() -> None:
    """TF1 behaviour (graphs, reference variables, sessions) is the only behaviour: nothing to switch."""


def disable_resource_variables() -> None:
    """Variables are reference variables already: nothing to switch."""


def disable_control_flow_v2() -> None:
    """Accepted for compatibility; cond/while_loop are always traced into function bodies."""


def disable_tensor_equality() -> None:
    """Tensors already compare (and hash) by identity, TF1's behaviour: nothing to switch."""


def disable_v2_tensorshape() -> None:
    """TensorShape dimensions are already Dimension objects, TF1's behaviour: nothing to switch."""


def resource_variables_enabled() -> bool:
    """False: variables are TF1 reference variables."""
    return False


def enable_control_flow_v2() -> None:
    """cond and while_loop already build functional StatelessIf/StatelessWhile ops: nothing to switch."""


def control_flow_v2_enabled() -> bool:
    """True: cond and while_loop build TF2's functional control-flow ops (StatelessIf, StatelessWhile)."""
    return True
