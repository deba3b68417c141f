"""edgelite-run (runtime_c/tools): built from source with the flags edgelite_runtime.config prints,
its outputs on .npy and raw inputs must equal the Python binding's, and bad input must fail with a
message and exit status 1 (2 for bad usage)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import List

import numpy as np
import pytest

from edgelite_runtime import Interpreter

from .test_c_api import build_program

TOOLS = Path(__file__).resolve().parents[2] / "runtime_c" / "tools"


@pytest.fixture(scope="module")
def edgelite_run(c_compiler, tmp_path_factory) -> Path:
    return build_program(c_compiler, tmp_path_factory.mktemp("tool") / "edgelite-run", TOOLS / "edgelite_run.c",
                         TOOLS / "npy_io.c")


def _run(exe: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120)


def _python(model: Path, arrays: List[np.ndarray]) -> List[np.ndarray]:
    it = Interpreter(model_path=str(model), num_threads=1)
    for d, a in zip(it.get_input_details(), arrays):
        if tuple(d["shape"]) != a.shape:
            it.resize_tensor_input(d["index"], a.shape)
    it.allocate_tensors()
    for d, a in zip(it.get_input_details(), arrays):
        it.set_tensor(d["index"], a)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


@pytest.mark.parametrize("name,input_file", [("cnn_int8", "input_0.npy"), ("lstm_f32", "input_0.npy"),
                                             ("dynbatch_f32", "input_0_batch3.npy")])
def test_npy_inputs_give_the_python_outputs(edgelite_run, corpus_dir, name, input_file, tmp_path):
    model = corpus_dir / name / "model.tflite"
    x = np.load(corpus_dir / name / input_file)
    proc = _run(edgelite_run, str(model), "-i", str(corpus_dir / name / input_file), "-n", "3", "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    expected = _python(model, [x])
    for k, want in enumerate(expected):
        got = np.load(tmp_path / f"output_{k}.npy")
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    shape = ",".join(map(str, x.shape))
    assert re.search(rf"^input 0: name=\S+ type={x.dtype.name.upper()} shape=\[{shape}\] bytes={x.nbytes}",
                     proc.stdout, re.M)
    assert re.search(r"^invoke: runs=3 first=[\d.]+ ms min=[\d.]+ ms mean=[\d.]+ ms$", proc.stdout, re.M)


def test_raw_input_and_zero_default(edgelite_run, realworld_dir, tmp_path):
    case = realworld_dir / "tiny_kws_ref_model"
    x = np.load(case / "input_0_0.npy")
    raw = tmp_path / "in.raw"
    raw.write_bytes(x.tobytes())
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _run(edgelite_run, str(case / "model.tflite"), "-i", str(raw), "-o", str(tmp_path / "a")).returncode == 0
    assert _run(edgelite_run, str(case / "model.tflite"), "-o", str(tmp_path / "b")).returncode == 0
    assert np.load(tmp_path / "a" / "output_0.npy").tobytes() == _python(case / "model.tflite", [x])[0].tobytes()
    zeros = _python(case / "model.tflite", [np.zeros_like(x)])[0]
    assert np.load(tmp_path / "b" / "output_0.npy").tobytes() == zeros.tobytes()


def test_bad_inputs_fail_with_a_message(edgelite_run, corpus_dir, tmp_path):
    model = corpus_dir / "cnn_int8" / "model.tflite"
    wrong_dtype = tmp_path / "f.npy"
    np.save(wrong_dtype, np.zeros((1, 28, 28, 1), np.float32))
    proc = _run(edgelite_run, str(model), "-i", str(wrong_dtype))
    assert proc.returncode == 1 and "holds FLOAT32 but input 0 is INT8" in proc.stderr
    short = tmp_path / "short.raw"
    short.write_bytes(b"\0" * 10)
    proc = _run(edgelite_run, str(model), "-i", str(short))
    assert proc.returncode == 1 and "must hold exactly 784 bytes" in proc.stderr
    bad_model = tmp_path / "bad.tflite"
    bad_model.write_bytes(b"not a model")
    assert _run(edgelite_run, str(bad_model)).returncode == 1
    assert _run(edgelite_run, str(model), "-n", "0").returncode == 2
    assert _run(edgelite_run).returncode == 2
