"""The arena plan on real models: RESHAPE-like outputs share their input's buffer, kernel scratch
lives for one node and is shared between nodes, the reported lower bound is a true bound (no
scratch, no alignment, never above what TFLite Micro needs), and experimental_arena_limit picks
the least-scratch kernels only where the fast ones do not fit, with the same output bits."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from edgelite_runtime.interpreter import Interpreter, OpResolverType

MICRO_SPEECH = "tflm_micro_speech_quantized"
AD01 = "tiny_ad01_int8"
KWS = "tiny_kws_ref_model"


def _model(realworld_dir: Path, case: str) -> Path:
    path = realworld_dir / case / "model.tflite"
    if not path.is_file():
        pytest.skip(f"{case} is not in the realworld set")
    return path


def _interp(realworld_dir: Path, case: str, **options) -> Interpreter:
    it = Interpreter(model_path=str(_model(realworld_dir, case)), num_threads=1, **options)
    it.allocate_tensors()
    return it


def _op(it: Interpreter, name: str) -> dict:
    return next(op for op in it._get_ops_details() if op["op_name"] == name)


def _run_reference_inputs(it: Interpreter, case_dir: Path):
    """Outputs for the case's input sets, each set written before its invoke."""
    meta = json.loads((case_dir / "meta.json").read_text())
    results = []
    for k in range(3):
        for i, d in enumerate(it.get_input_details()):
            it.set_tensor(d["index"], np.load(case_dir / f"input_{k}_{i}.npy"))
        it.invoke()
        results.append([it.get_tensor(d["index"]) for d in it.get_output_details()])
    return meta, results


def test_reshape_output_shares_its_input_buffer(realworld_dir):
    it = _interp(realworld_dir, MICRO_SPEECH)
    reshape = _op(it, "RESHAPE")
    src, dst = int(reshape["inputs"][0]), int(reshape["outputs"][0])
    tensors = it.get_arena_plan()["tensors"]
    assert tensors[dst]["offset"] == tensors[src]["offset"]
    assert tensors[dst]["bytes"] == tensors[src]["bytes"] == 1960


def test_reshape_of_a_graph_input_keeps_the_input_and_the_result(realworld_dir):
    """The shared buffer is only read after the RESHAPE: the input survives invoke, and a second
    invoke without setting it again gives the same output (LiteRT's semantics)."""
    case_dir = realworld_dir / MICRO_SPEECH
    it = _interp(realworld_dir, MICRO_SPEECH)
    x = np.load(case_dir / "input_1_0.npy")
    index = it.get_input_details()[0]["index"]
    out = it.get_output_details()[0]["index"]
    it.set_tensor(index, x)
    it.invoke()
    first = it.get_tensor(out)
    np.testing.assert_array_equal(first, np.load(case_dir / "ref_builtin_ref_1_0.npy"))
    np.testing.assert_array_equal(it.get_tensor(index), x)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(out), first)


def test_scratch_lives_one_node_and_is_shared(realworld_dir):
    it = _interp(realworld_dir, KWS)
    scratch = it.get_arena_plan()["scratch"]
    nodes = {s["node"] for s in scratch}
    assert len(nodes) >= 2
    # Buffers of different nodes never live together, so the plan lays them over each other.
    overlapping = [
        (a, b) for a in scratch for b in scratch
        if a["node"] < b["node"] and a["offset"] < b["offset"] + b["bytes"] and b["offset"] < a["offset"] + a["bytes"]
    ]
    assert overlapping
    assert it.get_arena_info()["planned_bytes"] < sum(s["bytes"] for s in scratch) + sum(
        t["bytes"] for t in it.get_arena_plan()["tensors"].values())


def test_batch_of_one_fully_connected_needs_at_most_one_packed_row(realworld_dir):
    """The VNNI kernels read a batch of one in place (no scratch); the int16 packing of the
    other x86 levels packs one row, padded to a cache line."""
    it = _interp(realworld_dir, MICRO_SPEECH)
    fc = _op(it, "FULLY_CONNECTED")
    depth = int(it.get_tensor_details()[int(fc["inputs"][1])]["shape"][1])
    scratch = [s for s in it.get_arena_plan()["scratch"] if s["node"] == fc["index"]]
    assert sum(s["bytes"] for s in scratch) <= 2 * (depth + 64)


@pytest.mark.parametrize("case", [MICRO_SPEECH, AD01, "tflm_hello_world_int8", "tflm_trained_lstm_int8"])
def test_lower_bound_ignores_kernel_choices(realworld_dir, case):
    default = _interp(realworld_dir, case).get_arena_info()
    fast = _interp(realworld_dir, case, experimental_arena_limit=1 << 40).get_arena_info()
    reference = _interp(realworld_dir, case, experimental_op_resolver_type=OpResolverType.BUILTIN_REF).get_arena_info()
    assert default["lower_bound_bytes"] == fast["lower_bound_bytes"] == reference["lower_bound_bytes"]
    assert default == fast
    for info in (default, reference):
        assert 0 < info["lower_bound_bytes"] <= info["planned_bytes"]


def test_micro_speech_bound_counts_only_tensors_that_must_coexist(realworld_dir):
    """RESHAPE's output is its input's bytes, so the depthwise step holds the 1960-byte input and
    its 4000-byte output; the fully connected step adds a 4-byte output to those."""
    info = _interp(realworld_dir, MICRO_SPEECH).get_arena_info()
    assert info["lower_bound_bytes"] == 1960 + 4000 + 4


