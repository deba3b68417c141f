"""Runs a model on the reference tier and on the optimized tier at each ISA level, and says
where the optimized outputs leave the reference bits (or, for float, the tolerance)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np


def run(interpreter_cls: Any, model: bytes, inputs: Sequence[np.ndarray], **kwargs: Any) -> List[np.ndarray]:
    """Outputs of one fresh interpreter on `inputs` (model input order)."""
    it = interpreter_cls(model_content=model, **kwargs)
    it.allocate_tensors()
    for det, value in zip(it.get_input_details(), inputs):
        it.set_tensor(det["index"], value)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


def difference(ours: Sequence[np.ndarray], ref: Sequence[np.ndarray], float_tol: float) -> Optional[str]:
    """None when `ours` equals `ref` bit for bit (floats: within float_tol of the max magnitude)."""
    for i, (a, b) in enumerate(zip(ours, ref)):
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"output {i}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if np.issubdtype(b.dtype, np.floating) and float_tol > 0:
            scale = float(np.abs(b).max()) if b.size else 0.0
            err = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max()) if b.size else 0.0
            if not err <= float_tol * max(scale, 1e-30):
                return f"output {i}: max |diff| {err:.3g} > {float_tol} x {scale:.3g}"
        elif not np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)):
            bad = np.flatnonzero(a.ravel() != b.ravel())
            k = int(bad[0]) if bad.size else 0
            return f"output {i}: {bad.size} of {b.size} differ, first at {k}: {a.ravel()[k]} != {b.ravel()[k]}"
    return None


def readable_tensors(it: Any) -> Dict[int, np.ndarray]:
    """Every tensor of an invoked interpreter that get_tensor can read, by index."""
    values = {}
    for det in it.get_tensor_details():
        try:
            values[det["index"]] = it.get_tensor(det["index"])
        except ValueError:
            continue
    return values
