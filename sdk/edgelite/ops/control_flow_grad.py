"""Gradients of the functional control-flow ops (If/StatelessIf, While/StatelessWhile)."""
from __future__ import annotations

import builtins
from typing import Any

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.func_graph import FuncGraph, Function
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import gradients_impl
from edgelite.ops.control_flow_ops import run_loop
from edgelite.ops.list_value import zeros_like_value


def _dense(g: Any) -> Any:
    return ops.convert_to_tensor(g) if isinstance(g, IndexedSlices) else g


def _body_gradients(fn: Function, xs: list, tag: str) -> tuple:
    """Inside fn's graph: placeholders for output grads and the grads of fn.outputs w.r.t. xs."""
    fg = fn.graph
    n_caps_before = len(fg.captures)
    with fg.as_default():
        gys = [fg.add_input(o.dtype.base_dtype, o.shape, f"{tag}_grad_y_{i}") for i, o in enumerate(fn.outputs)]
        grads = gradients_impl.gradients(fn.outputs, xs, grad_ys=gys, name=f"{tag}_gradients") if fn.outputs \
            else [None] * len(xs)
        grads = [_dense(g) for g in grads]
    new_caps = fg.captures[n_caps_before:]
    return gys, grads, new_caps


def _differentiable(t: Any) -> bool:
    dt = t.dtype.base_dtype
    return dt.is_floating or dt == dtypes.variant


def _zeros_like(t: Any) -> Any:
    """A zero gradient for t: for a tensor list, a list whose elements read as zeros."""
    if t.dtype.base_dtype == dtypes.variant:
        return ops.apply_op("ZerosLike", [t])
    return array_ops.zeros_like(t)


def _outer_grads(grads: tuple, outputs: list) -> list:
    return [_zeros_like(o) if g is None else _dense(g) for g, o in zip(grads, outputs)]


def _if_grad_kernel(ctx: Any, pred: Any, *args: Any) -> Any:
    forward = ctx.op._if_forward
    stack = ctx.state.loop_records.get(id(forward))
    if stack:
        taken, saved = stack.pop()
    else:
        # The forward op did not run in this step (its outputs were fed, or another gradient of it took
        # its record): compute just the intermediates again.
        taken = 0 if bool(pred) else 1
        saved = ctx.run_function(forward._if_recompute[taken], list(args[:ctx.attrs["num_inputs"]]))
    grad_fn = ctx.attrs["then_grad" if taken == 0 else "else_grad"]
    out = ctx.run_function(grad_fn, list(args) + [saved[p] for p in ctx.attrs["recorded"][taken]])
    return out[0] if len(out) == 1 else builtins.tuple(out)


register_op("IfGrad", inputs=["cond: Tcond"], outputs=[], kernel=_if_grad_kernel,
            shape_fn=lambda op: list(op.get_attr("output_shapes")), stateful=True, ref_passthrough=True)
ops.NoGradient("IfGrad")


def _append_positions(recorded: list, tensors: list) -> list:
    """Where each tensor sits in recorded, appending the ones not yet there."""
    positions = []
    for t in tensors:
        at = next((k for k, r in enumerate(recorded) if r is t), None)
        if at is None:
            at = len(recorded)
            recorded.append(t)
        positions.append(at)
    return positions


def _record_branch_intermediates(op: Any, taken: int, tensors: list) -> list:
    """Make the If op output tensors of one branch beside its results; their positions among them."""
    recorded = op.__dict__.setdefault("_if_recorded", ([], []))[taken]
    positions = _append_positions(recorded, tensors)
    recorders = list(getattr(op, "_if_recorders", (None, None)))
    fn = op.get_attr("then_branch" if taken == 0 else "else_branch")
    recorders[taken] = Function(fn.graph, fn.inputs, list(fn.outputs) + recorded, fn.control_outputs,
                                name=fn.name + "_record")
    op._if_recorders = builtins.tuple(recorders)
    # Without the branch's control outputs: recomputing must not repeat its side effects.
    recompute = list(getattr(op, "_if_recompute", (None, None)))
    recompute[taken] = Function(fn.graph, fn.inputs, list(recorded), name=fn.name + "_intermediates")
    op._if_recompute = builtins.tuple(recompute)
    return positions


