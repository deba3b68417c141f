"""Single-op models of TFLM's Signal* custom ops with seeded random operands and options, and a
runner that feeds the same inputs to edgelite and to TFLite Micro's Python interpreter."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
from flatbuffers import flexbuffers

from kernels_quant.harness import TflmInterpreter
from support.tflite_builder import ModelBuilder

INT16 = np.iinfo(np.int16)


@dataclass
class SignalCase:
    """One model of one signal op and the input sets it is invoked with, in order."""

    name: str
    model: bytes
    inputs: List[List[np.ndarray]] = field(default_factory=list)
    options: Dict[str, Any] = field(default_factory=dict)


def flex(options: Dict[str, Any]) -> bytes:
    """The custom options as TFLM's converter writes them: a flexbuffer map."""
    return bytes(flexbuffers.Dumps(options))


def op_model(op: str, inputs: Sequence[tuple], outputs: Sequence[tuple], options: Dict[str, Any],
             raw_options: Optional[bytes] = None) -> bytes:
    """A model running custom op `op`. Operands are (shape, dtype) for model inputs or
    (shape, dtype, data) for constants; outputs are (shape, dtype)."""
    mb = ModelBuilder()
    g = mb.subgraph("main")
    ins, model_ins = [], []
    for k, spec in enumerate(inputs):
        data = spec[2] if len(spec) > 2 else None
        t = g.tensor(spec[0], spec[1], name=f"in{k}", data=data)
        ins.append(t)
        if data is None:
            model_ins.append(t)
    outs = [g.tensor(s[0], s[1], name=f"out{k}") for k, s in enumerate(outputs)]
    g.op("CUSTOM", ins, outs, custom_code=op, custom_options=flex(options) if raw_options is None else raw_options)
    g.set_io(model_ins, outs)
    return mb.build()


def int16s(rng: np.random.Generator, shape, lo: int = INT16.min, hi: int = INT16.max) -> np.ndarray:
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(np.int16)


def uint32s(rng: np.random.Generator, shape, bits: int = 32) -> np.ndarray:
    return rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).astype(np.uint32)


def window_case(rng: np.random.Generator, rows: int, n: int, shift: int) -> SignalCase:
    w = int16s(rng, [n], 0)
    opts = {"shift": shift}
    model = op_model("SignalWindow", [([rows, n], np.int16), ([n], np.int16, w)], [([rows, n], np.int16)], opts)
    return SignalCase(f"window_{rows}x{n}_s{shift}", model, [[int16s(rng, [rows, n])] for _ in range(2)], opts)


def auto_scale_case(rng: np.random.Generator, n: int, magnitude: int) -> SignalCase:
    model = op_model("SignalFftAutoScale", [([n], np.int16)], [([n], np.int16), ([], np.int32)], {})
    return SignalCase(f"auto_scale_{n}_m{magnitude}", model, [[int16s(rng, [n], -magnitude, magnitude)]])


RFFT_TYPES = {np.int16: 7, np.int32: 2, np.float32: 0}


def rfft_case(rng: np.random.Generator, rows: int, length: int, fft_length: int, magnitude: int = INT16.max,
              dtype: type = np.int16) -> SignalCase:
    """Int16 samples within +-magnitude; int32 ones scaled to the same share of their range;
    floats of magnitude / 32768."""
    opts = {"T": RFFT_TYPES[dtype], "fft_length": fft_length}
    model = op_model("SignalRfft", [([rows, length], dtype)], [([rows, fft_length + 2], dtype)], opts)
    sets = []
    for _ in range(2):
        x = int16s(rng, [rows, length], -magnitude, magnitude)
        if dtype == np.int32:
            x = x.astype(np.int32) * 65536 + rng.integers(0, 65536, size=x.shape).astype(np.int32)
        elif dtype == np.float32:
            x = x.astype(np.float32) / 32768
        sets.append([x])
    name = f"rfft_{np.dtype(dtype).name}_{rows}x{length}_n{fft_length}"
    return SignalCase(name, model, sets, opts)


