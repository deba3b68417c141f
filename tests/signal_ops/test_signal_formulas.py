"""The signal ops against their definitions, independently of any runtime: the window product,
the auto-scale shift, bin energies, filter-bank sums, rounded integer square roots, and the
fixed-point FFT and log against numpy's float transform and log within their rounding error."""
from __future__ import annotations

import math

import numpy as np
import pytest

from signal_ops.signal_models import all_cases, generic_radix_cases, run

CASES = {c.name: c for c in all_cases() + generic_radix_cases()}


def _ours(case):
    from edgelite_runtime import Interpreter

    return run(Interpreter(model_content=case.model), case)


def _const(case, index: int) -> np.ndarray:
    """Constant operand `index` of the case's single op, read back from the model."""
    from ai_edge_litert import schema_py_generated as schema

    m = schema.ModelT.InitFromObj(schema.Model.GetRootAs(case.model, 0))
    g = m.subgraphs[0]
    t = g.tensors[g.operators[0].inputs[index]]
    dtype = {schema.TensorType.INT16: np.int16}[t.type]
    return np.frombuffer(bytes(m.buffers[t.buffer].data), dtype=dtype)


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("window")])
def test_window_is_shifted_saturated_product(name):
    case = CASES[name]
    w = _const(case, 1).astype(np.int64)
    for (x,), (y,) in zip(case.inputs, _ours(case)):
        want = np.clip((x.astype(np.int64) * w) >> case.options["shift"], -32768, 32767)
        np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("auto_scale")])
def test_auto_scale_shifts_to_full_int16_range(name):
    case = CASES[name]
    (x,), ((y, bits),) = case.inputs[0], _ours(case)
    peak = int(np.abs(x.astype(np.int64)).max())
    want_bits = max(0, 15 - peak.bit_length()) if peak else 0
    assert int(bits) == want_bits
    np.testing.assert_array_equal(y, x.astype(np.int64) << want_bits)


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("energy")])
def test_energy_is_squared_magnitude(name):
    case = CASES[name]
    lo, hi = case.options["start_index"], case.options["end_index"]
    for (x,), (y,) in zip(case.inputs, _ours(case)):
        c = x.astype(np.int64).reshape(-1, 2)
        want = np.zeros(len(c), np.uint64)
        want[lo:hi] = c[lo:hi, 0] ** 2 + c[lo:hi, 1] ** 2
        np.testing.assert_array_equal(y, want.astype(np.uint32))


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("filter_bank_")])
def test_filter_bank_sums_weighted_and_unweighted_windows(name):
    case = CASES[name]
    weights, unweights, freq, wstart, width = (_const(case, i).astype(np.int64) for i in range(1, 6))
    for (x,), (y,) in zip(case.inputs, _ours(case)):
        def window(c: int, w: np.ndarray) -> int:
            f, s, n = int(freq[c]), int(wstart[c]), int(width[c])
            return int(np.dot(w[s:s + n], x[f:f + n].astype(np.int64)))
        want = [window(c + 1, weights) + window(c, unweights) for c in range(case.options["num_channels"])]
        np.testing.assert_array_equal(y, np.array(want, np.uint64))


def _rounded_sqrt(v: int) -> int:
    r = math.isqrt(v)
    return r + 1 if v - r * r > r and r != 0xFFFFFFFF else r


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("square_root")])
def test_square_root_rounds_to_nearest_then_shifts(name):
    case = CASES[name]
    (x, shift), ((y,),) = case.inputs[0], _ours(case)
    # Below 2**32 TFLM's shortcut keeps 16 result bits, so 65535 is its largest root there.
    want = [min(_rounded_sqrt(int(v)), 0xFFFF) if int(v) < 1 << 32 else _rounded_sqrt(int(v)) for v in x]
    np.testing.assert_array_equal(y, np.array(want, np.uint64) >> int(shift))


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("rfft")])
def test_rfft_is_scaled_dft_within_rounding(name):
    case = CASES[name]
    n = case.options["fft_length"]
    # Each of the log2(n)-ish butterfly stages rounds once per output; the error stays a few LSB.
    stages = math.ceil(math.log2(n))
    for (x,), (y,) in zip(case.inputs, _ours(case)):
        got = y.astype(np.float64).reshape(*y.shape[:-1], -1, 2)
        got = got[..., 0] + 1j * got[..., 1]
        if x.dtype == np.float32:
            # KISS FFT's float transform is not scaled; float rounding only.
            want = np.fft.rfft(x.astype(np.float64), n=n, axis=-1)
            assert np.abs(got - want).max() <= 1e-5 * n * max(1.0, np.abs(x).max())
            continue
        want = np.fft.rfft(x.astype(np.float64), n=n, axis=-1) / n
        lsb = 1.0 if x.dtype == np.int16 else 65536.0
        err = np.abs(got - want).max() / lsb
        assert err <= 2.0 * stages + 2, f"{err:.2f} LSB of int16"


# TFLM scales the Q16 log in uint32, which wraps for output scales above ~2900 (the
# TFLite Micro comparison covers those); the definition holds below.
@pytest.mark.parametrize("name", [n for n, c in CASES.items() if n.startswith("log") and c.options["output_scale"] < 2900])
def test_log_is_scaled_natural_log(name):
    case = CASES[name]
    (x,), ((y,),) = case.inputs[0], _ours(case)
    scaled = x.astype(np.float64) * (1 << case.options["input_correction_bits"])
    with np.errstate(divide="ignore"):
        want = np.where(scaled > 1, np.minimum(case.options["output_scale"] * np.log(scaled), 32767), 0)
    # The log2 fraction comes from a 128-segment table: about 1e-4 relative error, plus rounding.
    assert np.abs(y - want).max() <= 1.5 + 2e-4 * np.abs(want).max()
