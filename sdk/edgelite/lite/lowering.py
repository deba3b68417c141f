"""Lowering an SDK graph to the converter's TFLite graph (`ir.Graph`), one SDK op at a time, on demand.

Only what the outputs need is lowered: asking for a tensor resolves it (graph_prep.Frozen) and, if it is
computed on the device, runs the emitter of its producing op (op_emitters.EMITTERS). Ops without an
emitter become CUSTOM ops when custom ops are allowed and are collected for one error otherwise.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.lite import ir
from edgelite.lite.graph_prep import Frozen


def tensor_name(t: Any) -> str:
    """TFLite-style name of an SDK tensor: the op name, with ':k' only for outputs after the first."""
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def static_shape(t: Any) -> tuple:
    """The SDK tensor's static shape with -1 for unknown dimensions (None for unknown rank)."""
    if t.shape.ndims is None:
        return None
    return tuple(-1 if d is None else int(d) for d in t.shape.as_list())


def _dense(value: np.ndarray, t: Any) -> np.ndarray:
    """A constant as an array; a constant TensorList (a reserved TensorArray) as its stacked elements, the
    unwritten ones zero, which is how a TFLite loop carries it."""
    from edgelite.ops.list_value import TensorListValue

    item = value.item() if isinstance(value, np.ndarray) and value.dtype == object and value.ndim == 0 else None
    if not isinstance(item, TensorListValue):
        return value
    shape = item.element_shape
    if shape is None or any(d is None or d < 0 for d in shape):
        raise ValueError(f"The TensorList '{t.name}' has elements of unknown shape {shape}; a TFLite loop needs "
                         f"them static.")
    return np.stack([np.zeros(shape, item.dtype) if v is None else np.asarray(v, item.dtype) for v in item.items]) \
        if len(item) else np.zeros((0,) + tuple(shape), item.dtype)


