"""Generates docs/op_table.md: every builtin op in edgelite's kernel registry, the op versions it
accepts, and the tensor types it runs.

The op list and the version ranges come from the built library's registry
(el_kernels_max_version / el_kernels_lookup). A type column is ticked when a single-op model of
that type, drawn from the differential test generators (tests/kernels_float/_cases.py against
LiteRT; tests/kernels_quant/cases_*.py against LiteRT's reference kernels or TFLite Micro), loads,
allocates and runs on edgelite. Each generated model is classified by the op's tensors:

    int8 / uint8 / int16   the op's first input (or, for QUANTIZE, its output) is a quantized
                           tensor of that type
    hybrid                 float32 activations with int8 quantized constant weights
    f32                    float32 tensors only
    other                  anything else (int32, int64, bool, float16, unquantized int8)

    python docs/gen_op_table.py            # rewrite docs/op_table.md
    python docs/gen_op_table.py --check    # exit 1 when docs/op_table.md is out of date

It needs the built library (EDGELITE_LIBRARY or the binding's default lookup), the binding
(bindings/) and ai-edge-litert's schema module on the import path.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "op_table.md"
NUM_BUILTIN_CODES = 210
COLUMNS = ("f32", "int8", "uint8", "int16", "hybrid")
SEEDS_PER_CASE = 4
# Ops whose data tensor is not their first input: builtin name -> input index.
DATA_INPUT = {"SPLIT": 1, "TRANSPOSE_CONV": 2, "SELECT": 1, "SELECT_V2": 1, "SCATTER_ND": 1, "FILL": 1,
              "ONE_HOT": 2, "EMBEDDING_LOOKUP": 1, "SPARSE_TO_DENSE": 2}

# Cells that need a word of explanation: (op, column) -> footnote marker.
FOOTNOTES = {
    ("SUM", "int8"): 1,
    ("SUM", "int16"): 1,
    ("LOGISTIC", "int8"): 2,
    ("LOGISTIC", "uint8"): 2,
    ("TANH", "int8"): 2,
    ("TANH", "uint8"): 2,
    ("LOGISTIC", "int16"): 3,
    ("TANH", "int16"): 3,
    ("FULLY_CONNECTED", "int8"): 4,
    ("FULLY_CONNECTED", "uint8"): 4,
    ("FULLY_CONNECTED", "int16"): 4,
    ("CONV_2D", "int16"): 5,
    ("DEPTHWISE_CONV_2D", "int16"): 5,
    ("SOFTMAX", "int8"): 6,
    ("SOFTMAX", "int16"): 6,
}

NOTES = """\
Reference semantics: integer kernels reproduce LiteRT 2.3's reference resolver
(`OpResolverType.BUILTIN_REF`, TFLite Micro's reference arithmetic) bit for bit; hybrid kernels
match it within 1e-4 of the largest output magnitude; float kernels within 1e-5.

1. LiteRT 2.3.0's reference SUM reads int8 and int16 inputs as uint8 and clamps to 0..255 (its
   results are wrong); edgelite follows TFLite Micro's reference SUM (requantized mean-style
   sum), and the tests compare these two against TFLite Micro.
2. int8/uint8 LOGISTIC and TANH use the 256-entry lookup table LiteRT builds in Prepare for
   both kernel types (`LUTPopulate`, float math), not TFLite Micro's fixed-point
   `integer_ops::Logistic`/`Tanh`; the two differ by up to 1 LSB.
3. int16 LOGISTIC and TANH interpolate LiteRT's 513-entry `sigmoid_table_uint16` (the table is
   embedded as data: it is not reproducible from a formula).
4. FULLY_CONNECTED int8/uint8/int16 requantizes as LiteRT's reference kernel does:
   `round(acc * (double)s_in * (double)s_w / (double)s_out)` in double precision, which is
   not `MultiplyByQuantizedMultiplier` (they differ by 1 on ties).
5. int16x8 CONV_2D with an int64 bias uses the 64-bit `MultiplyByQuantizedMultiplier` (reduced
   16-bit multiplier); with an int32 bias the 32-bit one, as LiteRT selects by bias type.
   DEPTHWISE_CONV_2D int16 always uses the 64-bit path.
