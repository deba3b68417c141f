"""SyncReplicasOptimizer: average the gradients of several replicas, drop stale ones, apply them in one step.

Replicas live in one process and one session: each call of apply_gradients (or minimize) builds the train op
of one replica, with its own `sync_rep_local_step`; all replicas share the per-variable gradient accumulators
and the token queue. The run that brings the accumulators to `replicas_to_aggregate` gradients also does the
chief's work: takes the averages, applies them with the wrapped optimizer (which increments the global step)
and queues `max(total_num_replicas, replicas_to_aggregate)` tokens holding the new global step.

Inside an edgelite.distribute Ray replica (one replica per process), apply_gradients builds instead the op
that averages the gradients across processes through the parameter-holder actor (edgelite/distribute/sync_step.py).
"""
from __future__ import annotations

from typing import Any, List, Optional

from edgelite.distribute import context as replica_context
from edgelite.framework import dtypes, ops
from edgelite.framework.indexed_slices import IndexedSlices

from . import _accumulators as acc
from . import session_manager
from ._scopes import init_scope
from .optimizer import Optimizer
from .session_run_hook import SessionRunHook

_TOKEN_QUEUE = "sync_token_q"


class SyncReplicasOptimizer(Optimizer):
    """Collects gradients from all replicas, averages them and applies them to the variables in one shot."""

    def __init__(self, opt: Optimizer, replicas_to_aggregate: int, total_num_replicas: Optional[int] = None,
                 variable_averages: Any = None, variables_to_average: Optional[List[Any]] = None,
                 use_locking: bool = False, name: str = "sync_replicas") -> None:
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._total_num_replicas = total_num_replicas
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._gradients_applied = False
        self._global_step: Any = None
        self._local_steps: List[Any] = []
        self._accumulators: dict = {}
        self._chief_queue_runner: Any = None

    def compute_gradients(self, *args: Any, **kwargs: Any) -> list:
        """The wrapped optimizer's compute_gradients."""
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: Optional[str] = None) -> Any:
        """The train op of one replica: push its gradients, finish the step if they complete it, take a token."""
        from edgelite.ops import array_ops, control_flow_ops, math_ops, variables
        grads_and_vars = list(grads_and_vars or [])
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        with init_scope():
            local_step = variables.Variable(0, trainable=False, collections=[ops.GraphKeys.LOCAL_VARIABLES],
                                            dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")
        self._local_steps.append(local_step)
        if replica_context.current() is not None:
            from edgelite.distribute import sync_step
            with ops.name_scope(None, self._name):
                train_op = sync_step.build_train_op(self._opt, grads_and_vars, global_step, local_step,
                                                    self._replicas_to_aggregate, self._total_num_replicas, name)
            self._build_init_ops()
            self._chief_queue_runner = _parked_chief_queue_runner()
            self._gradients_applied = True
            return train_op
        with ops.name_scope(None, self._name):
            wait = acc.apply_op("SyncTokenFinishWait", [local_step], {"shared_name": _TOKEN_QUEUE})
            with ops.control_dependencies([wait]):
                tag = math_ops.cast(local_step.read_value(), dtypes.int64)
            pushes, handles = [], []
            for grad, var in grads_and_vars:
                if grad is None:
                    handles.append(None)
                    continue
                handle = self._accumulator(grad, var)
                handles.append(handle)
                with ops.control_dependencies([wait]):
                    pushes.append(_push(handle, tag, grad))
            with ops.control_dependencies(pushes):
                counts = [acc.apply_op("AccumulatorNumAccumulated", [h]) for h in handles if h is not None]
                complete = math_ops.reduce_all(math_ops.greater_equal(
                    array_ops.stack(counts), self._replicas_to_aggregate))
                finish = control_flow_ops.cond(complete, lambda: self._finish_step(grads_and_vars, handles),
                                               control_flow_ops.no_op)
            with ops.control_dependencies([finish]):
                train_op = acc.apply_op("SyncTokenTake", [local_step], {"shared_name": _TOKEN_QUEUE},
                                        name=name)
        self._build_init_ops()
        self._chief_queue_runner = _parked_chief_queue_runner()
        self._gradients_applied = True
        return train_op

    def _accumulator(self, grad: Any, var: Any) -> Any:
        """The shared accumulator of var's gradients (one per variable, created once)."""
        key = (var.op.graph._graph_key, var.op.name)
        if key not in self._accumulators:
            sparse = isinstance(grad, IndexedSlices)
            if not sparse and not isinstance(grad, ops.Tensor):
                raise ValueError("Unknown grad type!")
            with init_scope():
                op_type = "SparseConditionalAccumulator" if sparse else "ConditionalAccumulator"
                handle = acc.apply_op(op_type, [], {"dtype": grad.dtype.base_dtype, "shape": var.get_shape(),
                                                    "shared_name": var.name + "/grad_accum"})
            self._accumulators[key] = (handle, sparse, var)
        return self._accumulators[key][0]

    def _finish_step(self, grads_and_vars: list, handles: list) -> Any:
        """The chief's work: average, apply, and queue one token per replica holding the new global step."""
        from edgelite.ops import array_ops, control_flow_ops
        averaged = []
        for (grad, var), handle in zip(grads_and_vars, handles):
            if handle is None:
                averaged.append((None, var))
                continue
            attrs = {"dtype": grad.dtype.base_dtype, "element_shape": var.get_shape()}
            if isinstance(grad, IndexedSlices):
                indices, values, shape = acc.apply_op("SparseAccumulatorTakeGradient",
                                                      [handle, self._replicas_to_aggregate], attrs)
                averaged.append((IndexedSlices(values, indices, shape), var))
            else:
                averaged.append((acc.apply_op("AccumulatorTakeGradient", [handle, self._replicas_to_aggregate],
                                              attrs), var))
        update = self._opt.apply_gradients(averaged, self._global_step)
        with ops.control_dependencies([update]):
            step = self._global_step.read_value()
            tokens = array_ops.fill([self._tokens_per_step], step)
            sync = acc.apply_op("SyncTokensEnqueue", [tokens], {"shared_name": _TOKEN_QUEUE})
        if self._variable_averages is not None:
            with ops.control_dependencies([sync]):
                sync = self._variable_averages.apply(self._variables_to_average)
        return control_flow_ops.group(sync)

    def _build_init_ops(self) -> None:
        from edgelite.ops import control_flow_ops, state_ops, variables
        with init_scope():
            local_inits = [state_ops.assign(s, self._global_step) for s in self._local_steps]
            self.local_step_init_op = control_flow_ops.group(*local_inits)
            self.ready_for_local_init_op = variables.report_uninitialized_variables(variables.global_variables())
            set_steps = [acc.apply_op("AccumulatorSetGlobalStep", [h, self._global_step], name="SetGlobalStep")
                         for h, _, _ in self._accumulators.values()]
            self.chief_init_op = control_flow_ops.group(*local_inits, *set_steps)

    def get_chief_queue_runner(self) -> Any:
        """The QueueRunner a TF1 chief starts (`create_threads(sess, coord, start=True)`).

        The run that completes a step already does the chief's work here (average, apply, queue the tokens), so
        the runner's one thread only parks on a full one-slot queue until its coordinator stops it."""
        if not self._gradients_applied:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_init_tokens_op(self, num_tokens: int = -1) -> Any:
        """An op queuing `num_tokens` tokens (default replicas_to_aggregate) of the global step, so the first
        step can be finished."""
        from edgelite.ops import array_ops, control_flow_ops
        if not self._gradients_applied:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < tokens_needed:
            raise ValueError(f"Too few tokens to finish the first step: {num_tokens} (given) vs {tokens_needed} "
                             "(needed)")
        with init_scope():
            if num_tokens <= 0:
                return control_flow_ops.no_op(name="no_init_tokens")
            tokens = array_ops.fill([num_tokens], self._global_step)
            return acc.apply_op("SyncTokensEnqueue", [tokens], {"shared_name": _TOKEN_QUEUE})

    def make_session_run_hook(self, is_chief: bool, num_tokens: int = -1) -> "SessionRunHook":
        """A hook that initializes the local steps (and, in the chief, the accumulators and initial tokens).

        On an edgelite.distribute replica it also starts the replica from the chief's variables.
        """
        if replica_context.current() is not None:
            from edgelite.distribute import sync_step
            return sync_step.ReplicaSyncHook(self, is_chief)
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's slot."""
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> List[str]:
        """The wrapped optimizer's slot names."""
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self) -> List[Any]:
        """The wrapped optimizer's variables (the local steps are not included)."""
        return self._opt.variables()


