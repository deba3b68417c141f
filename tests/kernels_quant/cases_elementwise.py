"""Generated ADD, SUB, MUL, activation, SOFTMAX, QUANTIZE and DEQUANTIZE cases on quantized
tensors."""
from __future__ import annotations

import numpy as np

from support.tflite_builder import Quant, TensorSpec, options, single_op_model

from .harness import Case
from .qgen import ACTIVATIONS, activation_quant, choice, f32, loguniform, shape, values


def _broadcast_pair(rng):
    """Two shapes that broadcast against each other, and their broadcast shape."""
    rank = int(choice(rng, (1, 2, 3, 4, 4, 4, 5)))
    out = shape(rng, rank, 1, 5)
    a, b = list(out), list(out)
    for i in range(rank):
        r = rng.random()
        if r < 0.2:
            a[i] = 1
        elif r < 0.4:
            b[i] = 1
    if rng.random() < 0.3:
        b = b[int(rng.integers(0, rank)):]
    out = [max(x, y) for x, y in zip(a, [1] * (len(a) - len(b)) + b)]
    return a, b or [1], out


def _pot_quant(rng):
    return Quant(f32(2.0 ** -int(rng.integers(8, 14))), 0)


def binary(op: str, dtype: str, pot: bool = False):
    """ADD/SUB/MUL on `dtype`; `pot`: int16 power-of-two scales (ADD/SUB's shift-only path)."""

    def gen(rng):
        sa, sb, so = _broadcast_pair(rng)
        if pot:
            # TFLite's power-of-two path has no broadcasting
            sa = sb = so
            qa, qb = _pot_quant(rng), _pot_quant(rng)
            qo = Quant(max(qa.scale, qb.scale), 0) if rng.random() < 0.5 else (
                qa if qa.scale >= qb.scale else qb)
            qo = Quant(qo.scale, 0)
        else:
            qa, qb = activation_quant(rng, dtype), activation_quant(rng, dtype)
            x = 19000.0 if dtype == "int16" else 74.0
            spread = x * x * qa.scale * qb.scale if op == "MUL" else x * (qa.scale + qb.scale)
            qo = activation_quant(rng, dtype)
            target = 9000.0 if dtype == "int16" else 45.0
            qo = Quant(f32(spread / target * rng.uniform(0.5, 2.0)), qo.zero_point)
        act = choice(rng, ACTIVATIONS)
        kind = {"ADD": "Add", "SUB": "Sub", "MUL": "Mul"}[op]
        extra = {"pot_scale_int16": pot} if op != "MUL" and dtype == "int16" else {}
        version = {"int8": 2, "uint8": 1, "int16": 5 if op == "MUL" else 4}[dtype]
        if op == "SUB" and dtype == "int16":
            version = 5
        model = single_op_model(
            op, [TensorSpec(sa, dtype, quant=qa), TensorSpec(sb, dtype, quant=qb)],
            [TensorSpec(so, dtype, quant=qo)],
            options=options(kind, fused_activation_function=act, **extra), version=version)
        name = f"{op} {dtype} pot={pot} {sa} {sb} {act} zp={qa.zero_point},{qb.zero_point},{qo.zero_point}"
        return Case(name, model, [values(rng, dtype, sa), values(rng, dtype, sb)])

    return gen