def test_arena_limit_picks_small_scratch_only_where_needed(realworld_dir):
    case_dir = realworld_dir / KWS
    free = _interp(realworld_dir, KWS, experimental_reuse_input_memory=True)
    free_info = free.get_arena_info()
    limit = free_info["lower_bound_bytes"]
    capped = _interp(realworld_dir, KWS, experimental_arena_limit=limit, experimental_reuse_input_memory=True)
    info = capped.get_arena_info()
    small = capped.get_arena_plan()["small_scratch_nodes"]
    assert free_info["planned_bytes"] > limit >= info["planned_bytes"]
    assert 0 < len(small) < len(capped._get_ops_details())
    assert free.get_arena_plan()["small_scratch_nodes"] == []
    meta, results = _run_reference_inputs(capped, case_dir)
    for k, outputs in enumerate(results):
        for j, got in enumerate(outputs):
            np.testing.assert_array_equal(got, np.load(case_dir / f"ref_builtin_ref_{k}_{j}.npy"))


def test_arena_limit_below_the_bound_is_refused(realworld_dir):
    bound = _interp(realworld_dir, MICRO_SPEECH).get_arena_info()["lower_bound_bytes"]
    it = Interpreter(model_path=str(_model(realworld_dir, MICRO_SPEECH)), experimental_arena_limit=bound - 1)
    with pytest.raises(RuntimeError, match=r"more than the arena limit of %d bytes" % (bound - 1)):
        it.allocate_tensors()


def test_arena_limit_arguments_are_checked(realworld_dir):
    path = str(_model(realworld_dir, MICRO_SPEECH))
    with pytest.raises(ValueError, match="at least 1 byte"):
        Interpreter(model_path=path, experimental_arena_limit=0)
    with pytest.raises(TypeError, match="int number of bytes"):
        Interpreter(model_path=path, experimental_arena_limit=1.5)


def test_reused_inputs_give_their_memory_back(realworld_dir):
    it = _interp(realworld_dir, AD01, experimental_reuse_input_memory=True)
    plan = it.get_arena_plan()["tensors"]
    x = it.get_input_details()[0]["index"]
    start, end = plan[x]["offset"], plan[x]["offset"] + plan[x]["bytes"]
    assert any(t != x and p["offset"] < end and start < p["offset"] + p["bytes"] for t, p in plan.items())
    kept = _interp(realworld_dir, AD01)
    assert it.get_arena_info()["lower_bound_bytes"] < kept.get_arena_info()["lower_bound_bytes"]


@pytest.mark.parametrize("case", ["tflm_dtln_noise_suppression", "tflm_trained_lstm_int8"])
def test_integer_lstm_without_layer_norm_or_projection_plans_no_scratch(realworld_dir, case):
    """Each cell's gates then depend on that cell alone, so the kernel keeps them in registers
    instead of four gate rows in the arena."""
    it = _interp(realworld_dir, case)
    assert it.get_arena_plan()["scratch"] == []


_TFLM_HEAD = r"""
import sys
from tflite_micro import runtime
it = runtime.Interpreter.from_file(sys.argv[1], arena_size=64 << 20)
it.print_allocations()
"""


@pytest.mark.parametrize("case", [MICRO_SPEECH, AD01, "tflm_hello_world_int8", "tiny_kws_ref_model",
                                  "tflm_trained_lstm_int8"])
def test_bound_and_capped_plan_at_most_tflite_micro(realworld_dir, case):
    """A true lower bound is below what any runtime needs, TFLite Micro's planner included; with
    TFLM's input semantics and its arena as the limit, edgelite's plan fits in it."""
    pytest.importorskip("tflite_micro", reason="tflite-micro is not installed")
    path = _model(realworld_dir, case)
    proc = subprocess.run([sys.executable, "-c", _TFLM_HEAD, str(path)], capture_output=True, text=True,
                          timeout=120)
    head = int(re.search(r"Arena allocation head (\d+) bytes", proc.stderr).group(1))
    it = _interp(realworld_dir, case, experimental_arena_limit=head, experimental_reuse_input_memory=True)
    info = it.get_arena_info()
    assert info["lower_bound_bytes"] <= info["planned_bytes"] <= head


@pytest.mark.parametrize("case", [MICRO_SPEECH, "tflm_keyword_scrambled", "tflm_keyword_scrambled_8bit",
                                  "tflm_trained_lstm", "tflm_trained_lstm_int8",
                                  "tflm_xtensa_micro_speech_lstm", "tflm_seanet_conv0", "tflm_seanet_conv10",
                                  "tflm_dtln_noise_suppression", "tflm_audio_preprocessor_int8",
                                  "tflm_audio_preprocessor_float"])
def test_default_plan_at_most_tflite_micro(realworld_dir, case):
    """At default settings (inputs kept for a second invoke, fastest kernels) these models fit in
    TFLite Micro's arena: their fast kernels need no scratch beyond what TFLM's do."""
    pytest.importorskip("tflite_micro", reason="tflite-micro is not installed")
    path = _model(realworld_dir, case)
    proc = subprocess.run([sys.executable, "-c", _TFLM_HEAD, str(path)], capture_output=True, text=True,
                          timeout=120)
    head = int(re.search(r"Arena allocation head (\d+) bytes", proc.stderr).group(1))
    assert _interp(realworld_dir, case).get_arena_info()["planned_bytes"] <= head
