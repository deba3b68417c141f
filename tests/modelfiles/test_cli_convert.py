"""`edgelite convert` of TensorFlow-written model files: a SavedModel directory, a frozen .pb and a Keras .h5."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite.cli.main import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MODELS = FIXTURES / "models"


def _convert(capsys, *argv: str) -> tuple:
    code = main(["convert", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _ops_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("operators: "))


def test_saved_model_directory_in_int8(capsys, tmp_path):
    samples = tmp_path / "samples.npy"
    np.save(samples, np.load(MODELS / "models.npz")["digits_calibration"])
    out = tmp_path / "digits.tflite"
    code, text, err = _convert(capsys, str(MODELS / "digits_saved_model"), "--mode", "int8", "--calibration-data",
                               str(samples), "--input-shape", "input=1,8,8,1", "-o", str(out))
    assert code == 0, err
    assert _ops_line(text) == "operators: CONV_2D x2, FULLY_CONNECTED x1, MAX_POOL_2D x1, RESHAPE x1, SOFTMAX x1"
    details = tf.lite.Interpreter(model_path=str(out)).get_input_details()[0]
    assert details["dtype"] == np.int8 and list(details["shape"]) == [1, 8, 8, 1]


def test_frozen_graph_next_to_the_file(capsys, tmp_path):
    source = tmp_path / "digits_frozen.pb"
    shutil.copy(MODELS / "digits_frozen.pb", source)
    code, text, err = _convert(capsys, str(source), "--input-arrays", "input", "--output-arrays", "probs")
    assert code == 0, err
    assert (tmp_path / "digits_frozen_float.tflite").is_file()
    code, _text, err = _convert(capsys, str(source))
    assert code == 1 and "pass --input-arrays and --output-arrays" in err


def test_keras_h5_in_float16(capsys, tmp_path):
    pytest.importorskip("h5py", reason="h5py (the keras extra) reads Keras .h5 files")
    out = tmp_path / "cnn.tflite"
    code, text, err = _convert(capsys, str(FIXTURES / "keras" / "cnn.h5"), "--mode", "float16", "-o", str(out))
    assert code == 0, err
    recorded = json.loads((FIXTURES / "keras" / "keras.json").read_text())["cnn_ops"]["float16"]
    assert "DEQUANTIZE x%d" % recorded.count("DEQUANTIZE") in _ops_line(text)


def test_bad_model_files_give_one_error_line(capsys, tmp_path):
    broken = tmp_path / "sm"
    shutil.copytree(MODELS / "digits_saved_model", broken)
    (broken / "saved_model.pb").write_bytes((MODELS / "digits_saved_model" / "saved_model.pb").read_bytes()[:500])
    code, _out, err = _convert(capsys, str(broken))
    assert code == 1 and err.startswith(f"edgelite: error: cannot convert {broken}: Cannot parse file ")
    code, _out, err = _convert(capsys, str(MODELS / "digits_saved_model"), "--signature-key", "nope")
    assert code == 1 and "No 'nope' in the SavedModel's SignatureDefs" in err
    code, _out, err = _convert(capsys, str(MODELS / "digits_saved_model"), "--tag-set", "train")
    assert code == 1 and "MetaGraphDef associated with tags 'train' could not be found" in err
    code, _out, err = _convert(capsys, str(MODELS / "digits_saved_model"), "--mode", "int8")
    assert code == 1 and "needs --calibration-data" in err
    assert len(err.strip().splitlines()) == 1