def binary_int16_zero_point(op: str):
    """int16 ADD or SUB, one case in three with a nonzero zero point on one of its tensors:
    LiteRT refuses those for both ops (int16 quantization is symmetric), so edgelite must too."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)))
        zps = [0, 0, 0]
        invalid = rng.random() < 1 / 3
        if invalid:
            zps[int(rng.integers(0, 3))] = int(rng.choice([-1, 1]) * rng.integers(1, 3000))
        qa, qb = Quant(loguniform(rng, 1e-4, 1e-2), zps[0]), Quant(loguniform(rng, 1e-4, 1e-2), zps[1])
        qo = Quant(f32(max(qa.scale, qb.scale) * 2.0), zps[2])
        kind = {"ADD": "Add", "SUB": "Sub"}[op]
        model = single_op_model(
            op, [TensorSpec(s, "int16", quant=qa), TensorSpec(s, "int16", quant=qb)], [TensorSpec(s, "int16", quant=qo)],
            options=options(kind, fused_activation_function="NONE", pot_scale_int16=False),
            version=5 if op == "SUB" else 4)
        name = f"{op} int16 zero points {zps} {s}"
        return Case(name, model, [values(rng, "int16", s), values(rng, "int16", s)], litert_refuses=invalid)

    return gen


def _unary_model(op, in_spec, out_spec, opts=None, version=1):
    return single_op_model(op, [in_spec], [out_spec], options=opts, version=version)


def logistic_tanh(op: str, dtype: str):
    """LOGISTIC or TANH with the output quantization TFLite requires."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 6)
        if dtype == "int16":
            qi = _pot_quant(rng) if rng.random() < 0.4 else Quant(loguniform(rng, 1e-4, 1e-3), 0)
            qo = Quant(1.0 / 32768, 0)
        else:
            qi = Quant(loguniform(rng, 0.01, 0.1), activation_quant(rng, dtype).zero_point)
            if op == "LOGISTIC":
                qo = Quant(1.0 / 256, -128 if dtype == "int8" else 0)
            else:
                qo = Quant(1.0 / 128, 0 if dtype == "int8" else 128)
        version = {"int8": 2, "uint8": 1, "int16": 3}[dtype]
        model = _unary_model(op, TensorSpec(s, dtype, quant=qi), TensorSpec(s, dtype, quant=qo),
                             version=version)
        return Case(f"{op} {dtype} {s} in={qi.scale:.3g},{qi.zero_point}", model,
                    [values(rng, dtype, s)])

    return gen


def simple_unary(op: str, dtype: str):
    """RELU-family and HARD_SWISH with independent input and output quantization."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 6)
        qi = activation_quant(rng, dtype)
        qo = activation_quant(rng, dtype)
        if op in ("RELU6", "RELU_N1_TO_1") or rng.random() < 0.5:
            qo = Quant(f32(qi.scale * rng.uniform(0.5, 2.0)), qo.zero_point)
        version = 1 if op in ("HARD_SWISH", "RELU_N1_TO_1") else {"int8": 2, "uint8": 1, "int16": 3}[dtype]
        model = _unary_model(op, TensorSpec(s, dtype, quant=qi), TensorSpec(s, dtype, quant=qo),
                             version=version)
        return Case(f"{op} {dtype} {s} in={qi.scale:.3g},{qi.zero_point} out={qo.scale:.3g},{qo.zero_point}",
                    model, [values(rng, dtype, s)])

    return gen


def lut_unary(op: str, dtype: str):
    """ELU (int8) and GELU (int8/uint8; exact or tanh-approximate), which LiteRT runs through a
    256-entry table: half of the cases feed every input value once."""

    def gen(rng):
        qi = Quant(loguniform(rng, 0.005, 0.1), activation_quant(rng, dtype).zero_point)
        qo = Quant(f32(qi.scale * rng.uniform(0.3, 2.0)), activation_quant(rng, dtype).zero_point)
        if rng.random() < 0.5:
            s = [2, 128]
            info = np.iinfo(np.dtype(dtype))
            x = np.arange(info.min, info.max + 1).astype(dtype).reshape(s)
        else:
            s = shape(rng, int(rng.integers(1, 5)), 1, 6)
            x = values(rng, dtype, s)
        opts, version, tag = None, 1, ""
        if op == "GELU":
            approximate = bool(rng.random() < 0.5)
            opts, version, tag = options("Gelu", approximate=approximate), 2, f" approximate={approximate}"
        model = _unary_model(op, TensorSpec(s, dtype, quant=qi), TensorSpec(s, dtype, quant=qo),
                             opts, version=version)
        return Case(f"{op} {dtype} {s}{tag} in={qi.scale:.3g},{qi.zero_point} out={qo.scale:.3g},{qo.zero_point}",
                    model, [x])

    return gen


def leaky_relu(dtype: str):
    """LEAKY_RELU with alpha in (0, 1) and independent quantizations."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 6)
        qi, qo = activation_quant(rng, dtype), activation_quant(rng, dtype)
        alpha = f32(rng.uniform(0.01, 0.95))
        model = _unary_model("LEAKY_RELU", TensorSpec(s, dtype, quant=qi),
                             TensorSpec(s, dtype, quant=qo), options("LeakyRelu", alpha=alpha),
                             version=2)
        return Case(f"LEAKY_RELU {dtype} {s} alpha={alpha:.3g}", model, [values(rng, dtype, s)])

    return gen


