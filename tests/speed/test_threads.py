"""Threads change no result: every tensor of the four corpus MobileNets on two and three threads
equals the one-thread run (integers bit for bit, floats within 1e-4 of the tensor's largest
magnitude), over repeated invokes of one interpreter; and depthwise convolutions, whose tasks
split output pixels (parts of rows), equal their one-thread outputs on random shapes."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from .diffrun import difference, readable_tensors, run
from .opcases import cases

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FLOAT_TOL = 1e-4
MOBILENETS = ["mobilenet_v1_f32", "mobilenet_v1_int8", "mobilenet_v2_f32", "mobilenet_v2_int8"]


def _every_tensor(it, x: np.ndarray) -> dict:
    """Every readable tensor after one invoke on x."""
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return readable_tensors(it)


@pytest.mark.filterwarnings("ignore:Warning. .experimental_preserve_all_tensors")
@pytest.mark.parametrize("name", MOBILENETS)
def test_mobilenet_threads_equal_one_thread(name, edgelite_interpreter):
    folder = SHARED / "corpus" / name
    if not (folder / "model.tflite").is_file():
        pytest.skip(f"{name} is not in the shared corpus at {SHARED}")
    x = np.load(folder / "input_0.npy")
    rng = np.random.default_rng(5)
    if np.issubdtype(x.dtype, np.integer):
        info = np.iinfo(x.dtype)
        other = rng.integers(info.min, info.max + 1, x.shape).astype(x.dtype)
    else:
        other = rng.uniform(-1, 1, x.shape).astype(x.dtype)

    def interpreter(threads: int):
        it = edgelite_interpreter(model_path=str(folder / "model.tflite"), num_threads=threads,
                                  experimental_preserve_all_tensors=True)
        it.allocate_tensors()
        return it

    single = interpreter(1)
    expected = [_every_tensor(single, v) for v in (x, other)]
    assert len(expected[0]) > 50, "too few readable tensors"
    failures = []
    for threads in (2, 3):
        it = interpreter(threads)
        for round_ in range(3):
            for which, value in enumerate((x, other)):
                got = _every_tensor(it, value)
                for index, ref in expected[which].items():
                    why = difference([got[index]], [ref], FLOAT_TOL)
                    if why:
                        failures.append(f"[{threads} threads, invoke {round_}] tensor {index}: {why}")
    assert not failures, "\n".join(failures[:10])


def test_depthwise_threads_equal_one_thread(edgelite_interpreter):
    failures = []
    for case in cases("DEPTHWISE_CONV_2D", 80, seed=31):
        one = run(edgelite_interpreter, case.model, case.inputs, num_threads=1)
        for threads in (2, 3):
            why = difference(run(edgelite_interpreter, case.model, case.inputs, num_threads=threads), one,
                             case.float_tol)
            if why:
                failures.append(f"[{threads} threads] {case.name}: {why}")
    assert not failures, f"{len(failures)} mismatches, e.g.:\n" + "\n".join(failures[:10])
