"""The optimized tier on whole models: every intermediate tensor of the corpus and MLPerf Tiny
models, at every ISA level of this machine and on two threads, equals the reference tier's
(integer tensors bit for bit, float tensors within 1e-4 of their largest magnitude); and the
model outputs equal LiteRT's BUILTIN_REF outputs recorded next to each model."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from .diffrun import readable_tensors

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FLOAT_TOL = 1e-4

CORPUS = ["cnn_int8", "cnn_uint8io", "mobilenet_v1_int8", "mobilenet_v2_int8", "cnn_f32", "mlp_f32",
          "mobilenet_v1_f32", "mobilenet_v2_f32"]
REALWORLD = ["tiny_vww_96_int8", "tiny_kws_ref_model", "tiny_pretrainedResnet_quant", "tiny_ad01_int8",
             "tiny_str_ww_ref_model", "tiny_toycar_model_ToyCar_quant_fullint", "tflm_hello_world_int8",
             "tflm_person_detect", "tiny_vww_96_float", "tiny_kws_ref_model_float32", "tiny_ad01_fp32"]


def _model(name: str):
    """(model path, inputs, recorded BUILTIN_REF outputs) of a corpus or realworld model."""
    corpus, real = SHARED / "corpus" / name, SHARED / "realworld" / name
    if (corpus / "model.tflite").is_file():
        return corpus / "model.tflite", [np.load(corpus / "input_0.npy")], [np.load(corpus / "expected_ref_0.npy")]
    if (real / "model.tflite").is_file():
        inputs = sorted(real.glob("input_0_*.npy"))
        refs = sorted(real.glob("ref_builtin_ref_0_*.npy")) or sorted(real.glob("ref_tflm_0_*.npy"))
        return real / "model.tflite", [np.load(p) for p in inputs], [np.load(p) for p in refs]
    pytest.skip(f"{name} is not in the shared models at {SHARED}")


def _all_tensors(interpreter_cls, path, inputs, **kwargs):
    """Every readable tensor after one invoke (preserve_all_tensors keeps intermediates)."""
    it = interpreter_cls(model_path=str(path), experimental_preserve_all_tensors=True, **kwargs)
    it.allocate_tensors()
    for det, x in zip(it.get_input_details(), inputs):
        it.set_tensor(det["index"], x)
    it.invoke()
    values = readable_tensors(it)
    outputs = [it.get_tensor(d["index"]) for d in it.get_output_details()]
    return values, outputs


def _compare(ours, ref):
    bad = []
    for index, b in ref.items():
        a = ours[index]
        if np.issubdtype(b.dtype, np.floating):
            scale = float(np.abs(b).max()) if b.size else 0.0
            err = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max()) if b.size else 0.0
            if not err <= FLOAT_TOL * max(scale, 1e-30):
                bad.append(f"tensor {index}: float diff {err:.3g} of max {scale:.3g}")
        elif not np.array_equal(a, b):
            bad.append(f"tensor {index}: {int(np.count_nonzero(a != b))} of {b.size} elements differ")
    return bad


@pytest.mark.filterwarnings("ignore:Warning. .experimental_preserve_all_tensors")
@pytest.mark.parametrize("name", CORPUS + REALWORLD)
def test_every_tensor_matches_reference(name, edgelite_interpreter, isa_levels):
    path, inputs, recorded = _model(name)
    ref, ref_out = _all_tensors(edgelite_interpreter, path, inputs, experimental_kernel_tier="reference")
    assert ref, "no tensor was readable"
    failures = []
    for isa in isa_levels:
        ours, _ = _all_tensors(edgelite_interpreter, path, inputs, experimental_isa=isa)
        failures += [f"[{isa}] {b}" for b in _compare(ours, ref)]
    ours, _ = _all_tensors(edgelite_interpreter, path, inputs, num_threads=2)
    failures += [f"[2 threads] {b}" for b in _compare(ours, ref)]
    assert not failures, "\n".join(failures[:10])
    # The reference tier itself against LiteRT's recorded BUILTIN_REF run.
    for a, b in zip(ref_out, recorded):
        if np.issubdtype(b.dtype, np.floating):
            assert np.abs(a - b).max() <= FLOAT_TOL * max(float(np.abs(b).max()), 1e-30)
        else:
            assert np.array_equal(a, b)
