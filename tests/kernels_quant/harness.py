"""Runs single-op quantized models on edgelite and LiteRT and compares them bit for bit."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from support.compare import Outcome, try_run


@dataclass
class Case:
    """A generated model, its inputs (model input order) and how its outputs are compared."""

    name: str
    model: bytes
    inputs: Sequence[np.ndarray]
    float_rel_tol: float = 0.0  # float outputs (hybrid, dequantize): 0 means bit-exact too
    litert_refuses: bool = False  # drawn invalid on purpose: LiteRT (and edgelite) must refuse it


def run(interpreter_cls: Any, case: Case, **kwargs: Any) -> Outcome:
    """Builds, allocates and invokes one interpreter on the case's inputs."""
    return try_run(interpreter_cls, case.model, case.inputs, **kwargs)


def mismatch(case: Case, ours: Outcome, ref: Outcome) -> Optional[str]:
    """None when edgelite reproduces the reference; otherwise what differs."""
    if ref.error is not None:
        return None if ours.error is not None else f"reference failed ({ref.error}) but edgelite ran"
    if ours.error is not None:
        return f"edgelite failed: {ours.error}"
    for i, (a, b) in enumerate(zip(ours.outputs, ref.outputs)):
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"output {i}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if np.issubdtype(b.dtype, np.floating) and case.float_rel_tol > 0:
            scale = float(np.abs(b).max()) if b.size else 0.0
            err = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max()) if b.size else 0.0
            if err > case.float_rel_tol * max(scale, 1e-30):
                return f"output {i}: max |diff| {err:.3g} > {case.float_rel_tol} x {scale:.3g}"
        elif not np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)):
            bad = np.flatnonzero(a.ravel() != b.ravel())
            k = bad[0] if bad.size else 0
            return (f"output {i}: {bad.size} of {b.size} elements differ, first at {k}: "
                    f"{a.ravel()[k]} != {b.ravel()[k]}")
    return None


def max_lsb(ours: Outcome, other: Outcome) -> Optional[int]:
    """Largest integer-output difference between two successful runs (None if not comparable)."""
    if ours.outputs is None or other.outputs is None:
        return None
    worst = 0
    for a, b in zip(ours.outputs, other.outputs):
        if a.shape != b.shape or not np.issubdtype(a.dtype, np.integer) or a.size == 0:
            continue
        worst = max(worst, int(np.abs(a.astype(np.int64) - b.astype(np.int64)).max()))
    return worst


@dataclass
class Report:
    """Tally of one op family's differential run."""

    valid: int = 0     # cases the reference ran
    rejected: int = 0  # cases both runtimes rejected
    failures: List[str] = field(default_factory=list)
    max_lsb: int = 0   # largest integer difference seen (informative when failures are allowed)


def differential(gen: Callable[[np.random.Generator], Case], seed: int, count: int,
                 ours_cls: Any, ref_cls: Any, ref_kwargs: dict,
                 max_attempts_factor: int = 3, ref_may_reject: bool = False) -> Report:
    """Draws cases until `count` of them ran on the reference (or the attempt budget ends).
    With `ref_may_reject`, a case the reference refuses is skipped even when edgelite runs it
    (TFLite Micro lacks some types and has a fixed arena)."""
    rng = np.random.default_rng(seed)
    rep = Report()
    for _ in range(count * max_attempts_factor):
        if rep.valid >= count:
            break
        case = gen(rng)
        if ref_may_reject and case.litert_refuses:
            continue  # a reference with other validity rules says nothing about these
        ref = run(ref_cls, case, **ref_kwargs)
        ours = run(ours_cls, case)
        problem = mismatch(case, ours, ref)
        if problem is not None and not (ref_may_reject and ref.error is not None):
            rep.failures.append(f"{case.name}: {problem}")
        if ref.error is not None:
            rep.rejected += 1
            continue
        rep.valid += 1
        lsb = max_lsb(ours, ref)
        if lsb is not None:
            rep.max_lsb = max(rep.max_lsb, lsb)
    return rep

class TflmInterpreter:
    """The subset of the tflite Interpreter API `run` uses, over TFLite Micro's Python runtime
    (tensors are addressed by their position among the model inputs/outputs)."""

    def __init__(self, model_content: bytes, arena_size: Optional[int] = None, **_: Any) -> None:
        from ai_edge_litert import schema_py_generated as schema
        from tflite_micro.python.tflite_micro import runtime

        graph = schema.Model.GetRootAs(bytes(model_content), 0).Subgraphs(0)
        self._counts = (graph.InputsLength(), graph.OutputsLength())
        self._it = runtime.Interpreter.from_bytes(bytes(model_content), arena_size=arena_size)

    def allocate_tensors(self) -> None:
        """TFLite Micro allocates when the interpreter is built."""

    def get_input_details(self) -> List[dict]:
        return [{"index": i} for i in range(self._counts[0])]

    def get_output_details(self) -> List[dict]:
        return [{"index": i} for i in range(self._counts[1])]

    def set_tensor(self, index: int, value: np.ndarray) -> None:
        self._it.set_input(value, index)

    def invoke(self) -> None:
        self._it.invoke()

    def get_tensor(self, index: int) -> np.ndarray:
        return self._it.get_output(index)