def energy_case(rng: np.random.Generator, bins: int, start: int, end: int) -> SignalCase:
    opts = {"end_index": end, "start_index": start}
    model = op_model("SignalEnergy", [([2 * bins], np.int16)], [([bins], np.uint32)], opts)
    return SignalCase(f"energy_{bins}_{start}_{end}", model, [[int16s(rng, [2 * bins])] for _ in range(2)], opts)


def filter_bank_case(rng: np.random.Generator, bins: int, channels: int, max_width: int = 12) -> SignalCase:
    """Random but valid channel layout: every window inside the spectrum and the weights."""
    widths = rng.integers(0, max_width, size=channels + 1, endpoint=True).astype(np.int16)
    freq = np.array([rng.integers(0, bins - w + 1) for w in widths], dtype=np.int16)
    wstarts = np.concatenate([[0], np.cumsum(widths[:-1])]).astype(np.int16)
    total = max(int(widths.sum()), 1)
    weights = int16s(rng, [total], 0, 4096)
    unweights = (4096 - weights).astype(np.int16)
    opts = {"num_channels": channels}
    model = op_model("SignalFilterBank",
                     [([bins], np.uint32), ([total], np.int16, weights), ([total], np.int16, unweights),
                      ([channels + 1], np.int16, freq), ([channels + 1], np.int16, wstarts),
                      ([channels + 1], np.int16, widths)],
                     [([channels], np.uint64)], opts)
    return SignalCase(f"filter_bank_{bins}_{channels}", model, [[uint32s(rng, [bins], 31)] for _ in range(2)], opts)


def square_root_case(rng: np.random.Generator, n: int, shift: int) -> SignalCase:
    model = op_model("SignalFilterBankSquareRoot", [([n], np.uint64), ([], np.int32)], [([n], np.uint32)], {})
    bits = rng.integers(0, 64, size=n)
    x = np.array([int(rng.integers(0, 1 << int(b), dtype=np.uint64)) if b else 0 for b in bits], dtype=np.uint64)
    return SignalCase(f"square_root_{n}_s{shift}", model, [[x, np.array(shift, np.int32)]])


def spectral_subtraction_case(rng: np.random.Generator, channels: int, clamping: bool, invokes: int = 4) -> SignalCase:
    bits = int(rng.integers(8, 15))
    smoothing = int(rng.integers(1, 1 << (bits - 2)))
    alternate = int(rng.integers(1, 1 << (bits - 2)))
    opts = {"alternate_one_minus_smoothing": (1 << bits) - alternate, "alternate_smoothing": alternate,
            "clamping": clamping, "min_signal_remaining": int(rng.integers(0, 1 << (bits - 1))),
            "num_channels": channels, "one_minus_smoothing": (1 << bits) - smoothing, "smoothing": smoothing,
            "smoothing_bits": int(rng.integers(0, 11)), "spectral_subtraction_bits": bits}
    model = op_model("SignalFilterBankSpectralSubtraction", [([channels], np.uint32)],
                     [([channels], np.uint32), ([channels], np.uint32)], opts)
    sets = [[uint32s(rng, [channels], 20)] for _ in range(invokes)]
    return SignalCase(f"spectral_subtraction_{channels}_c{int(clamping)}", model, sets, opts)


def pcan_case(rng: np.random.Generator, channels: int, snr_shift: int) -> SignalCase:
    lut = int16s(rng, [125], -2048, 2048)
    opts = {"snr_shift": snr_shift}
    model = op_model("SignalPCAN", [([channels], np.uint32), ([channels], np.uint32), ([125], np.int16, lut)],
                     [([channels], np.uint32)], opts)
    sets = []
    for _ in range(2):
        noise = np.array([int(rng.integers(0, 1 << int(b), dtype=np.uint64)) if b else 0
                          for b in rng.integers(0, 33, size=channels)], dtype=np.uint32)
        sets.append([uint32s(rng, [channels], 16), noise])
    return SignalCase(f"pcan_{channels}_s{snr_shift}", model, sets, opts)


