"""Delegate (a) on real models: same outputs as without it, claimed nodes replaced, partitions as TFLite makes them.

The partitioning reference is LiteRT itself: the same compiled delegate is loaded into LiteRT and
both interpreters' `_get_ops_details()` must list the same nodes (originals plus DELEGATE nodes
with the same input and output tensors).
"""
from __future__ import annotations

import gc

import cffi
import numpy as np
import pytest

CONV_2D, DEPTHWISE_CONV_2D, ADD = 3, 4, 0
CODES = {"CONV_2D": CONV_2D, "DEPTHWISE_CONV_2D": DEPTHWISE_CONV_2D}

_ffi = cffi.FFI()
_ffi.cdef("""
    void claim_delegate_stats(const void* delegate, long* kernels, long* prepares, long* invokes);
    const char* claim_delegate_preview(const void* delegate);
    void claim_delegate_handle_stats(const void* delegate, long* handles, long* copies, long* frees);
""")


def _stats(path, delegate):
    lib = _ffi.dlopen(path)
    k, p, i = _ffi.new("long*"), _ffi.new("long*"), _ffi.new("long*")
    lib.claim_delegate_stats(_ffi.cast("void*", delegate._get_native_delegate_pointer()), k, p, i)
    return {"kernels": k[0], "prepares": p[0], "invokes": i[0]}


def _preview(path, delegate):
    """The partitions PreviewDelegatePartitioning gave the delegate, as 'in ...;out ...|...'."""
    lib = _ffi.dlopen(path)
    return _ffi.string(lib.claim_delegate_preview(_ffi.cast("void*", delegate._get_native_delegate_pointer()))).decode()


def _as_preview(ops):
    """The same text built from the DELEGATE nodes' inputs and outputs."""
    parts = []
    for o in ops:
        if o["op_name"] == "DELEGATE":
            parts.append("in" + "".join(f" {t}" for t in o["inputs"]) + ";out" + "".join(f" {t}" for t in o["outputs"]))
    return "|".join(parts)


def _run(it, x):
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


def _structure(ops):
    return [(o["op_name"], [int(v) for v in o["inputs"]], [int(v) for v in o["outputs"]]) for o in ops]


def _check_against_litert(litert, path, model, codes, ours):
    """Our ops details with the delegate equal LiteRT's with the same delegate."""
    delegate = litert.load_delegate(path, {"allowed_builtin_codes": codes})
    ref = litert.Interpreter(model_content=model, experimental_delegates=[delegate],
                             experimental_op_resolver_type=litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    assert _structure(ours) == _structure(ref._get_ops_details())


@pytest.mark.parametrize("name, codes", [
    ("mobilenet_v2_f32", f"{CONV_2D},{DEPTHWISE_CONV_2D}"),  # many subsets, cut by ADD and others
    ("mobilenet_v2_f32", f"{DEPTHWISE_CONV_2D}"),            # single nodes, never contiguous
    ("cnn_int8", f"{CONV_2D}"),
])
def test_delegated_outputs_equal_undelegated(rt, plugins, litert_optional, corpus_dir, name, codes):
    model = (corpus_dir / name / "model.tflite").read_bytes()
    x = np.load(corpus_dir / name / "input_0.npy")
    plain = rt.Interpreter(model_content=model)
    try:
        expected = _run(plain, x)
    except (RuntimeError, ValueError) as e:
        pytest.skip(f"{name} does not run without a delegate yet: {e}")
    delegate = rt.load_delegate(plugins.claim, {"allowed_builtin_codes": codes})
    it = rt.Interpreter(model_content=model, experimental_delegates=[delegate])
    ops = it._get_ops_details()
    before = plain._get_ops_details()
    original, delegate_nodes = ops[:len(before)], ops[len(before):]
    wanted = {int(c) for c in codes.split(",")}
    assert any(CODES.get(o["op_name"]) in wanted for o in before), "the chosen codes must occur in the model"
    assert delegate_nodes and all(o["op_name"] == "DELEGATE" for o in delegate_nodes)
    assert _structure(original) == _structure(before), "original nodes stay listed unchanged"

    got = _run(it, x)
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)
    stats = _stats(plugins.claim, delegate)
    assert stats == {"kernels": len(delegate_nodes), "prepares": len(delegate_nodes), "invokes": len(delegate_nodes)}
    if litert_optional is not None:
        _check_against_litert(litert_optional, plugins.claim, model, codes, ops)


