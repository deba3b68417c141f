"""Control flow: no_op, group, tuple, with_dependencies, cond, case and while_loop."""
from __future__ import annotations

import builtins
from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.indexed_slices import IndexedSlices
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops

register_op("NoOp", inputs=[], outputs=[], kernel=lambda ctx: (), shape_fn=lambda op: [])


def no_op(name: Optional[str] = None) -> ops.Operation:
    """An op that does nothing (a control-dependency anchor)."""
    return ops.get_default_graph().create_op("NoOp", [], [], name=name or "NoOp")


def group(*inputs: Any, **kwargs: Any) -> ops.Operation:
    """A NoOp that runs after all inputs (ops or tensors)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unknown keyword arguments: {', '.join(kwargs)}")
    flat = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k in sorted(x):
                walk(x[k])
        elif isinstance(x, (list, builtins.tuple)):
            for v in x:
                walk(v)
        elif x is not None:
            flat.append(x)

    walk(inputs)
    with ops.name_scope(name, "group_deps", flat) as name:
        if not flat:
            return no_op(name=name)
        deps = []
        for x in flat:
            el = ops.get_default_graph().as_graph_element(x) if (
                hasattr(x, "_as_graph_element") or isinstance(x, str)) else x
            if isinstance(el, IndexedSlices):
                el = el.values
            if isinstance(el, ops.Tensor):
                el = el.op
            if not isinstance(el, ops.Operation):
                raise TypeError(f"Expected tf.group() expected Tensor arguments not '{x}' with type '{type(x)}'")
            if el not in deps:
                deps.append(el)
        with ops.control_dependencies(deps):
            return no_op(name=name)


def with_dependencies(dependencies: list, output_tensor: Any, name: Optional[str] = None) -> Any:
    """output_tensor, computed only after dependencies have run."""
    with ops.name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as name:
        with ops.control_dependencies(dependencies):
            if isinstance(output_tensor, IndexedSlices):
                return IndexedSlices(array_ops.identity(output_tensor.values, name=name), output_tensor.indices,
                                     output_tensor.dense_shape)
            output_tensor = ops.convert_to_tensor(output_tensor)
            return array_ops.identity(output_tensor, name=name)


def tuple(tensors: list, name: Optional[str] = None, control_inputs: Optional[list] = None) -> list:  # noqa: A001
    """The tensors, each available only after all of them (and control_inputs) are computed."""
    with ops.name_scope(name, "tuple", tensors) as name:
        tensors = [t if isinstance(t, (ops.Operation, ops.Tensor, IndexedSlices)) or t is None
                   else ops.convert_to_tensor(t) for t in tensors]
        gating_ops = [t if isinstance(t, ops.Operation) else t.op for t in tensors if t is not None]
        if control_inputs:
            for c in control_inputs:
                if isinstance(c, ops.Tensor):
                    c = c.op
                elif not isinstance(c, ops.Operation):
                    raise TypeError(f"'control_inputs' must only contain Operation or Tensor. Received: {type(c)}")
                gating_ops.append(c)
        gating_ops = sorted(set(gating_ops), key=lambda op: op._id)
        if not gating_ops:
            raise ValueError(f"'tensors' must have at least one Tensor. Received: {tensors}.")
        gate = group(*gating_ops)
        out = []
        for t in tensors:
            if isinstance(t, (ops.Tensor, IndexedSlices)):
                out.append(with_dependencies([gate], t))
            elif isinstance(t, ops.Operation):
                with ops.control_dependencies([gate]):
                    out.append(group(t))
            else:
                out.append(None)
        return out


# ---- functional control flow: If / While ---------------------------------------------------------------
def _if_kernel(ctx: Any, pred: Any, *args: Any) -> Any:
    taken = 0 if bool(pred) else 1
    branch = ctx.attrs["then_branch" if taken == 0 else "else_branch"]
    recorders = getattr(ctx.op, "_if_recorders", None)
    if recorders is None:
        out = ctx.run_function(branch, list(args))
    else:
        # A gradient of this op reads the branch's intermediates: keep them so it never re-runs the branch.
        out = ctx.run_function(recorders[taken], list(args))
        n = len(branch.outputs)
        ctx.state.loop_records.setdefault(id(ctx.op), []).append((taken, out[n:]))
        out = out[:n]
    return out[0] if len(out) == 1 else builtins.tuple(out)


def _function_op_shapes(op: ops.Operation) -> list:
    return list(op.get_attr("output_shapes"))


for _t in ("If", "StatelessIf"):
    register_op(_t, inputs=["cond: Tcond"], outputs=[], kernel=_if_kernel, shape_fn=_function_op_shapes,
                stateful=_t == "If", ref_passthrough=True)


def run_loop(ctx: Any, body: Any, loop_vars: list, extra: list, records: Optional[list] = None) -> list:
    """Iterate a While op's body (or a recording variant of it) from loop_vars; the final loop values.

    With a records list, body also returns the intermediates a gradient needs; each iteration's
    (inputs, intermediates) pair is appended so the gradient never re-runs the body.
    """
    n = ctx.attrs["num_loop_vars"]
    cond_fn = ctx.attrs["cond"]
    limit = int(extra[-1]) if ctx.attrs["has_maximum_iterations"] else None
    i = 0
    while limit is None or i < limit:
        if not bool(ctx.run_function(cond_fn, loop_vars + extra)[0]):
            break
        out = ctx.run_function(body, loop_vars + extra)
        if records is not None:
            records.append((loop_vars, out[n:]))
        loop_vars = out[:n]
        i += 1
    return loop_vars


def _while_kernel(ctx: Any, *args: Any) -> Any:
    n = ctx.attrs["num_loop_vars"]
    recorder = getattr(ctx.op, "_while_recorder", None)
    if recorder is None:
        loop_vars = run_loop(ctx, ctx.attrs["body"], list(args[:n]), list(args[n:]))
    else:
        records: list = []
        loop_vars = run_loop(ctx, recorder, list(args[:n]), list(args[n:]), records)
        # A stack: a loop nested in another loop's body runs once per outer iteration, and the outer
        # gradient visits those iterations last to first.
        ctx.state.loop_records.setdefault(id(ctx.op), []).append(records)
    return loop_vars[0] if n == 1 else builtins.tuple(loop_vars)


for _t in ("While", "StatelessWhile"):
    register_op(_t, inputs=["input: T"], outputs=[], kernel=_while_kernel, shape_fn=_function_op_shapes,
                stateful=_t == "While", ref_passthrough=True)


def _is_list_backed(x: Any) -> bool:
    """Whether x is a TensorArray-like object that crosses cond/while_loop as its list tensor (`flow`)."""
    return hasattr(x, "_with_flow") and hasattr(x, "flow")


def _flatten(structure: Any) -> list:
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in _flatten(structure[k])]
    if isinstance(structure, (list, builtins.tuple)):
        return [x for s in structure for x in _flatten(s)]
    if _is_list_backed(structure):
        return [structure.flow]
    return [structure]


def _pack_as(structure: Any, flat: list) -> Any:
    it = iter(flat)

    def build(s: Any) -> Any:
        if isinstance(s, dict):
            built = {k: build(s[k]) for k in sorted(s)}
            return type(s)((k, built[k]) for k in s)
        if isinstance(s, (list, builtins.tuple)):
            items = [build(x) for x in s]
            if hasattr(s, "_fields"):
                return type(s)(*items)
            return type(s)(items)
        if _is_list_backed(s):
            return s._with_flow(next(it))
        return next(it)

    return build(structure)


def _same_structure(a: Any, b: Any) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and sorted(a) == sorted(b) and \
            all(_same_structure(a[k], b[k]) for k in a)
    if isinstance(a, (list, builtins.tuple)) or isinstance(b, (list, builtins.tuple)):
        return isinstance(a, (list, builtins.tuple)) and isinstance(b, (list, builtins.tuple)) and \
            len(a) == len(b) and all(_same_structure(x, y) for x, y in zip(a, b))
    return True


def _trace_branch(fn: Any, name: str, outer: ops.Graph) -> builtins.tuple:
    from edgelite.framework.func_graph import FuncGraph
    fg = FuncGraph(name, outer)
    with fg.as_default():
        result = fn()
        flat = _flatten(result)
        outs, ctrl, kinds = [], [], []
        for x in flat:
            if x is None:
                kinds.append("none")
            elif isinstance(x, ops.Operation):
                ctrl.append(x)
                kinds.append("op")
            else:
                if isinstance(x, IndexedSlices):
                    x = ops.convert_to_tensor(x)
                t = ops.convert_to_tensor(x)
                if t.graph is not fg:
                    t = fg.capture(t)
                if t.dtype.is_ref_dtype:
                    t = array_ops.identity(t)
                outs.append(t)
                kinds.append("tensor")
    return fg, result, outs, ctrl, kinds


def _align_captures(graphs: list) -> list:
    """Union of the branches' captured outer tensors; every branch gets a placeholder for each."""
    order: list = []
    seen: set = set()
    for fg in graphs:
        for outer, _ in fg.captures:
            if id(outer) not in seen:
                seen.add(id(outer))
                order.append(outer)
    for fg in graphs:
        for outer in order:
            if id(outer) not in fg._captures:
                fg.capture(outer)
    return order


