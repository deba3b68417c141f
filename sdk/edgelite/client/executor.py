"""The numpy executor: a topological plan per (fetches, feeds) signature, compiled into one step per op."""
from __future__ import annotations

import time
from typing import Any, Optional

import numpy as np

from edgelite.client import plan_rewrites
from edgelite.client.compiled_steps import StepSpec, assign_releases, compile_step
from edgelite.client.fused_steps import chain_links, fused_step
from edgelite.client.inplace_steps import inplace_step
from edgelite.client.memo_steps import constant_arrays, memo_kinds, memo_step
from edgelite.client.run_lock import RunLock
from edgelite.framework import errors
from edgelite.framework.graph import Operation, Tensor


class VarRef:
    """The value of a reference-typed tensor: a handle to a variable's storage in a session."""

    __slots__ = ("state", "key", "op")

    def __init__(self, state: "SessionState", key: str, op: Operation) -> None:
        self.state = state
        self.key = key
        self.op = op

    def read(self) -> np.ndarray:
        """The current value; FailedPreconditionError if the variable was never assigned."""
        try:
            return self.state.variables[self.key]
        except KeyError:
            raise errors.FailedPreconditionError(
                None, self.op, f"Attempting to use uninitialized value {self.op.name}") from None

    def write(self, value: np.ndarray) -> None:
        """Replace the stored value (callers pass arrays they own)."""
        self.state.set_variable(self.key, value)

    @property
    def initialized(self) -> bool:
        """Whether a value was ever assigned."""
        return self.key in self.state.variables


class SessionState:
    """Per-session mutable state: variable storage, per-op random generators, function plans."""

    def __init__(self) -> None:
        self.variables: dict = {}
        self._storage_ids: dict = {}
        self.rngs: dict = {}
        self.function_plans: dict = {}
        self.op_state: dict = {}
        # Per run: what each While op (its iterations) and If op (its branch intermediates) recorded for its
        # gradient (see control_flow_grad).
        self.loop_records: dict = {}
        # Held while a step runs; blocking kernels (queues, iterators) lend it out while they wait.
        self.run_lock = RunLock()
        # Called once by Session.close: queues cancel their waiting operations, iterators stop their threads.
        self.closers: list = []
        # ConfigProto's intra_op_parallelism_threads for native kernels with their own pools (0: their default).
        self.intra_op_threads = 0

    def close(self) -> None:
        """Run the closers registered by stateful kernels (each once)."""
        closers, self.closers = self.closers, []
        for fn in closers:
            fn()

    def set_variable(self, key: str, value: np.ndarray) -> None:
        old = self.variables.get(key)
        if old is not None:
            self._storage_ids.pop(id(old), None)
        self.variables[key] = value
        self._storage_ids[id(value)] = key

    def new_run(self) -> None:
        """Forget what the previous Session.run recorded for loop gradients."""
        if self.loop_records:
            self.loop_records = {}

    def is_storage(self, value: Any) -> bool:
        return id(value) in self._storage_ids

    def reset(self, containers: Optional[list] = None) -> None:
        if containers is None:
            self.variables.clear()
            self._storage_ids.clear()
            return
        for key in [k for k in self.variables if k.split("/", 1)[0] in containers]:
            self._storage_ids.pop(id(self.variables.pop(key)), None)


class OpContext:
    """What a kernel sees besides its inputs: the op, its attrs, session state and a seeded RNG."""

    __slots__ = ("op", "attrs", "state", "_rng")

    def __init__(self, op: Operation, state: SessionState) -> None:
        self.op = op
        self.attrs = op._attrs
        self.state = state
        self._rng: Optional[np.random.Generator] = None

    @property
    def rng(self) -> np.random.Generator:
        """The op's generator in this session: replays the same stream in every new session if seeded."""
        if self._rng is None:
            key = id(self.op)
            gen = self.state.rngs.get(key)
            if gen is None:
                seed = int(self.attrs.get("seed", 0) or 0)
                seed2 = int(self.attrs.get("seed2", 0) or 0)
                gen = np.random.default_rng([seed, seed2]) if (seed or seed2) else np.random.default_rng()
                self.state.rngs[key] = gen
            self._rng = gen
        return self._rng

    def run_function(self, fn: Any, args: list) -> list:
        """Run a Function (cond branch, loop body) on args; returns its output values."""
        plan = self.state.function_plans.get(id(fn))
        if plan is None:
            plan = build_plan(fn.graph, list(fn.outputs), list(fn.control_outputs), list(fn.inputs), self.state)
            self.state.function_plans[id(fn)] = plan
        return plan.run_nested(args)