6. int8/uint8 SOFTMAX uses gemmlowp's fixed-point exp and reciprocal (int8 input may also write
   an int16 output); int16 SOFTMAX uses LiteRT's two 513-entry exp / 1/(1+x) tables.

TFLite Micro's own kernels (checked by `tests/kernels_quant/test_quant_ops.py` where its Python
package installs) agree bit for bit except: FULLY_CONNECTED int8/int16 and int16 MUL (1 LSB,
different multiplier rounding), int16 ADD/SUB with power-of-two scales (1 LSB, no dedicated
path), int8 LOGISTIC/TANH (1 LSB, fixed point instead of the LUT), and RELU6 with different
input and output quantization (TFLite Micro clamps without rescaling), and int16 TRANSPOSE_CONV
with an int32 bias (TFLite Micro ignores quantized_bias_type). There edgelite keeps
LiteRT's reference results. TFLite Micro has no uint8 activations or hybrid kernels.
"""


def _setup_paths() -> None:
    for p in (ROOT / "tests", ROOT / "tests" / "kernels_float", ROOT / "tests" / "coverage", ROOT / "bindings",
              ROOT / "sdk"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))


def registry_versions() -> Dict[int, Tuple[int, int]]:
    """builtin code -> (min version, max version) of the loaded library's registry."""
    import cffi

    loader = importlib.import_module("edgelite_runtime._lib")
    ffi = cffi.FFI()
    ffi.cdef("int el_kernels_max_version(int32_t code);"
             "const void* el_kernels_lookup(int32_t code, int version, int tier);")
    lib = ffi.dlopen(loader._library_path())
    out = {}
    for code in range(NUM_BUILTIN_CODES):
        vmax = lib.el_kernels_max_version(code)
        if vmax <= 0:
            continue
        vmin = next(v for v in range(1, vmax + 1) if lib.el_kernels_lookup(code, v, 1) != ffi.NULL)
        out[code] = (vmin, vmax)
    return out


def _generators() -> Iterable[Tuple[str, object]]:
    """(case name, generator(rng) -> case with .model/.inputs) from both test suites."""
    fl = importlib.import_module("_cases")
    for name, (gen, _) in sorted(fl.CASES.items()):
        yield f"float:{name}", gen
    for mod in ("cases_conv", "cases_elementwise", "cases_shape"):
        q = importlib.import_module(f"kernels_quant.{mod}")
        for name, gen in sorted(q.CASES.items()):
            yield f"quant:{name}", gen
    cov = importlib.import_module("cov_cases")
    for name, gen in sorted(cov.CASES.items()):
        yield f"coverage:{name}", gen


_QUANT_TYPES = {"INT8": "int8", "UINT8": "uint8", "INT16": "int16"}
_OTHER_NAMES = {"INT32": "int32", "INT64": "int64", "BOOL": "bool", "FLOAT16": "float16",
                "INT8": "int8 (raw)", "UINT8": "uint8 (raw)", "INT16": "int16 (raw)"}


def classify(model: bytes) -> List[Tuple[int, str]]:
    """[(builtin code, column or 'other:<type>')] for each operator of the model."""
    from ai_edge_litert import schema_py_generated as schema

    type_names = {v: k for k, v in vars(schema.TensorType).items() if not k.startswith("_")}
    op_names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    m = schema.ModelT.InitFromPackedBuf(model, 0)
    g = m.subgraphs[0]
    out = []

    def quantized(i: int) -> bool:
        t = g.tensors[i]
        q = t.quantization
        return (type_names[t.type] in _QUANT_TYPES and q is not None and q.scale is not None
                and len(q.scale) > 0)

    def has_data(i: int) -> bool:
        t = g.tensors[i]
        return bool(t.buffer) and m.buffers[t.buffer].data is not None and len(m.buffers[t.buffer].data) > 0

    for op in g.operators:
        oc = m.operatorCodes[op.opcodeIndex]
        code = max(oc.builtinCode, oc.deprecatedBuiltinCode)
        ins = [i for i in op.inputs if i >= 0] or [i for i in op.outputs if i >= 0]
        if not ins:  # CALL_ONCE: no tensors at all
            out.append((code, "other:none"))
            continue
        data = DATA_INPUT.get(op_names.get(code, ""), 0)
        ins = ins[data:data + 1] + ins[:data] + ins[data + 1:]
        outs = list(op.outputs)
        first = type_names[g.tensors[ins[0]].type]
        if quantized(ins[0]):
            column = _QUANT_TYPES[first]
        elif first == "FLOAT32":
            if any(quantized(i) and has_data(i) for i in ins[1:]):
                column = "hybrid"
            elif outs and quantized(outs[0]):
                column = _QUANT_TYPES[type_names[g.tensors[outs[0]].type]]
            elif all(type_names[g.tensors[i].type] in ("FLOAT32", "INT32", "INT64", "BOOL")
                     for i in ins + outs):
                column = "f32"
            else:
                column = "other:" + _OTHER_NAMES.get(first, first.lower())
        else:
            column = "other:" + _OTHER_NAMES.get(first, first.lower())
        out.append((code, column))
    return out