def _capture_inputs(fg: Any, order: list) -> list:
    return [fg._captures[id(t)][1] for t in order]


def cond(pred: Any, true_fn: Any = None, false_fn: Any = None, strict: bool = False, name: Optional[str] = None,
         fn1: Any = None, fn2: Any = None) -> Any:
    """Run true_fn() if pred else false_fn(); both are traced once into function bodies."""
    from edgelite.framework.func_graph import Function
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
        false_fn = fn2
    if not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if not callable(false_fn):
        raise TypeError("false_fn must be callable.")
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool")
    with ops.name_scope(name, "cond", [pred]) as scope:
        pred = ops.convert_to_tensor(pred)
        if pred.dtype.base_dtype != dtypes.bool:
            raise TypeError(f"pred must be a bool tensor, got {pred.dtype.name}")
        if pred.shape.ndims not in (None, 0):
            raise ValueError(f"pred must be a scalar, got shape {pred.shape}")
        g = ops.get_default_graph()
        tg, t_res, t_outs, t_ctrl, t_kinds = _trace_branch(true_fn, scope + "true", g)
        fg, f_res, f_outs, f_ctrl, f_kinds = _trace_branch(false_fn, scope + "false", g)
        if not _same_structure(t_res, f_res) or t_kinds != f_kinds:
            raise ValueError("true_fn and false_fn arguments to tf.cond must have the same number, type, and "
                             f"overall structure of return values.\n\ntrue_fn output: {t_res}\nfalse_fn output: "
                             f"{f_res}")
        for a, b in zip(t_outs, f_outs):
            if a.dtype.base_dtype != b.dtype.base_dtype:
                raise TypeError(f"true_fn and false_fn arguments to tf.cond must have the same dtypes: {a.dtype.name} "
                                f"vs {b.dtype.name} ({a} vs {b})")
        order = _align_captures([tg, fg])
        then_fn = Function(tg, _capture_inputs(tg, order), t_outs, t_ctrl, name=scope + "true")
        else_fn = Function(fg, _capture_inputs(fg, order), f_outs, f_ctrl, name=scope + "false")
        shapes = [a.shape.most_specific_compatible_shape(b.shape) for a, b in zip(t_outs, f_outs)]
        out_types = [t.dtype.base_dtype for t in t_outs]
        op_type = "If" if then_fn.is_stateful() or else_fn.is_stateful() else "StatelessIf"
        control = [c for c in tg.control_captures + fg.control_captures]
        with ops.control_dependencies(control or None) if control else _null_ctx():
            op = g.create_op(op_type, [pred] + order, out_types, name=scope,
                             attrs={"then_branch": then_fn, "else_branch": else_fn, "Tcond": dtypes.bool,
                                    "Tin": [t.dtype for t in order], "Tout": out_types, "output_shapes": shapes})
        outputs = list(op.outputs)
        flat = []
        for kind in t_kinds:
            if kind == "tensor":
                flat.append(outputs.pop(0))
            elif kind == "op":
                flat.append(op)
            else:
                flat.append(None)
        return _pack_as(t_res, flat)