class Plan:
    """Topologically ordered steps over numbered value slots for one fetch/feed signature.

    Values known when the plan is built (constants, variable handles, statically known shapes) are
    stored in a template that every run starts from, so their ops never run. Each remaining op is one
    compiled step (see compiled_steps); `step_ops[i]` is the op of `steps[i]`. Ops that compute nothing
    (NoOp, Identity of a value) share their input's slot and only appear in `steps` as a placeholder, so
    a traced run still records them; an untraced run loops over `run_steps` without them.
    """

    def __init__(self, steps: list, step_ops: tuple, template: list, feed_slots: list, fetch_slots: list,
                 state: SessionState, ops: tuple = (), run_steps: Optional[list] = None,
                 run_ops: Optional[tuple] = None) -> None:
        self.ops = ops  # every op the fetches need, in run order (for placement checks and logging)
        self.steps = steps
        self.step_ops = step_ops
        # What an untraced run executes: `steps` without placeholders, elementwise chains fused (fused_steps).
        self.run_steps = steps if run_steps is None else run_steps
        self.run_ops = step_ops if run_ops is None else run_ops
        self.template = template
        self.feed_slots = feed_slots
        self.fetch_slots = fetch_slots
        self.state = state

    def run(self, feed_values: list, trace: Optional[list] = None) -> list:
        """Execute the plan with the given feed values (in feed order); returns fetched values.

        With a `trace` list, each kernel's (op, wall start ns, monotonic start ns, monotonic end ns) is appended.
        """
        with np.errstate(all="ignore"):
            return self.run_nested(feed_values, trace)

    def run_nested(self, feed_values: list, trace: Optional[list] = None) -> list:
        """run() for a caller already inside a run's numpy error state (a cond branch, a loop body)."""
        vals = self.template[:]
        for slot, v in zip(self.feed_slots, feed_values):
            vals[slot] = v
        i = 0
        step_ops = self.run_ops
        try:
            if trace is None:
                for i, step in enumerate(self.run_steps):
                    step(vals)
            else:
                step_ops = self.step_ops
                for i, step in enumerate(self.steps):
                    wall, start = time.time_ns(), time.perf_counter_ns()
                    step(vals)
                    trace.append((step_ops[i], wall, start, time.perf_counter_ns()))
        except errors.OpError as e:
            if e.op is None:
                e._op = step_ops[i]
            raise
        except (ValueError, IndexError, TypeError, ArithmeticError, np.linalg.LinAlgError) as e:
            raise errors.InvalidArgumentError(None, step_ops[i], f"{type(e).__name__}: {e}") from e
        result = []
        for slot in self.fetch_slots:
            if slot is None:
                result.append(None)
                continue
            v = vals[slot]
            if isinstance(v, VarRef):
                v = v.read()
            if isinstance(v, np.ndarray) and (not v.flags.writeable or self.state.is_storage(v)):
                v = v.copy()
            result.append(v)
        return result


def _elided(vals: list) -> None:
    """The placeholder step of an op that shares its input's slot (recorded in traces, skipped otherwise)."""


def _computes_nothing(op: Operation, slots: dict) -> bool:
    """NoOp, or an Identity of a non-reference value whose output is not fed: its output can share the slot."""
    if op.type == "NoOp":
        return not op._inputs and not op._outputs
    return (op.type in ("Identity", "StopGradient") and not op._inputs[0].dtype.is_ref_dtype
            and not op._outputs[0].dtype.is_ref_dtype and op._outputs[0] not in slots)


def _folded_value(op: Operation, state: SessionState) -> Any:
    """The output value of op if it is fixed for the session (else None)."""
    from edgelite.framework import tensor_util
    if op.type == "Const":
        return op._attrs["value"]
    if op.type == "VariableV2":
        return op.op_def.kernel(OpContext(op, state))
    if op.type in ("Shape", "Size", "Rank") and not op._inputs[0].dtype.is_ref_dtype:
        # An op on a variable's reference must still read it (and fail if it is uninitialized).
        return tensor_util.constant_value(op._outputs[0])
    return None


def _kernel_of(op: Operation) -> Any:
    od = op.op_def
    if od is None or od.kernel is None:
        raise errors.NotFoundError(None, op, f"No OpKernel was registered to support Op '{op.type}' used by node "
                                             f"{op.name}")
    return od.kernel


