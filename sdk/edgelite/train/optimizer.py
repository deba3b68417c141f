"""Optimizer: the base class of every training rule (compute_gradients, apply_gradients, minimize, slots)."""
from __future__ import annotations

import collections.abc
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np

from edgelite.framework import dtypes, ops
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.framework.op_def_registry import register_op

from ._scopes import colocated, graph_key as _graph_key, init_scope as _init_scope

_VALID_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def _dedup_kernel(ctx: Any, values: np.ndarray, indices: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    from .update_rules import deduplicate
    uniq, summed = deduplicate(indices, values)
    return summed, uniq.astype(indices.dtype)


register_op("DeduplicateIndexedSlices", inputs=["values: T", "indices: Tindices"],
            outputs=["summed_values: T", "unique_indices: Tindices"], kernel=_dedup_kernel,
            shape_fn=lambda op: [[None] + list(op.inputs[0].shape)[1:] if op.inputs[0].shape.ndims else None,
                                 [None]])


class NotAVariableError(TypeError, ValueError):
    """A var_list entry that is not a Variable: a TypeError for compute_gradients and a ValueError for
    minimize, as each one's documentation says."""


def _var_key(var: Any) -> Any:
    return (_graph_key(var.op.graph), var.op.name)


def _is_variable(value: Any) -> bool:
    from edgelite.ops import variables
    return isinstance(value, variables.Variable)


def _new_variable(initial_value: Any, name: str, dtype: Any = None) -> Any:
    from edgelite.ops import variables
    return variables.Variable(initial_value, name=name, trainable=False, dtype=dtype)


def _variable_scope_prefix() -> str:
    """'<scope>/' of the caller's variable scope: TensorFlow creates slot and non-slot variables inside it."""
    from edgelite.ops import variable_scope
    scope_name = variable_scope.get_variable_scope().name
    return f"{scope_name}/" if scope_name else ""


def _slice_like_primary(slot: Any, primary: Any) -> None:
    """A slot of one part of a partitioned variable is saved as a slice too. TF keys it by the primary's full name
    plus the slot's name with len(primary.op.name) + 1 characters cut off its front, which is '<slot>' normally and
    'part_0/<slot>' (or 't_0/<slot>') when minimize() ran inside a variable scope that doubled the prefix."""
    info = getattr(primary, "_save_slice_info", None)
    if info is None:
        return
    from edgelite.ops.variable_scope import _SaveSliceInfo
    suffix = slot.op.name[len(primary.op.name) + 1:]
    slot._set_save_slice_info(_SaveSliceInfo(f"{info.full_name}/{suffix}", info.full_shape, info.var_offset,
                                             info.var_shape))


class Optimizer:
    """Base class for optimizers; use a subclass such as GradientDescentOptimizer."""

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots: Dict[str, Dict[Any, Any]] = {}
        self._non_slot_dict: Dict[Tuple[str, Any], Any] = {}

    def get_name(self) -> str:
        """The optimizer's name (used for slot variable names)."""
        return self._name

    # ------------------------------------------------------------------ public API
    def minimize(self, loss: Any, global_step: Any = None, var_list: Optional[List[Any]] = None,
                 gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                 colocate_gradients_with_ops: bool = False, name: Optional[str] = None, grad_loss: Any = None) -> Any:
        """compute_gradients then apply_gradients; returns the training Operation."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, gate_gradients=gate_gradients,
                                                aggregation_method=aggregation_method,
                                                colocate_gradients_with_ops=colocate_gradients_with_ops,
                                                grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError("No gradients provided for any variable, check your graph for ops that do not support "
                             f"gradients, between variables {[str(v) for _, v in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss: Any, var_list: Optional[List[Any]] = None, gate_gradients: int = GATE_OP,
                          aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> List[Tuple[Any, Any]]:
        """(gradient, variable) pairs for loss; a gradient is a Tensor, IndexedSlices or None."""
        from edgelite.ops import control_flow_ops, gradients_impl, variables
        if callable(loss):
            loss = loss()
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             f"Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = variables.trainable_variables()
        else:
            var_list = list(_flatten(var_list))
        for v in var_list:
            if not _is_variable(v):
                raise NotAVariableError(f"Argument is not a tf.Variable: {v}")
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients_impl.gradients(loss, var_list, grad_ys=grad_loss,
                                         gate_gradients=(gate_gradients == Optimizer.GATE_OP),
                                         aggregation_method=aggregation_method,
                                         colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = control_flow_ops.tuple(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars: Iterable[Tuple[Any, Any]], global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """An Operation applying the gradients; global_step (if given) is incremented after the updates."""
        from edgelite.ops import state_ops
        try:
            pairs = [tuple(p) for p in grads_and_vars]
        except TypeError as exc:
            raise TypeError(f"grads_and_vars must be an iterable of (gradient, variable) pairs: {exc}") from None
        if not pairs:
            raise ValueError("No variables provided.")
        converted = []
        for pair in pairs:
            if len(pair) != 2:
                raise TypeError(f"grads_and_vars must contain (gradient, variable) pairs, got {pair}")
            g, v = pair
            if g is not None:
                try:
                    g = ops.convert_to_tensor_or_indexed_slices(g)
                except TypeError:
                    raise TypeError(f"Gradient must be convertible to a Tensor or IndexedSlices, or None: {g}") \
                        from None
            if not _is_variable(v):
                raise TypeError(f"Trying to optimize unsupported type {v}")
            converted.append((g, v))
        var_list = [v for g, v in converted if g is not None]
        if not var_list:
            raise ValueError(f"No gradients provided for any variable: {[str(v) for _, v in converted]}.")
        # TF names non-slot variables (beta1_power) in the caller's name scope, which init_scope leaves.
        self._non_slot_name_scope = ops.get_default_graph().get_name_scope()
        with _init_scope():
            self._create_slots(var_list)
        update_ops = []
        with ops.name_scope(name, self._name) as scope:
            self._prepare()
            for grad, var in converted:
                if grad is None:
                    continue
                with ops.name_scope("update_" + var.op.name), colocated(var):
                    if isinstance(grad, IndexedSlices):
                        update_ops.append(self._apply_sparse_duplicate_indices(grad, var))
                    else:
                        update_ops.append(self._apply_dense(grad, var))
            if global_step is None:
                apply_updates = self._finish(update_ops, scope)
            else:
                with ops.control_dependencies([self._finish(update_ops, "update")]):
                    with colocated(global_step):
                        apply_updates = state_ops.assign_add(global_step, 1, name=scope)
            if isinstance(apply_updates, ops.Tensor):
                apply_updates = apply_updates.op
            train_ops = ops.get_collection_ref(ops.GraphKeys.TRAIN_OP)
            if apply_updates not in train_ops:
                train_ops.append(apply_updates)
            return apply_updates

    def get_slot(self, var: Any, name: str) -> Any:
        """The slot variable `name` created for `var`, or None."""
        named = self._slots.get(name)
        if not named:
            return None
        return named.get(_var_key(var))

    def get_slot_names(self) -> List[str]:
        """Sorted names of the slots this optimizer creates."""
        return sorted(self._slots.keys())

    def variables(self) -> List[Any]:
        """Slot and non-slot variables of this optimizer in the current graph, sorted by name."""
        key = _graph_key(ops.get_default_graph())
        found = [v for (_, g), v in self._non_slot_dict.items() if g == key]
        for named in self._slots.values():
            found.extend(v for v in named.values() if _graph_key(v.op.graph) == key)
        return sorted(found, key=lambda v: v.name)

    # ------------------------------------------------------------------ subclass hooks
    def _create_slots(self, var_list: List[Any]) -> None:
        """Create the slots every variable needs (subclasses)."""

    def _prepare(self) -> None:
        """Convert hyper-parameters to tensors before the updates are built (subclasses)."""

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        raise TypeError(f"{type(self).__name__} does not support dense gradients")

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        raise TypeError(f"{type(self).__name__} does not support IndexedSlices gradients")

    def _apply_sparse_duplicate_indices(self, grad: IndexedSlices, var: Any) -> Any:
        """Sum the rows of repeated indices, then apply the sparse update."""
        summed, unique = ops.apply_op("DeduplicateIndexedSlices", [grad.values, grad.indices])
        return self._apply_sparse(IndexedSlices(summed, unique, grad.dense_shape), var)

    def _finish(self, update_ops: List[Any], name_scope: str) -> Any:
        from edgelite.ops import control_flow_ops
        return control_flow_ops.group(*update_ops, name=name_scope)

    # ------------------------------------------------------------------ slot helpers
    def _slot_dict(self, slot_name: str) -> Dict[Any, Any]:
        return self._slots.setdefault(slot_name, {})

    def _get_or_make_slot(self, var: Any, val: Any, slot_name: str, op_name: str) -> Any:
        """A slot variable named '<var>/<op_name>' (uniquified) initialized to `val`."""
        named = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named:
            prefix = _variable_scope_prefix()
            with ops.colocate_with(var), ops.name_scope(None):
                named[key] = _new_variable(val, name=f"{prefix}{var.op.name}/{op_name}", dtype=var.dtype.base_dtype)
            _slice_like_primary(named[key], var)
        return named[key]

    def _zeros_slot(self, var: Any, slot_name: str, op_name: str) -> Any:
        shape = var.get_shape().as_list()
        return self._get_or_make_slot(var, np.zeros(shape, var.dtype.base_dtype.as_numpy_dtype), slot_name,
                                      op_name)

    def _filled_slot(self, var: Any, value: float, slot_name: str, op_name: str) -> Any:
        shape = var.get_shape().as_list()
        return self._get_or_make_slot(var, np.full(shape, value, var.dtype.base_dtype.as_numpy_dtype), slot_name,
                                      op_name)

    def _create_non_slot_variable(self, initial_value: Any, name: str, colocate_with: Any) -> Any:
        key = (name, _graph_key(colocate_with.op.graph))
        if key not in self._non_slot_dict:
            scope = getattr(self, "_non_slot_name_scope", "")
            prefix = f"{scope}/" if scope else ""
            with ops.colocate_with(colocate_with), ops.name_scope(None):
                self._non_slot_dict[key] = _new_variable(initial_value, name=prefix + name)
        return self._non_slot_dict[key]

    def _get_non_slot_variable(self, name: str, graph: Any = None) -> Any:
        return self._non_slot_dict.get((name, _graph_key(graph or ops.get_default_graph())))

    def _assert_valid_dtypes(self, tensors: List[Any]) -> None:
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in _VALID_DTYPES:
                raise ValueError(f"Invalid type {dtype!r} for {t.name}, expected: {list(_VALID_DTYPES)}.")

    @staticmethod
    def _call_if_callable(param: Any) -> Any:
        return param() if callable(param) else param

    def _hyper(self, value: Any, name: str) -> Any:
        """A hyper-parameter as a tensor (Python floats become float32, as in TensorFlow)."""
        return ops.convert_to_tensor(self._call_if_callable(value), name=name)

    @staticmethod
    def _cast(t: Any, var: Any) -> Any:
        from edgelite.ops import math_ops
        return math_ops.cast(t, var.dtype.base_dtype)

    def _train_op(self, op_type: str, inputs: List[Any], attrs: Optional[dict] = None) -> Any:
        from . import training_ops
        merged = {"use_locking": self._use_locking}
        merged.update(attrs or {})
        return training_ops.apply(op_type, inputs, attrs=merged)


def _flatten(items: Any) -> Iterable[Any]:
    """The leaves of a var_list nest, as tf.nest.flatten finds them: lists, tuples, dict views (so
    `var_list=weights.values()` works) and dicts (values in key order)."""
    if isinstance(items, dict):
        items = [items[key] for key in sorted(items)]
    if isinstance(items, (list, tuple, collections.abc.MappingView)):
        for item in items:
            yield from _flatten(item)
    else:
        yield items
