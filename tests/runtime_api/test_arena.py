"""get_arena_info(): the memory plan of allocate_tensors, reported for every corpus model."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
MODELS = sorted(d.name for d in CORPUS.iterdir() if (d / "model.tflite").is_file()) if CORPUS.is_dir() else []


@pytest.mark.parametrize("name", MODELS)
def test_planned_arena_close_to_lower_bound(rt, corpus_dir, name):
    it = rt.Interpreter(model_path=str(corpus_dir / name / "model.tflite"))
    it.allocate_tensors()
    info = it.get_arena_info()
    assert set(info) == {"planned_bytes", "lower_bound_bytes"}
    planned, lower = info["planned_bytes"], info["lower_bound_bytes"]
    # The fast kernels' scratch comes on top of the bound; the reference kernels keep to it.
    assert lower <= planned
    ref = rt.Interpreter(model_path=str(corpus_dir / name / "model.tflite"),
                         experimental_op_resolver_type=rt.OpResolverType.BUILTIN_REF)
    ref.allocate_tensors()
    ref_planned, ref_lower = ref.get_arena_info()["planned_bytes"], ref.get_arena_info()["lower_bound_bytes"]
    print(f"{name}: planned {planned} B (reference kernels {ref_planned} B), lower bound {lower} B")
    assert ref_lower <= ref_planned <= 1.10 * ref_lower + 256
    # Each input is alive while the first op runs and each output after the last: both fit the bound.
    for d in it.get_input_details() + it.get_output_details():
        assert int(d["shape"].prod()) * np.dtype(d["dtype"]).itemsize <= lower


def test_arena_info_before_allocation(rt, corpus_dir):
    info = rt.Interpreter(model_path=str(corpus_dir / "mlp_f32" / "model.tflite")).get_arena_info()
    assert info == {"planned_bytes": 0, "lower_bound_bytes": 0}
