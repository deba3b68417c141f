"""SyncReplicasOptimizer's train op on a Ray replica: one op sends the replica's gradients to the aggregator
actor and returns their average over the replicas, which every replica then applies with the wrapped
optimizer; the session-run hook starts each replica from the chief's variables.
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.framework.op_def_registry import register_op
from edgelite.train.session_run_hook import SessionRunHook

from . import aggregator as agg
from . import context

_OP = "RaySyncReplicasStep"


def _replica() -> context.ReplicaContext:
    ctx = context.current()
    if ctx is None:
        raise errors.FailedPreconditionError(
            None, None, f"{_OP} runs only inside an edgelite.distribute worker (this graph was built in one)")
    return ctx


def _step_kernel(kctx: Any, local_step: np.ndarray, *values: np.ndarray) -> tuple:
    """Push this replica's gradients and replica state, wait for the step's average (or leave to continue)."""
    from ._ray import require_ray
    ray = require_ray()
    rep = _replica()
    status, new_step, means = ray.get(rep.aggregator.push.remote(
        rep.generation, rep.task_index, int(local_step), [np.asarray(v) for v in values],
        kctx.attrs["replicas_to_aggregate"], kctx.attrs["total_num_replicas"]))
    if status == agg.ABORTED:
        raise errors.AbortedError(None, None, f"{_OP}: the job restarted its replicas (at step {new_step}); "
                                              "this replica rejoins from the chief's restored variables")
    if status == agg.CONTINUE:
        means = [np.zeros_like(v) for v in values]
    return (np.bool_(status == agg.READY), np.int64(new_step), *means)


register_op(_OP, inputs=[], outputs=[], attrs={"replicas_to_aggregate": 1, "total_num_replicas": 1},
            kernel=_step_kernel, shape_fn=lambda op: [[], []] + [t.shape for t in op.inputs[1:]], stateful=True)
ops.NoGradient(_OP)


def replica_state_variables(global_step: Any) -> List[Any]:
    """Non-trainable float variables (batch-norm moving statistics and the like): averaged across replicas
    each step, because every replica updates them from its own shard."""
    from edgelite.ops import variables
    return [v for v in variables.global_variables()
            if v.dtype.base_dtype.is_floating and v not in variables.trainable_variables()
            and v.op.name != global_step.op.name]


def build_train_op(opt: Any, grads_and_vars: list, global_step: Any, local_step: Any, replicas_to_aggregate: int,
                   total_num_replicas: int, name: Any) -> Any:
    """Average gradients across replicas, then apply them on this replica; the local step follows the step."""
    from edgelite.ops import control_flow_ops, state_ops
    pairs = [(ops.convert_to_tensor(g) if isinstance(g, IndexedSlices) else g, v)
             for g, v in grads_and_vars if g is not None]
    state_vars = replica_state_variables(global_step)
    inputs = [local_step.read_value()] + [g for g, _ in pairs] + [v.read_value() for v in state_vars]
    out_types = [dtypes.bool, dtypes.int64] + [t.dtype.base_dtype for t in inputs[1:]]
    g = ops.get_default_graph()
    step_op = g.create_op(_OP, [ops.convert_to_tensor(t) for t in inputs], out_types, name="sync_step",
                          attrs={"replicas_to_aggregate": int(replicas_to_aggregate),
                                 "total_num_replicas": int(total_num_replicas)})
    ready, new_step = step_op.outputs[0], step_op.outputs[1]
    means = list(step_op.outputs[2:])
    averaged = [(m, v) for m, (_, v) in zip(means, pairs)]
    state_means = means[len(pairs):]

    def apply() -> Any:
        set_state = [state_ops.assign(v, m) for v, m in zip(state_vars, state_means)]
        with ops.control_dependencies(set_state):
            update = opt.apply_gradients(averaged, global_step)
        with ops.control_dependencies([update]):
            return control_flow_ops.group(state_ops.assign(local_step, new_step))

    if replicas_to_aggregate <= total_num_replicas:
        # Every push ends a step for this replica: no branch needed.
        return control_flow_ops.group(apply(), name=name)
    return control_flow_ops.cond(ready, apply, control_flow_ops.no_op, name=name)


class ReplicaSyncHook(SessionRunHook):
    """Starts a replica: the chief publishes its initialized or restored variables, the others load them."""

    def __init__(self, sync_optimizer: Any, is_chief: bool) -> None:
        self._opt = sync_optimizer
        self._is_chief = is_chief
        self._variables: List[Any] = []

    def begin(self) -> None:
        from edgelite.ops import variables
        if not self._opt._gradients_applied:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
        self._variables = list(variables.global_variables())

    def after_create_session(self, session: Any, coord: Any) -> None:
        from ._ray import require_ray
        ray = require_ray()
        rep = _replica()
        if self._is_chief:
            values = session.run({v.op.name: v for v in self._variables})
            step = int(session.run(self._opt._global_step))
            rep.generation = ray.get(rep.aggregator.publish_state.remote(step, values))
        else:
            rep.generation, _, values = ray.get(rep.aggregator.fetch_state.remote())
            for v in self._variables:
                v.load(values[v.op.name], session)
        session.run(self._opt.local_step_init_op)