def _runs(model: bytes, inputs) -> bool:
    import numpy as np
    from edgelite_runtime import Interpreter

    try:
        it = Interpreter(model_content=model)
        it.allocate_tensors()
        for det, value in zip(it.get_input_details(), inputs):
            it.set_tensor(det["index"], np.asarray(value))
        it.invoke()
        return True
    except (ValueError, RuntimeError):
        return False


def probe() -> Tuple[Dict[int, Set[str]], List[str]]:
    """builtin code -> columns with a running model; and the cases that never ran. Each
    generator is drawn with a few seeds (some draw their tensor types at random)."""
    import numpy as np

    support: Dict[int, Set[str]] = {}
    never: List[str] = []
    for name, gen in _generators():
        ran = False
        for seed in range(SEEDS_PER_CASE):
            case = gen(np.random.default_rng(seed))
            if _runs(case.model, case.inputs):
                for code, column in classify(case.model):
                    support.setdefault(code, set()).add(column)
                ran = True
        if not ran:
            never.append(name)
    return support, never


def render(versions: Dict[int, Tuple[int, int]], support: Dict[int, Set[str]]) -> str:
    from ai_edge_litert import schema_py_generated as schema

    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    lines = [
        "# Builtin op table",
        "",
        "Generated by `docs/gen_op_table.py` from the kernel registry and the single-op",
        "differential tests; do not edit by hand (`tests/kernels_quant/test_op_table.py` checks",
        "that it is up to date). ✓ = a generated single-op model of that type runs on edgelite",
        "and is compared against the reference in the tests; · = not supported or not tested.",
        "",
        "| op | code | versions | f32 | int8 | uint8 | int16 | hybrid | other types |",
        "|---|---:|---|:-:|:-:|:-:|:-:|:-:|---|",
    ]
    counts = {c: 0 for c in COLUMNS}
    for code in sorted(versions, key=lambda c: names.get(c, str(c))):
        name = names.get(code, f"code {code}")
        lo, hi = versions[code]
        cols = support.get(code, set())
        cells = []
        for c in COLUMNS:
            if c in cols:
                counts[c] += 1
                mark = FOOTNOTES.get((name, c))
                cells.append(f"✓<sup>{mark}</sup>" if mark else "✓")
            else:
                cells.append("·")
        other = ", ".join(sorted(c[len("other:"):] for c in cols if c.startswith("other:")))
        vr = f"{lo}" if lo == hi else f"{lo}–{hi}"
        lines.append(f"| {name} | {code} | {vr} | " + " | ".join(cells) + f" | {other} |")
    lines += [
        "",
        f"{len(versions)} registered ops; " + ", ".join(f"{counts[c]} {c}" for c in COLUMNS) + ".",
        "",
        "## Notes",
        "",
        NOTES,
    ]
    return "\n".join(lines)


def generate() -> Tuple[str, List[str]]:
    _setup_paths()
    versions = registry_versions()
    support, never = probe()
    return render(versions, support), never


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args(argv)
    text, never = generate()
    for name in never:
        print(f"warning: no generated model of {name} ran on edgelite", file=sys.stderr)
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is out of date: run python docs/gen_op_table.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
