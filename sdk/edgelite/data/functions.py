"""User functions of tf.data transformations (map, filter, interleave...): traced once into a function graph,
run per element by the session's executor."""
from __future__ import annotations

from typing import Any, List

import numpy as np

from edgelite.framework import ops
from edgelite.framework.func_graph import FuncGraph

from . import structure as st


class TracedFunction:
    """A Python function traced on placeholders for one element; outer tensors it uses are captured."""

    def __init__(self, fn: Any, in_structure: Any, in_types: list, in_shapes: list, name: str,
                 returns_dataset: bool = False) -> None:
        outer = ops.get_default_graph()
        self.graph = FuncGraph(name, outer)
        with self.graph.as_default():
            phs = [self.graph.add_input(dt, shape, f"arg{i}") for i, (dt, shape) in enumerate(zip(in_types,
                                                                                                  in_shapes))]
            args = st.pack(in_structure, phs)
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
                outs = [t if t.graph is self.graph else self.graph.capture(t) for t in result._inputs()]
                self.sources = list(result._inputs())
            else:
                if isinstance(result, list):
                    result = tuple(result)
                self.structure, outs = st.to_tensors(result)
                outs = [t if t.graph is self.graph else self.graph.capture(t) for t in outs]
                outs = [ops.convert_to_tensor(t) for t in outs]
                from edgelite.ops import array_ops
                outs = [array_ops.identity(t) if t.dtype.is_ref_dtype else t for t in outs]
        self.inputs = phs
        self.outputs = outs
        self.captures = [outer_t for outer_t, _ in self.graph.captures]

    def out_types(self) -> list:
        return [t.dtype.base_dtype for t in self.outputs]

    def out_shapes(self) -> list:
        return [t.shape for t in self.outputs]

    def __call__(self, env: Any, args: List[np.ndarray]) -> list:
        """Run the traced graph on one element's component values (captured tensors read from env)."""
        from edgelite.client.executor import build_plan
        state = env.state
        key = ("dataset_fn", id(self))
        plan = state.function_plans.get(key)
        if plan is None:
            plan = build_plan(self.graph, list(self.outputs), [], list(self.graph.inputs), state)
            state.function_plans[key] = plan
        return plan.run(list(args) + [env.value(c) for c in self.captures])