@ops.RegisterGradient("If")
@ops.RegisterGradient("StatelessIf")
def _if_grad(op: Any, *grads: Any) -> list:
    """Each branch's gradient, reading the intermediates the forward op recorded in the same step.

    The forward branch is not rebuilt inside the gradient branch: a batch norm under `cond(training)`
    runs its forward kernel once per training step.
    """
    then_fn, else_fn = op.get_attr("then_branch"), op.get_attr("else_branch")
    inputs = list(op.inputs[1:])
    forward_ops = [set(fn.graph.get_operations()) for fn in (then_fn, else_fn)]
    built = []
    for fn, tag in ((then_fn, "then"), (else_fn, "else")):
        built.append(_body_gradients(fn, fn.inputs, tag))
    connected = [any(b[1][i] is not None for b in built) and _differentiable(inputs[i])
                 for i in builtins.range(len(inputs))]
    new_outer: list = []
    for _, _, caps in built:
        for outer, _ in caps:
            if all(outer is not o for o in new_outer):
                new_outer.append(outer)
    out_types = [t.dtype.base_dtype for i, t in enumerate(inputs) if connected[i]]
    if not out_types:
        return [None] * len(op.inputs)
    fns, positions = [], []
    for taken, ((gys, gx, _), fn) in enumerate(zip(built, (then_fn, else_fn))):
        fg = fn.graph
        with fg.as_default():
            outs = []
            for i, g in enumerate(gx):
                if connected[i]:
                    outs.append(_zeros_like(fn.inputs[i]) if g is None else g)
            extra = [fg.capture(t) for t in new_outer]
        grad_ops = [o for o in fg.get_operations() if o not in forward_ops[taken]]
        saved = _needed_intermediates(forward_ops[taken], grad_ops, fn.inputs)
        positions.append(_record_branch_intermediates(op, taken, saved))
        fns.append(Function(fg, fn.inputs + gys + extra + saved, outs, name=fn.name + "_grad"))
    out_grads = _outer_grads(grads, op.outputs)
    shapes = [t.shape for i, t in enumerate(inputs) if connected[i]]
    # At the top level the forward op must run first in the step so that its record exists.
    deps = [op] if not isinstance(op.graph, FuncGraph) else []
    with ops.control_dependencies(deps):
        gop = ops.get_default_graph().create_op(
            "IfGrad", [op.inputs[0]] + inputs + out_grads + new_outer, out_types, name="IfGrad",
            attrs={"then_grad": fns[0], "else_grad": fns[1], "Tcond": op.get_attr("Tcond"),
                   "num_inputs": len(inputs), "recorded": positions,
                   "Tin": [t.dtype for t in inputs + out_grads + new_outer], "Tout": out_types,
                   "output_shapes": shapes})
    gop._if_forward = op
    it = iter(gop.outputs)
    return [None] + [next(it) if c else None for c in connected]


def _while_grad_kernel(ctx: Any, *args: Any) -> Any:
    n = ctx.attrs["num_loop_vars"]
    m = ctx.attrs["num_captures"]
    has_max = ctx.attrs["has_maximum_iterations"]
    grad_fn = ctx.attrs["grad_body"]
    forward = ctx.op._while_forward
    loop = list(args[:n])
    caps = list(args[n:n + m])
    idx = n + m
    extra = caps + ([args[idx]] if has_max else [])
    idx += 1 if has_max else 0
    g = list(args[idx:idx + n])
    new_caps = list(args[idx + n:])
    stack = ctx.state.loop_records.get(id(forward))
    if stack:
        records = stack.pop()
    else:
        # The forward loop did not run in this step (its outputs were fed, or another gradient of it
        # took its records): run it again, recording.
        records = []
        run_loop(ctx, forward._while_recorder, loop, extra, records)
    positions = ctx.attrs["recorded"]
    cap_g: list = [None] * m
    for state, saved in reversed(records):
        res = ctx.run_function(grad_fn, state + extra + g + new_caps + [saved[p] for p in positions])
        g = res[:n]
        cap_g = [r if acc is None else acc + r for acc, r in zip(cap_g, res[n:])]
    out = g + [zeros_like_value(c) if acc is None else acc for c, acc in zip(caps, cap_g)]
    # A one-output op hands back its array itself: the executor would stack a 1-tuple into shape (1, ...).
    return out[0] if len(out) == 1 else builtins.tuple(out)


