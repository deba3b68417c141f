"""TFLite Micro's audio preprocessors (micro_speech's front end, int8 and float outputs): every
recorded input set through a fresh interpreter gives TFLM's recorded bits, and a stream of input
sets through one interpreter, where SignalFilterBankSpectralSubtraction carries its noise
estimate from frame to frame, gives what TFLM's interpreter gives for the same stream."""
from __future__ import annotations

import numpy as np
import pytest

from signal_ops.signal_models import tflm_runner

CASES = ["tflm_audio_preprocessor_int8", "tflm_audio_preprocessor_float"]
INPUT_SETS = 3


def _invoke(it, x: np.ndarray) -> np.ndarray:
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return np.array(it.get_tensor(it.get_output_details()[0]["index"]))


@pytest.mark.parametrize("case", CASES)
def test_each_frame_matches_recorded_tflm_output(realworld_dir, case):
    from edgelite_runtime import Interpreter

    d = realworld_dir / case
    for k in range(INPUT_SETS):
        it = Interpreter(model_path=str(d / "model.tflite"), num_threads=1)
        it.allocate_tensors()
        got = _invoke(it, np.load(d / f"input_{k}_0.npy"))
        want = np.load(d / f"ref_tflm_{k}_0.npy")
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want, err_msg=f"input set {k}")


@pytest.mark.parametrize("case", CASES)
def test_frame_stream_matches_tflite_micro(realworld_dir, case):
    pytest.importorskip("tflite_micro.python.tflite_micro.runtime", reason="tflite-micro is not installed")
    from edgelite_runtime import Interpreter

    d = realworld_dir / case
    model = (d / "model.tflite").read_bytes()
    ours = Interpreter(model_content=model, num_threads=1)
    ours.allocate_tensors()
    ref = tflm_runner(model)
    rng = np.random.default_rng(7)
    frames = [np.load(d / f"input_{k}_0.npy") for k in range(INPUT_SETS)]
    frames += [rng.integers(-3000, 3000, size=frames[0].shape).astype(np.int16) for _ in range(5)]
    outs = []
    for k, x in enumerate(frames):
        got = _invoke(ours, x)
        np.testing.assert_array_equal(got, _invoke(ref, x), err_msg=f"frame {k}")
        outs.append(got)
    # The noise estimate is state: the same frame gives another output later in the stream.
    assert not np.array_equal(outs[0], _invoke(ours, frames[0]))
