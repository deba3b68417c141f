"""custom_gradient in graph mode: the function's results pass through an IdentityN whose gradient is the
user's grad_fn (TF's construction, so gradients flow to the inputs and to variables the function reads)."""
from __future__ import annotations

import functools
import inspect
import itertools
from typing import Any, Callable, Optional

from edgelite import nest
from edgelite.framework import ops
from edgelite.ops import array_ops

_IDS = itertools.count()


def _variables_between(inputs: list, outputs: list) -> list:
    """Variables whose VariableV2 op feeds the outputs without passing through the inputs (TF's
    _get_dependent_variables)."""
    stop = {id(t) for t in inputs}
    seen: set = set()
    var_ops = []
    stack = [t.op for t in outputs if isinstance(t, ops.Tensor)]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if op.type in ("VariableV2", "VarHandleOp"):
            var_ops.append(op)
        for t in op.inputs:
            if id(t) not in stop:
                stack.append(t.op)
    g = ops.get_default_graph()
    candidates = g.get_collection(ops.GraphKeys.GLOBAL_VARIABLES) + g.get_collection(ops.GraphKeys.LOCAL_VARIABLES)
    names = {op.name for op in var_ops}
    found = {v.op.name: v for v in candidates if v.op.name in names}
    return [found[n] for n in sorted(found)]


def _graph_mode(f: Callable, args: tuple, kwargs: dict) -> Any:
    if kwargs:
        raise ValueError("The custom_gradient decorator currently supports keywords arguments only when eager "
                         "execution is enabled.")
    name = f"CustomGradient-{next(_IDS)}"
    args = nest.map_structure(ops.convert_to_tensor, args)
    g = ops.get_default_graph()
    before = {id(v) for v in g.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)
              + g.get_collection(ops.GraphKeys.LOCAL_VARIABLES)}
    result, grad_fn = f(*args)
    after = g.get_collection(ops.GraphKeys.GLOBAL_VARIABLES) + g.get_collection(ops.GraphKeys.LOCAL_VARIABLES)
    if any(id(v) not in before for v in after):
        raise TypeError("All variables used by a function wrapped with @custom_gradient must be `ResourceVariable`s. "
                        "Ensure that no `variable_scope` is created with `use_resource=False`.")
    flat_args = nest.flatten(args)
    flat_result = [ops.convert_to_tensor(r) for r in nest.flatten(result)]
    n_result = len(flat_result)
    variables = _variables_between(flat_args, flat_result)
    spec = inspect.getfullargspec(grad_fn)
    takes_variables = "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw is not None
    if variables and not takes_variables:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses "
                        f"variables: {variables}")

    def grad_wrapper(op: Any, *result_grads: Any) -> list:
        result_grads = result_grads[:n_result]
        if variables:
            input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            input_grads, variable_grads = grad_fn(*result_grads), []
        return [None] * n_result + nest.flatten(input_grads) + list(variable_grads)

    ops.RegisterGradient(name)(grad_wrapper)
    all_tensors = flat_result + flat_args + [ops.convert_to_tensor(v) for v in variables]
    with g.gradient_override_map({"IdentityN": name}):
        passed = array_ops.identity_n(all_tensors)
    return nest.pack_sequence_as(result, list(passed[:n_result]))


def custom_gradient(f: Optional[Callable] = None) -> Callable:
    """Decorator: f(*x) returns (y, grad_fn) and tf.gradients of y use grad_fn(*dy) -> dx (graph mode)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        return _graph_mode(f, args, kwargs)
    return decorated