def prelu(dtype: str):
    """PRELU with a constant alpha broadcast over the leading dimensions."""

    def gen(rng):
        s = shape(rng, 4, 1, 5)
        a_shape = s[int(rng.integers(1, 4)):]
        qi, qo = activation_quant(rng, dtype), activation_quant(rng, dtype)
        qa = Quant(loguniform(rng, 0.002, 0.01), activation_quant(rng, dtype).zero_point)
        model = single_op_model(
            "PRELU",
            [TensorSpec(s, dtype, quant=qi),
             TensorSpec(a_shape, dtype, data=values(rng, dtype, a_shape), quant=qa)],
            [TensorSpec(s, dtype, quant=qo)], version=1)
        return Case(f"PRELU {dtype} {s} alpha{a_shape}", model, [values(rng, dtype, s)])

    return gen


def softmax(dtype: str, out_dtype: str = ""):
    """SOFTMAX with TFLite's fixed output quantization."""
    out_dtype = out_dtype or dtype

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 7)
        beta = 1.0 if rng.random() < 0.5 else f32(rng.uniform(0.3, 2.0))
        if dtype == "int16":
            qi = Quant(loguniform(rng, 2e-4, 2e-3), 0)
        else:
            qi = Quant(loguniform(rng, 0.01, 0.2), activation_quant(rng, dtype).zero_point)
        if out_dtype == "int16":
            qo = Quant(1.0 / 32768, 0 if dtype == "int16" else -32768)
        else:
            qo = Quant(1.0 / 256, -128 if out_dtype == "int8" else 0)
        model = _unary_model("SOFTMAX", TensorSpec(s, dtype, quant=qi),
                             TensorSpec(s, out_dtype, quant=qo), options("Softmax", beta=beta),
                             version=3 if dtype == "int16" else 2)
        return Case(f"SOFTMAX {dtype}->{out_dtype} {s} beta={beta:.3g} in={qi.scale:.3g},{qi.zero_point}",
                    model, [values(rng, dtype, s)])

    return gen


def log_softmax(dtype: str):
    """LOG_SOFTMAX (uint8/int8) with TFLite's fixed output quantization (16/256, top zero point)."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 9)
        qi = Quant(loguniform(rng, 0.005, 0.5), activation_quant(rng, dtype).zero_point)
        qo = Quant(16.0 / 256, 255 if dtype == "uint8" else 127)
        model = _unary_model("LOG_SOFTMAX", TensorSpec(s, dtype, quant=qi), TensorSpec(s, dtype, quant=qo),
                             version=2)
        x = values(rng, dtype, s)
        if rng.random() < 0.3:  # narrow rows: many near-ties, differences near the cut-off
            lo = int(rng.integers(np.iinfo(np.dtype(dtype)).min, np.iinfo(np.dtype(dtype)).max - 8))
            x = rng.integers(lo, lo + 9, size=s).astype(dtype)
        return Case(f"LOG_SOFTMAX {dtype} {s} in={qi.scale:.3g},{qi.zero_point}", model, [x])

    return gen


def quantize(in_dtype: str, out_dtype: str):
    """QUANTIZE: float to integer, or requantization between integer types."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 6)
        qo = activation_quant(rng, out_dtype)
        if in_dtype == "float32":
            info = np.iinfo(np.dtype(out_dtype))
            lo = (info.min - 10 - qo.zero_point) * qo.scale
            hi = (info.max + 10 - qo.zero_point) * qo.scale
            x = rng.uniform(lo, hi, size=s).astype(np.float32)
            # exact half-steps exercise the rounding direction
            halves = ((rng.integers(info.min, info.max, size=s) - qo.zero_point) + 0.5) * qo.scale
            x = np.where(rng.random(s) < 0.3, halves.astype(np.float32), x)
            model = _unary_model("QUANTIZE", TensorSpec(s, np.float32),
                                 TensorSpec(s, out_dtype, quant=qo), version=1)
            return Case(f"QUANTIZE float->{out_dtype} {s}", model, [x])
        qi = activation_quant(rng, in_dtype)
        if rng.random() < 0.3:
            qo = Quant(qi.scale, qo.zero_point)
        model = _unary_model("QUANTIZE", TensorSpec(s, in_dtype, quant=qi),
                             TensorSpec(s, out_dtype, quant=qo), version=2)
        return Case(f"QUANTIZE {in_dtype}->{out_dtype} {s} scale ratio {qi.scale / qo.scale:.3g}",
                    model, [values(rng, in_dtype, s)])

    return gen


