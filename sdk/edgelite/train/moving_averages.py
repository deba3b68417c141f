"""Exponential moving averages of variables and tensors (TensorFlow's moving_averages module)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from edgelite.framework import dtypes, ops

from ._scopes import colocated, init_scope

_AVERAGE_DTYPES = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def _is_variable(value: Any) -> bool:
    from edgelite.ops import variables
    return isinstance(value, variables.Variable)


def _unique_child(scope: str, name: str) -> str:
    """`name`, or name_N when '<scope>/name' is already a global variable (so zero-debias state never clashes)."""
    from edgelite.ops import variables
    taken = {v.op.name for v in variables.global_variables()}
    if f"{scope}/{name}" not in taken:
        return name
    index = 1
    while f"{scope}/{name}_{index}" in taken:
        index += 1
    return f"{name}_{index}"


def _zero_debias_update(shadow: Any, value: Any, one_minus_decay: Any) -> Any:
    """Keep a biased average from zero plus a step count, and assign biased / (1 - decay^t) to the shadow."""
    from edgelite.ops import math_ops, state_ops, variables
    scope = shadow.op.name
    with init_scope(), colocated(shadow):
        zeros = ops.convert_to_tensor(0, dtype=shadow.dtype.base_dtype)
        biased = variables.Variable(array_zeros_like(shadow), name=f"{scope}/{_unique_child(scope, 'biased')}",
                                    trainable=False)
        local_step = variables.Variable(zeros, name=f"{scope}/{_unique_child(scope, 'local_step')}",
                                        trainable=False)
    update_biased = state_ops.assign_sub(biased, (biased - value) * one_minus_decay)
    update_step = state_ops.assign_add(local_step, 1)
    bias_factor = 1 - math_ops.pow(1.0 - one_minus_decay, update_step)
    return state_ops.assign(shadow, update_biased / bias_factor, name=ops.get_name_scope() + "/")


def array_zeros_like(var: Any) -> Any:
    """A zero tensor with var's static shape and dtype, built without reading var."""
    from edgelite.ops import array_ops
    return array_ops.zeros(var.get_shape().as_list(), dtype=var.dtype.base_dtype)


def assign_moving_average(variable: Any, value: Any, decay: Any, zero_debias: bool = True,
                          name: Optional[str] = None) -> Any:
    """variable -= (variable - value) * (1 - decay); with zero_debias, the Adam-style bias correction."""
    from edgelite.ops import math_ops, state_ops
    with ops.name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        if _is_variable(value):
            # Read when the update runs (after whatever it depends on), not the variable's early snapshot.
            value = value.read_value()
        one_minus_decay = ops.convert_to_tensor(1.0 - decay, name="decay")
        if one_minus_decay.dtype != variable.dtype.base_dtype:
            one_minus_decay = math_ops.cast(one_minus_decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias_update(variable, value, one_minus_decay)
        return state_ops.assign_sub(variable, (variable - value) * one_minus_decay, name=scope)


class ExponentialMovingAverage:
    """Maintains shadow copies of variables or tensors: shadow -= (1 - decay) * (shadow - value) per apply()."""

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage") -> None:
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: Dict[Any, Any] = {}

    @property
    def name(self) -> str:
        """The name of this ExponentialMovingAverage (suffix of the shadow variables)."""
        return self._name

    def apply(self, var_list: Optional[List[Any]] = None) -> Any:
        """Create shadows for new items of var_list and return an op that updates all their averages."""
        from edgelite.ops import control_flow_ops, math_ops, variable_scope, variables
        if var_list is None:
            var_list = variables.trainable_variables()
        var_list = list(var_list)
        # TensorFlow creates each shadow in a variable scope opened inside the caller's: vs/<var>/<name>.
        scope_name = variable_scope.get_variable_scope().name
        prefix = f"{scope_name}/" if scope_name else ""
        debiased = set()
        for var in var_list:
            if not (_is_variable(var) or isinstance(var, ops.Tensor)):
                raise TypeError(f"ExponentialMovingAverage averages Variables and Tensors, got {var!r}")
            if var.dtype.base_dtype not in _AVERAGE_DTYPES:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            key = var.ref()
            if key in self._averages:
                continue
            with init_scope():
                if _is_variable(var):
                    avg = self._shadow(var, self._initial_value_of(var), prefix)
                    ops.add_to_collection(ops.GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    avg = self._shadow(var, array_zeros_like(var), prefix)
                    if self._zero_debias:
                        debiased.add(avg.ref())
            self._averages[key] = avg
        with ops.name_scope(self._name) as scope:
            decay = ops.convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, dtypes.float32, name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = [assign_moving_average(self._averages[v.ref()], v, decay,
                                             zero_debias=self._averages[v.ref()].ref() in debiased)
                       for v in var_list]
            return control_flow_ops.group(*updates, name=scope)

    @staticmethod
    def _initial_value_of(var: Any) -> Any:
        """The variable's current value when it is initialized, else its initial value (as TensorFlow)."""
        from edgelite.ops import control_flow_ops, state_ops
        return control_flow_ops.cond(state_ops.is_variable_initialized(var), var.read_value,
                                     lambda: var.initial_value)

    def _shadow(self, var: Any, initial_value: Any, prefix: str) -> Any:
        from edgelite.ops import variables
        with colocated(var):
            shadow = variables.Variable(initial_value, name=f"{prefix}{var.op.name}/{self._name}", trainable=False,
                                        dtype=var.dtype.base_dtype)
        if var.get_shape().is_fully_defined():
            shadow.set_shape(var.get_shape())
        return shadow

    def average(self, var: Any) -> Any:
        """The shadow variable of var, or None if apply() never saw it."""
        return self._averages.get(var.ref())

    def average_name(self, var: Any) -> str:
        """The shadow's name (also before apply(), so a Saver can map checkpoint names to variables)."""
        avg = self._averages.get(var.ref())
        if avg is not None:
            return avg.op.name
        return ops.get_default_graph().unique_name(f"{var.op.name}/{self._name}", mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables: Optional[List[Any]] = None) -> Dict[str, Any]:
        """Map shadow names to variables (restore averages into the model), other global variables by name."""
        from edgelite.ops import variables
        if moving_avg_variables is None:
            moving_avg_variables = variables.trainable_variables() + variables.moving_average_variables()
        averaged = {v.ref(): v for v in moving_avg_variables}
        name_map = {self.average_name(v): v for v in averaged.values()}
        averaged_names = {v.name for v in averaged.values()}
        for v in variables.global_variables():
            if v.name not in averaged_names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