def _parked_chief_queue_runner() -> Any:
    """A runner whose enqueue fills a one-slot queue once and then blocks until the queue is closed."""
    from edgelite.ops import array_ops
    from edgelite.ops.queue_ops import FIFOQueue
    from .queue_runner import QueueRunner
    with init_scope():
        queue = FIFOQueue(1, [dtypes.int32], shapes=[[]], name="dummy_queue")
        return QueueRunner(queue, [queue.enqueue(array_ops.zeros([], dtypes.int32))])


def _push(handle: Any, tag: Any, grad: Any) -> Any:
    from edgelite.ops import math_ops
    if isinstance(grad, IndexedSlices):
        known = grad.dense_shape is not None
        shape = math_ops.cast(grad.dense_shape, dtypes.int64) if known else ops.convert_to_tensor([0], dtypes.int64)
        return acc.apply_op("SparseAccumulatorApplyGradient",
                            [handle, tag, math_ops.cast(grad.indices, dtypes.int64), grad.values, shape],
                            {"has_known_shape": known})
    return acc.apply_op("AccumulatorApplyGradient", [handle, tag, grad])


class _SyncReplicasOptimizerHook(SessionRunHook):
    """Runs the SyncReplicasOptimizer's local initialization once the session exists."""

    def __init__(self, sync_optimizer: SyncReplicasOptimizer, is_chief: bool, num_tokens: int) -> None:
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens

    def begin(self) -> None:
        opt = self._sync_optimizer
        if not opt._gradients_applied:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
        self._ready_for_local_init_op = opt.ready_for_local_init_op
        if self._is_chief:
            self._local_init_op = opt.chief_init_op
            self._init_tokens_op = opt.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = opt.local_step_init_op
            self._init_tokens_op = None

    def after_create_session(self, session: Any, coord: Any) -> None:
        ready, msg = session_manager._ready(self._ready_for_local_init_op, session,
                                            "Model is not ready for SyncReplicasOptimizer local init.")
        if not ready:
            raise RuntimeError("Init operations did not make model ready for SyncReplicasOptimizer local_init. "
                               f"Init op: {self._local_init_op.name}, error: {msg}")
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