def dequantize(dtype: str):
    """DEQUANTIZE of an integer model input to float32 (exact: one rounding of s * (q - zp))."""

    def gen(rng):
        s = shape(rng, int(rng.integers(1, 5)), 1, 6)
        qi = activation_quant(rng, dtype)
        model = _unary_model("DEQUANTIZE", TensorSpec(s, dtype, quant=qi),
                             TensorSpec(s, np.float32), version=2 if dtype != "int16" else 4)
        return Case(f"DEQUANTIZE {dtype} {s}", model, [values(rng, dtype, s)])

    return gen


CASES = {
    **{f"{op} {dt}": binary(op, dt) for op in ("ADD", "SUB", "MUL") for dt in ("int8", "uint8", "int16")},
    "ADD int16 power-of-two": binary("ADD", "int16", pot=True),
    "SUB int16 power-of-two": binary("SUB", "int16", pot=True),
    "ADD int16 zero points": binary_int16_zero_point("ADD"),
    "SUB int16 zero points": binary_int16_zero_point("SUB"),
    **{f"{op} {dt}": logistic_tanh(op, dt) for op in ("LOGISTIC", "TANH") for dt in ("int8", "uint8", "int16")},
    **{f"{op} {dt}": simple_unary(op, dt) for op in ("RELU", "RELU6", "RELU_N1_TO_1", "HARD_SWISH")
       for dt in ("int8", "uint8")},
    "ELU int8": lut_unary("ELU", "int8"),
    "GELU int8": lut_unary("GELU", "int8"),
    "GELU uint8": lut_unary("GELU", "uint8"),
    "RELU int16": simple_unary("RELU", "int16"),
    "RELU6 int16": simple_unary("RELU6", "int16"),
    **{f"LEAKY_RELU {dt}": leaky_relu(dt) for dt in ("int8", "uint8", "int16")},
    **{f"PRELU {dt}": prelu(dt) for dt in ("int8", "uint8")},
    "SOFTMAX int8": softmax("int8"),
    "SOFTMAX uint8": softmax("uint8"),
    "SOFTMAX int16": softmax("int16"),
    "SOFTMAX int8->int16": softmax("int8", "int16"),
    "LOG_SOFTMAX int8": log_softmax("int8"),
    "LOG_SOFTMAX uint8": log_softmax("uint8"),
    **{f"QUANTIZE float->{dt}": quantize("float32", dt) for dt in ("int8", "uint8", "int16")},
    "QUANTIZE int8->int8": quantize("int8", "int8"),
    "QUANTIZE int8->uint8": quantize("int8", "uint8"),
    "QUANTIZE uint8->int8": quantize("uint8", "int8"),
    "QUANTIZE int16->int8": quantize("int16", "int8"),
    "QUANTIZE int16->int16": quantize("int16", "int16"),
    **{f"DEQUANTIZE {dt}": dequantize(dt) for dt in ("int8", "uint8", "int16")},
}
