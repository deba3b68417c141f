"""PAD folded into the VALID CONV_2D / DEPTHWISE_CONV_2D after it (runtime_c/src/pad_fold.h).

Random PAD (and PADV2) -> convolution models run on the reference tier, which runs the PAD, and
on the optimized tier at every ISA level and on two threads, which folds it: integer outputs the
same bits, float within 1e-4 of the largest magnitude. Models the fold must leave alone (the
padded tensor read twice, channel padding, a PADV2 value other than the zero point, hybrid
weights, padding wider than the filter) give the reference's outputs too, with the PAD run."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence

import numpy as np
import pytest

from support.tflite_builder import ModelBuilder, Quant, options

from .diffrun import difference, run
from .opcases import FLOAT_TOL, _act_quant, _bias, _ints, _out_quant, _pick, _weights

CASES_PER_OP = 200


@dataclass
class PadConv:
    name: str
    model: bytes
    inputs: List[np.ndarray]
    float_tol: float
    pad_node: int  # operator index of the PAD


def _padded_conv(rng: np.random.Generator, op: str, dtype: str, *, pads: Optional[np.ndarray] = None,
                 pad_op: str = "PAD", off_zero: bool = False, second_reader: bool = False,
                 hybrid: bool = False, kernel: Optional[Sequence[int]] = None) -> PadConv:
    """X -> PAD(pads) -> op (VALID) -> out; PADV2 pads with the zero point (0.0), or with another
    value when `off_zero`; `second_reader` also makes the padded tensor an output."""
    depthwise = op == "DEPTHWISE_CONV_2D"
    b = int(_pick(rng, (1, 1, 2)))
    kh, kw = int(_pick(rng, (1, 2, 3, 3, 3, 5))), int(_pick(rng, (1, 3, 3, 3)))
    if kernel is not None:
        kh, kw = kernel
    sh, sw = int(_pick(rng, (1, 1, 2, 2))), int(_pick(rng, (1, 1, 2, 2)))
    dh, dw = int(_pick(rng, (1, 1, 1, 2))), int(_pick(rng, (1, 1, 1, 2)))
    ekh, ekw = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    if pads is None:
        pads = np.zeros((4, 2), np.int32)
        pads[1] = rng.integers(0, ekh, size=2)
        pads[2] = rng.integers(0, ekw, size=2)
        if rng.random() < 0.3:  # the MobileNetV2 stride-2 pad
            pads[1], pads[2] = (0, 1), (0, 1)
    h = int(rng.integers(max(1, ekh - pads[1].sum()), 15))
    w = int(rng.integers(max(1, ekw - pads[2].sum()), 15))
    cin = int(_pick(rng, (1, 3, 8, 16, 17, 24, 32, 40, 64)))
    ph, pw, pc = h + int(pads[1].sum()), w + int(pads[2].sum()), cin + int(pads[3].sum())
    oh, ow = (ph - ekh) // sh + 1, (pw - ekw) // sw + 1
    cout = pc if depthwise else int(_pick(rng, (1, 8, 16, 24, 33, 64)))
    act = _pick(rng, ("NONE", "RELU", "RELU6"))
    if depthwise:
        opts = options("DepthwiseConv2D", padding="VALID", stride_w=sw, stride_h=sh, depth_multiplier=1,
                       dilation_w_factor=dw, dilation_h_factor=dh, fused_activation_function=act)
        wshape = [1, kh, kw, cout]
    else:
        opts = options("Conv2D", padding="VALID", stride_w=sw, stride_h=sh, dilation_w_factor=dw,
                       dilation_h_factor=dh, fused_activation_function=act)
        wshape = [cout, kh, kw, pc]
    mb = ModelBuilder()
    g = mb.subgraph("main")
    quantized = dtype != "float32"
    xq = _act_quant(rng, dtype) if quantized else None
    x = g.tensor([b, h, w, cin], dtype, name="x", quant=xq)
    tensors = [x, g.tensor([4, 2], np.int32, name="paddings", data=pads.astype(np.int32))]
    if pad_op == "PADV2":
        zero = xq.zero_point if quantized else 0.0
        pad_value = zero if not off_zero else (-1.5 if not quantized else zero + (1 if zero < 100 else -1))
        tensors.append(g.tensor([1], dtype, name="value", data=np.array([pad_value], dtype), quant=xq))
    y = g.tensor([b, ph, pw, pc], dtype, name="padded", quant=xq)
    pad_node = g.op(pad_op, tensors, [y], version=2 if quantized else 1)
    if quantized or hybrid:
        wdtype = "int8" if hybrid else dtype
        per_channel = wdtype == "int8" and rng.random() < 0.7
        wdata, wq, w_scales = _weights(rng, wdtype, wshape, cout, 3 if depthwise else 0, per_channel)
    if quantized:
        yq = _out_quant(rng, dtype, xq.scale, float(np.exp(np.mean(np.log(w_scales)))),
                        kh * kw * (1 if depthwise else pc))
        weights = g.tensor(wshape, wdata.dtype, name="w", data=wdata, quant=wq)
        bspec = _bias(rng, xq.scale, w_scales)
        bias = g.tensor(bspec.shape, np.int32, name="b", data=bspec.data, quant=bspec.quant)
        out = g.tensor([b, oh, ow, cout], dtype, name="out", quant=yq)
        version = 3 if dtype == "int8" else 2
        xs = _ints(rng, dtype, [b, h, w, cin])
    else:
        if hybrid:
            weights = g.tensor(wshape, np.int8, name="w", data=wdata, quant=wq)
        else:
            weights = g.tensor(wshape, np.float32, name="w", data=rng.standard_normal(wshape).astype(np.float32))
        bias = g.tensor([cout], np.float32, name="b", data=rng.standard_normal(cout).astype(np.float32))
        out = g.tensor([b, oh, ow, cout], np.float32, name="out")
        version = 1
        xs = rng.standard_normal((b, h, w, cin)).astype(np.float32)
    g.op(op, [y, weights, bias], [out], options=opts, version=version)
    g.set_io([x], [out, y] if second_reader else [out])
    name = (f"{pad_op.lower()}->{op.lower()} {dtype}{' hybrid' if hybrid else ''} x{[b, h, w, cin]} "
            f"pads{pads.tolist()} k{kh}x{kw} s{sh},{sw} d{dh},{dw} cout{cout} {act}")
    return PadConv(name, mb.build(), [xs], 0.0 if quantized else FLOAT_TOL, pad_node)


KINDS = [("CONV_2D", "int8"), ("CONV_2D", "uint8"), ("CONV_2D", "float32"),
         ("DEPTHWISE_CONV_2D", "int8"), ("DEPTHWISE_CONV_2D", "uint8"), ("DEPTHWISE_CONV_2D", "float32")]


def _pad_ran(interpreter_cls, case: PadConv, **kwargs) -> bool:
    """Whether the PAD node ran in an invoke (the op profile has a row with invocations for it)."""
    it = interpreter_cls(model_content=case.model, experimental_profile=True, **kwargs)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], case.inputs[0])
    it.invoke()
    return any(r["node_index"] == case.pad_node and r["invocations"] > 0 for r in it.get_profile()["ops"])


@pytest.mark.parametrize("op,dtype", KINDS)
def test_folded_pad_matches_reference(op, dtype, edgelite_interpreter, isa_levels):
    rng = np.random.default_rng([31, sum(op.encode()), sum(dtype.encode())])
    per_kind = CASES_PER_OP // 2 if dtype != "int8" else CASES_PER_OP
    failures: List[str] = []
    for i in range(per_kind):
        case = _padded_conv(rng, op, dtype, pad_op="PADV2" if i % 4 == 3 else "PAD")
        ref = run(edgelite_interpreter, case.model, case.inputs, experimental_kernel_tier="reference")
        for kwargs in [{"experimental_isa": isa} for isa in isa_levels] + [{"num_threads": 2}]:
            why = difference(run(edgelite_interpreter, case.model, case.inputs, **kwargs), ref, case.float_tol)
            if why:
                failures.append(f"[{kwargs}] {case.name}: {why}")
    assert not failures, f"{len(failures)} mismatches, e.g.:\n" + "\n".join(failures[:10])


@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_pad_is_folded_and_its_memory_saved(op, edgelite_interpreter):
    """The optimized tier skips the PAD and plans no memory for the padded tensor."""
    rng = np.random.default_rng(5)
    pads = np.array([[0, 0], [1, 1], [1, 1], [0, 0]])
    case = _padded_conv(rng, op, "int8", pads=pads, kernel=(3, 3))
    assert _pad_ran(edgelite_interpreter, case, experimental_kernel_tier="reference")
    assert not _pad_ran(edgelite_interpreter, case)
    padded = next(d["index"] for d in edgelite_interpreter(model_content=case.model).get_tensor_details()
                  if d["name"] == "padded")
    for tier in ("reference", "optimized"):
        it = edgelite_interpreter(model_content=case.model, experimental_kernel_tier=tier)
        it.allocate_tensors()
        if tier == "reference":
            assert it.get_tensor(padded).size > 0
        else:
            with pytest.raises(ValueError):
                it.get_tensor(padded)  # no memory was planned for it
    # A resize re-plans the fold for the new shape.
    x = case.inputs[0]
    bigger = np.concatenate([x, x], axis=1)
    outs = {}
    for tier in ("reference", "optimized"):
        it = edgelite_interpreter(model_content=case.model, experimental_kernel_tier=tier)
        it.resize_tensor_input(it.get_input_details()[0]["index"], list(bigger.shape))
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], bigger)
        it.invoke()
        outs[tier] = it.get_tensor(it.get_output_details()[0]["index"])
    assert outs["optimized"].shape[1] > case_out_rows(case, edgelite_interpreter)
    assert np.array_equal(outs["optimized"], outs["reference"])


def case_out_rows(case: PadConv, interpreter_cls) -> int:
    """Output rows of the model as written."""
    return int(interpreter_cls(model_content=case.model).get_output_details()[0]["shape"][1])


def _no_fold_cases(rng: np.random.Generator) -> List[PadConv]:
    cases = []
    for op in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        cases.append(_padded_conv(rng, op, "int8", second_reader=True))
        cases.append(_padded_conv(rng, op, "float32", second_reader=True))
        cases.append(_padded_conv(rng, op, "int8", pad_op="PADV2", off_zero=True))
        cases.append(_padded_conv(rng, op, "float32", pad_op="PADV2", off_zero=True))
        cases.append(_padded_conv(rng, op, "int8", pads=np.array([[0, 0], [9, 9], [9, 9], [0, 0]])))
    cases.append(_padded_conv(rng, "CONV_2D", "float32", hybrid=True, pads=np.array([[0, 0], [1, 1], [0, 1], [0, 0]])))
    cases.append(_padded_conv(rng, "CONV_2D", "int8", pads=np.array([[0, 0], [1, 1], [1, 1], [0, 3]])))
    return cases


def test_pads_the_fold_must_leave_alone(edgelite_interpreter):
    """Not foldable: the PAD runs, and the outputs (padded tensor included) equal the reference's."""
    failures = []
    for case in _no_fold_cases(np.random.default_rng(8)):
        if not _pad_ran(edgelite_interpreter, case):
            failures.append(f"{case.name}: PAD folded")
        ref = run(edgelite_interpreter, case.model, case.inputs, experimental_kernel_tier="reference")
        why = difference(run(edgelite_interpreter, case.model, case.inputs), ref, case.float_tol)
        if why:
            failures.append(f"{case.name}: {why}")
    assert not failures, "\n".join(failures)


def test_preserve_all_tensors_keeps_the_padded_tensor(edgelite_interpreter):
    """With experimental_preserve_all_tensors the PAD runs and its output is readable."""
    rng = np.random.default_rng(9)
    case = _padded_conv(rng, "CONV_2D", "int8", pads=np.array([[0, 0], [0, 1], [0, 1], [0, 0]]), kernel=(3, 3))
    with pytest.warns(UserWarning):
        it = edgelite_interpreter(model_content=case.model, experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], case.inputs[0])
    it.invoke()
    padded = next(d for d in it.get_tensor_details() if d["name"] == "padded")
    value = it.get_tensor(padded["index"])
    zp = padded["quantization"][1]
    expected = np.pad(case.inputs[0], [(0, 0), (0, 1), (0, 1), (0, 0)], constant_values=zp)
    assert np.array_equal(value, expected)
