"""An interpreter's cached view of its tensors, refreshed one "generation" at a time.

Anything that can move or reshape tensor memory starts a new generation: allocate_tensors,
resize_tensor_input, a delegate, and invoke for graphs whose tensors are sized during invoke.
Snapshots (TensorSlot), node/tensor counts, details dicts and tensor() roots are then rebuilt on
next use, so the hot paths (set_tensor, get_tensor, tensor(), invoke) touch only Python dicts in
between.
"""
from __future__ import annotations

import operator
from typing import Any, Dict, List, Optional, Tuple

from edgelite_runtime._details import copy_details, details_dict
from edgelite_runtime._lib import ffi, lib
from edgelite_runtime._native import NativeInterpreter
from edgelite_runtime._tensors import TensorSlot
from edgelite_runtime._views import ViewRegistry


class TensorTable:
    """Per-generation snapshots of one interpreter's tensors (callers hold the interpreter lock)."""

    def __init__(self, native: NativeInterpreter, num_subgraphs: int, views: ViewRegistry) -> None:
        self.native = native
        self.views = views
        self.num_subgraphs = num_subgraphs
        self.info = ffi.new("el_tensor_info *")
        self.generation = 0
        self.slots0: Dict[Any, TensorSlot] = {}  # subgraph 0, the hot one
        # Subgraph 0's hot-path entries, filled on first use: index -> (array, dtype, shape) of a
        # writable numeric tensor for set_tensor, index -> bound copy of its array for get_tensor.
        self.writers0: Dict[Any, Tuple[Any, Any, Tuple[int, ...]]] = {}
        self.readers0: Dict[Any, Any] = {}
        self.slots: Dict[int, Dict[int, TensorSlot]] = {}
        self.counts_cache: Dict[int, Tuple[int, int]] = {}
        self.details_cache: Dict[Tuple[int, int], Dict[str, Any]] = {}
        # Input shapes set by resize_tensor_input that the C side applies at the next allocation;
        # tflite shows them at once (details) and treats the resized tensor as unallocated.
        self.pending: Dict[Tuple[int, int], Tuple[int, ...]] = {}
        self.planned: Dict[int, bool] = {}
        self.volatile: Dict[int, bool] = {}

    def reset(self) -> None:
        """Start a new generation: every snapshot may be stale."""
        self.slots0.clear()
        self.writers0.clear()
        self.readers0.clear()
        self.views.retire()
        self.slots.clear()
        self.counts_cache.clear()
        self.details_cache.clear()
        self.generation += 1

    def check_subgraph(self, subgraph: int) -> None:
        if subgraph < 0 or subgraph >= self.num_subgraphs:
            raise ValueError(f"Invalid subgraph index {subgraph} exceeds max subgraph index {self.num_subgraphs}")

    def counts(self, subgraph: int) -> Tuple[int, int]:
        """(number of tensors, number of nodes) of a subgraph."""
        counts = self.counts_cache.get(subgraph)
        if counts is None:
            nt, no = ffi.new("int *"), ffi.new("int *")
            self.native.raise_for(lib.el_subgraph_counts(self.native.interp, subgraph, nt, no))
            counts = self.counts_cache[subgraph] = (nt[0], no[0])
        return counts

    def check_tensor(self, subgraph: int, index: int) -> None:
        count = self.counts(subgraph)[0]
        if index < 0 or index >= count:
            raise ValueError(f"Invalid tensor index {index} exceeds max tensor index {count}")

    def io(self, subgraph: int) -> Tuple[List[int], List[int]]:
        """Input and output tensor indices of a subgraph."""
        ins, nin = ffi.new("int32_t **"), ffi.new("int *")
        outs, nout = ffi.new("int32_t **"), ffi.new("int *")
        self.native.raise_for(lib.el_subgraph_io(self.native.interp, subgraph, ins, nin, outs, nout))
        return (list(ffi.unpack(ins[0], nin[0])) if nin[0] else [],
                list(ffi.unpack(outs[0], nout[0])) if nout[0] else [])

    def _fetch(self, subgraph: int, index: int) -> Any:
        self.native.raise_for(lib.el_tensor_get_info(self.native.interp, subgraph, index, self.info))
        return self.info

    def slot(self, subgraph: int, tensor_index: Any) -> TensorSlot:
        """The current snapshot of a tensor, loaded from C on first use in this generation."""
        cache = self.slots0 if subgraph == 0 else self.slots.setdefault(subgraph, {})
        slot = cache.get(tensor_index)
        if slot is None:
            index = operator.index(tensor_index)
            self.check_tensor(subgraph, index)
            slot = cache[index] = TensorSlot(subgraph, index, self._fetch(subgraph, index))
            pending = self.pending.get((subgraph, index))
            if pending is not None:
                slot.mark_resized(pending)
            if subgraph == 0:
                self._enter_hot(slot)
        return slot

    def _enter_hot(self, slot: TensorSlot) -> None:
        """List a subgraph-0 numeric tensor whose memory is mapped for set_tensor/get_tensor's one-step paths."""
        arr = slot.array
        if arr is None or slot.dtype is None:
            return
        if arr.ndim:  # get_tensor returns a 0-d tensor as a numpy scalar: left to TensorSlot.read
            self.readers0[slot.index] = arr.copy
        if slot.writable and not slot.sparse:
            self.writers0[slot.index] = (arr, slot.dtype, slot.shape)

    def details(self, subgraph: int, index: int) -> Dict[str, Any]:
        """tflite's details dict of a tensor (a fresh copy: callers may modify it)."""
        key = (subgraph, index)
        cached = self.details_cache.get(key)
        if cached is None:
            self.check_subgraph(subgraph)
            self.check_tensor(subgraph, index)
            cached = self.details_cache[key] = details_dict(index, self._fetch(subgraph, index), self.pending.get(key))
        return copy_details(cached)

    def applied_shape(self, subgraph: int, index: int) -> Optional[Tuple[int, ...]]:
        """The shape the C side currently gives a tensor (None for an index it does not have)."""
        if index < 0 or index >= self.counts(subgraph)[0]:
            return None
        info = self.info
        if lib.el_tensor_get_info(self.native.interp, subgraph, index, info):
            return None
        return tuple(ffi.unpack(info.dims, info.ndims)) if info.ndims > 0 else ()

    def note_resized(self, subgraph: int, index: int, shape: Tuple[int, ...], applied: Optional[Tuple[int, ...]]) -> None:
        self.planned[subgraph] = False
        if shape == applied:
            self.pending.pop((subgraph, index), None)
        else:
            self.pending[(subgraph, index)] = shape

    def note_allocated(self, subgraph: int) -> None:
        self.pending = {key: dims for key, dims in self.pending.items() if key[0] != subgraph}
        self.planned[subgraph] = True
        self.volatile[subgraph] = self._has_unplanned_tensors(subgraph)

    def resize_pending(self, subgraph: int) -> bool:
        return any(key[0] == subgraph for key in self.pending)

    def _has_unplanned_tensors(self, subgraph: int) -> bool:
        """True when some non-constant tensor got no memory from the plan: it is sized during invoke,
        so invoke may move or reshape it and snapshots must not outlive an invoke."""
        if self.num_subgraphs > 1:
            return True  # control-flow ops resize the tensors of the subgraphs they call
        for index in range(self.counts(subgraph)[0]):
            slot = self.slot(subgraph, index)
            if not slot.constant and not slot.address:
                return True
        return False