register_op("WhileGrad", inputs=["input: T"], outputs=[], kernel=_while_grad_kernel,
            shape_fn=lambda op: list(op.get_attr("output_shapes")), stateful=True, ref_passthrough=True)
ops.NoGradient("WhileGrad")


def _record_intermediates(op: Any, tensors: list) -> list:
    """Make the While op record tensors of its body each iteration; their positions in what it records."""
    recorded = op.__dict__.setdefault("_while_recorded", [])
    positions = _append_positions(recorded, tensors)
    body_fn = op.get_attr("body")
    op._while_recorder = Function(body_fn.graph, body_fn.inputs, list(body_fn.outputs) + recorded,
                                  name=body_fn.name + "_record")
    return positions


def _needed_intermediates(forward_ops: set, grad_ops: list, fed: list) -> list:
    """The body's tensors the gradient ops read: fed to the gradient instead of recomputed.

    Constants are included too: one made under a control dependency would otherwise pull that dependency in.
    """
    out: list = []
    for g_op in grad_ops:
        for t in g_op.inputs:
            if t.op in forward_ops and all(t is not f for f in fed) and all(t is not o for o in out):
                out.append(t)
    return out


@ops.RegisterGradient("While")
@ops.RegisterGradient("StatelessWhile")
def _while_grad(op: Any, *grads: Any) -> list:
    """Backpropagation through the iterations the forward loop recorded, last to first.

    The forward op records each iteration's inputs and the body intermediates the gradient reads, so
    the body's side effects happen once per step; only when the forward loop did not run in the same
    step (its outputs fed) is it run again to record.
    """
    if not op.get_attr("back_prop"):
        return [None] * len(op.inputs)
    n = op.get_attr("num_loop_vars")
    has_max = op.get_attr("has_maximum_iterations")
    inputs = list(op.inputs)
    m = len(inputs) - n - (1 if has_max else 0)
    body_fn = op.get_attr("body")
    bg = body_fn.graph
    forward_ops = set(bg.get_operations())
    xs = body_fn.inputs[:n + m]
    gys, gx, new_caps = _body_gradients(body_fn, xs, "while")
    with bg.as_default():
        outs = [_zeros_like(x) if g is None else g for g, x in zip(gx, xs)]
    grad_ops = [o for o in bg.get_operations() if o not in forward_ops]
    saved = _needed_intermediates(forward_ops, grad_ops, body_fn.inputs)
    positions = _record_intermediates(op, saved)
    new_outer = [outer for outer, _ in new_caps]
    grad_fn = Function(bg, body_fn.inputs + gys + [ph for _, ph in new_caps] + saved, outs,
                       name=body_fn.name + "_grad")
    out_grads = _outer_grads(grads, op.outputs)
    diff = inputs[:n + m]
    # At the top level the forward loop must run first in the step so that its records exist.
    deps = [op] if not isinstance(op.graph, FuncGraph) else []
    with ops.control_dependencies(deps):
        gop = ops.get_default_graph().create_op(
            "WhileGrad", inputs + out_grads + new_outer, [t.dtype.base_dtype for t in diff], name="WhileGrad",
            attrs={"cond": op.get_attr("cond"), "body": body_fn, "grad_body": grad_fn, "num_loop_vars": n,
                   "num_captures": m, "has_maximum_iterations": has_max, "output_shapes": [t.shape for t in diff],
                   "T": [t.dtype for t in inputs + out_grads + new_outer], "recorded": positions})
    gop._while_forward = op
    result = [g if _differentiable(t) else None for g, t in zip(gop.outputs, diff)]
    return result + ([None] if has_max else [])
