"""The lstm_kws recipe through the command line: `edgelite train`, `edgelite convert --mode int8`, `edgelite run`;
the int8 model's keyword accuracy against the trained SDK model's, and its outputs bit-exact with LiteRT's
reference kernels."""
from __future__ import annotations

import json

import numpy as np
import pytest

from edgelite.cli.main import main
from edgelite.models import get
from edgelite_runtime import Interpreter


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """(work directory, int8 model path) of lstm_kws trained for two epochs."""
    work = tmp_path_factory.mktemp("kws") / "lstm_kws"
    assert main(["train", "lstm_kws", "--epochs", "2", "--out", str(work), "--no-progress"]) == 0
    model = work / "lstm_kws_int8.tflite"
    assert main(["convert", str(work), "--mode", "int8", "--out", str(model)]) == 0
    return work, model


def _int8_outputs(interpreter, x: np.ndarray) -> np.ndarray:
    """int8 probabilities per sample, each sequence from a zero LSTM state."""
    interpreter.allocate_tensors()
    inp, out = interpreter.get_input_details()[0], interpreter.get_output_details()[0]
    scale, zero = inp["quantization"]
    results = []
    for sample in x:
        interpreter.reset_all_variables()
        interpreter.set_tensor(inp["index"], np.clip(np.round(sample[None] / scale) + zero, -128, 127).astype(np.int8))
        interpreter.invoke()
        results.append(interpreter.get_tensor(out["index"])[0].copy())
    return np.array(results)


def test_int8_keyword_spotter_is_accurate_and_bit_exact(converted):
    work, model = converted
    split = get("lstm_kws").data(0)
    got = _int8_outputs(Interpreter(model_path=str(model)), split.x_test)
    litert = pytest.importorskip("ai_edge_litert.interpreter")
    reference = _int8_outputs(litert.Interpreter(model_path=str(model),
                                                 experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF),
                              split.x_test)
    np.testing.assert_array_equal(got, reference)
    accuracy = float(np.mean(np.argmax(got, axis=1) == split.y_test))
    trained = json.loads((work / "history.json").read_text())[-1]["test_accuracy"]
    # int8 may flip the few keywords the float model scores nearly evenly: at most 2 of the 128
    assert accuracy >= trained - 2 / len(split.y_test) and accuracy > 0.8


def test_int8_model_runs_in_the_cli(converted, capsys, tmp_path):
    _, model = converted
    split = get("lstm_kws").data(0)
    sample = tmp_path / "keyword.npy"
    np.save(sample, split.x_test[0])
    capsys.readouterr()
    assert main(["run", str(model), "-i", str(sample)]) == 0
    assert f"sample 0: class {split.y_test[0]} " in capsys.readouterr().out
