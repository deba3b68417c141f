"""TensorFlow Lite's C API on libedgelite: a C program written only against c_api.h, built with the
flags `python -m edgelite_runtime.config` prints, must give the Python binding's outputs byte for
byte and TFLite's status codes / NULLs on its error paths."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import numpy as np
import pytest

from edgelite_runtime import Interpreter

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "c" / "capi_run.c"
CORPUS_MODELS = ["cnn_dynrange", "cnn_f16", "cnn_f32", "cnn_int8", "cnn_uint8io", "dynbatch_f32", "lstm_f32",
                 "mlp_f32", "mobilenet_v1_f32", "mobilenet_v1_int8", "mobilenet_v2_f32", "mobilenet_v2_int8"]
# MLPerf Tiny (KWS, VWW, IC, AD) and TFLM's micro models, from ../shared/realworld.
REALWORLD_MODELS = ["tiny_kws_ref_model", "tiny_vww_96_int8", "tiny_pretrainedResnet_quant", "tiny_ad01_int8",
                    "tflm_hello_world_int8", "tflm_micro_speech_quantized"]
STATUS_OK, STATUS_ERROR = 0, 1  # kTfLiteOk, kTfLiteError in TFLite 2.16's c_api_types.h


def _config(*flags: str) -> List[str]:
    out = subprocess.run([sys.executable, "-m", "edgelite_runtime.config", *flags], capture_output=True, text=True,
                         env=os.environ.copy(), check=True)
    return out.stdout.split()


def build_program(c_compiler: str, exe: Path, *sources: Path) -> Path:
    """Compiles C sources against the installed headers and links libedgelite, warnings as errors."""
    cmd = [c_compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", *_config("--cflags"), "-o", str(exe),
           *map(str, sources), *_config("--libs")]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return exe


@pytest.fixture(scope="module")
def capi_run(c_compiler, tmp_path_factory) -> Path:
    return build_program(c_compiler, tmp_path_factory.mktemp("capi") / "capi_run", SOURCE)


def test_program_includes_only_the_c_api_header():
    includes = re.findall(r'#include\s+[<"]([^>"]+)[>"]', SOURCE.read_text())
    assert [h for h in includes if "/" in h] == ["tensorflow/lite/c/c_api.h"]


def _run_c(exe: Path, model: Path, out_dir: Path, inputs: List[Path], extra: List[str] = ()) -> str:
    out_dir.mkdir(exist_ok=True)
    proc = subprocess.run([str(exe), "run", str(model), str(out_dir), *extra, *map(str, inputs)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _write_raw(arrays: List[np.ndarray], tmp_path: Path) -> List[Path]:
    paths = []
    for i, a in enumerate(arrays):
        p = tmp_path / f"input_{i}.raw"
        p.write_bytes(np.ascontiguousarray(a).tobytes())
        paths.append(p)
    return paths


def _python_outputs(model: Path, arrays: List[np.ndarray], resize=None) -> Interpreter:
    it = Interpreter(model_path=str(model), num_threads=1)
    if resize is not None:
        it.resize_tensor_input(it.get_input_details()[0]["index"], resize)
    it.allocate_tensors()
    for d, a in zip(it.get_input_details(), arrays):
        it.set_tensor(d["index"], a)
    it.invoke()
    return it


def _details_line(role: str, i: int, d: Dict) -> str:
    scale, zero_point = d["quantization"]
    return (f"{role} {i} name={d['name']} type={np.dtype(d['dtype']).name.upper()} "
            f"bytes={int(np.prod(d['shape'])) * np.dtype(d['dtype']).itemsize} scale={scale:.9g} "
            f"zero_point={zero_point} dims={','.join(str(int(s)) for s in d['shape'])}")


def _check_same(exe: Path, model: Path, arrays: List[np.ndarray], tmp_path: Path, resize=None) -> None:
    extra = ["--resize", ",".join(map(str, resize))] if resize is not None else []
    stdout = _run_c(exe, model, tmp_path / "out", _write_raw(arrays, tmp_path), extra)
    it = _python_outputs(model, arrays, resize)
    lines = stdout.splitlines()
    expected = [_details_line("input", i, d) for i, d in enumerate(it.get_input_details())]
    expected += [_details_line("output", i, d) for i, d in enumerate(it.get_output_details())]
    assert lines == expected
    for i, d in enumerate(it.get_output_details()):
        got = (tmp_path / "out" / f"output_{i}.raw").read_bytes()
        assert got == it.get_tensor(d["index"]).tobytes(), f"output {i} of {model.parent.name} differs"


@pytest.mark.parametrize("name", CORPUS_MODELS)
def test_corpus_outputs_equal_the_python_binding(capi_run, corpus_dir, name, tmp_path):
    _check_same(capi_run, corpus_dir / name / "model.tflite", [np.load(corpus_dir / name / "input_0.npy")], tmp_path)


def test_resize_input_then_allocate(capi_run, corpus_dir, tmp_path):
    batch3 = np.load(corpus_dir / "dynbatch_f32" / "input_0_batch3.npy")
    _check_same(capi_run, corpus_dir / "dynbatch_f32" / "model.tflite", [batch3], tmp_path, resize=list(batch3.shape))


@pytest.mark.parametrize("name", REALWORLD_MODELS)
def test_mlperf_and_micro_models_equal_the_python_binding(capi_run, realworld_dir, name, tmp_path):
    case = realworld_dir / name
    arrays = [np.load(p) for p in sorted(case.glob("input_0_*.npy"), key=lambda p: int(p.stem.split("_")[-1]))]
    _check_same(capi_run, case / "model.tflite", arrays, tmp_path)


def test_signature_runner_equals_the_python_signature_runner(capi_run, corpus_dir, tmp_path):
    model = corpus_dir / "cnn_int8" / "model.tflite"
    x = np.load(corpus_dir / "cnn_int8" / "input_0.npy")
    stdout = _run_c(capi_run, model, tmp_path / "out", _write_raw([x], tmp_path), ["--signature"])
    runner = Interpreter(model_path=str(model), num_threads=1).get_signature_runner("serving_default")
    (in_name,) = runner.get_input_details()
    outputs = runner(**{in_name: x})
    lines = stdout.splitlines()
    assert lines[0] == f"signature key=serving_default inputs=1 outputs={len(outputs)}"
    assert lines[1] == f"signature_input 0 {in_name}"
    out_names = [line.split()[2] for line in lines[2:]]
    assert sorted(out_names) == sorted(outputs)
    for i, out_name in enumerate(out_names):
        assert (tmp_path / "out" / f"output_{i}.raw").read_bytes() == outputs[out_name].tobytes()


def test_error_paths_return_tflite_status_codes(capi_run, corpus_dir):
    proc = subprocess.run([str(capi_run), "errors", str(corpus_dir / "mlp_f32" / "model.tflite")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    got = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    assert got["version"].startswith("2.16.")
    assert got["schema_version"] == "3"
    # TFLite reports a num_threads below -1 and builds the interpreter anyway.
    assert got["bad_threads_created"] == "1 reported=1"
    assert got["delegate_prepared"] == "1"
    for key in ("garbage_model_null", "missing_file_null", "null_model_null", "failing_delegate_null",
                "input_past_end_null",
                "input_negative_null", "output_past_end_null", "signature_key_past_end_null",
                "unknown_signature_null", "unallocated_data_null"):
        assert got[key] == "1", key
    for key in ("resize_bad_index_status", "invoke_before_allocate_status", "copy_from_short_status",
                "copy_from_long_status", "copy_to_wrong_size_status", "invoke_after_resize_status"):
        assert got[key] == str(STATUS_ERROR), key
    for key in ("allocate_status", "copy_from_exact_status", "invoke_status", "delegated_allocate_status",
                "delegated_invoke_status"):
        assert got[key] == str(STATUS_OK), key
    # Failures after creation go to the reporter set in the options, not to stderr.
    assert int(got["reports"]) >= 3
    assert "Could not open" in proc.stderr
    assert got["type_name"] == "INT8"


def test_docs_example_builds_and_prints_the_python_output(c_compiler, corpus_dir, tmp_path):
    exe = tmp_path / "c_api_example"
    source = Path(__file__).resolve().parents[2] / "docs" / "c_api_example.c"
    subprocess.run([c_compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", *_config("--cflags"), str(source),
                    *_config("--libs"), "-o", str(exe)], check=True, capture_output=True, text=True)
    model = corpus_dir / "mlp_f32" / "model.tflite"
    proc = subprocess.run([str(exe), str(model)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    it = Interpreter(model_path=str(model), num_threads=1)
    (d,) = it.get_input_details()
    it.allocate_tensors()
    it.set_tensor(d["index"], np.zeros(d["shape"], d["dtype"]))
    it.invoke()
    want = it.get_tensor(it.get_output_details()[0]["index"]).ravel()
    assert np.array(proc.stdout.split(), np.float32).tobytes() == want.tobytes()


def test_config_prints_directories_and_fails_clearly_without_a_library(tmp_path):
    include, libdir = _config("--includedir", "--libdir")
    assert (Path(include) / "tensorflow" / "lite" / "c" / "c_api_types.h").is_file()
    assert any(Path(libdir).glob("libedgelite*"))
    env = dict(os.environ, EDGELITE_LIBRARY=str(tmp_path / "missing.so"))
    proc = subprocess.run([sys.executable, "-m", "edgelite_runtime.config", "--libs"], capture_output=True,
                          text=True, env=env)
    assert proc.returncode != 0 and "missing.so" in proc.stderr
    assert subprocess.run([sys.executable, "-m", "edgelite_runtime.config"], capture_output=True).returncode == 2
