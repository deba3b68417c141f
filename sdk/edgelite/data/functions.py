"""User functions of tf.data transformations (map, filter, interleave...): traced once into a function graph,
run per element by the session's executor.

A dense component travels as one tensor, a SparseTensor component as its indices, values and dense_shape, a
RaggedTensor component as its flat values and row splits.
"""
from __future__ import annotations

from typing import Any, List

from edgelite.framework import dtypes, ops
from edgelite.framework.func_graph import FuncGraph

from . import structure as st


def _arg(graph: FuncGraph, i: int, dt: Any, shape: Any, cls: type) -> Any:
    """The function's argument for one component: a placeholder, or a SparseTensor of three placeholders."""
    if cls is ops.Tensor:
        return graph.add_input(dt, shape, f"arg{i}")
    from .window_ops import DatasetSpec, WindowComponent
    if cls is DatasetSpec:
        return WindowComponent(dt, shape)
    if st.is_ragged_class(cls):
        parts = [graph.add_input(dt_, shape_, f"arg{i}_{k}") for k, (dt_, shape_) in enumerate(cls.component_specs())]
        return cls.from_components(parts)
    from edgelite.framework.sparse_tensor import SparseTensor
    rank = shape.ndims
    sp = SparseTensor(graph.add_input(dtypes.int64, [None, rank], f"arg{i}_indices"),
                      graph.add_input(dt, [None], f"arg{i}_values"),
                      graph.add_input(dtypes.int64, [rank], f"arg{i}_dense_shape"))
    if rank is not None:
        sp.set_shape(shape)
    return sp


class TracedFunction:
    """A Python function traced on placeholders for one element; outer tensors it uses are captured."""

    def __init__(self, fn: Any, in_structure: Any, in_types: list, in_shapes: list, in_classes: list, name: str,
                 returns_dataset: bool = False) -> None:
        outer = ops.get_default_graph()
        self.graph = FuncGraph(name, outer)
        with self.graph.as_default():
            leaves = [_arg(self.graph, i, dt, shape, cls)
                      for i, (dt, shape, cls) in enumerate(zip(in_types, in_shapes, in_classes))]
            self._windows = {i: leaf for i, (leaf, cls) in enumerate(zip(leaves, in_classes))
                             if cls is not ops.Tensor and not st.is_sparse(leaf) and not st.is_ragged_class(cls)}
            args = st.pack(in_structure, leaves)
            if isinstance(args, tuple) and not st._is_namedtuple(args):
                result = fn(*args)
            else:
                result = fn(args)
            self.result = result
            if returns_dataset:
                from .dataset_ops import DatasetV1
                if not isinstance(result, DatasetV1):
                    raise TypeError(f"The function passed to this transformation must return a tf.data.Dataset, "
                                    f"got {type(result).__name__}")
                self.dataset = result
                self.sources = list(result._inputs())
                outs = list(self.sources)
                self.leaf_specs: list = []
            else:
                if isinstance(result, list):
                    result = tuple(result)
                self.structure, out_leaves = st.to_tensors(result, allow_sparse=True)
                self.leaf_specs = [st.leaf_spec(leaf) for leaf in out_leaves]
                outs = [c for leaf in out_leaves for c in st.components(leaf)]
            outs = [t if t.graph is self.graph else self.graph.capture(t) for t in outs]
            from edgelite.ops import array_ops
            outs = [array_ops.identity(t) if t.dtype.is_ref_dtype else t for t in outs]
        self.outputs = outs
        self.captures = [outer_t for outer_t, _ in self.graph.captures]

    def out_types(self) -> list:
        return [dt for dt, _, _ in self.leaf_specs]

    def out_shapes(self) -> list:
        return [shape for _, shape, _ in self.leaf_specs]

    def out_classes(self) -> list:
        return [cls for _, _, cls in self.leaf_specs]

    def prepare(self, env: Any) -> Any:
        """The session's execution plan of the traced graph, built on first use (before any worker thread)."""
        from edgelite.client.executor import build_plan
        state = env.state
        key = ("dataset_fn", id(self))
        plan = state.function_plans.get(key)
        if plan is None:
            plan = build_plan(self.graph, list(self.outputs), [], list(self.graph.inputs), state)
            state.function_plans[key] = plan
        return plan

    def __call__(self, env: Any, args: List[Any]) -> list:
        """Run the traced graph on one element (a value per component; captured tensors read from env)."""
        plan = self.prepare(env)
        flat = [part for i, a in enumerate(args) if i not in self._windows for part in st.value_parts(a)]
        values = plan.run(flat + [env.value(c) for c in self.captures])
        if not self.leaf_specs:
            return values
        return st.regroup(values, self.out_classes())


    def window_values(self, args: List[Any]) -> dict:
        """What the window components among the function's arguments replay: {id(component): its values}."""
        return {id(leaf): args[i] for i, leaf in self._windows.items()}
