"""The optimized recurrent kernels (float LSTM, integer SVDF) against the reference tier, over
several invokes of one interpreter so the carried state is compared too: float outputs within
1e-4 of their largest magnitude, integer outputs bit for bit, at every ISA level here."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from .diffrun import difference

_SEQ = Path(__file__).resolve().parents[1] / "coverage" / "seq_models.py"
_spec = importlib.util.spec_from_file_location("speed_seq_models", _SEQ)
seq_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seq_models)

FLOAT_TOL = 1e-4
INVOKES = 4

# Shapes past one 16-channel block and one 64-channel chunk of the GEMM (4 gates x 20 cells).
LSTM_FORMS = {
    "plain": {},
    "cifg": {"cifg": True},
    "peephole": {"peephole": True},
    "projection_clip": {"projection": True, "proj_clip": 0.3},
    "time_major_cell_clip": {"time_major": True, "cell_clip": 0.4},
    "wide_batch_major": {"batch": 3, "time": 7, "n_input": 28, "n_cell": 20},
    "wide_time_major_peephole": {"time_major": True, "batch": 2, "time": 5, "n_input": 9, "n_cell": 37,
                                 "peephole": True},
    "single_step": {"sequence": False, "n_cell": 21},
}


def _invokes(cls, model, inputs, **kwargs):
    it = cls(model_content=model, **kwargs)
    it.allocate_tensors()
    inp, outp = it.get_input_details()[0]["index"], it.get_output_details()[0]["index"]
    outs = []
    for x in inputs:
        it.set_tensor(inp, x)
        it.invoke()
        outs.append(it.get_tensor(outp))
    return outs


def _check(cls, isa_levels, model, inputs, tol):
    ref = _invokes(cls, model, inputs, experimental_kernel_tier="reference")
    for isa in isa_levels:
        ours = _invokes(cls, model, inputs, experimental_isa=isa)
        for k, (a, b) in enumerate(zip(ours, ref)):
            why = difference([a], [b], tol)
            assert why is None, f"[{isa}] invoke {k}: {why}"


@pytest.mark.parametrize("form", sorted(LSTM_FORMS))
def test_float_lstm_matches_reference(form, edgelite_interpreter, isa_levels):
    rng = np.random.default_rng([26, len(form)])
    model, shape, dtype = seq_models.lstm_float(rng, **LSTM_FORMS[form])
    inputs = [x[0] for x in seq_models.random_inputs(rng, shape, dtype, INVOKES)]
    _check(edgelite_interpreter, isa_levels, model, inputs, FLOAT_TOL)


SVDF_FORMS = {
    "small": {},
    "keyword_layer": {"batch": 1, "n_input": 96, "units": 64, "memory": 8},
    "tails_rank2": {"rank": 2, "batch": 3, "n_input": 37, "units": 5, "memory": 21},
    "long_memory_no_bias": {"n_input": 16, "units": 32, "memory": 32, "with_bias": False},
}


@pytest.mark.parametrize("form", sorted(SVDF_FORMS))
def test_int8_svdf_bit_exact_with_reference(form, edgelite_interpreter, isa_levels):
    rng = np.random.default_rng([20, len(form)])
    model, shape, dtype = seq_models.svdf(rng, int8=True, **SVDF_FORMS[form])
    inputs = [x[0] for x in seq_models.random_inputs(rng, shape, dtype, 2 * INVOKES)]
    _check(edgelite_interpreter, isa_levels, model, inputs, 0.0)