class _null_ctx:  # noqa: N801
    def __enter__(self) -> None:
        return None

    def __exit__(self, *a: Any) -> None:
        return None


def case(pred_fn_pairs: Any, default: Any = None, exclusive: bool = False, strict: bool = False,
         name: str = "case") -> Any:
    """The fn of the first pair whose predicate is true (else default), as nested conds."""
    if isinstance(pred_fn_pairs, dict):
        pairs = list(pred_fn_pairs.items())
    else:
        pairs = list(pred_fn_pairs)
    for p in pairs:
        if not isinstance(p, builtins.tuple) or len(p) != 2:
            raise TypeError(f"Each entry in pred_fn_pairs must be a 2-tuple. Received {p}.")
        if not callable(p[1]):
            raise TypeError(f"fn for pred {p[0].name} must be callable.")
    if default is None:
        if not pairs:
            raise ValueError("Must provide at least one pred_fn pair or a default")
        *pairs, last = pairs
        default = last[1]
    with ops.name_scope(name, "case", [p for p, _ in pairs]):
        fn = default
        for p, f in reversed(pairs):
            fn = (lambda p_, f_, rest: lambda: cond(p_, f_, rest))(p, f, fn)
        return fn()


def _loop_var_shape(v: ops.Tensor, inv: Any) -> Any:
    return v.shape if inv is None else inv