def build_plan(graph: Any, fetch_tensors: list, target_ops: list, feed_tensors: list,
               state: SessionState) -> Plan:
    """Order the ops needed for the fetches (stopping at fed tensors) and assign value slots."""
    fed = {t: i for i, t in enumerate(feed_tensors)}
    # An op whose outputs are all fed is never run, so a control dependency on it is already met.
    fed_ops = {t.op for t in feed_tensors if all(o in fed for o in t.op._outputs)}
    slots: dict = {}
    for t in feed_tensors:
        slots.setdefault(t, len(slots))
    order: list = []
    visited: set = set()
    roots = [t.op for t in fetch_tensors if t is not None and t not in fed] + list(target_ops)
    for root in roots:
        if root in visited:
            continue
        stack = [(root, False)]
        while stack:
            op, expanded = stack.pop()
            if expanded:
                order.append(op)
                continue
            if op in visited:
                continue
            visited.add(op)
            stack.append((op, True))
            deps = [c for c in reversed(op._control_inputs) if c not in visited and c not in fed_ops]
            deps += [t.op for t in reversed(op._inputs) if t not in fed and t.op not in visited]
            for d in deps:
                stack.append((d, False))
    order = _without_unread_gradients(order, fetch_tensors, target_ops)
    lean = plan_rewrites.active()
    entries: list = []  # (op, its StepSpec) per op to run; the spec is None for an op sharing its input's slot
    folded: dict = {}
    for op in order:
        kernel = _kernel_of(op)
        od = op.op_def
        if lean and _computes_nothing(op, slots):
            if op._outputs:
                slots[op._outputs[0]] = slots[op._inputs[0]]
            entries.append((op, None))
            continue
        for t in op._outputs:
            slots.setdefault(t, len(slots))
        value = _folded_value(op, state)
        if value is not None:
            folded[slots[op._outputs[0]]] = value
            continue
        in_slots = tuple(slots[t] for t in op._inputs)
        deref = () if od.ref_passthrough else tuple(
            j for j, t in enumerate(op._inputs) if t.dtype.is_ref_dtype and j not in od.ref_input_indices)
        groups = _input_groups(op) if od.has_list_inputs else None
        out_slots = tuple(slots[t] for t in op._outputs)
        out_dtypes = tuple(None if (t.dtype.is_ref_dtype or not t.dtype.is_numpy_compatible
                                    or t.dtype.as_numpy_dtype is np.object_)
                           else np.dtype(t.dtype.as_numpy_dtype) for t in op._outputs)
        entries.append((op, StepSpec(op, kernel, OpContext(op, state), in_slots, deref, groups, out_slots,
                                     out_dtypes)))
    for t in fetch_tensors:
        if t is not None and t not in slots:
            slots[t] = len(slots)
    template: list = [None] * len(slots)
    for slot, value in folded.items():
        template[slot] = value
    fetch_slots = [None if t is None else slots[t] for t in fetch_tensors]
    specs = [spec for _, spec in entries if spec is not None]
    assign_releases(specs, {s for s in fetch_slots if s is not None})
    kinds = memo_kinds(specs, constant_arrays(template)) if lean else [None] * len(specs)
    spec_steps = [memo_step(spec, kind) if kind else (inplace_step(spec) or compile_step(spec))
                  for spec, kind in zip(specs, kinds)]
    by_spec = iter(spec_steps)
    steps = [_elided if spec is None else next(by_spec) for _, spec in entries]
    run_steps, run_ops = _fused(specs, spec_steps, kinds) if lean else (steps, None)
    return Plan(steps, tuple(op for op, _ in entries), template, [slots[t] for t in feed_tensors], fetch_slots,
                state, tuple(order), run_steps, run_ops)


def _fused(specs: list, spec_steps: list, kinds: list) -> tuple:
    """The steps and ops of an untraced run: each elementwise chain (fused_steps) as one step named by its head."""
    links = [None if kind else link for link, kind in zip(chain_links(specs), kinds)]
    run_steps: list = []
    run_ops: list = []
    k = 0
    while k < len(specs):
        end = k + 1
        while end < len(specs) and links[end] is not None and not kinds[k]:
            end += 1
        if end - k > 1:
            members = [(specs[j], links[j]) for j in range(k + 1, end)]
            run_steps.append(fused_step(spec_steps[k], specs[k], members))
        else:
            run_steps.append(spec_steps[k])
        run_ops.append(specs[k].op)
        k = end
    return run_steps, tuple(run_ops)


# Pure gradient ops that are often reached only through a control edge: the input gradient of a network's first
# layer, which the gating tuple of `gate_gradients` runs although nothing reads it. Skipping one whose outputs no op
# of the plan reads changes no value (TensorFlow's dependency optimizer turns such nodes into NoOps as well).
_SKIPPABLE_UNREAD = frozenset({"Conv2DBackpropInput", "DepthwiseConv2dNativeBackpropInput", "Conv3DBackpropInputV2"})


def _without_unread_gradients(order: list, fetch_tensors: list, target_ops: list) -> list:
    """`order` without the skippable ops whose outputs are neither fetched, targeted nor read by a planned op."""
    if not any(op.type in _SKIPPABLE_UNREAD for op in order):
        return order
    read = {t for op in order for t in op._inputs}
    read.update(t for t in fetch_tensors if t is not None)
    targets = set(target_ops)
    return [op for op in order if op.type not in _SKIPPABLE_UNREAD or op in targets
            or any(t in read for t in op._outputs)]


def _input_groups(op: Operation) -> list:
    groups = []
    pos = 0
    for spec in op.op_def.inputs:
        if spec.number_attr:
            n = int(op._attrs[spec.number_attr])
            groups.append((pos, pos + n, True))
            pos += n
        else:
            groups.append((pos, pos + 1, False))
            pos += 1
    return groups


def is_tensor(x: Any) -> bool:
    """Whether x is a graph Tensor."""
    return isinstance(x, Tensor)
