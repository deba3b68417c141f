"""Every signal op on single-op models against TensorFlow Lite Micro's own kernels (its Python
interpreter, the reference these ops are defined by): the same bits for every output, over
several invokes so SignalFilterBankSpectralSubtraction's kept noise estimate is compared too."""
from __future__ import annotations

import numpy as np
import pytest

from signal_ops.signal_models import all_cases, run, tflm_runner

CASES = all_cases()


@pytest.fixture(scope="module")
def tflm():
    return pytest.importorskip("tflite_micro.python.tflite_micro.runtime", reason="tflite-micro is not installed")


def _same(ours: np.ndarray, ref: np.ndarray, where: str) -> None:
    assert ours.dtype == ref.dtype and ours.shape == ref.shape, f"{where}: {ours.dtype}{ours.shape} vs {ref.dtype}{ref.shape}"
    bad = np.flatnonzero(ours.ravel() != ref.ravel())
    assert bad.size == 0, f"{where}: {bad.size} of {ref.size} differ, first at {bad[:5]}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bit_exact_with_tflite_micro(tflm, case):
    from edgelite_runtime import Interpreter

    ours = run(Interpreter(model_content=case.model), case)
    ref = run(tflm_runner(case.model), case)
    for k, (got, want) in enumerate(zip(ours, ref)):
        assert len(got) == len(want)
        for j, (a, b) in enumerate(zip(got, want)):
            if case.name.startswith("energy"):
                # TFLM leaves the bins outside [start_index, end_index) as the arena held them.
                lo, hi = case.options["start_index"], case.options["end_index"]
                _same(a[lo:hi], b[lo:hi], f"invoke {k} output {j}")
                assert not a[:lo].any() and not a[hi:].any()
            else:
                _same(a, b, f"invoke {k} output {j}")
