"""while_loop as TFLite's WHILE with cond and body subgraphs, the way TensorFlow's converter writes it.

The WHILE carries a loop counter first (TF's maximum_iterations check), then the loop variables, then the
captured tensors that are computed on the device (passed through unchanged, a computed maximum_iterations
among them); captured constants (weights, bounds) are folded into the subgraphs. The cond subgraph is
`counter < maximum_iterations AND cond(...)`, or `cond(...)` alone for a loop without maximum_iterations;
the body adds 1 to the counter. A TensorList (TensorArray) loop variable is carried as one tensor
[elements, *element_shape]: a reserved list starts as zeros, TensorListGetItem is GATHER on axis 0 and
TensorListSetItem the SLICE/RESHAPE/CONCATENATION TF writes (rows before the index, the item, rows after).
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.lite import ir
from edgelite.lite.graph_prep import Frozen
from edgelite.lite.lowering import Lowering
from edgelite.lite.op_emitters import emitter

_INT32 = np.dtype(np.int32)


def emit_while(b: Lowering, op: Any) -> None:
    """Lower a While/StatelessWhile op into a WHILE and its two subgraphs."""
    n = int(op.get_attr("num_loop_vars"))
    has_max = bool(op.get_attr("has_maximum_iterations"))
    cond_fn, body_fn = op.get_attr("cond"), op.get_attr("body")
    extra = list(op.inputs[n:])
    max_value = b.const_of(extra[-1]) if has_max else None
    constant = {k for k in range(n, len(op.inputs)) if b.const_of(op.inputs[k]) is not None}
    carried = list(range(n)) + [k for k in range(n, len(op.inputs)) if k not in constant]
    counter = b.const(np.array(0, np.int32), f"{op.name}/loop_counter")
    inputs = [counter] + [b.value(op.inputs[k]) for k in carried]

    def limit(sub: Lowering, args: list) -> Optional[ir.Tensor]:
        """The maximum_iterations bound inside the cond: a constant, the carried device tensor, or none."""
        if not has_max:
            return None
        if max_value is not None:
            return sub.const(np.array(int(max_value), np.int32), f"{op.name}/maximum_iterations")
        return args[1 + carried.index(len(op.inputs) - 1)]

    cond = _subgraph(b, op, cond_fn, carried, constant, inputs, f"{op.name}_cond",
                     lambda sub, args: [_cond_output(sub, op, cond_fn, args[0], limit(sub, args))])
    body = _subgraph(b, op, body_fn, carried, constant, inputs, f"{op.name}_body",
                     lambda sub, args: _body_outputs(sub, op, body_fn, n, carried, args))
    if cond is None or body is None:
        return
    outputs = [b.new_tensor(f"{op.name}/loop_counter_out", (), _INT32)]
    for k, like in zip(carried, inputs[1:]):
        if k < n:
            outputs.append(b.output(op.outputs[k], shape=like.shape, dtype=like.dtype))
        else:
            outputs.append(b.new_tensor(f"{op.name}/invariant_{k}", like.shape, like.dtype))
    b.emit("WHILE", inputs, outputs, ("WhileOptions", {"cond_subgraph_index": cond, "body_subgraph_index": body}),
           op.type)


def _subgraph(b: Lowering, op: Any, fn: Any, carried: list, constant: set, inputs: list, name: str,
              make_outputs: Any) -> Optional[int]:
    """Lower a loop function into a new subgraph of the main graph; its index (None if an op failed)."""
    placeholders = [fn.inputs[k] for k in carried]
    frozen = Frozen(placeholders, b.frozen._session)
    for k in constant:
        frozen._alias[fn.inputs[k]] = op.inputs[k]
    sub = Lowering(frozen, b.allow_custom_ops, root=b.root)
    sub.graph.name = name
    args = [ir.Tensor(f"{name}_arg0", (), _INT32)]
    for placeholder, outer in zip(placeholders, inputs[1:]):
        lt = ir.Tensor(f"{name}_arg{len(args)}", outer.shape, outer.dtype)
        sub._tensors[placeholder] = lt
        args.append(lt)
    sub.graph.inputs = args
    sub.graph.outputs = make_outputs(sub, args)
    for kind, names in sub.unsupported.items():
        b.unsupported.setdefault(kind, []).extend(names)
    if sub.unsupported:
        return None
    b.root.subgraphs.append(sub.graph)
    return len(b.root.subgraphs)


def _cond_output(sub: Lowering, op: Any, fn: Any, counter: ir.Tensor, limit: Optional[ir.Tensor]) -> ir.Tensor:
    """cond(...), and `counter < maximum_iterations` first when the loop has a bound (TF's form)."""
    keep_going = sub.value(fn.outputs[0])
    if limit is None:
        return keep_going
    below = sub.new_tensor(f"{op.name}/below_maximum_iterations", (), np.bool_)
    sub.emit("LESS", [counter, limit], [below], ("LessOptions", {}), op.type)
    out = sub.new_tensor(f"{op.name}/continue", (), np.bool_)
    sub.emit("LOGICAL_AND", [below, keep_going], [out], ("LogicalAndOptions", {}), op.type)
    return out


def _body_outputs(sub: Lowering, op: Any, fn: Any, n: int, carried: list, args: list) -> list:
    next_count = sub.new_tensor(f"{op.name}/next_loop_counter", (), _INT32)
    sub.emit("ADD", [args[0], sub.const(np.array(1, np.int32), f"{op.name}/one")], [next_count],
             ("AddOptions", {"fused_activation_function": 0}), op.type)
    outs = [next_count]
    for k, arg in zip(carried, args[1:]):
        outs.append(sub.value(fn.outputs[k]) if k < n else arg)
    return outs


# ---- TensorLists carried as tensors ---------------------------------------------------------------------------
@emitter("TensorListFromTensor")
def _from_tensor(b: Lowering, op: Any) -> None:
    b.alias(op.outputs[0], b.value(op.inputs[0]))


@emitter("TensorListReserve")
def _reserve(b: Lowering, op: Any) -> None:
    """A list reserved for a run-time number of elements (a time dimension unknown at conversion): the zeros
    FILL([num_elements, *element_shape], 0) TF writes; the element shape must be known."""
    element_shape = b.const_of(op.inputs[0])
    dims = [] if element_shape is None else [int(d) for d in np.atleast_1d(element_shape)]
    if element_shape is None or np.ndim(element_shape) == 0 or any(d < 0 for d in dims):
        raise ValueError(f"TensorListReserve '{op.name}' reserves elements of unknown shape "
                         f"{None if element_shape is None else dims} for a run-time length; a TFLite loop carries "
                         f"the list as one tensor, so the element shape must be static.")
    dtype = np.dtype(op.get_attr("element_dtype").as_numpy_dtype)
    count = b.new_tensor(f"{op.name}/num_elements", (1,), _INT32)
    b.emit("RESHAPE", [b.value(op.inputs[1]), b.const(np.array([1], np.int32), f"{op.name}/count_shape")], [count],
           None, op.type)
    shape = b.new_tensor(f"{op.name}/shape", (1 + len(dims),), _INT32)
    b.emit("CONCATENATION", [count, b.const(np.array(dims, np.int32), f"{op.name}/element_shape")], [shape],
           ("ConcatenationOptions", {"axis": 0, "fused_activation_function": 0}), op.type)
    items = b.new_tensor(op.name, (-1,) + tuple(dims), dtype)
    b.emit("FILL", [shape, b.const(np.zeros((), dtype), f"{op.name}/zero")], [items], ("FillOptions", {}), op.type)
    b.alias(op.outputs[0], items)


@emitter("TensorListGetItem")
def _get_item(b: Lowering, op: Any) -> None:
    b.emit("GATHER", [b.value(op.inputs[0]), b.value(op.inputs[1])], [b.output(op.outputs[0])],
           ("GatherOptions", {"axis": 0, "batch_dims": 0}), op.type)


def _plus_one(b: Lowering, index: ir.Tensor, source: str) -> ir.Tensor:
    """index + 1, reusing the loop's own `time + 1` when it is already there (as TF's CSE does)."""
    for existing in b.graph.ops:
        if (existing.code == "ADD" and existing.inputs[0] is index and existing.inputs[1].is_const
                and existing.inputs[1].data.size == 1 and int(existing.inputs[1].data.ravel()[0]) == 1):
            return existing.outputs[0]
    out = b.new_tensor(f"{index.name}/plus_one", (), index.dtype)
    b.emit("ADD", [index, b.const(np.array(1, index.dtype), f"{index.name}/one")], [out],
           ("AddOptions", {"fused_activation_function": 0}), source)
    return out


def _row_start(b: Lowering, index: ir.Tensor, name: str) -> ir.Tensor:
    """The scalar index as a 1-element vector."""
    row = b.new_tensor(f"{name}/index", (1,), index.dtype)
    b.emit("RESHAPE", [index, b.const(np.array([1], np.int32), f"{name}/shape")], [row], None, "TensorListSetItem")
    return row


def _with_tail(b: Lowering, row: ir.Tensor, fill: int, rank: int, name: str) -> ir.Tensor:
    """[index, fill, ..., fill] of length rank: a slice begin (fill 0) or size (fill -1) along the rows."""
    out = b.new_tensor(name, (rank,), row.dtype)
    b.emit("CONCATENATION", [row, b.const(np.full(rank - 1, fill, row.dtype), f"{name}/tail")], [out],
           ("ConcatenationOptions", {"axis": 0, "fused_activation_function": 0}), "TensorListSetItem")
    return out


@emitter("TensorListSetItem")
def _set_item(b: Lowering, op: Any) -> None:
    items, index, item = (b.value(t) for t in op.inputs[:3])
    rank = len(items.shape)
    name = op.name
    before_size = _with_tail(b, _row_start(b, index, f"{name}/before"), -1, rank, f"{name}/before_size")
    before = b.new_tensor(f"{name}/before", (-1,) + items.shape[1:], items.dtype)
    b.emit("SLICE", [items, b.const(np.zeros(rank, np.int32), f"{name}/before_begin"), before_size], [before],
           ("SliceOptions", {}), op.type)
    after_begin = _with_tail(b, _row_start(b, _plus_one(b, index, op.type), f"{name}/after"), 0, rank,
                             f"{name}/after_begin")
    after = b.new_tensor(f"{name}/after", (-1,) + items.shape[1:], items.dtype)
    b.emit("SLICE", [items, after_begin, b.const(np.full(rank, -1, np.int32), f"{name}/after_size")], [after],
           ("SliceOptions", {}), op.type)
    row = b.new_tensor(f"{name}/item", (1,) + items.shape[1:], items.dtype)
    b.emit("RESHAPE", [item, b.const(np.array((1,) + items.shape[1:], np.int32), f"{name}/item_shape")], [row],
           None, op.type)
    out = b.output(op.outputs[0], shape=items.shape, dtype=items.dtype)
    b.emit("CONCATENATION", [before, row, after], [out],
           ("ConcatenationOptions", {"axis": 0, "fused_activation_function": 0}), op.type)