def test_every_node_claimed_gives_one_kernel(rt, plugins, corpus_dir):
    model = (corpus_dir / "mlp_f32" / "model.tflite").read_bytes()
    x = np.load(corpus_dir / "mlp_f32" / "input_0.npy")
    plain = rt.Interpreter(model_content=model)
    before = plain._get_ops_details()
    codes = {9: "FULLY_CONNECTED", 19: "RELU", 22: "RESHAPE", 25: "SOFTMAX", 28: "TANH", 14: "LOGISTIC"}
    assert {o["op_name"] for o in before} <= set(codes.values())
    delegate = rt.load_delegate(plugins.claim, {"allowed_builtin_codes": ",".join(map(str, codes))})
    it = rt.Interpreter(model_content=model, experimental_delegates=[delegate])
    ops = it._get_ops_details()
    assert [o["op_name"] for o in ops[len(before):]] == ["DELEGATE"]
    consumed = {int(t) for o in before for t in o["inputs"] if t >= 0}
    produced = {int(t) for o in before for t in o["outputs"]}
    assert list(ops[-1]["inputs"]) == sorted(consumed - produced), "model inputs and constants, sorted"
    assert list(ops[-1]["outputs"]) == sorted(int(d["index"]) for d in plain.get_output_details())
    for a, b in zip(_run(it, x), _run(plain, x)):
        np.testing.assert_array_equal(a, b)


@pytest.fixture(scope="module")
def models():
    from . import models as m

    return m


# Each case: ops as (OP, inputs, output), model inputs, outputs, claimed codes, and the partition
# TFLite's greedy rule gives (checked against LiteRT below when it is installed).
PARTITION_CASES = {
    # ADD -> MUL -> ADD on one chain: the MUL cuts the claimed ADDs into two kernels.
    "chain": ([("ADD", ["x", "c:1"], "a"), ("MUL", ["a", "c:2"], "b"), ("ADD", ["b", "c:3"], "y")],
              ["x"], ["y"], f"{ADD}", 2),
    # Independent branches: ADD(x), MUL(x), ADD(x) -- both ADDs are ready at once and share a kernel
    # although the MUL sits between them in the plan.
    "branches": ([("ADD", ["x", "c:1"], "a"), ("MUL", ["x", "c:2"], "b"), ("ADD", ["x", "c:3"], "c"),
                  ("SUB", ["a", "b"], "d"), ("SUB", ["d", "c"], "y")],
                 ["x"], ["y"], f"{ADD}", 1),
    # A claimed node whose input comes from an unclaimed one after it in a branch: two kernels.
    "dependency": ([("ADD", ["x", "c:1"], "a"), ("MUL", ["x", "c:2"], "b"), ("ADD", ["b", "c:3"], "c"),
                    ("SUB", ["a", "c"], "y")],
                   ["x"], ["y"], f"{ADD}", 2),
}


