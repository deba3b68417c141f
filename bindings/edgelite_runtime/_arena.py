"""The arena options and the read-out of the arena plan (edgelite extensions of the Interpreter)."""
from __future__ import annotations

import operator
from typing import Any, Dict, Optional

from ._lib import ffi, lib


def check_arena_limit(limit: Optional[int]) -> int:
    """The C value of `experimental_arena_limit`: 0 for none, else a positive byte count."""
    if limit is None:
        return 0
    try:
        value = operator.index(limit)
    except TypeError:
        raise TypeError(f"experimental_arena_limit must be an int number of bytes, got {type(limit).__name__}") from None
    if value < 1:
        raise ValueError(f"experimental_arena_limit must be at least 1 byte, got {value}")
    return value


def read_plan(native: Any, interp: Any, subgraph: int, num_tensors: int, num_nodes: int) -> Dict[str, Any]:
    """Offsets of the tensors and kernel scratch buffers in a subgraph's arena (see get_arena_plan)."""
    offset, size = ffi.new("int64_t *"), ffi.new("size_t *")
    tensors = {}
    for t in range(num_tensors):
        native.raise_for(lib.el_interpreter_arena_tensor(interp, subgraph, t, offset, size))
        if offset[0] >= 0:
            tensors[t] = {"offset": int(offset[0]), "bytes": int(size[0])}
    node = ffi.new("int *")
    scratch = []
    while lib.el_interpreter_arena_scratch(interp, subgraph, len(scratch), node, offset, size) == 0:
        scratch.append({"node": int(node[0]), "offset": int(offset[0]), "bytes": int(size[0])})
    small = ffi.new("int *")
    small_nodes = []
    for n in range(num_nodes):
        native.raise_for(lib.el_interpreter_node_small_scratch(interp, subgraph, n, small))
        if small[0]:
            small_nodes.append(n)
    return {"tensors": tensors, "scratch": scratch, "small_scratch_nodes": small_nodes}
