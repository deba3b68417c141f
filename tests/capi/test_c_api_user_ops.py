"""User kernels through TensorFlow Lite's C API on libedgelite: TfLiteRegistrationExternal with the opaque
accessors (c_api.h, c_api_opaque.h), the classic AddCustomOp/AddBuiltinOp and ResetVariableTensors
(c_api_experimental.h). A C program written only against those headers runs models built here."""
from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path
from typing import List

import numpy as np
import pytest

from edgelite_runtime import Interpreter
from support.tflite_builder import TensorSpec, single_op_model

from .test_c_api import build_program

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "c" / "capi_user_ops.c"
X = [0.5, -1.25, 2.0, 3.5]


@pytest.fixture(scope="module")
def user_ops(c_compiler, tmp_path_factory) -> Path:
    return build_program(c_compiler, tmp_path_factory.mktemp("capi_ops") / "capi_user_ops", SOURCE)


def _run(exe: Path, mode: str, model: Path, values=X, expect_rc: int = 0) -> List[str]:
    proc = subprocess.run([str(exe), mode, str(model), *map(str, values)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == expect_rc, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def _floats(line: str) -> np.ndarray:
    return np.array([float(v) for v in line.split()], dtype=np.float32)


def _counts(line: str) -> dict:
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}


def test_program_uses_only_tflite_headers():
    includes = re.findall(r'#include\s+[<"]([^>"]+)[>"]', SOURCE.read_text())
    assert sorted(h for h in includes if "/" in h) == [
        "tensorflow/lite/c/c_api.h", "tensorflow/lite/c/c_api_experimental.h", "tensorflow/lite/c/c_api_opaque.h"]


@pytest.fixture
def scale_model(tmp_path) -> Path:
    """One custom op "Scale" whose options' first byte (3) is the factor the kernels read."""
    path = tmp_path / "scale.tflite"
    path.write_bytes(single_op_model("CUSTOM", [TensorSpec([2, 2])], [TensorSpec([2, 2])], custom_code="Scale",
                                     custom_options=bytes([3, 9])))
    return path


def test_registration_external_runs_a_custom_op(user_ops, scale_model):
    lines = _run(user_ops, "external", scale_model)
    assert lines[0] == "registration 32 Scale 1"
    np.testing.assert_array_equal(_floats(lines[1]), np.array(X, np.float32) * 3)
    # init once with the op's custom options, prepare at allocation, invoke once, free at delete
    assert _counts(lines[2]) == {"init": 1, "prepare": 1, "invoke": 1, "freed": 1}


def test_add_custom_op_with_a_classic_registration(user_ops, scale_model):
    lines = _run(user_ops, "classic", scale_model)
    np.testing.assert_array_equal(_floats(lines[0]), np.array(X, np.float32) * 3 + 1)
    assert _counts(lines[1]) == {"init": 1, "prepare": 1, "invoke": 1, "freed": 1}


def test_unregistered_custom_op_fails_at_allocation(user_ops, scale_model):
    lines = _run(user_ops, "none", scale_model, expect_rc=5)
    assert _counts(lines[-1])["invoke"] == 0


def test_add_builtin_op_replaces_edgelite_kernel(user_ops, tmp_path):
    path = tmp_path / "add.tflite"
    path.write_bytes(single_op_model("ADD", [TensorSpec([4]), TensorSpec([4])], [TensorSpec([4])]))
    lines = _run(user_ops, "builtin", path)
    # the replacement computes a - 2b; both inputs get X
    np.testing.assert_array_equal(_floats(lines[0]), -np.array(X, np.float32))
    assert _counts(lines[1])["invoke"] == 1
    # without the replacement edgelite's ADD runs: a + b
    np.testing.assert_array_equal(_floats(_run(user_ops, "none", path)[0]), 2 * np.array(X, np.float32))


def _rnn_model() -> bytes:
    spec = importlib.util.spec_from_file_location("el_seq_models", HERE.parent / "coverage" / "seq_models.py")
    seq_models = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(seq_models)
    model, _, _ = seq_models.rnn_float(np.random.default_rng(7), batch=1, time=2, n_input=2, units=2)
    return model


def test_reset_variable_tensors_restarts_the_state(user_ops, tmp_path):
    path = tmp_path / "rnn.tflite"
    path.write_bytes(_rnn_model())
    lines = _run(user_ops, "reset", path)
    first, second, after_reset = (_floats(line) for line in lines[:3])
    interp = Interpreter(model_content=path.read_bytes())
    interp.allocate_tensors()
    detail = interp.get_input_details()[0]
    interp.set_tensor(detail["index"], np.array(X, np.float32).reshape(detail["shape"]))
    interp.invoke()
    want = interp.get_tensor(interp.get_output_details()[0]["index"]).ravel()
    np.testing.assert_allclose(first, want, rtol=1e-5)
    assert not np.allclose(second, first)  # the hidden state carried over
    np.testing.assert_array_equal(after_reset, first)