def log_case(rng: np.random.Generator, channels: int, correction_bits: int, output_scale: int) -> SignalCase:
    opts = {"input_correction_bits": correction_bits, "output_scale": output_scale}
    model = op_model("SignalFilterBankLog", [([channels], np.uint32)], [([channels], np.int16)], opts)
    x = np.array([int(rng.integers(0, 1 << int(b), dtype=np.uint64)) if b else 0
                  for b in rng.integers(0, 33 - correction_bits, size=channels)], dtype=np.uint32)
    return SignalCase(f"log_{channels}_b{correction_bits}_s{output_scale}", model, [[x]], opts)


def all_cases(seed: int = 26) -> List[SignalCase]:
    """Every op over shapes and options the audio front ends use and a few they do not."""
    rng = np.random.default_rng(seed)
    cases = [window_case(rng, 1, 480, 12), window_case(rng, 3, 16, 0), window_case(rng, 2, 7, 31)]
    cases += [auto_scale_case(rng, 480, m) for m in (0, 1, 300, 20000, INT16.max)]
    cases += [rfft_case(rng, 1, 480, 512), rfft_case(rng, 2, 64, 64), rfft_case(rng, 1, 30, 48),
              rfft_case(rng, 1, 50, 50),
              rfft_case(rng, 1, 100, 120, 2000)]
    cases += [rfft_case(rng, 1, 480, 512, dtype=t) for t in (np.int32, np.float32)]
    cases += [rfft_case(rng, 2, 40, 60, 1000, dtype=t) for t in (np.int32, np.float32)]
    cases += [energy_case(rng, 257, 5, 241), energy_case(rng, 9, 0, 9), energy_case(rng, 4, 2, 2)]
    cases += [filter_bank_case(rng, 257, 40), filter_bank_case(rng, 32, 5, 0), filter_bank_case(rng, 64, 3, 30)]
    cases += [square_root_case(rng, 64, s) for s in (0, 7, 31)]
    cases += [spectral_subtraction_case(rng, 40, False), spectral_subtraction_case(rng, 9, True)]
    cases += [pcan_case(rng, 40, 6), pcan_case(rng, 7, 0), pcan_case(rng, 5, 40)]
    cases += [log_case(rng, 40, 3, 64), log_case(rng, 33, 0, 1 << 15), log_case(rng, 8, 10, 7)]
    return cases


def generic_radix_cases(seed: int = 27) -> List[SignalCase]:
    """Transforms with a radix other than 2, 3, 4 and 5 (7; 1 for fft_length 2), which KISS FFT
    runs through its generic butterfly. TFLite Micro's build crashes on them, so they are checked
    against the discrete Fourier transform only."""
    rng = np.random.default_rng(seed)
    return [rfft_case(rng, 1, 20, 28), rfft_case(rng, 2, 2, 2), rfft_case(rng, 1, 90, 98, 4000)]


def run(interpreter: Any, case: SignalCase) -> List[List[np.ndarray]]:
    """Outputs of every input set of `case`, invoked in order on one interpreter."""
    interpreter.allocate_tensors()
    results = []
    for values in case.inputs:
        for det, v in zip(interpreter.get_input_details(), values):
            interpreter.set_tensor(det["index"], v)
        interpreter.invoke()
        results.append([np.array(interpreter.get_tensor(d["index"])) for d in interpreter.get_output_details()])
    return results



def tflm_runner(model: bytes) -> TflmInterpreter:
    """TFLite Micro's interpreter with an arena large enough for every case here (its default,
    sized from the model, is too small for the FFT's tables)."""
    return TflmInterpreter(model, arena_size=1 << 20)
