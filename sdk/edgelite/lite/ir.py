"""The converter's own model of a TFLite subgraph: tensors, operators and the graph that orders them.

Tensors are compared by identity, so passes rewrite the graph by swapping tensor objects in operator
inputs. Shapes use -1 for a dimension unknown until run time (written as 1 in `shape` and -1 in
`shape_signature`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np


@dataclass(eq=False)
class QuantParams:
    """real = scale * (q - zero_point), per tensor or along `dim` (one scale per slice)."""

    scale: np.ndarray
    zero_point: np.ndarray
    dim: int = 0

    @classmethod
    def per_tensor(cls, scale: float, zero_point: int) -> "QuantParams":
        """Single scale and zero point."""
        return cls(np.array([scale], np.float32), np.array([zero_point], np.int64))

    @property
    def per_channel(self) -> bool:
        """Whether there is more than one scale."""
        return self.scale.size > 1

    def same_as(self, other: Optional["QuantParams"]) -> bool:
        """Identical scales and zero points."""
        return (other is not None and self.scale.shape == other.scale.shape
                and np.array_equal(self.scale, other.scale) and np.array_equal(self.zero_point, other.zero_point))


@dataclass(eq=False)
class Tensor:
    """One tensor of the subgraph; `data` is set for constants."""

    name: str
    shape: tuple
    dtype: np.dtype
    data: Optional[np.ndarray] = None
    quant: Optional[QuantParams] = None
    is_variable: bool = False  # state an operator keeps across invocations (e.g. an LSTM's h and c)

    def __post_init__(self) -> None:
        self.shape = tuple(int(d) for d in self.shape)
        self.dtype = np.dtype(self.dtype)

    @property
    def is_const(self) -> bool:
        """Whether the tensor holds constant data."""
        return self.data is not None

    @property
    def static(self) -> bool:
        """Whether every dimension is known."""
        return all(d >= 0 for d in self.shape)

    def __repr__(self) -> str:
        return f"Tensor({self.name!r}, {list(self.shape)}, {self.dtype.name}{', const' if self.is_const else ''})"


@dataclass(eq=False)
class Op:
    """One operator: a builtin op name (or CUSTOM with `custom_code`) and its option table."""

    code: str
    inputs: list
    outputs: list
    options: Optional[tuple] = None
    custom_code: Optional[str] = None
    source: str = ""
    intermediates: list = field(default_factory=list)  # tensors a kernel reads parameters from (integer LSTM)

    def option(self, name: str, default: object = None) -> object:
        """A field of the option table."""
        return default if self.options is None else self.options[1].get(name, default)

    def set_option(self, name: str, value: object) -> None:
        """Set a field of the option table."""
        self.options[1][name] = value


@dataclass
class Graph:
    """A subgraph in execution order, with its model inputs/outputs and their signature names."""

    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    ops: list = field(default_factory=list)
    input_names: list = field(default_factory=list)
    output_names: list = field(default_factory=list)
    name: str = "main"
    subgraphs: list = field(default_factory=list)  # on the main graph: the others (WHILE bodies), in index order

    def producer(self, t: Tensor) -> Optional[Op]:
        """The op writing `t` (None for inputs and constants)."""
        for op in self.ops:
            if any(o is t for o in op.outputs):
                return op
        return None

    def consumers(self, t: Tensor) -> list:
        """Ops reading `t`."""
        return [op for op in self.ops if any(i is t for i in op.inputs)]

    def is_output(self, t: Tensor) -> bool:
        """Whether `t` is a model output."""
        return any(o is t for o in self.outputs)

    def replace_uses(self, old: Tensor, new: Tensor) -> None:
        """Make every reader of `old` (and the model outputs) read `new`."""
        for op in self.ops:
            op.inputs = [new if i is old else i for i in op.inputs]
        self.outputs = [new if o is old else o for o in self.outputs]

    def remove(self, op: Op) -> None:
        """Drop an operator."""
        self.ops = [o for o in self.ops if o is not op]

    def tensors(self) -> list:
        """Every tensor in first-use order: inputs, then operator inputs/outputs, then outputs."""
        seen: dict = {}
        for t in self.inputs:
            seen.setdefault(id(t), t)
        for op in self.ops:
            for t in list(op.inputs) + list(op.outputs) + list(op.intermediates):
                if t is not None:
                    seen.setdefault(id(t), t)
        for t in self.outputs:
            seen.setdefault(id(t), t)
        return list(seen.values())

    def prune(self) -> None:
        """Remove operators whose outputs nobody reads (and that are not model outputs)."""
        changed = True
        while changed:
            used = {id(t) for op in self.ops for t in op.inputs if t is not None}
            used |= {id(t) for t in self.outputs}
            keep = [op for op in self.ops if any(id(o) in used for o in op.outputs)]
            changed = len(keep) != len(self.ops)
            self.ops = keep
