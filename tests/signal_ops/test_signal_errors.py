"""Malformed signal ops fail with an error naming the op and what is wrong, never a crash:
options that are not a flexbuffer map or lack a key or hold a value out of range, operand types
the op does not take, and channel layouts or shifts that would read outside their tensors."""
from __future__ import annotations

import numpy as np
import pytest

from signal_ops.signal_models import op_model


def _allocate(model: bytes):
    from edgelite_runtime import Interpreter

    it = Interpreter(model_content=model)
    it.allocate_tensors()
    return it


WINDOW_IO = ([([1, 8], np.int16), ([8], np.int16, np.ones(8, np.int16))], [([1, 8], np.int16)])
LOG_IO = ([([4], np.uint32)], [([4], np.int16)])
SUBTRACTION = {"alternate_one_minus_smoothing": 15401, "alternate_smoothing": 983, "clamping": False,
               "min_signal_remaining": 819, "num_channels": 4, "one_minus_smoothing": 15975, "smoothing": 409,
               "smoothing_bits": 10, "spectral_subtraction_bits": 14}


@pytest.mark.parametrize("op, io, options, raw, message", [
    ("SignalWindow", WINDOW_IO, {}, b"\x00\x01\x02", "SignalWindow: its options must be a flexbuffer map"),
    ("SignalWindow", WINDOW_IO, {"shift": 12}, b"", "SignalWindow: its options must be a flexbuffer map"),
    ("SignalWindow", WINDOW_IO, {"shft": 12}, None, "'shift' in \\[0, 31\\]"),
    ("SignalWindow", WINDOW_IO, {"shift": 32}, None, "'shift' in \\[0, 31\\]"),
    ("SignalWindow", WINDOW_IO, {"shift": "twelve"}, None, "'shift' in \\[0, 31\\]"),
    ("SignalRfft", ([([1, 8], np.int16)], [([1, 10], np.int16)]), {"T": 1, "fft_length": 8}, None,
     "SignalRfft: type T=1 is not supported; it takes int16 \\(7\\), int32 \\(2\\) or float32 \\(0\\)"),
    ("SignalRfft", ([([1, 8], np.int16)], [([1, 10], np.int16)]), {"T": 7, "fft_length": 7}, None,
     "even 'fft_length'"),
    ("SignalRfft", ([([1, 16], np.int16)], [([1, 10], np.int16)]), {"T": 7, "fft_length": 8}, None,
     "longer than 'fft_length'"),
    ("SignalEnergy", ([([8], np.int16)], [([4], np.uint32)]), {"start_index": 1, "end_index": 5}, None,
     "'end_index' <= the number of complex input bins"),
    ("SignalFilterBankLog", LOG_IO, {"input_correction_bits": 3}, None, "SignalFilterBankLog: its options"),
    ("SignalFilterBankSpectralSubtraction", ([([4], np.uint32)], [([4], np.uint32), ([4], np.uint32)]),
     {k: v for k, v in SUBTRACTION.items() if k != "smoothing"}, None, "SignalFilterBankSpectralSubtraction: its options"),
    ("SignalFilterBankSpectralSubtraction", ([([5], np.uint32)], [([5], np.uint32), ([5], np.uint32)]),
     SUBTRACTION, None, "must have 'num_channels' elements"),
    ("SignalPCAN", ([([4], np.uint32), ([4], np.uint32), ([16], np.int16, np.zeros(16, np.int16))],
                    [([4], np.uint32)]), {"snr_shift": 6}, None, "gain table needs at least 125 entries"),
    ("SignalFilterBank", ([([16], np.uint32)] + [([3], np.int16, np.zeros(3, np.int16))] * 5, [([4], np.uint64)]),
     {"num_channels": 4}, None, "num_channels \\+ 1 entries"),
])
def test_bad_options_and_operands_raise_naming_the_op(op, io, options, raw, message):
    model = op_model(op, io[0], io[1], options, raw_options=raw)
    with pytest.raises(RuntimeError, match=message):
        _allocate(model)


def test_wrong_operand_type_is_reported():
    model = op_model("SignalWindow", [([1, 8], np.float32), ([8], np.int16, np.ones(8, np.int16))],
                     [([1, 8], np.int16)], {"shift": 1})
    with pytest.raises(RuntimeError, match="FLOAT32 != INT16"):
        _allocate(model)


def test_filter_bank_channel_outside_the_spectrum_fails_at_invoke():
    starts = np.array([0, 14, 0], np.int16)  # channel 1 reads bins 14..17 of a 16-bin spectrum
    widths = np.array([2, 4, 2], np.int16)
    model = op_model("SignalFilterBank",
                     [([16], np.uint32), ([8], np.int16, np.ones(8, np.int16)), ([8], np.int16, np.ones(8, np.int16)),
                      ([3], np.int16, starts), ([3], np.int16, np.zeros(3, np.int16)), ([3], np.int16, widths)],
                     [([2], np.uint64)], {"num_channels": 2})
    it = _allocate(model)
    it.set_tensor(it.get_input_details()[0]["index"], np.ones(16, np.uint32))
    with pytest.raises(RuntimeError, match="SignalFilterBank: channel 1 reads bins \\[14, 18\\)"):
        it.invoke()


def test_square_root_shift_out_of_range_fails_at_invoke():
    model = op_model("SignalFilterBankSquareRoot", [([4], np.uint64), ([], np.int32)], [([4], np.uint32)], {})
    it = _allocate(model)
    x, shift = it.get_input_details()
    it.set_tensor(x["index"], np.arange(4, dtype=np.uint64))
    it.set_tensor(shift["index"], np.array(40, np.int32))
    with pytest.raises(RuntimeError, match="scale bits 40 outside \\[0, 31\\]"):
        it.invoke()
    it.set_tensor(shift["index"], np.array(1, np.int32))
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(it.get_output_details()[0]["index"]), [0, 0, 0, 1])