def while_loop(cond: Any, body: Any, loop_vars: Any, shape_invariants: Any = None, parallel_iterations: int = 10,
               back_prop: bool = True, swap_memory: bool = False, name: Optional[str] = None,
               maximum_iterations: Any = None, return_same_structure: bool = False) -> Any:
    """Repeat body while cond is true; cond and body are traced once into function bodies."""
    from edgelite.framework.func_graph import FuncGraph, Function
    if not callable(cond):
        raise TypeError("cond must be callable.")
    if not callable(body):
        raise TypeError("body must be callable.")
    if parallel_iterations < 1:
        raise TypeError("parallel_iterations must be a positive integer.")
    if loop_vars is None or (isinstance(loop_vars, (list, builtins.tuple, dict)) and not loop_vars):
        raise ValueError("No loop variables provided")
    single = not isinstance(loop_vars, (list, builtins.tuple, dict))
    structure = [loop_vars] if single else loop_vars
    with ops.name_scope(name, "while", _flatten(structure)) as scope:
        flat = [ops.convert_to_tensor(v) for v in _flatten(structure)]
        flat = [array_ops.identity(v) if v.dtype.is_ref_dtype else v for v in flat]
        invariants = [None] * len(flat)
        if shape_invariants is not None:
            inv_struct = [shape_invariants] if single else shape_invariants
            invariants = [tensor_shape.as_shape(s) if s is not None else None for s in _flatten(inv_struct)]
            if len(invariants) != len(flat):
                raise ValueError("shape_invariants must have the same structure as loop_vars")
            for v, s in zip(flat, invariants):
                if s is not None and not s.is_compatible_with(v.shape):
                    raise ValueError(f"The shape invariant specified for {v.name} is not compatible with the initial "
                                     f"shape of the loop variable. It enters the loop with shape {v.shape}, but the "
                                     f"specified shape invariant is {s}.")
        g = ops.get_default_graph()
        cg = FuncGraph(scope + "cond", g)
        bg = FuncGraph(scope + "body", g)
        shapes = [_loop_var_shape(v, s) for v, s in zip(flat, invariants)]
        with cg.as_default():
            c_in = [cg.add_input(v.dtype.base_dtype, s, f"loop_var_{i}") for i, (v, s) in enumerate(zip(flat, shapes))]
            c_args = _pack_as(structure, c_in)
            c_out = cond(*c_args) if not single else cond(c_args[0])
            c_out = ops.convert_to_tensor(c_out)
            if c_out.dtype.base_dtype != dtypes.bool or c_out.shape.ndims not in (None, 0):
                raise TypeError(f"cond must return a boolean scalar tensor, got {c_out}")
        with bg.as_default():
            b_in = [bg.add_input(v.dtype.base_dtype, s, f"loop_var_{i}") for i, (v, s) in enumerate(zip(flat, shapes))]
            b_args = _pack_as(structure, b_in)
            b_res = body(*b_args) if not single else body(b_args[0])
            if single and isinstance(b_res, (list, builtins.tuple)) and len(b_res) == 1:
                b_res = b_res[0]
            if not single and not isinstance(b_res, (list, builtins.tuple, dict)):
                b_res = [b_res]
            res_struct = [b_res] if single else b_res
            if not _same_structure(structure, res_struct) or len(_flatten(res_struct)) != len(flat):
                raise ValueError("The two structures don't have the same nested structure.\n\nFirst structure: "
                                 f"{structure}\n\nSecond structure: {res_struct}")
            b_out = []
            for i, (x, v, s) in enumerate(zip(_flatten(res_struct), flat, shapes)):
                t = ops.convert_to_tensor(x, dtype=v.dtype.base_dtype)
                if t.dtype.is_ref_dtype or t.graph is not bg or t in b_in:
                    t = array_ops.identity(t)
                if not s.is_compatible_with(t.shape) or (s.ndims is not None and t.shape.ndims is None):
                    raise ValueError(f"Input tensor '{v.name}' enters the loop with shape {v.shape}, but has shape "
                                     f"{t.shape} after one iteration. To allow the shape to vary across iterations, "
                                     "use the `shape_invariants` argument of tf.while_loop to specify a less-specific "
                                     "shape.")
                b_out.append(t)
        order = _align_captures([cg, bg])
        has_max = maximum_iterations is not None
        extra = list(order)
        if has_max:
            max_t = ops.convert_to_tensor(maximum_iterations, name="maximum_iterations")
            if max_t.dtype.base_dtype not in (dtypes.int32, dtypes.int64) or max_t.shape.ndims not in (None, 0):
                raise ValueError(f"maximum_iterations must be a scalar int32/int64 tensor, got {max_t}")
            extra.append(max_t)
            cg.add_input(max_t.dtype, [], "maximum_iterations")
            bg.add_input(max_t.dtype, [], "maximum_iterations")
        cond_fn = Function(cg, c_in + _capture_inputs(cg, order) + cg.inputs[len(c_in) + len(order):],
                           [c_out], name=scope + "cond")
        body_fn = Function(bg, b_in + _capture_inputs(bg, order) + bg.inputs[len(b_in) + len(order):],
                           b_out, name=scope + "body")
        op_type = "While" if body_fn.is_stateful() or cond_fn.is_stateful() else "StatelessWhile"
        control = cg.control_captures + bg.control_captures
        out_types = [v.dtype.base_dtype for v in flat]
        with ops.control_dependencies(control) if control else _null_ctx():
            op = g.create_op(op_type, flat + extra, out_types, name=scope,
                             attrs={"cond": cond_fn, "body": body_fn, "T": [t.dtype for t in flat + extra],
                                    "output_shapes": shapes, "parallel_iterations": parallel_iterations,
                                    "num_loop_vars": len(flat), "has_maximum_iterations": has_max,
                                    "back_prop": back_prop})
        outs = list(op.outputs)
        packed = _pack_as(structure, outs)
        if single:
            return packed[0]
        if not return_same_structure and isinstance(packed, (list, builtins.tuple)) and len(outs) == 1 \
                and len(packed) == 1:
            return packed[0]
        return packed