@pytest.mark.parametrize("case", sorted(PARTITION_CASES))
def test_partitioning_of_non_contiguous_claims(rt, plugins, litert_optional, models, case):
    ops, inputs, outputs, codes, kernels = PARTITION_CASES[case]
    model = models.float_graph(ops, inputs, outputs)
    x = np.arange(4, dtype=np.float32).reshape(1, 4) - 1.5
    plain = rt.Interpreter(model_content=model)
    delegate = rt.load_delegate(plugins.claim, {"allowed_builtin_codes": codes, "preview": 1})
    it = rt.Interpreter(model_content=model, experimental_delegates=[delegate])
    details = it._get_ops_details()
    assert [o["op_name"] for o in details[len(ops):]] == ["DELEGATE"] * kernels
    assert _preview(plugins.claim, delegate) == _as_preview(details), "the preview announced these partitions"
    for d in details[len(ops):]:
        assert list(d["inputs"]) == sorted(set(int(v) for v in d["inputs"])), "inputs sorted and unique"
    np.testing.assert_array_equal(_run(it, x)[0], _run(plain, x)[0])
    assert _stats(plugins.claim, delegate)["invokes"] == kernels
    if litert_optional is not None:
        _check_against_litert(litert_optional, plugins.claim, model, codes, details)
        ref = litert_optional.load_delegate(plugins.claim, {"allowed_builtin_codes": codes, "preview": 1})
        litert_optional.Interpreter(model_content=model, experimental_delegates=[ref],
                                    experimental_op_resolver_type=litert_optional.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        assert _preview(plugins.claim, ref) == _preview(plugins.claim, delegate)


def _handle_stats(path, delegate):
    lib = _ffi.dlopen(path)
    h, c, f = _ffi.new("long*"), _ffi.new("long*"), _ffi.new("long*")
    lib.claim_delegate_handle_stats(_ffi.cast("void*", delegate._get_native_delegate_pointer()), h, c, f)
    return {"handles": h[0], "copies": c[0], "frees": f[0]}


def test_buffer_handles_are_read_back_and_freed(rt, plugins, corpus_dir):
    """Delegate outputs left stale in the delegate's buffers: the host copies each back once per
    invoke (before a CPU node reads it, or at the end for model outputs) and frees the handles."""
    model = (corpus_dir / "cnn_f32" / "model.tflite").read_bytes()
    x = np.load(corpus_dir / "cnn_f32" / "input_0.npy")
    plain = rt.Interpreter(model_content=model)
    want = _run(plain, x)[0]
    codes = "3,9,25"  # CONV_2D, FULLY_CONNECTED, SOFTMAX: the model output comes from the delegate
    delegate = rt.load_delegate(plugins.claim, {"allowed_builtin_codes": codes, "buffer_handles": 1})
    it = rt.Interpreter(model_content=model, experimental_delegates=[delegate])
    kernels = [o for o in it._get_ops_details() if o["op_name"] == "DELEGATE"]
    stale_outputs = sum(len(o["outputs"]) for o in kernels)
    out = it.get_output_details()[0]["index"]
    assert any(out in o["outputs"] for o in kernels)
    np.testing.assert_array_equal(_run(it, x)[0], want)
    np.testing.assert_array_equal(it.tensor(out)(), want)  # a view: the data itself was read back
    it.invoke()
    np.testing.assert_array_equal(it.tensor(out)(), want)
    stats = _handle_stats(plugins.claim, delegate)
    assert stats == {"handles": stale_outputs, "copies": 2 * stale_outputs, "frees": 0}
    del it
    gc.collect()
    assert _handle_stats(plugins.claim, delegate)["frees"] == stale_outputs


def test_host_exported_helpers_serve_a_plugin(rt, plugins, corpus_dir):
    """A plugin that leaves TfLiteIntArrayCreate/Free undefined gets libedgelite's at load time and runs."""
    model = (corpus_dir / "mobilenet_v2_f32" / "model.tflite").read_bytes()
    x = np.load(corpus_dir / "mobilenet_v2_f32" / "input_0.npy")
    delegate = rt.load_delegate(plugins.claim_host, {"allowed_builtin_codes": f"{CONV_2D}"})
    it = rt.Interpreter(model_content=model, experimental_delegates=[delegate])
    np.testing.assert_array_equal(_run(it, x)[0], _run(rt.Interpreter(model_content=model), x)[0])
    assert _stats(plugins.claim_host, delegate)["invokes"] > 0


def test_bad_delegate_options_carry_the_plugin_reason(rt, plugins, litert_optional):
    with pytest.raises(ValueError) as ours:
        rt.load_delegate(plugins.claim, {"allowed_builtin_codes": "3,x"})
    expected = f"Failed to load delegate from {plugins.claim}\nclaim delegate: bad allowed_builtin_codes '3,x'"
    assert str(ours.value) == expected
    if litert_optional is not None:
        with pytest.raises(ValueError) as ref:
            litert_optional.load_delegate(plugins.claim, {"allowed_builtin_codes": "3,x"})
        assert str(ref.value) == expected