class Lowering:
    """Builds an ir.Graph for given SDK inputs/outputs."""

    def __init__(self, frozen: Frozen, allow_custom_ops: bool, root: Optional[ir.Graph] = None) -> None:
        from edgelite.lite.op_emitters import EMITTERS  # the emitters module imports this one

        self.frozen = frozen
        self.graph = ir.Graph()
        self.root = root if root is not None else self.graph  # the main graph, which lists every subgraph
        self.allow_custom_ops = allow_custom_ops
        self.unsupported: dict = {}
        self._emitters = EMITTERS
        self._tensors: dict = {}
        self._deferred: dict = {}
        self._names: set = set()
        self.targets: list = []  # the SDK tensors the model outputs (set before lowering them)

    # ---- graph boundary ---------------------------------------------------------------------------------
    def add_input(self, t: Any, shape: tuple, name: str) -> ir.Tensor:
        """Register an SDK tensor as a model input with the given shape."""
        lt = self.new_tensor(tensor_name(t), shape, t.dtype.as_numpy_dtype)
        self._tensors[t] = lt
        self.graph.inputs.append(lt)
        self.graph.input_names.append(name)
        return lt

    def add_output(self, t: Any, name: str) -> None:
        """Lower whatever computes `t` and make it a model output."""
        lt = self.value(t)
        if lt.is_const:
            raise ValueError(f"Output tensor '{t.name}' is a constant; TFLite models need outputs computed from "
                             f"the inputs.")
        self.graph.outputs.append(lt)
        self.graph.output_names.append(name)

    # ---- used by emitters -------------------------------------------------------------------------------
    @property
    def unknown_inner_dims(self) -> bool:
        """Whether a model input has a dimension beyond the batch unknown until run time: shapes computed
        from it then stay run-time ops (SHAPE, STRIDED_SLICE, ...), as TensorFlow's converter keeps them."""
        return any(d < 0 for t in self.root.inputs for d in t.shape[1:])

    def const_of(self, t: Any) -> Optional[np.ndarray]:
        """The conversion-time value of an SDK tensor, or None if it is computed on the device."""
        return self.frozen.const_value(t)

    def value(self, t: Any) -> ir.Tensor:
        """The ir tensor holding an SDK tensor's value (lowering its producer if needed)."""
        resolved = self.frozen.resolve(t)
        if resolved.is_const:
            key = ("const", t)
            if key not in self._tensors:
                self._tensors[key] = self.const(_dense(resolved.const, t), tensor_name(t))
            return self._tensors[key]
        canon = resolved.tensor
        if canon not in self._tensors and canon not in self._deferred:
            self._lower(canon.op)
        if canon not in self._tensors and canon in self._deferred:
            self._tensors[canon] = self._deferred.pop(canon)()
        return self._tensors[canon]

    def feeds_an_output(self, t: Any) -> bool:
        """Whether some model output is computed from the SDK tensor `t` (a search back from `targets`)."""
        seen, stack = set(), list(self.targets)
        while stack:
            u = stack.pop()
            if u is t:
                return True
            if u in seen or u.op is None:
                continue
            seen.add(u)
            stack.extend(u.op.inputs)
        return False

    def defer(self, t: Any, make: Any) -> None:
        """Lower output `t` of an already lowered op only if something asks for it: make() -> ir tensor."""
        self._deferred[t] = make

    def alias(self, t: Any, lt: ir.Tensor) -> None:
        """Let the SDK tensor `t` be the ir tensor `lt` (an op that only relabels its input)."""
        self._tensors[t] = lt

    def lowered(self, t: Any) -> Optional[ir.Tensor]:
        """The ir tensor already made for an SDK tensor computed on the device, or None (also when the tensor
        is not computable from the model inputs)."""
        if t in self._tensors:
            return self._tensors[t]
        try:
            resolved = self.frozen.resolve(t)
        except ValueError:
            return None
        return None if resolved.is_const else self._tensors.get(resolved.tensor)

    def const(self, array: Any, name: str, dtype: Any = None) -> ir.Tensor:
        """A new constant tensor."""
        data = np.asarray(array, dtype=dtype)
        data = np.ascontiguousarray(data).reshape(data.shape)  # a scalar stays rank 0
        return ir.Tensor(self._unique(name), data.shape, data.dtype, data=data)

    def new_tensor(self, name: str, shape: Any, dtype: Any) -> ir.Tensor:
        """A new non-constant tensor with a unique name."""
        return ir.Tensor(self._unique(name), tuple(shape), np.dtype(dtype))

    def output(self, t: Any, shape: Any = None, dtype: Any = None) -> ir.Tensor:
        """The ir tensor for an SDK op output (created on first use)."""
        if t not in self._tensors:
            shp = static_shape(t) if shape is None else tuple(shape)
            if shp is None:
                raise ValueError(f"Tensor '{t.name}' has an unknown rank; the converter needs static ranks.")
            self._tensors[t] = self.new_tensor(tensor_name(t), shp, dtype or t.dtype.as_numpy_dtype)
        return self._tensors[t]

    def emit(self, code: str, inputs: list, outputs: list, options: Optional[tuple] = None, source: str = "",
             custom_code: Optional[str] = None) -> ir.Op:
        """Append an operator (after everything its inputs need, so the op list stays topological)."""
        op = ir.Op(code, list(inputs), list(outputs), options, custom_code, source)
        self.graph.ops.append(op)
        return op

    def unsupported_op(self, op: Any, reason: str = "") -> None:
        """Record an op the converter cannot express as a builtin (or emit it as a custom op)."""
        if self.allow_custom_ops and not reason:
            ins = [self.value(i) for i in op.inputs]
            outs = [self.output(o) for o in op.outputs]
            self.emit("CUSTOM", ins, outs, source=op.type, custom_code=op.type)
            return
        self.unsupported.setdefault(op.type + (f" ({reason})" if reason else ""), []).append(op.name)
        for i in op.inputs:
            self.value(i)
        for o in op.outputs:
            shp = static_shape(o)
            self.output(o, shape=shp if shp is not None else ())

    # ---- internals ----------------------------------------------------------------------------------------
    def _lower(self, op: Any) -> None:
        emitter = self._emitters.get(op.type)
        if emitter is None:
            self.unsupported_op(op)
            return
        emitter(self, op)

    def _unique(self, name: str) -> str:
        base, k = name, 1
        while name in self._names:
            name = f"{base}_{k}"
            k += 1
        self._names.add(name)
        return name
